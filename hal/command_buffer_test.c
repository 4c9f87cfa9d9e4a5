// hal command buffers: the state machine, record-time validation of every
// command, submission checks, and ref resolution against binding tables.
#include "hal/command_buffer.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hal/test_support.h"

typedef struct fixture_t {
  grt_hal_test_allocator_t* allocator;
  grt_hal_buffer_t* buffer;       // 64 bytes, every usage
  grt_hal_buffer_t* source_only;  // 16 bytes, TRANSFER_SOURCE only
} fixture_t;

static int setup(void** state) {
  fixture_t* f = calloc(1, sizeof(*f));
  f->allocator = grt_hal_test_allocator_create(GRT_HAL_TEST_HOST_MEMORY,
                                               GRT_HAL_TEST_ALL_USAGE);
  f->buffer = grt_hal_test_allocate(f->allocator, GRT_HAL_TEST_ALL_USAGE, 64);
  f->source_only = grt_hal_test_allocate(
      f->allocator, GRT_HAL_BUFFER_USAGE_TRANSFER_SOURCE, 16);
  *state = f;
  return 0;
}

static int teardown(void** state) {
  fixture_t* f = *state;
  grt_hal_buffer_release(f->buffer);
  grt_hal_buffer_release(f->source_only);
  grt_hal_allocator_release(&f->allocator->base);
  free(f);
  return 0;
}

static void test_state_machine(void** state) {
  fixture_t* f = *state;
  grt_hal_command_buffer_t* cb =
      grt_hal_test_command_buffer_create(GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0);
  grt_expect_error(grt_hal_command_buffer_execution_barrier(cb),
                       GRT_STATUS_FAILED_PRECONDITION,
                       "command buffer is not recording (state: initial)");
  grt_expect_error(grt_hal_command_buffer_end(cb),
                       GRT_STATUS_FAILED_PRECONDITION,
                       "command buffer is not recording (state: initial)");
  grt_expect_error(
      grt_hal_command_buffer_validate_submission(
          cb, grt_hal_buffer_binding_table_empty()),
      GRT_STATUS_FAILED_PRECONDITION,
      "command buffer is not executable (state: initial)");
  GRT_EXPECT_OK(grt_hal_command_buffer_begin(cb));
  grt_expect_error(grt_hal_command_buffer_begin(cb),
                       GRT_STATUS_FAILED_PRECONDITION,
                       "command buffer cannot begin recording again "
                       "(state: recording)");
  grt_expect_error(
      grt_hal_command_buffer_validate_submission(
          cb, grt_hal_buffer_binding_table_empty()),
      GRT_STATUS_FAILED_PRECONDITION,
      "command buffer is not executable (state: recording)");
  GRT_EXPECT_OK(grt_hal_command_buffer_execution_barrier(cb));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(cb));
  grt_expect_error(
      grt_hal_command_buffer_fill_buffer(
          cb, grt_hal_make_buffer_ref(f->buffer, 0, 4), 0, 4),
      GRT_STATUS_FAILED_PRECONDITION,
      "command buffer is not recording (state: executable)");
  GRT_EXPECT_OK(grt_hal_command_buffer_validate_submission(
      cb, grt_hal_buffer_binding_table_empty()));
  grt_expect_error(
      grt_hal_command_buffer_validate_submission(
          cb, grt_hal_buffer_binding_table_empty()),
      GRT_STATUS_FAILED_PRECONDITION,
      "one-shot command buffer was already submitted");
  assert_int_equal(((grt_hal_test_command_buffer_t*)cb)->barrier_count, 1);
  grt_hal_command_buffer_release(cb);
}

