// Asynchronous calls (grt_runtime_session_call_async): several queued at
// once, ordered by their fences and run when their wait fences are reached;
// outputs valid when the signal fence is; failures and cancellation carried
// by the signal fence; the errors returned at once. On local-sync and
// local-task.
#include "runtime/session.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compiler/driver/driver.h"
#include "hal/semaphore.h"
#include "vm/test_support.h"

// @step(x) counts its calls in a global and returns x * 10 + the count, so
// the results show the order the calls ran in; it fails for x < 0. @stall
// yields twice before returning x (sessions resume yielding functions).
static const char kSource[] =
    "vm.module @m {\n"
    "  vm.global.i32 private mutable @count = 0 : i32\n"
    "  vm.export @step\n"
    "  vm.func @step(%x : i32) -> i32 {\n"
    "    %c0 = vm.const.i32 0\n"
    "    %c1 = vm.const.i32 1\n"
    "    %c10 = vm.const.i32 10\n"
    "    %negative = vm.cmp.lt.i32.s %x, %c0 : i32\n"
    "    %code = vm.const.i32 3\n"
    "    vm.cond_fail %negative, %code, \"step of a negative number\"\n"
    "    %n = vm.global.load.i32 @count : i32\n"
    "    %n1 = vm.add.i32 %n, %c1 : i32\n"
    "    vm.global.store.i32 %n1, @count : i32\n"
    "    %t = vm.mul.i32 %x, %c10 : i32\n"
    "    %r = vm.add.i32 %t, %n1 : i32\n"
    "    vm.return %r : i32\n"
    "  }\n"
    "  vm.export @stall\n"
    "  vm.func @stall(%x : i32) -> i32 {\n"
    "    vm.yield ^a\n"
    "  ^a:\n"
    "    vm.yield ^b\n"
    "  ^b:\n"
    "    vm.return %x : i32\n"
    "  }\n"
    "}\n";

typedef struct fixture_t {
  void* module_data;
  grt_runtime_instance_t* instance;
  grt_hal_device_t* device;
  grt_runtime_session_t* session;
  grt_hal_semaphore_t* timeline;  // host semaphore the fences use
  grt_vm_function_t step;
  grt_vm_function_t stall;
} fixture_t;

static int setup_on(void** state, const char* device_uri) {
  fixture_t* f = calloc(1, sizeof(*f));
  assert_non_null(f);
  grt_allocator_t allocator = grt_allocator_system();
  grt_module_writer_t* writer = NULL;
  GRT_EXPECT_OK(grt_module_writer_create(allocator, &writer));
  grtc_compile_options_t options = {0};
  GRT_EXPECT_OK(grtc_compile_source(kSource, strlen(kSource), "m.mlir", &options,
                                    allocator, writer));
  size_t size = 0;
  GRT_EXPECT_OK(grt_module_writer_finish(writer, &f->module_data, &size));
  grt_module_writer_destroy(writer);
  GRT_EXPECT_OK(grt_runtime_instance_create(NULL, &f->instance));
  GRT_EXPECT_OK(
      grt_runtime_instance_create_device(f->instance, device_uri, NULL, &f->device));
  GRT_EXPECT_OK(grt_runtime_session_create(f->instance, f->device, &f->session));
  GRT_EXPECT_OK(grt_runtime_session_append_module_from_memory(
      f->session, grt_make_const_byte_span(f->module_data, size)));
  GRT_EXPECT_OK(grt_runtime_session_lookup_function(f->session, "m.step", &f->step));
  GRT_EXPECT_OK(grt_runtime_session_lookup_function(f->session, "m.stall", &f->stall));
  GRT_EXPECT_OK(grt_hal_host_semaphore_create(0, allocator, &f->timeline));
  *state = f;
  return 0;
}

static int setup_local_sync(void** state) { return setup_on(state, "local-sync"); }
static int setup_local_task(void** state) { return setup_on(state, "local-task"); }

