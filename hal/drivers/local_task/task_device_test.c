// local-task: the pool size from the options and its query; many dispatches
// of one region computing into distinct outputs with 1 and 4 workers;
// submissions that return before their wait is reached and run when another
// thread signals it; reusable command buffers queued back to back with
// different binding tables; a failing kernel failing the signal semaphore
// and stopping the rest; destroy draining queued work.
#include "hal/drivers/local_task/driver.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hal/local/test_util.h"

static grt_hal_device_t* create_device(uint32_t worker_count) {
  return grt_local_create_device(grt_hal_local_task_driver_register,
                                 "local-task", worker_count);
}

static void test_worker_count_and_queries(void** state) {
  (void)state;
  grt_hal_device_t* device = create_device(3);
  assert_int_equal(grt_local_query(device, "hal.device", "concurrency"), 3);
  assert_int_equal(grt_local_query(device, "hal.device.id", "local-task"), 1);
  assert_int_equal(grt_local_query(device, "hal.device.id", "local-sync"), 0);
  assert_int_equal(grt_local_query(device, "hal.executable.format", "cpu-static"), 1);
  grt_hal_device_release(device);
  // 0 means one worker per core.
  device = create_device(0);
  assert_true(grt_local_query(device, "hal.device", "concurrency") >= 1);
  grt_hal_device_release(device);
}

// 16 dispatches with no barrier between them, each writing its workgroup
// ids into its own buffer (with local memory), then after a barrier a
// scale of one of them: every output must be exact.
static void run_many_dispatches(uint32_t worker_count) {
  grt_hal_device_t* device = create_device(worker_count);
  grt_hal_executable_t* executable = grt_local_prepare_test_kernels(device);
  grt_hal_allocator_t* allocator = grt_hal_device_allocator(device);
  enum { kDispatches = 16 };
  grt_hal_buffer_t* outputs[kDispatches];
  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_command_buffer(
      device, GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0, &command_buffer));
  GRT_EXPECT_OK(grt_hal_command_buffer_begin(command_buffer));
  for (uint32_t d = 0; d < kDispatches; ++d) {
    // 1 to 301 workgroups: chunks of uneven sizes.
    uint32_t count = 1 + d * 20;
    outputs[d] = grt_local_allocate(allocator, count * 4);
    grt_hal_buffer_ref_t binding =
        grt_hal_make_buffer_ref(outputs[d], 0, GRT_HAL_WHOLE_BUFFER);
    grt_hal_dispatch_params_t params = grt_local_dispatch(
        executable, GRT_TEST_KERNELS_WORKGROUP_IDS, count, &binding, 1);
    GRT_EXPECT_OK(
        grt_hal_command_buffer_dispatch(command_buffer, &params));
  }
  GRT_EXPECT_OK(grt_hal_command_buffer_execution_barrier(command_buffer));
  // Reads what the region above wrote: the barrier must hold.
  grt_hal_buffer_t* scaled = grt_local_allocate(allocator, 301 * 4);
  grt_hal_buffer_ref_t bindings[2] = {
      grt_hal_make_buffer_ref(outputs[kDispatches - 1], 0,
                              GRT_HAL_WHOLE_BUFFER),
      grt_hal_make_buffer_ref(scaled, 0, GRT_HAL_WHOLE_BUFFER)};
  grt_hal_dispatch_params_t params = grt_local_dispatch(
      executable, GRT_TEST_KERNELS_SCALE_F32, 10, bindings, 2);
  float one = 1.0f;
  uint32_t one_bits = 0;
  memcpy(&one_bits, &one, sizeof(one_bits));
  params.constants = &one_bits;
  params.constant_count = 1;
  GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(command_buffer, &params));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(command_buffer));
  GRT_EXPECT_OK(grt_local_submit_and_wait(device, command_buffer, NULL));

  uint32_t ids[301];
  for (uint32_t d = 0; d < kDispatches; ++d) {
    uint32_t count = 1 + d * 20;
    grt_local_read(outputs[d], 0, ids, count * 4);
    for (uint32_t i = 0; i < count; ++i) assert_int_equal(ids[i], i + 1);
    grt_hal_buffer_release(outputs[d]);
  }
  // scale_f32 by 1.0 copies the bits of its input (as floats, the ids'
  // bit patterns are small denormals that multiply by one exactly).
  grt_local_read(scaled, 0, ids, sizeof(ids));
  for (uint32_t i = 0; i < 301; ++i) assert_int_equal(ids[i], i + 1);
  grt_hal_buffer_release(scaled);
  grt_hal_command_buffer_release(command_buffer);
  grt_hal_executable_release(executable);
  grt_hal_device_release(device);
}

static void test_many_dispatches_one_worker(void** state) {
  (void)state;
  run_many_dispatches(1);
}

static void test_many_dispatches_four_workers(void** state) {
  (void)state;
  run_many_dispatches(4);
}