static void test_fill_validation(void** state) {
  fixture_t* f = *state;
  grt_hal_command_buffer_t* cb =
      grt_hal_test_command_buffer_create(GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0);
  GRT_EXPECT_OK(grt_hal_command_buffer_begin(cb));
  // Each rejected fill (pattern 0) and what its message must say.
  const struct {
    grt_hal_buffer_ref_t target;
    size_t pattern_length;
    grt_status_code_t code;
    const char* message;
  } rejected[] = {
      {grt_hal_make_buffer_ref(f->buffer, 0, 6), 3, GRT_STATUS_INVALID_ARGUMENT,
       "fill pattern length must be 1, 2 or 4, got 3"},
      {grt_hal_make_buffer_ref(f->buffer, 2, 8), 4, GRT_STATUS_INVALID_ARGUMENT,
       "fill target offset 2 is not a multiple of the pattern length 4"},
      {grt_hal_make_buffer_ref(f->buffer, 4, 6), 4, GRT_STATUS_INVALID_ARGUMENT,
       "fill length 6 is not a multiple of the pattern length 4"},
      {grt_hal_make_buffer_ref(f->buffer, 60, 8), 4, GRT_STATUS_OUT_OF_RANGE,
       "range [60, 68) is outside buffer of 64 bytes; fill target"},
      {grt_hal_make_buffer_ref(f->source_only, 0, 4), 4,
       GRT_STATUS_INVALID_ARGUMENT,
       "buffer usage TRANSFER_SOURCE lacks TRANSFER_TARGET; fill target"},
      // One-shot command buffers have no binding table.
      {grt_hal_make_indirect_buffer_ref(0, 0, 4), 4,
       GRT_STATUS_INVALID_ARGUMENT,
       "fill target refers to binding slot 0 but only reusable command buffers "
       "take a binding table"},
  };
  for (size_t i = 0; i < sizeof(rejected) / sizeof(rejected[0]); ++i) {
    grt_expect_error(grt_hal_command_buffer_fill_buffer(
                         cb, rejected[i].target, 0, rejected[i].pattern_length),
                     rejected[i].code, rejected[i].message);
  }
  // Bits above a short pattern are dropped; WHOLE_BUFFER is resolved.
  GRT_EXPECT_OK(grt_hal_command_buffer_fill_buffer(
      cb, grt_hal_make_buffer_ref(f->buffer, 62, GRT_HAL_WHOLE_BUFFER),
      0xABCD1234u, 2));
  grt_hal_test_command_buffer_t* test_cb = (grt_hal_test_command_buffer_t*)cb;
  assert_int_equal(test_cb->count, 1);
  assert_int_equal(test_cb->commands[0].pattern, 0x1234);
  assert_int_equal(test_cb->commands[0].target.length, 2);
  grt_hal_command_buffer_release(cb);
}

