// The local recording command buffer: regions between barriers, payloads
// copied at record time, references held until destroy, and the host
// executor (fills, copies, updates, dispatches with direct and binding-table
// refs, workgroup ids, kernel failures, submission checks).
#include "hal/local/command_buffer.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hal/local/heap_allocator.h"
#include "hal/local/test_util.h"

//===----------------------------------------------------------------------===//
// Kernels of this test
//===----------------------------------------------------------------------===//

// out[linear id] = 1 + linear id; an id past the binding is refused as
// grt-compile's bounds-checked kernels refuse it.
static int store_ids(const grt_kernel_dispatch_state_t* dispatch,
                     const grt_kernel_workgroup_state_t* workgroup) {
  const uint32_t* count = dispatch->workgroup_count;
  const uint32_t* id = workgroup->workgroup_id;
  size_t index = id[0] + (size_t)count[0] * (id[1] + (size_t)count[1] * id[2]);
  if ((index + 1) * sizeof(uint32_t) > dispatch->binding_lengths[0]) {
    return GRT_KERNEL_CODE_OUT_OF_RANGE;
  }
  ((uint32_t*)dispatch->bindings[0])[index] = (uint32_t)index + 1;
  return 0;
}

static int fail_at_x1(const grt_kernel_dispatch_state_t* dispatch,
                      const grt_kernel_workgroup_state_t* workgroup) {
  return workgroup->workgroup_id[0] == 1 ? 7 : 0;
}

// out[0] = sum of the constants, computed in local memory.
static int sum_constants(const grt_kernel_dispatch_state_t* dispatch,
                         const grt_kernel_workgroup_state_t* workgroup) {
  if (!workgroup->local_memory || workgroup->local_memory_size < 128) return 5;
  uint32_t* scratch = workgroup->local_memory;
  scratch[31] = 0;
  for (uint32_t i = 0; i < dispatch->constant_count; ++i) {
    scratch[31] += dispatch->constants[i];
  }
  ((uint32_t*)dispatch->bindings[0])[0] = scratch[31];
  return 0;
}

static const grt_kernel_entry_t kEntries[] = {
    {"store_ids", store_ids, 1, 0, {1, 1, 1}, 0},
    {"fail_at_x1", fail_at_x1, 0, 0, {1, 1, 1}, 0},
    {"sum_constants", sum_constants, 1, 3, {1, 1, 1}, 128},
};
static const grt_kernel_library_t kLibrary = {
    GRT_KERNEL_ABI_VERSION, 3, kEntries, "grt_local_command_buffer_test"};
static const grt_hal_entry_point_info_t kEntryPoints[] = {
    {{"store_ids", 9}, 1, 0, {1, 1, 1}, NULL, NULL},
    {{"fail_at_x1", 10}, 0, 0, {1, 1, 1}, NULL, NULL},
    {{"sum_constants", 13}, 1, 3, {1, 1, 1}, NULL, NULL},
};
enum { kStoreIds = 0, kFailAtX1 = 1, kSumConstants = 2 };

//===----------------------------------------------------------------------===//
// Fixture
//===----------------------------------------------------------------------===//

typedef struct fixture_t {
  grt_hal_allocator_t* allocator;
  grt_hal_executable_cache_t* cache;
  grt_hal_executable_t* executable;
} fixture_t;

static int setup(void** state) {
  static fixture_t fixture;
  memset(&fixture, 0, sizeof(fixture));
  grt_local_register_library(&kLibrary);
  GRT_EXPECT_OK(grt_hal_local_heap_allocator_create(
      grt_allocator_system(), &fixture.allocator));
  GRT_EXPECT_OK(grt_hal_local_executable_cache_create(
      grt_allocator_system(), &fixture.cache));
  fixture.executable = grt_local_prepare_static(
      fixture.cache, kLibrary.name, kEntryPoints, 3);
  *state = &fixture;
  return 0;
}

static int teardown(void** state) {
  fixture_t* fixture = *state;
  grt_hal_executable_release(fixture->executable);
  grt_hal_executable_cache_release(fixture->cache);
  grt_hal_allocator_release(fixture->allocator);
  return 0;
}

static grt_hal_command_buffer_t* begin(grt_hal_command_buffer_mode_t mode,
                                       uint32_t binding_capacity) {
  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_EXPECT_OK(grt_hal_local_command_buffer_create(
      mode, binding_capacity, grt_allocator_system(), &command_buffer));
  GRT_EXPECT_OK(grt_hal_command_buffer_begin(command_buffer));
  return command_buffer;
}