static int teardown(void** state) {
  fixture_t* f = *state;
  if (f->session) grt_runtime_session_release(f->session);
  grt_hal_semaphore_release(f->timeline);
  grt_hal_device_release(f->device);
  grt_runtime_instance_release(f->instance);
  grt_allocator_free(grt_allocator_system(), f->module_data);
  free(f);
  return 0;
}

static grt_hal_fence_t* fence_at(fixture_t* f, uint64_t value) {
  grt_hal_fence_t* fence = NULL;
  GRT_EXPECT_OK(grt_hal_fence_create_at(f->timeline, value, grt_allocator_system(),
                                        &fence));
  return fence;
}

static grt_vm_list_t* list_of_i32(int32_t value) {
  grt_vm_list_t* list = NULL;
  GRT_EXPECT_OK(grt_vm_list_create(grt_vm_type_def_variant(), 1, grt_allocator_system(),
                                   &list));
  grt_vm_variant_t v = grt_vm_variant_i32(value);
  GRT_EXPECT_OK(grt_vm_list_push_variant(list, &v));
  return list;
}

static grt_vm_list_t* empty_list(void) {
  grt_vm_list_t* list = NULL;
  GRT_EXPECT_OK(grt_vm_list_create(grt_vm_type_def_variant(), 1, grt_allocator_system(),
                                   &list));
  return list;
}

static bool reached(grt_hal_fence_t* fence) {
  bool done = false;
  GRT_EXPECT_OK(grt_hal_fence_query(fence, &done));
  return done;
}

// Three calls queued at once, each waiting for the one before (timeline
// values 1 -> 2 -> 3 -> 4, the first gated on value 1 that the test signals
// last): none runs before the gate opens, all run in order after.
static void test_calls_in_flight_run_in_fence_order(void** state) {
  fixture_t* f = *state;
  enum { kCalls = 3 };
  grt_vm_list_t* inputs[kCalls];
  grt_vm_list_t* outputs[kCalls];
  grt_hal_fence_t* waits[kCalls];
  grt_hal_fence_t* signals[kCalls];
  for (int i = 0; i < kCalls; ++i) {
    inputs[i] = list_of_i32(i + 1);
    outputs[i] = empty_list();
    waits[i] = fence_at(f, (uint64_t)i + 1);
    signals[i] = fence_at(f, (uint64_t)i + 2);
    GRT_EXPECT_OK(grt_runtime_session_call_async(f->session, &f->step, inputs[i],
                                                 waits[i], signals[i], outputs[i]));
  }
  // Queued, not run: the gate (value 1) is closed.
  for (int i = 0; i < kCalls; ++i) {
    assert_false(reached(signals[i]));
    assert_int_equal(grt_vm_list_size(outputs[i]), 0);
  }
  GRT_EXPECT_OK(grt_hal_semaphore_signal(f->timeline, 1));
  GRT_EXPECT_OK(grt_hal_fence_wait(signals[kCalls - 1], GRT_DURATION_INFINITE));
  for (int i = 0; i < kCalls; ++i) {
    assert_true(reached(signals[i]));
    int32_t result = 0;
    GRT_EXPECT_OK(grt_vm_list_get_i32(outputs[i], 0, &result));
    assert_int_equal(result, (i + 1) * 10 + (i + 1));  // the i-th call ran i-th
    grt_vm_list_release(inputs[i]);
    grt_vm_list_release(outputs[i]);
    grt_hal_fence_release(waits[i]);
    grt_hal_fence_release(signals[i]);
  }
}

// Without a wait fence a call runs when its turn comes; a yielding function
// is resumed to its end.
static void test_call_without_wait_fence(void** state) {
  fixture_t* f = *state;
  grt_vm_list_t* inputs = list_of_i32(42);
  grt_vm_list_t* outputs = empty_list();
  grt_hal_fence_t* done = fence_at(f, 1);
  GRT_EXPECT_OK(
      grt_runtime_session_call_async(f->session, &f->stall, inputs, NULL, done, outputs));
  GRT_EXPECT_OK(grt_hal_fence_wait(done, GRT_DURATION_INFINITE));
  int32_t result = 0;
  GRT_EXPECT_OK(grt_vm_list_get_i32(outputs, 0, &result));
  assert_int_equal(result, 42);
  grt_hal_fence_release(done);
  grt_vm_list_release(inputs);
  grt_vm_list_release(outputs);
}