static void test_copy_and_update_validation(void** state) {
  fixture_t* f = *state;
  grt_hal_command_buffer_t* cb =
      grt_hal_test_command_buffer_create(GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0);
  GRT_EXPECT_OK(grt_hal_command_buffer_begin(cb));
  grt_expect_error(
      grt_hal_command_buffer_copy_buffer(
          cb, grt_hal_make_buffer_ref(f->source_only, 0, GRT_HAL_WHOLE_BUFFER),
          grt_hal_make_buffer_ref(f->buffer, 0, 8)),
      GRT_STATUS_INVALID_ARGUMENT,
      "copy lengths differ: source 16 bytes, target 8 bytes");
  grt_expect_error(
      grt_hal_command_buffer_copy_buffer(
          cb, grt_hal_make_buffer_ref(f->buffer, 0, 8),
          grt_hal_make_buffer_ref(f->source_only, 0, 8)),
      GRT_STATUS_INVALID_ARGUMENT,
      "buffer usage TRANSFER_SOURCE lacks TRANSFER_TARGET; copy target");
  grt_hal_buffer_t* no_source = grt_hal_test_allocate(
      f->allocator, GRT_HAL_BUFFER_USAGE_TRANSFER_TARGET, 8);
  grt_expect_error(
      grt_hal_command_buffer_copy_buffer(
          cb, grt_hal_make_buffer_ref(no_source, 0, 8),
          grt_hal_make_buffer_ref(f->buffer, 0, 8)),
      GRT_STATUS_INVALID_ARGUMENT,
      "buffer usage TRANSFER_TARGET lacks TRANSFER_SOURCE; copy source");
  grt_hal_buffer_release(no_source);
  GRT_EXPECT_OK(grt_hal_command_buffer_copy_buffer(
      cb, grt_hal_make_buffer_ref(f->source_only, 0, GRT_HAL_WHOLE_BUFFER),
      grt_hal_make_buffer_ref(f->buffer, 48, GRT_HAL_WHOLE_BUFFER)));
  const uint8_t bytes[4] = {1, 2, 3, 4};
  grt_expect_error(
      grt_hal_command_buffer_update_buffer(
          cb, NULL, grt_hal_make_buffer_ref(f->buffer, 0, 4)),
      GRT_STATUS_INVALID_ARGUMENT, "update of 4 bytes from a NULL source");
  grt_expect_error(
      grt_hal_command_buffer_update_buffer(
          cb, bytes, grt_hal_make_buffer_ref(f->buffer, 62, 4)),
      GRT_STATUS_OUT_OF_RANGE,
      "range [62, 66) is outside buffer of 64 bytes; update target");
  GRT_EXPECT_OK(grt_hal_command_buffer_update_buffer(
      cb, bytes, grt_hal_make_buffer_ref(f->buffer, 0, 4)));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(cb));
  GRT_EXPECT_OK(grt_hal_command_buffer_validate_submission(
      cb, grt_hal_buffer_binding_table_empty()));
  for (int i = 0; i < 16; ++i) {
    grt_hal_test_buffer_data(f->source_only)[i] = (uint8_t)(100 + i);
  }
  GRT_EXPECT_OK(grt_hal_test_command_buffer_run(
      cb, grt_hal_buffer_binding_table_empty()));
  assert_int_equal(grt_hal_test_buffer_data(f->buffer)[48], 100);
  assert_int_equal(grt_hal_test_buffer_data(f->buffer)[63], 115);
  assert_int_equal(grt_hal_test_buffer_data(f->buffer)[3], 4);
  grt_hal_command_buffer_release(cb);
}