static grt_hal_dispatch_params_t dispatch_params(
    grt_hal_executable_t* executable, uint32_t entry_point, uint32_t x,
    uint32_t y, uint32_t z, const grt_hal_buffer_ref_t* bindings,
    size_t binding_count) {
  grt_hal_dispatch_params_t params;
  memset(&params, 0, sizeof(params));
  params.executable = executable;
  params.entry_point = entry_point;
  params.workgroup_count[0] = x;
  params.workgroup_count[1] = y;
  params.workgroup_count[2] = z;
  params.bindings = bindings;
  params.binding_count = binding_count;
  return params;
}

// Submits |command_buffer| with |table| and runs it inline.
static grt_status_t run(grt_hal_command_buffer_t* command_buffer,
                        grt_hal_buffer_binding_table_t table) {
  GRT_RETURN_IF_ERROR(grt_hal_local_command_buffers_validate_submission(
      1, &command_buffer, &table));
  grt_hal_local_command_buffer_t* local =
      grt_hal_local_command_buffer_cast(command_buffer);
  uint8_t local_memory[256] __attribute__((aligned(64)));
  assert_true(grt_hal_local_command_buffer_max_local_memory_size(local) <=
              sizeof(local_memory));
  grt_hal_local_execution_t execution;
  GRT_RETURN_IF_ERROR(grt_hal_local_execution_initialize(
      local, table, grt_allocator_system(), &execution));
  grt_status_t status = grt_hal_local_execution_run_inline(
      &execution, local_memory, sizeof(local_memory));
  grt_hal_local_execution_deinitialize(&execution);
  return status;
}

//===----------------------------------------------------------------------===//
// Tests
//===----------------------------------------------------------------------===//

static void test_regions_split_at_barriers(void** state) {
  fixture_t* fixture = *state;
  grt_hal_buffer_t* buffer = grt_local_allocate(fixture->allocator, 64);
  grt_hal_command_buffer_t* command_buffer =
      begin(GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0);
  // Leading and repeated barriers make no empty regions.
  GRT_EXPECT_OK(grt_hal_command_buffer_execution_barrier(command_buffer));
  GRT_EXPECT_OK(grt_hal_command_buffer_fill_buffer(
      command_buffer, grt_hal_make_buffer_ref(buffer, 0, 16), 0xAB, 1));
  GRT_EXPECT_OK(grt_hal_command_buffer_copy_buffer(
      command_buffer, grt_hal_make_buffer_ref(buffer, 0, 16),
      grt_hal_make_buffer_ref(buffer, 16, 16)));
  GRT_EXPECT_OK(grt_hal_command_buffer_execution_barrier(command_buffer));
  GRT_EXPECT_OK(grt_hal_command_buffer_execution_barrier(command_buffer));
  uint32_t words[4] = {1, 2, 3, 4};
  GRT_EXPECT_OK(grt_hal_command_buffer_update_buffer(
      command_buffer, words, grt_hal_make_buffer_ref(buffer, 32, 16)));
  // The recording holds its own copy: later changes do not reach it.
  words[0] = 99;
  grt_hal_buffer_ref_t binding = grt_hal_make_buffer_ref(buffer, 0, 64);
  grt_hal_dispatch_params_t params =
      dispatch_params(fixture->executable, kSumConstants, 1, 1, 1, &binding, 1);
  uint32_t constants[3] = {10, 20, 30};
  params.constants = constants;
  params.constant_count = 3;
  GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(command_buffer, &params));
  constants[0] = 1000;
  GRT_EXPECT_OK(grt_hal_command_buffer_execution_barrier(command_buffer));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(command_buffer));

  grt_hal_local_command_buffer_t* local =
      grt_hal_local_command_buffer_cast(command_buffer);
  assert_int_equal(grt_hal_local_command_buffer_region_count(local), 2);
  assert_int_equal(grt_hal_local_command_buffer_command_count(local), 4);
  assert_int_equal(grt_hal_local_command_buffer_dispatch_count(local), 1);
  assert_int_equal(grt_hal_local_command_buffer_max_local_memory_size(local),
                   128);
  const grt_hal_local_region_t* first =
      grt_hal_local_command_buffer_region(local, 0);
  assert_int_equal(first->command_count, 2);
  assert_int_equal(first->commands[0]->type, GRT_HAL_LOCAL_COMMAND_FILL);
  assert_int_equal(first->commands[0]->fill.pattern, 0xAB);
  assert_int_equal(first->commands[1]->type, GRT_HAL_LOCAL_COMMAND_COPY);
  assert_int_equal(first->commands[1]->copy.target.offset, 16);
  const grt_hal_local_region_t* second =
      grt_hal_local_command_buffer_region(local, 1);
  assert_int_equal(second->command_count, 2);
  assert_int_equal(second->commands[0]->type, GRT_HAL_LOCAL_COMMAND_UPDATE);
  assert_int_equal(second->commands[0]->update.data_length, 16);
  uint32_t recorded[4];
  memcpy(recorded, second->commands[0]->update.data, sizeof(recorded));
  assert_int_equal(recorded[0], 1);
  assert_int_equal(recorded[3], 4);
  const grt_hal_local_dispatch_command_t* dispatch =
      &second->commands[1]->dispatch;
  assert_int_equal(second->commands[1]->type, GRT_HAL_LOCAL_COMMAND_DISPATCH);
  assert_string_equal(dispatch->kernel->name, "sum_constants");
  assert_int_equal(dispatch->constant_count, 3);
  assert_int_equal(dispatch->constants[0], 10);
  assert_null(grt_hal_local_command_buffer_region(local, 2));

  // Running it: fill, copy, then the update and the dispatch (which writes
  // word 0, after the fill and copy have finished).
  GRT_EXPECT_OK(run(command_buffer, grt_hal_buffer_binding_table_empty()));
  uint8_t bytes[48];
  grt_local_read(buffer, 0, bytes, sizeof(bytes));
  uint32_t sum = 0;
  memcpy(&sum, bytes, sizeof(sum));
  assert_int_equal(sum, 60);
  for (int i = 4; i < 32; ++i) assert_int_equal(bytes[i], 0xAB);
  memcpy(recorded, bytes + 32, sizeof(recorded));
  assert_int_equal(recorded[0], 1);
  assert_int_equal(recorded[2], 3);
  grt_hal_command_buffer_release(command_buffer);
  grt_hal_buffer_release(buffer);
}