// A failing call fails its signal fence with the cause; a call waiting on
// that fence fails too, saying it was the wait.
static void test_failure_reaches_the_fence(void** state) {
  fixture_t* f = *state;
  grt_vm_list_t* bad = list_of_i32(-1);
  grt_vm_list_t* good = list_of_i32(1);
  grt_vm_list_t* outputs[2] = {empty_list(), empty_list()};
  grt_hal_semaphore_t* second = NULL;
  GRT_EXPECT_OK(grt_hal_host_semaphore_create(0, grt_allocator_system(), &second));
  grt_hal_fence_t* first_done = fence_at(f, 1);
  grt_hal_fence_t* second_done = NULL;
  GRT_EXPECT_OK(
      grt_hal_fence_create_at(second, 1, grt_allocator_system(), &second_done));
  GRT_EXPECT_OK(grt_runtime_session_call_async(f->session, &f->step, bad, NULL,
                                               first_done, outputs[0]));
  GRT_EXPECT_OK(grt_runtime_session_call_async(f->session, &f->step, good, first_done,
                                               second_done, outputs[1]));
  grt_expect_error(grt_hal_fence_wait(first_done, GRT_DURATION_INFINITE),
                   GRT_STATUS_INVALID_ARGUMENT, "step of a negative number");
  grt_status_t status = grt_hal_fence_wait(second_done, GRT_DURATION_INFINITE);
  assert_int_equal(grt_status_code(status), GRT_STATUS_INVALID_ARGUMENT);
  grt_status_free(status);
  assert_int_equal(grt_vm_list_size(outputs[0]), 0);
  assert_int_equal(grt_vm_list_size(outputs[1]), 0);
  // The session still runs calls afterwards (on a fresh semaphore: a failed
  // one stays failed).
  grt_hal_semaphore_t* third = NULL;
  GRT_EXPECT_OK(grt_hal_host_semaphore_create(0, grt_allocator_system(), &third));
  grt_hal_fence_t* later = NULL;
  GRT_EXPECT_OK(grt_hal_fence_create_at(third, 1, grt_allocator_system(), &later));
  GRT_EXPECT_OK(grt_runtime_session_call_async(f->session, &f->step, good, NULL, later,
                                               outputs[1]));
  GRT_EXPECT_OK(grt_hal_fence_wait(later, GRT_DURATION_INFINITE));
  assert_int_equal(grt_vm_list_size(outputs[1]), 1);
  grt_hal_fence_release(later);
  grt_hal_semaphore_release(third);
  grt_hal_fence_release(first_done);
  grt_hal_fence_release(second_done);
  grt_hal_semaphore_release(second);
  grt_vm_list_release(bad);
  grt_vm_list_release(good);
  grt_vm_list_release(outputs[0]);
  grt_vm_list_release(outputs[1]);
}

// The message of a failed wait fence, as the waiting call reports it.
static void test_failed_wait_fence_is_the_cause(void** state) {
  fixture_t* f = *state;
  grt_vm_list_t* inputs = list_of_i32(1);
  grt_vm_list_t* outputs = empty_list();
  grt_hal_semaphore_t* gate = NULL;
  GRT_EXPECT_OK(grt_hal_host_semaphore_create(0, grt_allocator_system(), &gate));
  grt_hal_fence_t* wait = NULL;
  GRT_EXPECT_OK(grt_hal_fence_create_at(gate, 1, grt_allocator_system(), &wait));
  grt_hal_fence_t* done = fence_at(f, 1);
  GRT_EXPECT_OK(
      grt_runtime_session_call_async(f->session, &f->step, inputs, wait, done, outputs));
  grt_hal_semaphore_fail(gate, grt_make_status(GRT_STATUS_DATA_LOSS, "upstream broke"));
  grt_expect_error(grt_hal_fence_wait(done, GRT_DURATION_INFINITE), GRT_STATUS_DATA_LOSS,
                   "upstream broke; waiting for the wait fence of the asynchronous call "
                   "to 'm.step'");
  grt_hal_fence_release(wait);
  grt_hal_fence_release(done);
  grt_hal_semaphore_release(gate);
  grt_vm_list_release(inputs);
  grt_vm_list_release(outputs);
}