static void test_dispatch_validation(void** state) {
  fixture_t* f = *state;
  grt_hal_entry_point_info_t entry_points[2] = {
      {grt_make_cstring_view("add"), 3, 1, {64, 1, 1}, NULL, NULL},
      {grt_make_cstring_view("none"), 0, 0, {1, 1, 1}, NULL, NULL},
  };
  uint8_t digest[GRT_HAL_EXECUTABLE_DIGEST_SIZE] = {0};
  uint8_t binary[1] = {0};
  grt_hal_executable_params_t params = {
      grt_make_cstring_view("test"), binary, 1, digest, entry_points, 2};
  grt_hal_executable_t* executable = NULL;
  GRT_EXPECT_OK(grt_hal_test_executable_create(&params, &executable));
  grt_hal_command_buffer_t* cb =
      grt_hal_test_command_buffer_create(GRT_HAL_COMMAND_BUFFER_MODE_REUSABLE, 2);
  GRT_EXPECT_OK(grt_hal_command_buffer_begin(cb));
  uint32_t constants[1] = {7};
  grt_hal_buffer_ref_t bindings[3] = {
      grt_hal_make_buffer_ref(f->buffer, 0, 16),
      grt_hal_make_indirect_buffer_ref(1, 0, GRT_HAL_WHOLE_BUFFER),
      grt_hal_make_buffer_ref(f->buffer, 16, GRT_HAL_WHOLE_BUFFER),
  };
  grt_hal_dispatch_params_t dispatch = {
      executable, 0, {4, 0, 1}, constants, 1, bindings, 2};
  grt_expect_error(grt_hal_command_buffer_dispatch(cb, &dispatch),
                       GRT_STATUS_INVALID_ARGUMENT,
                       "dispatch of 'add': entry point takes 3 bindings, got 2");
  dispatch.binding_count = 3;
  dispatch.constant_count = 0;
  grt_expect_error(grt_hal_command_buffer_dispatch(cb, &dispatch),
                       GRT_STATUS_INVALID_ARGUMENT,
                       "dispatch of 'add': entry point takes 1 constants, got 0");
  dispatch.constant_count = 1;
  dispatch.entry_point = 2;
  grt_expect_error(grt_hal_command_buffer_dispatch(cb, &dispatch),
                       GRT_STATUS_OUT_OF_RANGE,
                       "entry point 2 is out of range (executable has 2)");
  dispatch.entry_point = 0;
  dispatch.executable = NULL;
  grt_expect_error(grt_hal_command_buffer_dispatch(cb, &dispatch),
                       GRT_STATUS_INVALID_ARGUMENT,
                       "dispatch without an executable");
  dispatch.executable = executable;
  bindings[1].binding_slot = 2;
  grt_expect_error(grt_hal_command_buffer_dispatch(cb, &dispatch),
                       GRT_STATUS_OUT_OF_RANGE,
                       "dispatch of 'add' binding 1 refers to binding slot 2 "
                       "but the command buffer has 2 slots");
  bindings[1].binding_slot = 1;
  bindings[0] = grt_hal_make_buffer_ref(f->source_only, 0, 4);
  grt_expect_error(grt_hal_command_buffer_dispatch(cb, &dispatch),
                       GRT_STATUS_INVALID_ARGUMENT,
                       "buffer usage TRANSFER_SOURCE lacks DISPATCH_STORAGE; "
                       "dispatch of 'add' binding 0");
  bindings[0] = grt_hal_make_buffer_ref(f->buffer, 0, 16);
  // Zero workgroups is a valid (empty) dispatch.
  GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(cb, &dispatch));
  grt_hal_dispatch_params_t empty = {executable, 1, {0, 0, 0}, NULL, 0, NULL, 0};
  GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(cb, &empty));
  assert_int_equal(((grt_hal_test_command_buffer_t*)cb)->dispatch_count, 2);
  GRT_EXPECT_OK(grt_hal_command_buffer_end(cb));

  // Submission checks the table against the slots the recording may use.
  grt_hal_buffer_binding_t table_bindings[2] = {
      {f->buffer, 0, GRT_HAL_WHOLE_BUFFER},
      {f->buffer, 60, 8},
  };
  grt_hal_buffer_binding_table_t table = {1, table_bindings};
  grt_expect_error(grt_hal_command_buffer_validate_submission(cb, table),
                       GRT_STATUS_INVALID_ARGUMENT,
                       "binding table has 1 bindings, command buffer needs 2");
  table.count = 2;
  grt_expect_error(grt_hal_command_buffer_validate_submission(cb, table),
                       GRT_STATUS_OUT_OF_RANGE,
                       "range [60, 68) is outside buffer of 64 bytes; binding "
                       "table slot 1");
  table_bindings[1].buffer = NULL;
  grt_expect_error(grt_hal_command_buffer_validate_submission(cb, table),
                       GRT_STATUS_INVALID_ARGUMENT,
                       "binding table slot 1 has no buffer");
  table_bindings[1] = (grt_hal_buffer_binding_t){f->buffer, 32, 16};
  // Reusable command buffers may be submitted again and again.
  GRT_EXPECT_OK(grt_hal_command_buffer_validate_submission(cb, table));
  GRT_EXPECT_OK(grt_hal_command_buffer_validate_submission(cb, table));
  assert_int_equal(cb->submit_count, 2);
  grt_hal_command_buffer_release(cb);
  grt_hal_executable_release(executable);
}