static void test_references_held_until_destroy(void** state) {
  fixture_t* fixture = *state;
  grt_hal_buffer_t* buffer = grt_local_allocate(fixture->allocator, 64);
  uint32_t buffer_refs = grt_local_ref_count(buffer);
  grt_hal_buffer_t* subspan = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_subspan(buffer, 16, 32, &subspan));
  uint32_t executable_refs = grt_local_ref_count(fixture->executable);
  grt_hal_command_buffer_t* command_buffer =
      begin(GRT_HAL_COMMAND_BUFFER_MODE_REUSABLE, 1);
  GRT_EXPECT_OK(grt_hal_command_buffer_fill_buffer(
      command_buffer, grt_hal_make_buffer_ref(subspan, 0, 8), 0, 4));
  // Binding-table refs name no buffer and hold nothing.
  grt_hal_buffer_ref_t binding = grt_hal_make_indirect_buffer_ref(0, 0, 16);
  grt_hal_dispatch_params_t params =
      dispatch_params(fixture->executable, kStoreIds, 4, 1, 1, &binding, 1);
  GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(command_buffer, &params));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(command_buffer));
  assert_int_equal(grt_local_ref_count(fixture->executable),
                   executable_refs + 1);
  // Dropping the caller's subspan leaves the recording's reference.
  uint32_t subspan_refs = grt_local_ref_count(subspan);
  assert_int_equal(subspan_refs, 2);
  grt_hal_buffer_release(subspan);
  assert_int_equal(grt_local_ref_count(subspan), 1);
  grt_hal_command_buffer_release(command_buffer);
  assert_int_equal(grt_local_ref_count(fixture->executable), executable_refs);
  assert_int_equal(grt_local_ref_count(buffer), buffer_refs);
  grt_hal_buffer_release(buffer);
}