typedef struct signaller_t {
  grt_hal_semaphore_t* semaphore;
  uint64_t value;
} signaller_t;

static void* signal_later(void* arg) {
  signaller_t* signaller = arg;
  GRT_EXPECT_OK(
      grt_hal_semaphore_signal(signaller->semaphore, signaller->value));
  return NULL;
}

static void test_async_wait_and_reusable_tables(void** state) {
  (void)state;
  grt_hal_device_t* device = create_device(2);
  grt_hal_executable_t* executable = grt_local_prepare_test_kernels(device);
  grt_hal_allocator_t* allocator = grt_hal_device_allocator(device);
  grt_hal_buffer_t* input = grt_local_allocate(allocator, 64 * 4);
  grt_hal_buffer_t* first = grt_local_allocate(allocator, 64 * 4);
  grt_hal_buffer_t* second = grt_local_allocate(allocator, 64 * 4);

  // Reusable: input <- update; out = input * 2.
  float values[64];
  for (int i = 0; i < 64; ++i) values[i] = (float)i;
  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_command_buffer(
      device, GRT_HAL_COMMAND_BUFFER_MODE_REUSABLE, 1, &command_buffer));
  GRT_EXPECT_OK(grt_hal_command_buffer_begin(command_buffer));
  GRT_EXPECT_OK(grt_hal_command_buffer_update_buffer(
      command_buffer, values, grt_hal_make_buffer_ref(input, 0, sizeof(values))));
  GRT_EXPECT_OK(grt_hal_command_buffer_execution_barrier(command_buffer));
  grt_hal_buffer_ref_t bindings[2] = {
      grt_hal_make_buffer_ref(input, 0, GRT_HAL_WHOLE_BUFFER),
      grt_hal_make_indirect_buffer_ref(0, 0, GRT_HAL_WHOLE_BUFFER)};
  grt_hal_dispatch_params_t params = grt_local_dispatch(
      executable, GRT_TEST_KERNELS_SCALE_F32, 2, bindings, 2);
  float two = 2.0f;
  uint32_t two_bits = 0;
  memcpy(&two_bits, &two, sizeof(two_bits));
  params.constants = &two_bits;
  params.constant_count = 1;
  GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(command_buffer, &params));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(command_buffer));

  grt_hal_semaphore_t* gate = NULL;
  grt_hal_semaphore_t* done = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_semaphore(device, 0, &gate));
  GRT_EXPECT_OK(grt_hal_device_create_semaphore(device, 0, &done));
  grt_hal_buffer_binding_t binding_one = {first, 0, GRT_HAL_WHOLE_BUFFER};
  grt_hal_buffer_binding_t binding_two = {second, 0, GRT_HAL_WHOLE_BUFFER};
  grt_hal_buffer_binding_table_t table_one = {1, &binding_one};
  grt_hal_buffer_binding_table_t table_two = {1, &binding_two};
  uint64_t gate_value = 5, done_one = 1, done_two = 2;
  GRT_EXPECT_OK(grt_hal_device_queue_execute(
      device, grt_local_list(&gate, &gate_value), grt_local_list(&done, &done_one),
      1, &command_buffer, &table_one));
  GRT_EXPECT_OK(grt_hal_device_queue_execute(
      device, grt_hal_semaphore_list_empty(), grt_local_list(&done, &done_two),
      1, &command_buffer, &table_two));
  // The calls returned with the gate still closed: nothing ran (the
  // second submission is queued behind the first).
  uint64_t value = 99;
  GRT_EXPECT_OK(grt_hal_semaphore_query(done, &value));
  assert_int_equal(value, 0);

  signaller_t signaller = {gate, 5};
  pthread_t thread;
  assert_int_equal(pthread_create(&thread, NULL, signal_later, &signaller), 0);
  GRT_EXPECT_OK(grt_hal_semaphore_wait(done, 2, GRT_HAL_TIMEOUT_INFINITE));
  pthread_join(thread, NULL);
  float results[64];
  grt_local_read(first, 0, results, sizeof(results));
  for (int i = 0; i < 64; ++i) assert_true(results[i] == 2.0f * i);
  grt_local_read(second, 0, results, sizeof(results));
  for (int i = 0; i < 64; ++i) assert_true(results[i] == 2.0f * i);

  grt_hal_semaphore_release(gate);
  grt_hal_semaphore_release(done);
  grt_hal_command_buffer_release(command_buffer);
  grt_hal_buffer_release(input);
  grt_hal_buffer_release(first);
  grt_hal_buffer_release(second);
  grt_hal_executable_release(executable);
  grt_hal_device_release(device);
}

