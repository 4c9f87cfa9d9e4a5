// Conformance: queue-ordered allocation, deallocation and copies.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <pthread.h>

#include "base/time.h"
#include "tests/hal_cts/cts.h"

typedef struct delayed_signal_t {
  pthread_t thread;
  grt_hal_semaphore_t* semaphore;
  uint64_t value;
  grt_status_t status;
} delayed_signal_t;

static void* delayed_signal_main(void* arg) {
  delayed_signal_t* signal = (delayed_signal_t*)arg;
  // Only a delay so that queue operations are issued before the signal on
  // devices that return at once; nothing depends on its length.
  grt_time_sleep_ns(20 * 1000 * 1000);
  signal->status = grt_hal_semaphore_signal(signal->semaphore, signal->value);
  return NULL;
}

// alloca -> fill -> copy out -> dealloca, each step ordered only by the
// timeline of one semaphore, with the chain gated on a signal from another
// thread.
static void test_queue_alloca_dealloca(void** state) {
  (void)state;
  grt_hal_device_t* device = grt_hal_cts_device();
  grt_hal_semaphore_t* gate = grt_hal_cts_create_semaphore(0);
  grt_hal_semaphore_t* timeline = grt_hal_cts_create_semaphore(0);
  grt_hal_buffer_t* result = grt_hal_cts_allocate(256);
  grt_hal_cts_write_bytes(result, 0, 0, 256);
  uint64_t values[4] = {1, 2, 3, 4};
  delayed_signal_t opener = {.semaphore = gate, .value = 1};
  assert_int_equal(
      pthread_create(&opener.thread, NULL, delayed_signal_main, &opener), 0);

  grt_hal_semaphore_list_t wait_gate = {1, &gate, &values[0]};
  grt_hal_semaphore_list_t at1 = {1, &timeline, &values[0]};
  grt_hal_semaphore_list_t at2 = {1, &timeline, &values[1]};
  grt_hal_semaphore_list_t at3 = {1, &timeline, &values[2]};
  grt_hal_semaphore_list_t at4 = {1, &timeline, &values[3]};
  grt_hal_buffer_params_t params = {GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL,
                                    GRT_HAL_BUFFER_USAGE_DEFAULT, 0, 0};
  grt_hal_buffer_t* transient = NULL;
  GRT_EXPECT_OK(grt_hal_device_queue_alloca(device, wait_gate, at1,
                                                    params, 256, &transient));
  assert_non_null(transient);
  assert_int_equal(grt_hal_buffer_byte_length(transient), 256);

  grt_hal_command_buffer_t* cb =
      grt_hal_cts_begin_command_buffer(GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0);
  GRT_EXPECT_OK(grt_hal_command_buffer_fill_buffer(
      cb, grt_hal_make_buffer_ref(transient, 0, 256), 0xC0FFEE11u, 4));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(cb));
  GRT_EXPECT_OK(
      grt_hal_device_queue_execute(device, at1, at2, 1, &cb, NULL));
  GRT_EXPECT_OK(grt_hal_device_queue_copy(device, at2, at3, transient,
                                                  0, result, 0, 256));
  GRT_EXPECT_OK(
      grt_hal_device_queue_dealloca(device, at3, at4, transient));
  grt_hal_buffer_release(transient);
  GRT_EXPECT_OK(grt_hal_device_queue_flush(device));
  GRT_EXPECT_OK(
      grt_hal_semaphore_wait(timeline, 4, GRT_HAL_TIMEOUT_INFINITE));
  assert_int_equal(pthread_join(opener.thread, NULL), 0);
  GRT_EXPECT_OK(opener.status);

  uint32_t read[64], expected[64];
  for (int i = 0; i < 64; ++i) expected[i] = 0xC0FFEE11u;
  grt_hal_cts_read(result, 0, read, sizeof(read));
  grt_hal_cts_expect_u32("copied out of the transient buffer", read, expected,
                         64);
  grt_hal_command_buffer_release(cb);
  grt_hal_buffer_release(result);
  grt_hal_semaphore_release(timeline);
  grt_hal_semaphore_release(gate);
}

static void test_queue_copy_out_of_range(void** state) {
  (void)state;
  grt_hal_buffer_t* source = grt_hal_cts_allocate(32);
  grt_hal_buffer_t* target = grt_hal_cts_allocate(16);
  grt_expect_error(
      grt_hal_device_queue_copy(grt_hal_cts_device(),
                                grt_hal_semaphore_list_empty(),
                                grt_hal_semaphore_list_empty(), source, 0,
                                target, 8, 16),
      GRT_STATUS_OUT_OF_RANGE, "range [8, 24) is outside buffer of 16 bytes");
  grt_hal_buffer_release(target);
  grt_hal_buffer_release(source);
}

static const struct CMUnitTest kTests[] = {
    cmocka_unit_test(test_queue_alloca_dealloca),
    cmocka_unit_test(test_queue_copy_out_of_range),
};
GRT_HAL_CTS_GROUP(grt_hal_cts_queue_group, "queue", kTests);
