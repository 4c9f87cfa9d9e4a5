// Threads and sessions (docs/runtime.md, "Threads"): an instance, a device
// and an opened module file shared by threads that each run their own
// session, concurrently (clean under ThreadSanitizer: the concurrency tree
// of `make test` runs this test with -fsanitize=thread); and one session
// shared by two threads, where a call made while another thread is inside
// the session fails with FAILED_PRECONDITION and nothing crashes.
//
//   runtime_concurrency_test CONC.vmfb   (tests/runtime/concurrency.mlir)
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hal/transfer.h"
#include "runtime/session.h"
#include "vm/native_module.h"
#include "vm/test_support.h"

#define ELEMENT_COUNT 256
#define THREAD_COUNT 4
#define CALLS_PER_THREAD 8

static const char* module_path;

static const char kBusyMessage[] =
    "session is already running a call on another thread; use one session "
    "per thread";

typedef struct shared_t {
  grt_runtime_instance_t* instance;
  grt_hal_device_t* device;
  grt_module_file_t* file;
} shared_t;

static void shared_open(shared_t* shared, const char* device_uri) {
  GRT_EXPECT_OK(grt_runtime_instance_create(NULL, &shared->instance));
  GRT_EXPECT_OK(grt_runtime_instance_create_device(shared->instance, device_uri,
                                                   NULL, &shared->device));
  GRT_EXPECT_OK(grt_module_file_open_path(module_path, grt_allocator_system(),
                                          &shared->file));
}

static void shared_close(shared_t* shared) {
  grt_module_file_release(shared->file);
  grt_hal_device_release(shared->device);
  grt_runtime_instance_release(shared->instance);
}

// conc.main(a, b) = a * b + a with a = base + i, b = 2; checks the result.
// Returns the call's status (its output already checked when OK).
static grt_status_t call_main(grt_runtime_session_t* session,
                              grt_hal_device_t* device, float base) {
  float a[ELEMENT_COUNT], b[ELEMENT_COUNT], result[ELEMENT_COUNT];
  for (int i = 0; i < ELEMENT_COUNT; ++i) {
    a[i] = base + (float)i;
    b[i] = 2.0f;
  }
  const grt_hal_dim_t shape[1] = {ELEMENT_COUNT};
  grt_hal_buffer_view_t* inputs[2] = {NULL, NULL};
  GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
      device, shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, a, sizeof(a),
      &inputs[0]));
  GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
      device, shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, b, sizeof(b),
      &inputs[1]));
  grt_hal_buffer_view_t* output = NULL;
  size_t output_count = 0;
  grt_status_t status = grt_runtime_call_buffer_views(
      session, "conc.main", 2, inputs, 1, &output, &output_count);
  if (grt_status_is_ok(status)) {
    assert_int_equal(output_count, 1);
    GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(device, output, result,
                                                   sizeof(result)));
    for (int i = 0; i < ELEMENT_COUNT; ++i) {
      if (result[i] != a[i] * 3.0f) {
        fail_msg("element %d: expected %g, got %g", i, (double)(a[i] * 3.0f),
                 (double)result[i]);
      }
    }
    grt_hal_buffer_view_release(output);
  }
  grt_hal_buffer_view_release(inputs[1]);
  grt_hal_buffer_view_release(inputs[0]);
  return status;
}

//===----------------------------------------------------------------------===//
// One session per thread
//===----------------------------------------------------------------------===//

typedef struct own_session_worker_t {
  shared_t* shared;
  int index;
  pthread_t thread;
} own_session_worker_t;

static void* own_session_main(void* arg) {
  own_session_worker_t* worker = arg;
  grt_runtime_session_t* session = NULL;
  GRT_EXPECT_OK(grt_runtime_session_create(worker->shared->instance,
                                           worker->shared->device, &session));
  GRT_EXPECT_OK(
      grt_runtime_session_append_module_file(session, worker->shared->file));
  for (int call = 0; call < CALLS_PER_THREAD; ++call) {
    GRT_EXPECT_OK(call_main(session, worker->shared->device,
                            (float)(worker->index * 1000 + call)));
  }
  grt_runtime_session_release(session);
  return NULL;
}

static void run_own_sessions(const char* device_uri) {
  shared_t shared;
  shared_open(&shared, device_uri);
  own_session_worker_t workers[THREAD_COUNT];
  for (int i = 0; i < THREAD_COUNT; ++i) {
    workers[i].shared = &shared;
    workers[i].index = i;
    assert_int_equal(
        pthread_create(&workers[i].thread, NULL, own_session_main, &workers[i]),
        0);
  }
  for (int i = 0; i < THREAD_COUNT; ++i) {
    assert_int_equal(pthread_join(workers[i].thread, NULL), 0);
  }
  shared_close(&shared);
}

static void test_own_sessions_local_sync(void** state) {
  (void)state;
  run_own_sessions("local-sync");
}

static void test_own_sessions_local_task(void** state) {
  (void)state;
  run_own_sessions("local-task");
}

//===----------------------------------------------------------------------===//
// One session, two threads
//===----------------------------------------------------------------------===//

// "gate.wait" blocks its caller inside the session until the test opens
// the gate, so the second thread's call is certain to overlap it.
typedef struct gate_t {
  pthread_mutex_t mutex;
  pthread_cond_t cond;
  bool entered;
  bool open;
} gate_t;

static grt_status_t gate_wait(void* module_data, void* state, const void* args,
                              void* results) {
  (void)state;
  (void)args;
  (void)results;
  gate_t* gate = module_data;
  pthread_mutex_lock(&gate->mutex);
  gate->entered = true;
  pthread_cond_broadcast(&gate->cond);
  while (!gate->open) pthread_cond_wait(&gate->cond, &gate->mutex);
  pthread_mutex_unlock(&gate->mutex);
  return grt_ok_status();
}