static void test_failing_kernel_fails_signal(void** state) {
  (void)state;
  grt_hal_device_t* device = create_device(4);
  grt_hal_executable_t* executable = grt_local_prepare_test_kernels(device);
  grt_hal_allocator_t* allocator = grt_hal_device_allocator(device);
  grt_hal_buffer_t* after = grt_local_allocate(allocator, 4);
  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_command_buffer(
      device, GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0, &command_buffer));
  GRT_EXPECT_OK(grt_hal_command_buffer_begin(command_buffer));
  // Every workgroup fails; which one is reported first depends on timing.
  grt_hal_dispatch_params_t params =
      grt_local_dispatch(executable, GRT_TEST_KERNELS_FAIL, 1000, NULL, 0);
  GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(command_buffer, &params));
  GRT_EXPECT_OK(grt_hal_command_buffer_execution_barrier(command_buffer));
  // Never runs: the region before it failed.
  GRT_EXPECT_OK(grt_hal_command_buffer_fill_buffer(
      command_buffer, grt_hal_make_buffer_ref(after, 0, 4), 0xFF, 1));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(command_buffer));
  grt_expect_error(
      grt_local_submit_and_wait(device, command_buffer, NULL),
      GRT_STATUS_INTERNAL, "kernel 'fail' failed with code 7 at workgroup (");
  uint32_t word = 1;
  grt_local_read(after, 0, &word, sizeof(word));
  assert_int_equal(word, 0);
  grt_hal_buffer_release(after);
  grt_hal_command_buffer_release(command_buffer);
  grt_hal_executable_release(executable);
  grt_hal_device_release(device);
}

static void test_destroy_drains_queued_work(void** state) {
  (void)state;
  grt_hal_device_t* device = create_device(2);
  grt_hal_allocator_t* allocator = grt_hal_device_allocator(device);
  grt_hal_buffer_t* buffer = grt_local_allocate(allocator, 16);
  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_command_buffer(
      device, GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0, &command_buffer));
  GRT_EXPECT_OK(grt_hal_command_buffer_begin(command_buffer));
  GRT_EXPECT_OK(grt_hal_command_buffer_fill_buffer(
      command_buffer, grt_hal_make_buffer_ref(buffer, 0, 16), 0x5A, 1));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(command_buffer));
  grt_hal_semaphore_t* gate = NULL;
  GRT_EXPECT_OK(grt_hal_host_semaphore_create(0, grt_allocator_system(),
                                                    &gate));
  uint64_t one = 1;
  GRT_EXPECT_OK(grt_hal_device_queue_execute(
      device, grt_local_list(&gate, &one), grt_hal_semaphore_list_empty(), 1,
      &command_buffer, NULL));
  // The queue holds what it needs: the caller's references can go.
  grt_hal_command_buffer_release(command_buffer);
  signaller_t signaller = {gate, 1};
  pthread_t thread;
  assert_int_equal(pthread_create(&thread, NULL, signal_later, &signaller), 0);
  grt_hal_device_release(device);  // returns after the fill ran
  pthread_join(thread, NULL);
  uint8_t bytes[16];
  grt_local_read(buffer, 0, bytes, sizeof(bytes));
  for (int i = 0; i < 16; ++i) assert_int_equal(bytes[i], 0x5A);
  grt_hal_buffer_release(buffer);
  grt_hal_semaphore_release(gate);
}

static void test_alloca_and_dealloca_are_ordered(void** state) {
  (void)state;
  grt_hal_device_t* device = create_device(1);
  grt_hal_semaphore_t* semaphore = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_semaphore(device, 0, &semaphore));
  uint64_t one = 1, two = 2, three = 3;
  grt_hal_buffer_params_t params;
  memset(&params, 0, sizeof(params));
  grt_hal_buffer_t* buffer = NULL;
  // Waits for 1, which the host signals after both are queued.
  GRT_EXPECT_OK(grt_hal_device_queue_alloca(
      device, grt_local_list(&semaphore, &one), grt_local_list(&semaphore, &two),
      params, 128, &buffer));
  assert_non_null(buffer);
  GRT_EXPECT_OK(grt_hal_device_queue_dealloca(
      device, grt_local_list(&semaphore, &two),
      grt_local_list(&semaphore, &three), buffer));
  grt_hal_buffer_release(buffer);  // the queue still holds it
  GRT_EXPECT_OK(grt_hal_semaphore_signal(semaphore, 1));
  GRT_EXPECT_OK(
      grt_hal_semaphore_wait(semaphore, 3, GRT_HAL_TIMEOUT_INFINITE));
  grt_hal_semaphore_release(semaphore);
  grt_hal_device_release(device);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_worker_count_and_queries),
      cmocka_unit_test(test_many_dispatches_one_worker),
      cmocka_unit_test(test_many_dispatches_four_workers),
      cmocka_unit_test(test_async_wait_and_reusable_tables),
      cmocka_unit_test(test_failing_kernel_fails_signal),
      cmocka_unit_test(test_destroy_drains_queued_work),
      cmocka_unit_test(test_alloca_and_dealloca_are_ordered),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