// Releasing the session cancels what has not run: the call waiting on a
// fence nothing signals, and the one queued behind it.
static void test_release_cancels_pending_calls(void** state) {
  fixture_t* f = *state;
  grt_vm_list_t* inputs = list_of_i32(1);
  grt_vm_list_t* outputs[2] = {empty_list(), empty_list()};
  grt_hal_fence_t* never = fence_at(f, 100);
  grt_hal_semaphore_t* other = NULL;
  GRT_EXPECT_OK(grt_hal_host_semaphore_create(0, grt_allocator_system(), &other));
  grt_hal_fence_t* done[2] = {fence_at(f, 101), NULL};
  GRT_EXPECT_OK(grt_hal_fence_create_at(other, 1, grt_allocator_system(), &done[1]));
  GRT_EXPECT_OK(grt_runtime_session_call_async(f->session, &f->step, inputs, never,
                                               done[0], outputs[0]));
  GRT_EXPECT_OK(grt_runtime_session_call_async(f->session, &f->step, inputs, NULL,
                                               done[1], outputs[1]));
  grt_runtime_session_release(f->session);
  f->session = NULL;
  for (int i = 0; i < 2; ++i) {
    grt_expect_error(grt_hal_fence_wait(done[i], GRT_DURATION_INFINITE),
                     GRT_STATUS_CANCELLED, "the session was released");
    assert_int_equal(grt_vm_list_size(outputs[i]), 0);
    grt_hal_fence_release(done[i]);
    grt_vm_list_release(outputs[i]);
  }
  grt_hal_fence_release(never);
  grt_hal_semaphore_release(other);
  grt_vm_list_release(inputs);
}

static void test_errors_returned_at_once(void** state) {
  fixture_t* f = *state;
  grt_vm_list_t* inputs = list_of_i32(1);
  grt_vm_list_t* outputs = empty_list();
  grt_expect_error(
      grt_runtime_session_call_async(f->session, &f->step, inputs, NULL, NULL, outputs),
      GRT_STATUS_INVALID_ARGUMENT,
      "asynchronous call to 'm.step': expected a signal fence (the only way to learn "
      "the call ended), got NULL");
  grt_hal_fence_t* done = fence_at(f, 1);
  grt_expect_error(
      grt_runtime_session_call_async(f->session, &f->step, inputs, NULL, done, NULL),
      GRT_STATUS_INVALID_ARGUMENT,
      "asynchronous call to 'm.step': it returns 1 values but no output list was given");
  // Argument errors are the call's: they reach the fence.
  grt_vm_list_t* none = empty_list();
  GRT_EXPECT_OK(
      grt_runtime_session_call_async(f->session, &f->step, none, NULL, done, outputs));
  grt_expect_error(grt_hal_fence_wait(done, GRT_DURATION_INFINITE),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "step: argument 0 (i32) is missing: 0 given; in the asynchronous "
                   "call to 'm.step'");
  grt_hal_fence_release(done);
  grt_vm_list_release(none);
  grt_vm_list_release(inputs);
  grt_vm_list_release(outputs);
}

#define ON_BOTH(test)                                                        \
  cmocka_unit_test_setup_teardown(test, setup_local_sync, teardown),         \
      cmocka_unit_test_setup_teardown(test, setup_local_task, teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      ON_BOTH(test_calls_in_flight_run_in_fence_order),
      ON_BOTH(test_call_without_wait_fence),
      ON_BOTH(test_failure_reaches_the_fence),
      ON_BOTH(test_failed_wait_fence_is_the_cause),
      ON_BOTH(test_release_cancels_pending_calls),
      ON_BOTH(test_errors_returned_at_once),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