static void test_clone_constants(void** state) {
  (void)state;
  grt_allocator_t allocator = grt_allocator_system();
  uint32_t constants[3] = {7, 0xFFFFFFFFu, 42};
  grt_hal_dispatch_params_t params = {0};
  params.constants = constants;
  params.constant_count = 3;
  uint32_t* copy = NULL;
  GRT_EXPECT_OK(
      grt_hal_dispatch_params_clone_constants(allocator, &params, &copy));
  assert_non_null(copy);
  assert_ptr_not_equal(copy, constants);
  assert_memory_equal(copy, constants, sizeof(constants));
  grt_allocator_free(allocator, copy);
  // None: no allocation, and a stale out value is cleared.
  params.constant_count = 0;
  copy = constants;
  GRT_EXPECT_OK(
      grt_hal_dispatch_params_clone_constants(allocator, &params, &copy));
  assert_null(copy);
}

static void test_ref_resolve(void** state) {
  fixture_t* f = *state;
  grt_hal_buffer_t* subspan = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_subspan(f->buffer, 16, 32, &subspan));
  grt_hal_buffer_t* allocated = NULL;
  uint64_t offset = 0;
  uint64_t length = 0;
  grt_hal_buffer_binding_table_t empty = grt_hal_buffer_binding_table_empty();
  GRT_EXPECT_OK(grt_hal_buffer_ref_resolve(
      grt_hal_make_buffer_ref(subspan, 4, GRT_HAL_WHOLE_BUFFER), empty,
      &allocated, &offset, &length));
  assert_ptr_equal(allocated, f->buffer);
  assert_int_equal(offset, 20);
  assert_int_equal(length, 28);
  grt_expect_error(
      grt_hal_buffer_ref_resolve(grt_hal_make_buffer_ref(subspan, 30, 4), empty,
                                 &allocated, &offset, &length),
      GRT_STATUS_OUT_OF_RANGE, "range [30, 34) is outside buffer of 32 bytes");

  grt_hal_buffer_binding_t bindings[2] = {
      {f->buffer, 0, 8},
      {subspan, 8, GRT_HAL_WHOLE_BUFFER},  // bytes [24, 48) of f->buffer
  };
  grt_hal_buffer_binding_table_t table = {2, bindings};
  GRT_EXPECT_OK(grt_hal_buffer_ref_resolve(
      grt_hal_make_indirect_buffer_ref(1, 4, GRT_HAL_WHOLE_BUFFER), table,
      &allocated, &offset, &length));
  assert_ptr_equal(allocated, f->buffer);
  assert_int_equal(offset, 28);
  assert_int_equal(length, 20);
  GRT_EXPECT_OK(grt_hal_buffer_ref_resolve(
      grt_hal_make_indirect_buffer_ref(0, 2, 6), table, &allocated, &offset,
      &length));
  assert_int_equal(offset, 2);
  assert_int_equal(length, 6);
  grt_expect_error(
      grt_hal_buffer_ref_resolve(grt_hal_make_indirect_buffer_ref(0, 4, 8),
                                 table, &allocated, &offset, &length),
      GRT_STATUS_OUT_OF_RANGE,
      "range [4, 12) is outside binding table slot 0 of 8 bytes");
  grt_expect_error(
      grt_hal_buffer_ref_resolve(grt_hal_make_indirect_buffer_ref(0, 9, 0),
                                 table, &allocated, &offset, &length),
      GRT_STATUS_OUT_OF_RANGE,
      "offset 9 is outside binding table slot 0 of 8 bytes");
  grt_expect_error(
      grt_hal_buffer_ref_resolve(grt_hal_make_indirect_buffer_ref(2, 0, 1),
                                 table, &allocated, &offset, &length),
      GRT_STATUS_OUT_OF_RANGE,
      "binding slot 2 is outside the binding table of 2");
  bindings[0].buffer = NULL;
  grt_expect_error(
      grt_hal_buffer_ref_resolve(grt_hal_make_indirect_buffer_ref(0, 0, 1),
                                 table, &allocated, &offset, &length),
      GRT_STATUS_INVALID_ARGUMENT, "binding table slot 0 has no buffer");
  grt_hal_buffer_release(subspan);
}

