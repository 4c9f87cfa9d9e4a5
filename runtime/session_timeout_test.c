// Call timeouts (grt_runtime_session_set_call_timeout): a fence that is
// never signalled (e.g. a flipped fence operand) makes hal.fence.await(-1)
// wait forever; with a timeout the call ends at it with DEADLINE_EXCEEDED
// naming the timeout. An await's own shorter timeout still returns 0, and
// calls without a timeout are unchanged.
#include "runtime/session.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/time.h"
#include "compiler/driver/driver.h"
#include "vm/test_support.h"

static const char kSource[] =
    "vm.module @hang {\n"
    "  vm.import private @hal.devices.get(%index : i32) -> !hal.device\n"
    "  vm.import private @hal.fence.create(%device : !hal.device) -> "
    "!hal.fence\n"
    "  vm.import private @hal.fence.signal(%fence : !hal.fence)\n"
    "  vm.import private @hal.fence.await(%timeout_ms : i32, %fences : "
    "!hal.fence ...) -> i32\n"
    // Waits |timeout_ms| on a fence nobody signals; |signal| != 0 signals it
    // first.
    "  vm.func @wait(%timeout_ms : i32, %signal : i32) -> i32 {\n"
    "    %c0 = vm.const.i32.zero\n"
    "    %device = vm.call @hal.devices.get(%c0) : (i32) -> !hal.device\n"
    "    %fence = vm.call @hal.fence.create(%device) : (!hal.device) -> "
    "!hal.fence\n"
    "    vm.cond_br %signal, ^signal, ^await\n"
    "  ^signal:\n"
    "    vm.call @hal.fence.signal(%fence) : (!hal.fence) -> ()\n"
    "    vm.br ^await\n"
    "  ^await:\n"
    "    %r = vm.call.variadic @hal.fence.await(%timeout_ms, [%fence]) : "
    "(i32, !hal.fence ...) -> i32\n"
    "    vm.return %r : i32\n"
    "  }\n"
    "  vm.export @wait\n"
    "}\n";

static grt_runtime_instance_t* instance;
static grt_hal_device_t* device;
static grt_runtime_session_t* session;
static void* module_data;

static int setup(void** state) {
  (void)state;
  grt_allocator_t allocator = grt_allocator_system();
  grt_module_writer_t* writer = NULL;
  GRT_EXPECT_OK(grt_module_writer_create(allocator, &writer));
  grtc_compile_options_t options = {0};
  GRT_EXPECT_OK(grtc_compile_source(kSource, strlen(kSource), "hang.mlir",
                                    &options, allocator, writer));
  size_t size = 0;
  GRT_EXPECT_OK(grt_module_writer_finish(writer, &module_data, &size));
  grt_module_writer_destroy(writer);
  GRT_EXPECT_OK(grt_runtime_instance_create(NULL, &instance));
  GRT_EXPECT_OK(grt_runtime_instance_create_device(instance, "local-task",
                                                   NULL, &device));
  GRT_EXPECT_OK(grt_runtime_session_create(instance, device, &session));
  GRT_EXPECT_OK(grt_runtime_session_append_module_from_memory(
      session, grt_make_const_byte_span(module_data, size)));
  return 0;
}

static int teardown(void** state) {
  (void)state;
  grt_runtime_session_release(session);
  grt_hal_device_release(device);
  grt_runtime_instance_release(instance);
  grt_allocator_free(grt_allocator_system(), module_data);
  return 0;
}

// hang.wait(timeout_ms, signal); stores the result on success.
static grt_status_t call_wait(int32_t timeout_ms, int32_t signal,
                              int32_t* out_result) {
  grt_allocator_t allocator = grt_allocator_system();
  grt_vm_list_t* inputs = NULL;
  grt_vm_list_t* outputs = NULL;
  GRT_EXPECT_OK(
      grt_vm_list_create(grt_vm_type_def_variant(), 2, allocator, &inputs));
  GRT_EXPECT_OK(
      grt_vm_list_create(grt_vm_type_def_variant(), 1, allocator, &outputs));
  grt_vm_variant_t value = grt_vm_variant_i32(timeout_ms);
  GRT_EXPECT_OK(grt_vm_list_push_variant(inputs, &value));
  value = grt_vm_variant_i32(signal);
  GRT_EXPECT_OK(grt_vm_list_push_variant(inputs, &value));
  grt_status_t status = grt_runtime_call(session, "hang.wait", inputs, outputs);
  if (grt_status_is_ok(status)) {
    GRT_EXPECT_OK(grt_vm_list_get_i32(outputs, 0, out_result));
  }
  grt_vm_list_release(outputs);
  grt_vm_list_release(inputs);
  return status;
}

static void test_await_forever_ends_at_call_timeout(void** state) {
  (void)state;
  GRT_EXPECT_OK(grt_runtime_session_set_call_timeout(session, 100000000));
  int32_t result = -1;
  grt_time_t start = grt_time_now_ns();
  grt_status_t status = call_wait(-1, 0, &result);
  grt_duration_t took = grt_time_now_ns() - start;
  grt_expect_error(status, GRT_STATUS_DEADLINE_EXCEEDED,
                   "hal.fence.await: the call's timeout of 100 ms ran out "
                   "while waiting on 1 fence (fence.await timeout -1 ms: "
                   "forever)");
  assert_true(took >= 100000000);
  // The session is usable afterwards: a signalled fence is reached at once.
  GRT_EXPECT_OK(call_wait(-1, 1, &result));
  assert_int_equal(result, 1);
}

static void test_shorter_await_timeout_still_returns_zero(void** state) {
  (void)state;
  GRT_EXPECT_OK(grt_runtime_session_set_call_timeout(session, 10000000000));
  int32_t result = -1;
  GRT_EXPECT_OK(call_wait(20, 0, &result));
  assert_int_equal(result, 0);
  // A longer await timeout than the call's: the call's wins, and fails.
  GRT_EXPECT_OK(grt_runtime_session_set_call_timeout(session, 50000000));
  grt_expect_error(call_wait(60000, 0, &result),
                   GRT_STATUS_DEADLINE_EXCEEDED,
                   "the call's timeout of 50 ms ran out while waiting on 1 "
                   "fence (fence.await timeout 60000 ms)");
}

static void test_no_timeout_is_unbounded_and_bad_timeouts_refused(
    void** state) {
  (void)state;
  GRT_EXPECT_OK(
      grt_runtime_session_set_call_timeout(session, GRT_DURATION_INFINITE));
  int32_t result = -1;
  GRT_EXPECT_OK(call_wait(30, 0, &result));  // its own timeout only
  assert_int_equal(result, 0);
  grt_expect_error(grt_runtime_session_set_call_timeout(session, 0),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "call timeout must be positive (or GRT_DURATION_INFINITE "
                   "for none), got 0 ns");
  grt_expect_error(grt_runtime_session_set_call_timeout(session, -5),
                   GRT_STATUS_INVALID_ARGUMENT, "got -5 ns");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_await_forever_ends_at_call_timeout),
      cmocka_unit_test(test_shorter_await_timeout_still_returns_zero),
      cmocka_unit_test(test_no_timeout_is_unbounded_and_bad_timeouts_refused),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