// A recording holds one reference per object however often it is named;
// objects named again after others pushed them out of its memory of recent
// ones still come back to their counts when it is dropped.
static void test_repeated_references_held_once(void** state) {
  fixture_t* fixture = *state;
  enum { kBuffers = 12 };
  grt_hal_buffer_t* buffers[kBuffers];
  uint32_t buffer_refs[kBuffers];
  for (int i = 0; i < kBuffers; ++i) {
    buffers[i] = grt_local_allocate(fixture->allocator, 16);
    buffer_refs[i] = grt_local_ref_count(buffers[i]);
  }
  uint32_t executable_refs = grt_local_ref_count(fixture->executable);
  grt_hal_command_buffer_t* command_buffer =
      begin(GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0);
  grt_hal_buffer_ref_t binding =
      grt_hal_make_buffer_ref(buffers[0], 0, GRT_HAL_WHOLE_BUFFER);
  grt_hal_dispatch_params_t params =
      dispatch_params(fixture->executable, kStoreIds, 4, 1, 1, &binding, 1);
  for (int i = 0; i < 3; ++i) {
    GRT_EXPECT_OK(
        grt_hal_command_buffer_dispatch(command_buffer, &params));
  }
  assert_int_equal(grt_local_ref_count(fixture->executable),
                   executable_refs + 1);
  assert_int_equal(grt_local_ref_count(buffers[0]), buffer_refs[0] + 1);
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < kBuffers; ++i) {
      binding = grt_hal_make_buffer_ref(buffers[i], 0, GRT_HAL_WHOLE_BUFFER);
      GRT_EXPECT_OK(
          grt_hal_command_buffer_dispatch(command_buffer, &params));
    }
  }
  GRT_EXPECT_OK(grt_hal_command_buffer_end(command_buffer));
  grt_hal_command_buffer_release(command_buffer);
  assert_int_equal(grt_local_ref_count(fixture->executable), executable_refs);
  for (int i = 0; i < kBuffers; ++i) {
    assert_int_equal(grt_local_ref_count(buffers[i]), buffer_refs[i]);
    grt_hal_buffer_release(buffers[i]);
  }
}

static void test_reusable_runs_against_binding_tables(void** state) {
  fixture_t* fixture = *state;
  grt_hal_buffer_t* a = grt_local_allocate(fixture->allocator, 64);
  grt_hal_buffer_t* b = grt_local_allocate(fixture->allocator, 64);
  grt_hal_command_buffer_t* command_buffer =
      begin(GRT_HAL_COMMAND_BUFFER_MODE_REUSABLE, 1);
  GRT_EXPECT_OK(grt_hal_command_buffer_fill_buffer(
      command_buffer, grt_hal_make_indirect_buffer_ref(0, 0, 32), 0xBEEF, 2));
  GRT_EXPECT_OK(grt_hal_command_buffer_execution_barrier(command_buffer));
  // 2x2x2 workgroups write ids 1..8 into the slot from byte 8 on.
  grt_hal_buffer_ref_t binding = grt_hal_make_indirect_buffer_ref(0, 8, 32);
  grt_hal_dispatch_params_t params =
      dispatch_params(fixture->executable, kStoreIds, 2, 2, 2, &binding, 1);
  GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(command_buffer, &params));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(command_buffer));

  grt_hal_buffer_binding_t binding_a = {a, 0, GRT_HAL_WHOLE_BUFFER};
  grt_hal_buffer_binding_t binding_b = {b, 16, 48};
  grt_hal_buffer_binding_table_t table_a = {1, &binding_a};
  grt_hal_buffer_binding_table_t table_b = {1, &binding_b};
  GRT_EXPECT_OK(run(command_buffer, table_a));
  GRT_EXPECT_OK(run(command_buffer, table_b));

  uint32_t words[16];
  grt_local_read(a, 0, words, sizeof(words));
  uint16_t halves[2];
  memcpy(halves, words, sizeof(halves));
  assert_int_equal(halves[0], 0xBEEF);
  assert_int_equal(halves[1], 0xBEEF);
  assert_int_equal(words[1], 0xBEEFBEEFu);
  for (uint32_t i = 0; i < 8; ++i) assert_int_equal(words[2 + i], i + 1);
  assert_int_equal(words[10], 0);
  grt_local_read(b, 0, words, sizeof(words));
  assert_int_equal(words[3], 0);
  assert_int_equal(words[4], 0xBEEFBEEFu);
  for (uint32_t i = 0; i < 8; ++i) assert_int_equal(words[6 + i], i + 1);
  grt_hal_command_buffer_release(command_buffer);
  grt_hal_buffer_release(a);
  grt_hal_buffer_release(b);
}