static const grt_vm_native_export_t gate_exports[] = {
    {"wait", "0v_v", gate_wait},
};
static const grt_vm_native_module_descriptor_t gate_descriptor = {
    "gate", gate_exports, 1, NULL, NULL, NULL};

typedef struct gate_caller_t {
  grt_runtime_session_t* session;
  grt_status_t status;
} gate_caller_t;

static void* gate_caller_main(void* arg) {
  gate_caller_t* caller = arg;
  caller->status = grt_runtime_call(caller->session, "gate.wait", NULL, NULL);
  return NULL;
}

static void expect_busy(grt_status_t status) {
  grt_expect_error(status, GRT_STATUS_FAILED_PRECONDITION, kBusyMessage);
}

static void test_shared_session_refuses_second_thread(void** state) {
  (void)state;
  shared_t shared;
  shared_open(&shared, "local-task");
  gate_t gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false,
                 false};
  grt_vm_module_t* gate_module = NULL;
  GRT_EXPECT_OK(grt_vm_native_module_create(&gate_descriptor, &gate,
                                            grt_allocator_system(),
                                            &gate_module));
  grt_runtime_session_t* session = NULL;
  GRT_EXPECT_OK(
      grt_runtime_session_create(shared.instance, shared.device, &session));
  GRT_EXPECT_OK(grt_runtime_session_append_module(session, gate_module));
  GRT_EXPECT_OK(grt_runtime_session_append_module_file(session, shared.file));
  GRT_EXPECT_OK(call_main(session, shared.device, 1.0f));  // records the cb
  grt_vm_function_t function;
  GRT_EXPECT_OK(
      grt_runtime_session_lookup_function(session, "conc.main", &function));

  gate_caller_t caller = {session, NULL};
  pthread_t thread;
  assert_int_equal(pthread_create(&thread, NULL, gate_caller_main, &caller), 0);
  pthread_mutex_lock(&gate.mutex);
  while (!gate.entered) pthread_cond_wait(&gate.cond, &gate.mutex);
  pthread_mutex_unlock(&gate.mutex);

  // The other thread is inside the session: everything that would touch
  // the session's state is refused, before touching it.
  expect_busy(call_main(session, shared.device, 2.0f));
  grt_vm_function_t ignored;
  expect_busy(grt_runtime_session_lookup_function(session, "conc.main",
                                                  &ignored));
  expect_busy(grt_runtime_session_append_module_file(session, shared.file));
  grt_expect_error(
      grt_vm_invoke(grt_runtime_session_context(session), &function, NULL,
                    NULL, grt_allocator_system()),
      GRT_STATUS_FAILED_PRECONDITION,
      "VM context is already running a call on another thread; use one "
      "context (one runtime session) per thread");

  pthread_mutex_lock(&gate.mutex);
  gate.open = true;
  pthread_cond_broadcast(&gate.cond);
  pthread_mutex_unlock(&gate.mutex);
  assert_int_equal(pthread_join(thread, NULL), 0);
  GRT_EXPECT_OK(caller.status);

  // Free again: this thread may call now.
  GRT_EXPECT_OK(call_main(session, shared.device, 3.0f));
  grt_runtime_session_release(session);
  grt_vm_module_release(gate_module);
  shared_close(&shared);
}

// Two threads hammering one session: every call either runs (with the
// right answer) or is refused with the clear message; none crashes or
// races (the TSan tree checks the latter).
typedef struct hammer_t {
  shared_t* shared;
  grt_runtime_session_t* session;
  int index;
  int succeeded;
  int refused;
  pthread_t thread;
} hammer_t;

static void* hammer_main(void* arg) {
  hammer_t* hammer = arg;
  for (int call = 0; call < 4 * CALLS_PER_THREAD; ++call) {
    grt_status_t status =
        call_main(hammer->session, hammer->shared->device,
                  (float)(hammer->index * 100 + call));
    if (grt_status_is_ok(status)) {
      ++hammer->succeeded;
    } else {
      expect_busy(status);
      ++hammer->refused;
    }
  }
  return NULL;
}

static void test_shared_session_hammered(void** state) {
  (void)state;
  shared_t shared;
  shared_open(&shared, "local-task");
  grt_runtime_session_t* session = NULL;
  GRT_EXPECT_OK(
      grt_runtime_session_create(shared.instance, shared.device, &session));
  GRT_EXPECT_OK(grt_runtime_session_append_module_file(session, shared.file));
  hammer_t hammers[2];
  memset(hammers, 0, sizeof(hammers));
  for (int i = 0; i < 2; ++i) {
    hammers[i].shared = &shared;
    hammers[i].session = session;
    hammers[i].index = i;
    assert_int_equal(
        pthread_create(&hammers[i].thread, NULL, hammer_main, &hammers[i]), 0);
  }
  for (int i = 0; i < 2; ++i) {
    assert_int_equal(pthread_join(hammers[i].thread, NULL), 0);
  }
  int total = 0;
  for (int i = 0; i < 2; ++i) {
    total += hammers[i].succeeded + hammers[i].refused;
  }
  assert_int_equal(total, 2 * 4 * CALLS_PER_THREAD);
  assert_true(hammers[0].succeeded + hammers[1].succeeded > 0);
  grt_runtime_session_release(session);
  shared_close(&shared);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s CONC.vmfb\n", argv[0]);
    return 2;
  }
  module_path = argv[1];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_own_sessions_local_sync),
      cmocka_unit_test(test_own_sessions_local_task),
      cmocka_unit_test(test_shared_session_refuses_second_thread),
      cmocka_unit_test(test_shared_session_hammered),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