static grt_hal_buffer_t* allocate_read_only(fixture_t* f, uint64_t size) {
  grt_hal_buffer_params_t params = {f->allocator->heap.type,
                                    GRT_HAL_TEST_ALL_USAGE, 0,
                                    GRT_HAL_MEMORY_ACCESS_READ};
  grt_hal_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_hal_allocator_allocate_buffer(&f->allocator->base, params,
                                                  size, &buffer));
  return buffer;
}

static grt_hal_executable_t* create_executable(
    const grt_hal_entry_point_info_t* entry_points, size_t count) {
  static const uint8_t digest[GRT_HAL_EXECUTABLE_DIGEST_SIZE] = {0};
  static const uint8_t binary[1] = {0};
  grt_hal_executable_params_t params = {
      grt_make_cstring_view("test"), binary, 1, digest, entry_points, count};
  grt_hal_executable_t* executable = NULL;
  GRT_EXPECT_OK(grt_hal_test_executable_create(&params, &executable));
  return executable;
}

// Every write path refuses a read-only buffer (fill, copy and update
// targets, dispatch bindings the entry point writes), directly at record
// time and through a binding-table slot at submit; reads are fine.
static void test_read_only_targets(void** state) {
  fixture_t* f = *state;
  grt_hal_buffer_t* read_only = allocate_read_only(f, 64);
  grt_hal_buffer_t* read_only_span = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_subspan(read_only, 16, 16, &read_only_span));
  const uint8_t access[2] = {GRT_HAL_MEMORY_ACCESS_READ,
                             GRT_HAL_MEMORY_ACCESS_WRITE};
  const grt_hal_entry_point_info_t entry_points[2] = {
      // Says nothing about its bindings: each may be written.
      {grt_make_cstring_view("unknown"), 1, 0, {1, 1, 1}, NULL, NULL},
      {grt_make_cstring_view("copy"), 2, 0, {1, 1, 1}, access, NULL},
  };
  grt_hal_executable_t* executable = create_executable(entry_points, 2);
  grt_hal_command_buffer_t* cb =
      grt_hal_test_command_buffer_create(GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0);
  GRT_EXPECT_OK(grt_hal_command_buffer_begin(cb));
  grt_expect_error(
      grt_hal_command_buffer_fill_buffer(
          cb, grt_hal_make_buffer_ref(read_only, 0, 4), 0, 4),
      GRT_STATUS_PERMISSION_DENIED,
      "fill target: expected a writable buffer (access READ|WRITE), got a "
      "read-only buffer of 64 bytes (access READ)");
  grt_expect_error(
      grt_hal_command_buffer_copy_buffer(
          cb, grt_hal_make_buffer_ref(f->buffer, 0, 8),
          grt_hal_make_buffer_ref(read_only, 0, 8)),
      GRT_STATUS_PERMISSION_DENIED,
      "copy target: expected a writable buffer (access READ|WRITE), got a "
      "read-only buffer of 64 bytes (access READ)");
  const uint8_t bytes[4] = {1, 2, 3, 4};
  grt_expect_error(
      grt_hal_command_buffer_update_buffer(
          cb, bytes, grt_hal_make_buffer_ref(read_only_span, 0, 4)),
      GRT_STATUS_PERMISSION_DENIED,
      "update target: expected a writable buffer (access READ|WRITE), got a "
      "read-only buffer of 16 bytes (access READ)");
  grt_hal_buffer_ref_t bindings[2] = {
      grt_hal_make_buffer_ref(read_only, 0, 8),
      grt_hal_make_buffer_ref(read_only_span, 0, 8),
  };
  grt_hal_dispatch_params_t dispatch = {
      executable, 0, {1, 1, 1}, NULL, 0, bindings, 1};
  grt_expect_error(grt_hal_command_buffer_dispatch(cb, &dispatch),
                   GRT_STATUS_PERMISSION_DENIED,
                   "dispatch of 'unknown' binding 0: expected a writable "
                   "buffer (access READ|WRITE), got a read-only buffer of 64 "
                   "bytes (access READ)");
  dispatch.entry_point = 1;
  dispatch.binding_count = 2;
  grt_expect_error(grt_hal_command_buffer_dispatch(cb, &dispatch),
                   GRT_STATUS_PERMISSION_DENIED,
                   "dispatch of 'copy' binding 1: expected a writable buffer "
                   "(access READ|WRITE), got a read-only buffer of 16 bytes "
                   "(access READ)");
  // Reading a read-only buffer is fine: copy source, read binding.
  bindings[1] = grt_hal_make_buffer_ref(f->buffer, 0, 8);
  GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(cb, &dispatch));
  GRT_EXPECT_OK(grt_hal_command_buffer_copy_buffer(
      cb, grt_hal_make_buffer_ref(read_only, 0, 8),
      grt_hal_make_buffer_ref(f->buffer, 0, 8)));
  grt_hal_command_buffer_release(cb);

  // Binding-table slots: what is written is only known at submit.
  cb = grt_hal_test_command_buffer_create(GRT_HAL_COMMAND_BUFFER_MODE_REUSABLE,
                                          3);
  GRT_EXPECT_OK(grt_hal_command_buffer_begin(cb));
  GRT_EXPECT_OK(grt_hal_command_buffer_fill_buffer(
      cb, grt_hal_make_indirect_buffer_ref(0, 0, 4), 0, 4));
  bindings[0] = grt_hal_make_indirect_buffer_ref(2, 0, 8);  // read
  bindings[1] = grt_hal_make_indirect_buffer_ref(1, 0, 8);  // written
  GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(cb, &dispatch));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(cb));
  grt_hal_buffer_binding_t slots[3] = {
      {read_only, 0, GRT_HAL_WHOLE_BUFFER},
      {f->buffer, 0, GRT_HAL_WHOLE_BUFFER},
      {read_only, 0, GRT_HAL_WHOLE_BUFFER},
  };
  grt_hal_buffer_binding_table_t table = {3, slots};
  grt_expect_error(grt_hal_command_buffer_validate_submission(cb, table),
                   GRT_STATUS_PERMISSION_DENIED,
                   "fill target: expected a writable buffer (access "
                   "READ|WRITE), got a read-only buffer of 64 bytes (access "
                   "READ); binding table slot 0");
  slots[0].buffer = f->buffer;
  slots[1].buffer = read_only_span;
  grt_expect_error(grt_hal_command_buffer_validate_submission(cb, table),
                   GRT_STATUS_PERMISSION_DENIED,
                   "dispatch of 'copy' binding 1: expected a writable buffer "
                   "(access READ|WRITE), got a read-only buffer of 16 bytes "
                   "(access READ); binding table slot 1");
  slots[1].buffer = f->buffer;
  GRT_EXPECT_OK(grt_hal_command_buffer_validate_submission(cb, table));
  grt_hal_command_buffer_release(cb);
  grt_hal_executable_release(executable);
  grt_hal_buffer_release(read_only_span);
  grt_hal_buffer_release(read_only);
}