static void test_workgroup_ranges(void** state) {
  fixture_t* fixture = *state;
  grt_hal_buffer_t* buffer = grt_local_allocate(fixture->allocator, 24 * 4);
  grt_hal_command_buffer_t* command_buffer =
      begin(GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0);
  grt_hal_buffer_ref_t binding =
      grt_hal_make_buffer_ref(buffer, 0, GRT_HAL_WHOLE_BUFFER);
  grt_hal_dispatch_params_t params =
      dispatch_params(fixture->executable, kStoreIds, 4, 3, 2, &binding, 1);
  GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(command_buffer, &params));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(command_buffer));
  grt_hal_local_command_buffer_t* local =
      grt_hal_local_command_buffer_cast(command_buffer);
  grt_hal_buffer_binding_table_t table = grt_hal_buffer_binding_table_empty();
  GRT_EXPECT_OK(grt_hal_local_command_buffers_validate_submission(
      1, &command_buffer, &table));
  grt_hal_local_execution_t execution;
  GRT_EXPECT_OK(grt_hal_local_execution_initialize(
      local, table, grt_allocator_system(), &execution));
  const grt_hal_local_command_t* command =
      grt_hal_local_command_buffer_region(local, 0)->commands[0];
  assert_int_equal(command->dispatch.workgroup_total, 24);
  grt_hal_local_dispatch_t* dispatch = NULL;
  GRT_EXPECT_OK(grt_hal_local_execution_prepare_dispatch(
      &execution, &command->dispatch, &dispatch));
  assert_int_equal(dispatch->state.binding_lengths[0], 96);
  assert_int_equal(dispatch->state.workgroup_count[1], 3);
  // Ranges that start mid-row and mid-plane decompose to the right ids:
  // every workgroup written exactly once across the three pieces.
  GRT_EXPECT_OK(
      grt_hal_local_dispatch_run_workgroups(dispatch, 5, 9, 2, NULL, 0));
  GRT_EXPECT_OK(
      grt_hal_local_dispatch_run_workgroups(dispatch, 0, 5, 0, NULL, 0));
  GRT_EXPECT_OK(
      grt_hal_local_dispatch_run_workgroups(dispatch, 14, 10, 1, NULL, 0));
  uint32_t ids[24];
  grt_local_read(buffer, 0, ids, sizeof(ids));
  for (uint32_t i = 0; i < 24; ++i) assert_int_equal(ids[i], i + 1);
  grt_hal_local_execution_deinitialize(&execution);
  grt_hal_command_buffer_release(command_buffer);
  grt_hal_buffer_release(buffer);
}

static void test_kernel_failure_names_kernel_and_workgroup(void** state) {
  fixture_t* fixture = *state;
  grt_hal_command_buffer_t* command_buffer =
      begin(GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0);
  grt_hal_dispatch_params_t params =
      dispatch_params(fixture->executable, kFailAtX1, 3, 1, 1, NULL, 0);
  GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(command_buffer, &params));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(command_buffer));
  grt_expect_error(run(command_buffer, grt_hal_buffer_binding_table_empty()),
                         GRT_STATUS_INTERNAL,
                         "kernel 'fail_at_x1' failed with code 7 at "
                         "workgroup (1,0,0)");
  grt_hal_command_buffer_release(command_buffer);
}

// GRT_KERNEL_CODE_OUT_OF_RANGE + b names the binding and its length.
static void test_kernel_out_of_range_names_binding(void** state) {
  fixture_t* fixture = *state;
  grt_hal_buffer_t* buffer = grt_local_allocate(fixture->allocator, 16);
  grt_hal_command_buffer_t* command_buffer =
      begin(GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0);
  grt_hal_buffer_ref_t binding = grt_hal_make_buffer_ref(buffer, 0, 8);
  grt_hal_dispatch_params_t params =
      dispatch_params(fixture->executable, kStoreIds, 3, 1, 1, &binding, 1);
  GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(command_buffer, &params));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(command_buffer));
  grt_expect_error(run(command_buffer, grt_hal_buffer_binding_table_empty()),
                   GRT_STATUS_OUT_OF_RANGE,
                   "kernel 'store_ids' accessed binding 0 outside its range "
                   "(8 bytes) at workgroup (2,0,0)");
  grt_hal_command_buffer_release(command_buffer);
  grt_hal_buffer_release(buffer);
}

static void test_short_local_memory_is_an_error(void** state) {
  fixture_t* fixture = *state;
  grt_hal_buffer_t* buffer = grt_local_allocate(fixture->allocator, 4);
  grt_hal_command_buffer_t* command_buffer =
      begin(GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0);
  grt_hal_buffer_ref_t binding = grt_hal_make_buffer_ref(buffer, 0, 4);
  grt_hal_dispatch_params_t params =
      dispatch_params(fixture->executable, kSumConstants, 1, 1, 1, &binding, 1);
  uint32_t constants[3] = {1, 2, 3};
  params.constants = constants;
  params.constant_count = 3;
  GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(command_buffer, &params));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(command_buffer));
  grt_hal_local_command_buffer_t* local =
      grt_hal_local_command_buffer_cast(command_buffer);
  grt_hal_buffer_binding_table_t table = grt_hal_buffer_binding_table_empty();
  grt_hal_local_execution_t execution;
  GRT_EXPECT_OK(grt_hal_local_execution_initialize(
      local, table, grt_allocator_system(), &execution));
  uint8_t scratch[64];
  grt_expect_error(
      grt_hal_local_execution_run_inline(&execution, scratch, sizeof(scratch)),
      GRT_STATUS_INTERNAL,
      "kernel 'sum_constants' needs 128 bytes of local memory, the executor "
      "gave 64");
  grt_hal_local_execution_deinitialize(&execution);
  grt_hal_command_buffer_release(command_buffer);
  grt_hal_buffer_release(buffer);
}

static void test_submission_checks(void** state) {
  fixture_t* fixture = *state;
  grt_hal_buffer_t* buffer = grt_local_allocate(fixture->allocator, 16);
  grt_hal_command_buffer_t* recording =
      begin(GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0);
  grt_hal_command_buffer_t* reusable =
      begin(GRT_HAL_COMMAND_BUFFER_MODE_REUSABLE, 2);
  GRT_EXPECT_OK(grt_hal_command_buffer_end(reusable));

  // Still recording.
  grt_expect_error(grt_hal_local_command_buffers_validate_submission(
                             1, &recording, NULL),
                         GRT_STATUS_FAILED_PRECONDITION,
                         "command buffer is not executable (state: "
                         "recording); command buffer 0 of 1");
  // Binding table smaller than the recording's capacity, second in a list.
  grt_hal_command_buffer_t* both[2] = {reusable, reusable};
  grt_hal_buffer_binding_t binding = {buffer, 0, GRT_HAL_WHOLE_BUFFER};
  grt_hal_buffer_binding_table_t tables[2] = {{2, (grt_hal_buffer_binding_t[]){
                                                      binding, binding}},
                                              {1, &binding}};
  grt_expect_error(
      grt_hal_local_command_buffers_validate_submission(2, both, tables),
      GRT_STATUS_INVALID_ARGUMENT,
      "binding table has 1 bindings, command buffer needs 2; command buffer 1 "
      "of 2");
  // A command buffer some other implementation made.
  static const grt_hal_command_buffer_vtable_t kForeignVtable;
  grt_hal_command_buffer_t foreign;
  grt_hal_command_buffer_initialize(&kForeignVtable,
                                    GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0,
                                    &foreign);
  grt_hal_command_buffer_t* mixed[2] = {reusable, &foreign};
  grt_expect_error(
      grt_hal_local_command_buffers_validate_submission(2, mixed, tables),
      GRT_STATUS_INVALID_ARGUMENT,
      "command buffer 1 of 2 was not created by a local (CPU) device");
  grt_hal_command_buffer_release(recording);
  grt_hal_command_buffer_release(reusable);
  grt_hal_buffer_release(buffer);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_regions_split_at_barriers),
      cmocka_unit_test(test_repeated_references_held_once),
      cmocka_unit_test(test_references_held_until_destroy),
      cmocka_unit_test(test_reusable_runs_against_binding_tables),
      cmocka_unit_test(test_workgroup_ranges),
      cmocka_unit_test(test_kernel_failure_names_kernel_and_workgroup),
      cmocka_unit_test(test_kernel_out_of_range_names_binding),
      cmocka_unit_test(test_short_local_memory_is_an_error),
      cmocka_unit_test(test_submission_checks),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