// Bindings shorter than the entry point's recorded minimum are refused
// when recorded (direct, or indirect with a length) or at submit (an
// indirect binding of the whole slot); exactly the minimum is accepted.
static void test_dispatch_binding_lengths(void** state) {
  fixture_t* f = *state;
  const uint8_t access[2] = {GRT_HAL_MEMORY_ACCESS_READ,
                             GRT_HAL_MEMORY_ACCESS_WRITE};
  const uint64_t min_lengths[2] = {16, 8};
  const grt_hal_entry_point_info_t entry_point = {
      grt_make_cstring_view("sized"), 2, 0, {1, 1, 1}, access, min_lengths};
  grt_hal_executable_t* executable = create_executable(&entry_point, 1);
  grt_hal_command_buffer_t* cb =
      grt_hal_test_command_buffer_create(GRT_HAL_COMMAND_BUFFER_MODE_REUSABLE,
                                         1);
  GRT_EXPECT_OK(grt_hal_command_buffer_begin(cb));
  grt_hal_buffer_ref_t bindings[2] = {
      grt_hal_make_buffer_ref(f->buffer, 0, 12),
      grt_hal_make_buffer_ref(f->buffer, 32, 8),
  };
  grt_hal_dispatch_params_t dispatch = {
      executable, 0, {1, 1, 1}, NULL, 0, bindings, 2};
  grt_expect_error(grt_hal_command_buffer_dispatch(cb, &dispatch),
                   GRT_STATUS_OUT_OF_RANGE,
                   "dispatch of 'sized' binding 0: entry point needs at least "
                   "16 bytes, got 12");
  // The whole buffer from offset 56 is 8 bytes.
  bindings[0] = grt_hal_make_buffer_ref(f->buffer, 56, GRT_HAL_WHOLE_BUFFER);
  grt_expect_error(grt_hal_command_buffer_dispatch(cb, &dispatch),
                   GRT_STATUS_OUT_OF_RANGE,
                   "dispatch of 'sized' binding 0: entry point needs at least "
                   "16 bytes, got 8");
  bindings[0] = grt_hal_make_buffer_ref(f->buffer, 0, 16);
  bindings[1] = grt_hal_make_indirect_buffer_ref(0, 0, 4);
  grt_expect_error(grt_hal_command_buffer_dispatch(cb, &dispatch),
                   GRT_STATUS_OUT_OF_RANGE,
                   "dispatch of 'sized' binding 1: entry point needs at least "
                   "8 bytes, got 4");
  // Exactly the minimum, directly and through a slot with a length.
  bindings[1] = grt_hal_make_indirect_buffer_ref(0, 0, 8);
  GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(cb, &dispatch));
  bindings[1] = grt_hal_make_buffer_ref(f->buffer, 32, 8);
  GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(cb, &dispatch));
  // The whole slot from offset 4: checked against the table at submit.
  bindings[0] = grt_hal_make_indirect_buffer_ref(0, 4, GRT_HAL_WHOLE_BUFFER);
  GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(cb, &dispatch));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(cb));
  grt_hal_buffer_binding_t slot = {f->buffer, 40, 19};
  grt_hal_buffer_binding_table_t table = {1, &slot};
  grt_expect_error(grt_hal_command_buffer_validate_submission(cb, table),
                   GRT_STATUS_OUT_OF_RANGE,
                   "binding table slot 0: dispatch of 'sized' binding 0 needs "
                   "at least 16 bytes from offset 4, the slot has 19 bytes");
  slot.length = 20;
  GRT_EXPECT_OK(grt_hal_command_buffer_validate_submission(cb, table));
  grt_hal_command_buffer_release(cb);
  grt_hal_executable_release(executable);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_state_machine, setup, teardown),
      cmocka_unit_test_setup_teardown(test_fill_validation, setup, teardown),
      cmocka_unit_test_setup_teardown(test_copy_and_update_validation, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_dispatch_validation, setup, teardown),
      cmocka_unit_test_setup_teardown(test_read_only_targets, setup, teardown),
      cmocka_unit_test_setup_teardown(test_dispatch_binding_lengths, setup,
                                      teardown),
      cmocka_unit_test(test_clone_constants),
      cmocka_unit_test_setup_teardown(test_ref_resolve, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
