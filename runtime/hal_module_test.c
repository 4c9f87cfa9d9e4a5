// The hal module, called the way bytecode calls it: through a context, with
// a real local-sync device from the driver registry.
#include "runtime/hal_module.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/sha256.h"
#include "hal/driver.h"
#include "hal/fence.h"
#include "hal/local/executable.h"
#include "hal/local/testdata/test_kernels.h"
#include "hal/transfer.h"
#include "vm/buffer.h"
#include "vm/context.h"
#include "vm/invoke.h"
#include "vm/list.h"
#include "vm/test_support.h"

typedef struct fixture_t {
  grt_vm_instance_t* instance;
  grt_hal_driver_registry_t* registry;
  grt_hal_device_t* device;
  grt_vm_module_t* hal;
  grt_vm_context_t* context;
  grt_vm_list_t* results;
} fixture_t;

static fixture_t f;

static int setup(void** state) {
  (void)state;
  memset(&f, 0, sizeof(f));
  grt_allocator_t allocator = grt_allocator_system();
  GRT_EXPECT_OK(grt_vm_instance_create(allocator, &f.instance));
  GRT_EXPECT_OK(grt_hal_driver_registry_create(allocator, &f.registry));
  GRT_EXPECT_OK(grt_hal_register_available_drivers(f.registry));
  GRT_EXPECT_OK(grt_hal_driver_registry_create_device(
      f.registry, "local-sync", NULL, allocator, &f.device));
  GRT_EXPECT_OK(
      grt_runtime_hal_module_create(f.instance, f.device, allocator, &f.hal));
  GRT_EXPECT_OK(
      grt_vm_context_create(f.instance, &f.hal, 1, allocator, &f.context));
  GRT_EXPECT_OK(grt_vm_list_create(grt_vm_type_def_variant(), 4, allocator,
                                      &f.results));
  return 0;
}

static int teardown(void** state) {
  (void)state;
  grt_vm_list_release(f.results);
  grt_vm_context_release(f.context);
  grt_vm_module_release(f.hal);
  grt_hal_device_release(f.device);
  grt_hal_driver_registry_destroy(f.registry);
  grt_vm_instance_release(f.instance);
  return 0;
}

// Calls hal.<name> with |count| arguments; results land in f.results.
static grt_status_t call(const char* name, const grt_vm_variant_t* args,
                         size_t count) {
  GRT_EXPECT_OK(grt_vm_list_resize(f.results, 0));
  grt_vm_function_t function;
  GRT_RETURN_IF_ERROR(grt_vm_module_lookup_function(
      f.hal, grt_make_cstring_view(name), &function));
  grt_vm_list_t* inputs = NULL;
  GRT_EXPECT_OK(grt_vm_list_create(grt_vm_type_def_variant(), count,
                                      grt_allocator_system(), &inputs));
  for (size_t i = 0; i < count; ++i) {
    GRT_EXPECT_OK(grt_vm_list_push_variant(inputs, &args[i]));
  }
  grt_status_t status = grt_vm_invoke(f.context, &function, inputs, f.results,
                                      grt_allocator_system());
  grt_vm_list_release(inputs);
  return status;
}

static int64_t result_i64(size_t index) {
  grt_vm_variant_t value = grt_vm_variant_empty();
  GRT_EXPECT_OK(grt_vm_list_get_variant_assign(f.results, index, &value));
  int64_t result = value.type == GRT_VM_VALUE_TYPE_I64 ? value.i64 : value.i32;
  grt_vm_variant_reset(&value);
  return result;
}

// A new reference to result |index|, checked to be of |type|.
static grt_vm_ref_t result_ref(size_t index, grt_vm_ref_type_t type) {
  grt_vm_ref_t ref = grt_vm_ref_null();
  GRT_EXPECT_OK(grt_vm_list_get_ref_assign(f.results, index, &ref));
  GRT_EXPECT_OK(grt_vm_ref_check_type(&ref, type));
  return ref;
}

static grt_vm_variant_t ref_arg(const grt_vm_ref_t* ref) {
  grt_vm_variant_t value = grt_vm_variant_empty();
  value.type = GRT_VM_VALUE_TYPE_REF;
  value.ref = *ref;  // borrowed: the list retains its own reference
  return value;
}

static grt_vm_ref_t text_ref(const char* text) {
  grt_vm_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_create(GRT_VM_BUFFER_ACCESS_MUTABLE,
                                        strlen(text), 0, grt_allocator_system(),
                                        &buffer));
  void* data = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_map_write(buffer, 0, strlen(text), &data));
  memcpy(data, text, strlen(text));
  return grt_vm_ref_wrap_move(buffer, grt_vm_buffer_type());
}

static grt_vm_ref_t device_ref(void) {
  return grt_vm_ref_wrap_retain(f.device, &grt_runtime_hal_device_type);
}

// A host-visible buffer of |size| bytes, through device.allocator and
// allocator.allocate.
static grt_vm_ref_t allocate_buffer(int64_t size) {
  grt_vm_ref_t device = device_ref();
  grt_vm_variant_t args[] = {ref_arg(&device)};
  GRT_EXPECT_OK(call("device.allocator", args, 1));
  grt_vm_ref_t allocator = result_ref(0, grt_vm_instance_lookup_type(
                                             f.instance,
                                             grt_make_cstring_view("hal.allocator")));
  grt_vm_variant_t allocate[] = {
      ref_arg(&allocator),
      grt_vm_variant_i32(GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL |
                         GRT_HAL_MEMORY_TYPE_HOST_VISIBLE),
      grt_vm_variant_i32(GRT_HAL_BUFFER_USAGE_DEFAULT |
                         GRT_HAL_BUFFER_USAGE_MAPPING),
      grt_vm_variant_i64(size)};
  GRT_EXPECT_OK(call("allocator.allocate", allocate, 4));
  grt_vm_ref_t buffer = result_ref(0, &grt_runtime_hal_buffer_type);
  grt_vm_ref_release(&allocator);
  grt_vm_ref_release(&device);
  return buffer;
}

// Importing a read-only vm.buffer (module rodata) gives a read-only HAL
// buffer: hal.buffer.store into it, or into a subspan of it, fails naming
// the export and argument instead of writing (the memory may be a
// read-only mapping of the module file). A mutable source stays writable.
static void test_allocator_import_read_only(void** state) {
  (void)state;
  grt_vm_ref_t device = device_ref();
  grt_vm_variant_t device_args[] = {ref_arg(&device)};
  GRT_EXPECT_OK(call("device.allocator", device_args, 1));
  grt_vm_ref_t allocator = result_ref(
      0, grt_vm_instance_lookup_type(f.instance,
                                     grt_make_cstring_view("hal.allocator")));
  static uint8_t rodata[16] = {1, 2, 3, 4};
  grt_vm_buffer_t* constant = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_wrap(
      rodata, sizeof(rodata), GRT_VM_BUFFER_ACCESS_ORIGIN_MODULE,
      (grt_vm_buffer_release_callback_t){NULL, NULL}, grt_allocator_system(),
      &constant));
  grt_vm_ref_t source = grt_vm_ref_wrap_move(constant, grt_vm_buffer_type());
  grt_vm_variant_t import_args[] = {ref_arg(&allocator), ref_arg(&source),
                                    grt_vm_variant_i64(0),
                                    grt_vm_variant_i64(8)};
  GRT_EXPECT_OK(call("allocator.import", import_args, 4));
  grt_vm_ref_t buffer = result_ref(0, &grt_runtime_hal_buffer_type);
  grt_vm_variant_t store[] = {grt_vm_variant_i32(0x7f), ref_arg(&buffer),
                              grt_vm_variant_i64(0), grt_vm_variant_i32(4)};
  grt_expect_error(call("buffer.store", store, 4),
                   GRT_STATUS_PERMISSION_DENIED,
                   "hal.buffer.store: expected a writable buffer (access "
                   "READ|WRITE), got a read-only buffer of 8 bytes (access "
                   "READ); argument 'buffer'");
  grt_vm_variant_t subspan_args[] = {ref_arg(&buffer), grt_vm_variant_i64(4),
                                     grt_vm_variant_i64(4)};
  GRT_EXPECT_OK(call("buffer.subspan", subspan_args, 3));
  grt_vm_ref_t span = result_ref(0, &grt_runtime_hal_buffer_type);
  store[1] = ref_arg(&span);
  grt_expect_error(call("buffer.store", store, 4),
                   GRT_STATUS_PERMISSION_DENIED,
                   "got a read-only buffer of 4 bytes (access READ); argument "
                   "'buffer'");
  assert_int_equal(rodata[0], 1);
  assert_int_equal(rodata[4], 0);
  grt_vm_ref_release(&span);
  grt_vm_ref_release(&buffer);
  grt_vm_ref_release(&source);
  // A mutable vm.buffer imports writable.
  source = text_ref("0123456789abcdef");
  import_args[1] = ref_arg(&source);
  GRT_EXPECT_OK(call("allocator.import", import_args, 4));
  buffer = result_ref(0, &grt_runtime_hal_buffer_type);
  store[1] = ref_arg(&buffer);
  GRT_EXPECT_OK(call("buffer.store", store, 4));
  grt_vm_ref_release(&buffer);
  grt_vm_ref_release(&source);
  grt_vm_ref_release(&allocator);
  grt_vm_ref_release(&device);
}

// allocator.import wraps a vm.buffer's bytes (zero-copy on local-sync): the
// HAL buffer reads the imported range and outlives the caller's reference
// to the vm.buffer; bad ranges and types fail naming what is wrong.
static void test_allocator_import(void** state) {
  (void)state;
  grt_vm_ref_t device = device_ref();
  grt_vm_variant_t device_args[] = {ref_arg(&device)};
  GRT_EXPECT_OK(call("device.allocator", device_args, 1));
  grt_vm_ref_t allocator = result_ref(
      0, grt_vm_instance_lookup_type(f.instance,
                                     grt_make_cstring_view("hal.allocator")));
  grt_vm_ref_t source = text_ref("0123456789abcdef");
  grt_vm_variant_t import_args[] = {ref_arg(&allocator), ref_arg(&source),
                                    grt_vm_variant_i64(4),
                                    grt_vm_variant_i64(8)};
  GRT_EXPECT_OK(call("allocator.import", import_args, 4));
  grt_vm_ref_t buffer = result_ref(0, &grt_runtime_hal_buffer_type);
  grt_vm_ref_release(&source);  // the imported buffer keeps the bytes alive
  grt_vm_variant_t length_args[] = {ref_arg(&buffer)};
  GRT_EXPECT_OK(call("buffer.length", length_args, 1));
  assert_int_equal(result_i64(0), 8);
  grt_vm_variant_t load_args[] = {ref_arg(&buffer), grt_vm_variant_i64(0),
                                  grt_vm_variant_i32(4)};
  GRT_EXPECT_OK(call("buffer.load", load_args, 3));
  int32_t expected = 0;
  memcpy(&expected, "4567", 4);
  assert_int_equal(result_i64(0), expected);
  grt_vm_ref_release(&buffer);

  // -1: to the end of the source.
  source = text_ref("xyz");
  import_args[1] = ref_arg(&source);
  import_args[2] = grt_vm_variant_i64(1);
  import_args[3] = grt_vm_variant_i64(-1);
  GRT_EXPECT_OK(call("allocator.import", import_args, 4));
  buffer = result_ref(0, &grt_runtime_hal_buffer_type);
  grt_vm_variant_t tail_args[] = {ref_arg(&buffer)};
  GRT_EXPECT_OK(call("buffer.length", tail_args, 1));
  assert_int_equal(result_i64(0), 2);
  grt_vm_ref_release(&buffer);

  import_args[2] = grt_vm_variant_i64(4);
  grt_expect_error(call("allocator.import", import_args, 4),
                   GRT_STATUS_OUT_OF_RANGE,
                   "offset 4 is past the end of the 3-byte source");
  import_args[2] = grt_vm_variant_i64(0);
  import_args[3] = grt_vm_variant_i64(-2);
  grt_expect_error(call("allocator.import", import_args, 4),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "length must be >= 0 or -1 (the whole buffer), got -2");
  import_args[1] = ref_arg(&allocator);
  import_args[3] = grt_vm_variant_i64(1);
  grt_expect_error(call("allocator.import", import_args, 4),
                   GRT_STATUS_INVALID_ARGUMENT, "argument 'source'");
  grt_vm_ref_release(&source);
  grt_vm_ref_release(&allocator);
  grt_vm_ref_release(&device);
}

static void test_types_register_once(void** state) {
  (void)state;
  size_t count = grt_vm_instance_type_count(f.instance);
  GRT_EXPECT_OK(grt_runtime_hal_register_types(f.instance));
  assert_int_equal(grt_vm_instance_type_count(f.instance), count);
  const char* names[] = {"hal.allocator",  "hal.buffer",     "hal.buffer_view",
                         "hal.command_buffer", "hal.device", "hal.executable",
                         "hal.fence",      "hal.semaphore"};
  for (size_t i = 0; i < 8; ++i) {
    grt_vm_ref_type_t type =
        grt_vm_instance_lookup_type(f.instance, grt_make_cstring_view(names[i]));
    assert_non_null(type);
    assert_int_equal(type->counter_offset, 0);
  }
  assert_ptr_equal(grt_vm_instance_lookup_type(
                       f.instance, grt_make_cstring_view("hal.buffer_view")),
                   &grt_runtime_hal_buffer_view_type);
}

static void test_devices_and_buffers(void** state) {
  (void)state;
  GRT_EXPECT_OK(call("devices.count", NULL, 0));
  assert_int_equal(result_i64(0), 1);
  grt_vm_variant_t zero[] = {grt_vm_variant_i32(0)};
  GRT_EXPECT_OK(call("devices.get", zero, 1));
  grt_vm_ref_t device = result_ref(0, &grt_runtime_hal_device_type);
  assert_ptr_equal(device.ptr, f.device);
  grt_vm_ref_release(&device);
  grt_vm_variant_t one[] = {grt_vm_variant_i32(1)};
  grt_expect_error(call("devices.get", one, 1), GRT_STATUS_OUT_OF_RANGE,
                      "device 1 is out of range (the session has 1 device)");

  grt_vm_ref_t buffer = allocate_buffer(64);
  grt_vm_variant_t length_args[] = {ref_arg(&buffer)};
  GRT_EXPECT_OK(call("buffer.length", length_args, 1));
  assert_int_equal(result_i64(0), 64);

  grt_vm_variant_t store[] = {grt_vm_variant_i32(0x12345678), ref_arg(&buffer),
                              grt_vm_variant_i64(8), grt_vm_variant_i32(4)};
  GRT_EXPECT_OK(call("buffer.store", store, 4));
  grt_vm_variant_t load[] = {ref_arg(&buffer), grt_vm_variant_i64(8),
                             grt_vm_variant_i32(4)};
  GRT_EXPECT_OK(call("buffer.load", load, 3));
  assert_int_equal(result_i64(0), 0x12345678);
  load[2] = grt_vm_variant_i32(1);
  GRT_EXPECT_OK(call("buffer.load", load, 3));
  assert_int_equal(result_i64(0), 0x78);
  load[2] = grt_vm_variant_i32(3);
  grt_expect_error(call("buffer.load", load, 3),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "length must be 1, 2 or 4 bytes, got 3");

  grt_vm_variant_t subspan[] = {ref_arg(&buffer), grt_vm_variant_i64(8),
                                grt_vm_variant_i64(16)};
  GRT_EXPECT_OK(call("buffer.subspan", subspan, 3));
  grt_vm_ref_t view = result_ref(0, &grt_runtime_hal_buffer_type);
  grt_vm_variant_t view_length[] = {ref_arg(&view)};
  GRT_EXPECT_OK(call("buffer.length", view_length, 1));
  assert_int_equal(result_i64(0), 16);
  grt_vm_variant_t view_load[] = {ref_arg(&view), grt_vm_variant_i64(0),
                                  grt_vm_variant_i32(2)};
  GRT_EXPECT_OK(call("buffer.load", view_load, 3));
  assert_int_equal(result_i64(0), 0x5678);
  subspan[1] = grt_vm_variant_i64(-4);
  grt_expect_error(call("buffer.subspan", subspan, 3),
                      GRT_STATUS_INVALID_ARGUMENT, "offset must be >= 0, got -4");

  grt_vm_ref_t wrong = text_ref("x");
  grt_vm_variant_t wrong_args[] = {ref_arg(&wrong)};
  grt_expect_error(call("buffer.length", wrong_args, 1),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "expected ref<hal.buffer>, got ref<vm.buffer>; argument "
                      "'buffer'");
  grt_vm_ref_release(&wrong);
  grt_vm_ref_release(&view);
  grt_vm_ref_release(&buffer);
}

// Arguments of buffer_view.create/assert: the fixed part then the shape.
static void test_buffer_views(void** state) {
  (void)state;
  grt_vm_ref_t buffer = allocate_buffer(64);
  grt_vm_variant_t create[] = {
      ref_arg(&buffer), grt_vm_variant_i64(0), grt_vm_variant_i64(64),
      grt_vm_variant_i32((int32_t)GRT_HAL_ELEMENT_TYPE_FLOAT_32),
      grt_vm_variant_i32(0), grt_vm_variant_i32(2), grt_vm_variant_i64(4),
      grt_vm_variant_i64(4)};
  GRT_EXPECT_OK(call("buffer_view.create", create, 8));
  grt_vm_ref_t view = result_ref(0, &grt_runtime_hal_buffer_view_type);
  grt_hal_buffer_view_t* host_view = NULL;
  GRT_EXPECT_OK(grt_runtime_buffer_view_from_ref(&view, &host_view));
  assert_int_equal(grt_hal_buffer_view_rank(host_view), 2);

  grt_vm_variant_t one_view[] = {ref_arg(&view)};
  GRT_EXPECT_OK(call("buffer_view.rank", one_view, 1));
  assert_int_equal(result_i64(0), 2);
  GRT_EXPECT_OK(call("buffer_view.element_type", one_view, 1));
  assert_int_equal(result_i64(0), (int32_t)GRT_HAL_ELEMENT_TYPE_FLOAT_32);
  GRT_EXPECT_OK(call("buffer_view.buffer", one_view, 1));
  grt_vm_ref_t viewed = result_ref(0, &grt_runtime_hal_buffer_type);
  assert_ptr_equal(viewed.ptr, buffer.ptr);
  grt_vm_ref_release(&viewed);
  grt_vm_variant_t dim[] = {ref_arg(&view), grt_vm_variant_i32(1)};
  GRT_EXPECT_OK(call("buffer_view.dim", dim, 2));
  assert_int_equal(result_i64(0), 4);
  dim[1] = grt_vm_variant_i32(2);
  grt_expect_error(call("buffer_view.dim", dim, 2), GRT_STATUS_OUT_OF_RANGE,
                      "dimension 2 is out of range for tensor<4x4xf32> (rank "
                      "2)");

  // An offset/length other than the whole buffer views a subspan.
  create[1] = grt_vm_variant_i64(16);
  create[2] = grt_vm_variant_i64(48);
  create[6] = grt_vm_variant_i64(3);
  GRT_EXPECT_OK(call("buffer_view.create", create, 8));
  grt_vm_ref_t tail = result_ref(0, &grt_runtime_hal_buffer_view_type);
  grt_vm_ref_release(&tail);
  create[4] = grt_vm_variant_i32(1);
  grt_expect_error(call("buffer_view.create", create, 8),
                      GRT_STATUS_UNIMPLEMENTED,
                      "encoding 1 is not supported; expected 0 (dense "
                      "row-major)");

  grt_vm_ref_t message = text_ref("argument 0");
  grt_vm_variant_t assert_args[] = {
      ref_arg(&view), ref_arg(&message),
      grt_vm_variant_i32((int32_t)GRT_HAL_ELEMENT_TYPE_FLOAT_32),
      grt_vm_variant_i32(0), grt_vm_variant_i32(2), grt_vm_variant_i64(4),
      grt_vm_variant_i64(4)};
  GRT_EXPECT_OK(call("buffer_view.assert", assert_args, 7));
  assert_args[6] = grt_vm_variant_i64(16);
  grt_expect_error(call("buffer_view.assert", assert_args, 7),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "argument 0: expected tensor<4x16xf32>, got "
                      "tensor<4x4xf32>");
  assert_args[0] = ref_arg(&message);  // a vm.buffer is not a view
  grt_expect_error(call("buffer_view.assert", assert_args, 7),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "argument 0: expected tensor<4x16xf32>, got "
                      "ref<vm.buffer>");
  grt_vm_ref_t null_ref = grt_vm_ref_null();
  assert_args[0] = ref_arg(&null_ref);
  grt_expect_error(call("buffer_view.assert", assert_args, 7),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "argument 0: expected tensor<4x16xf32>, got ref<null>");
  // -1: any size (a symbolic dimension).
  assert_args[0] = ref_arg(&view);
  assert_args[5] = grt_vm_variant_i64(-1);
  assert_args[6] = grt_vm_variant_i64(4);
  GRT_EXPECT_OK(call("buffer_view.assert", assert_args, 7));
  assert_args[6] = grt_vm_variant_i64(5);
  grt_expect_error(call("buffer_view.assert", assert_args, 7),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "argument 0: expected tensor<?x5xf32>, got "
                      "tensor<4x4xf32>");

  // assert_dim: ==, >= and <= a bound, the size in the message.
  grt_vm_ref_t dim_message = text_ref("@f argument 1 dimension 0");
  grt_vm_variant_t dim_args[] = {ref_arg(&view), ref_arg(&dim_message),
                                 grt_vm_variant_i32(0), grt_vm_variant_i32(0),
                                 grt_vm_variant_i64(4)};
  GRT_EXPECT_OK(call("buffer_view.assert_dim", dim_args, 5));
  dim_args[4] = grt_vm_variant_i64(3);
  grt_expect_error(call("buffer_view.assert_dim", dim_args, 5),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "@f argument 1 dimension 0: expected 3, got 4");
  dim_args[3] = grt_vm_variant_i32(1);
  GRT_EXPECT_OK(call("buffer_view.assert_dim", dim_args, 5));
  dim_args[4] = grt_vm_variant_i64(5);
  grt_expect_error(call("buffer_view.assert_dim", dim_args, 5),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "@f argument 1 dimension 0: expected at least 5, got 4");
  dim_args[3] = grt_vm_variant_i32(2);
  GRT_EXPECT_OK(call("buffer_view.assert_dim", dim_args, 5));
  dim_args[4] = grt_vm_variant_i64(3);
  grt_expect_error(call("buffer_view.assert_dim", dim_args, 5),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "@f argument 1 dimension 0: expected at most 3, got 4");
  dim_args[3] = grt_vm_variant_i32(3);
  grt_expect_error(call("buffer_view.assert_dim", dim_args, 5),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "relation 3 is not 0 (==), 1 (>=) or 2 (<=)");
  dim_args[3] = grt_vm_variant_i32(0);
  dim_args[2] = grt_vm_variant_i32(2);
  grt_expect_error(call("buffer_view.assert_dim", dim_args, 5),
                   GRT_STATUS_OUT_OF_RANGE,
                   "dimension 2 is out of range for tensor<4x4xf32> (rank 2)");
  grt_vm_ref_release(&dim_message);

  grt_vm_ref_release(&message);
  grt_vm_ref_release(&view);
  grt_vm_ref_release(&buffer);
}

static grt_vm_ref_t new_fence(void) {
  grt_vm_ref_t device = device_ref();
  grt_vm_variant_t args[] = {ref_arg(&device)};
  GRT_EXPECT_OK(call("fence.create", args, 1));
  grt_vm_ref_release(&device);
  return result_ref(0, &grt_runtime_hal_fence_type);
}

static grt_vm_ref_t new_command_buffer(int32_t mode, int32_t capacity) {
  grt_vm_ref_t device = device_ref();
  grt_vm_variant_t args[] = {ref_arg(&device), grt_vm_variant_i32(mode),
                             grt_vm_variant_i32(capacity)};
  GRT_EXPECT_OK(call("command_buffer.create", args, 3));
  grt_vm_ref_release(&device);
  return result_ref(0, &grt_runtime_hal_command_buffer_type);
}

// Submits |cb| with a new signal fence and awaits it.
static void execute_and_wait(const grt_vm_ref_t* cb) {
  grt_vm_ref_t device = device_ref();
  grt_vm_ref_t fence = new_fence();
  grt_vm_ref_t null_ref = grt_vm_ref_null();
  grt_vm_variant_t execute[] = {ref_arg(&device), ref_arg(&null_ref),
                                ref_arg(&fence), grt_vm_variant_i32(1),
                                ref_arg(cb)};
  GRT_EXPECT_OK(call("device.queue.execute", execute, 5));
  grt_vm_variant_t await[] = {grt_vm_variant_i32(-1), grt_vm_variant_i32(1),
                              ref_arg(&fence)};
  GRT_EXPECT_OK(call("fence.await", await, 3));
  assert_int_equal(result_i64(0), 1);
  grt_vm_variant_t query[] = {ref_arg(&fence)};
  GRT_EXPECT_OK(call("fence.query", query, 1));
  assert_int_equal(result_i64(0), 1);
  grt_vm_ref_release(&fence);
  grt_vm_ref_release(&device);
}

static void test_command_buffers_and_fences(void** state) {
  (void)state;
  grt_vm_ref_t buffer = allocate_buffer(64);
  grt_vm_ref_t other = allocate_buffer(64);
  grt_vm_ref_t cb = new_command_buffer(0, 0);
  grt_vm_variant_t one[] = {ref_arg(&cb)};
  GRT_EXPECT_OK(call("command_buffer.begin", one, 1));
  grt_vm_variant_t fill[] = {ref_arg(&cb),          ref_arg(&buffer),
                             grt_vm_variant_i64(0), grt_vm_variant_i64(64),
                             grt_vm_variant_i32(0), grt_vm_variant_i32(7),
                             grt_vm_variant_i32(4)};
  GRT_EXPECT_OK(call("command_buffer.fill_buffer", fill, 7));
  GRT_EXPECT_OK(call("command_buffer.execution_barrier", one, 1));
  grt_vm_ref_t bytes = text_ref("ABCD");
  grt_vm_variant_t update[] = {ref_arg(&cb),          ref_arg(&bytes),
                               grt_vm_variant_i64(0), ref_arg(&buffer),
                               grt_vm_variant_i64(4), grt_vm_variant_i64(4),
                               grt_vm_variant_i32(0)};
  GRT_EXPECT_OK(call("command_buffer.update_buffer", update, 7));
  GRT_EXPECT_OK(call("command_buffer.execution_barrier", one, 1));
  grt_vm_variant_t copy[] = {ref_arg(&cb),           grt_vm_variant_i32(0),
                             grt_vm_variant_i32(0),  ref_arg(&buffer),
                             grt_vm_variant_i64(0),  ref_arg(&other),
                             grt_vm_variant_i64(32), grt_vm_variant_i64(32)};
  GRT_EXPECT_OK(call("command_buffer.copy_buffer", copy, 8));
  GRT_EXPECT_OK(call("command_buffer.end", one, 1));
  execute_and_wait(&cb);

  uint32_t words[16];
  GRT_EXPECT_OK(grt_hal_device_transfer_d2h(f.device, other.ptr, 32, words,
                                               sizeof(uint32_t) * 2));
  assert_int_equal(words[0], 7);
  assert_memory_equal(&words[1], "ABCD", 4);

  // State errors come from the HAL with its message.
  grt_expect_error(call("command_buffer.end", one, 1),
                      GRT_STATUS_FAILED_PRECONDITION, "command buffer");
  grt_vm_ref_t device = device_ref();
  grt_vm_variant_t bad_mode[] = {ref_arg(&device), grt_vm_variant_i32(5),
                                 grt_vm_variant_i32(0)};
  grt_expect_error(call("command_buffer.create", bad_mode, 3),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "command buffer mode must be 0 (one-shot) or 1 "
                      "(reusable), got 5");

  // Fences: pending, timed out, signalled, joined, failed.
  grt_vm_ref_t a = new_fence();
  grt_vm_ref_t b = new_fence();
  grt_vm_variant_t query[] = {ref_arg(&a)};
  GRT_EXPECT_OK(call("fence.query", query, 1));
  assert_int_equal(result_i64(0), 0);
  grt_vm_variant_t join[] = {grt_vm_variant_i32(2), ref_arg(&a), ref_arg(&b)};
  GRT_EXPECT_OK(call("fence.join", join, 3));
  grt_vm_ref_t joined = result_ref(0, &grt_runtime_hal_fence_type);
  assert_int_equal(grt_hal_fence_count(joined.ptr), 2);
  grt_vm_variant_t await_joined[] = {grt_vm_variant_i32(0),
                                     grt_vm_variant_i32(1), ref_arg(&joined)};
  GRT_EXPECT_OK(call("fence.await", await_joined, 3));
  assert_int_equal(result_i64(0), 0);
  GRT_EXPECT_OK(call("fence.signal", query, 1));
  GRT_EXPECT_OK(call("fence.query", query, 1));
  assert_int_equal(result_i64(0), 1);
  grt_vm_variant_t fail[] = {ref_arg(&b), grt_vm_variant_i32(GRT_STATUS_ABORTED)};
  GRT_EXPECT_OK(call("fence.fail", fail, 2));
  grt_expect_error(call("fence.await", await_joined, 3), GRT_STATUS_ABORTED,
                      "fence failed by the program (hal.fence.fail with code "
                      "10)");
  grt_vm_variant_t query_b[] = {ref_arg(&b)};
  grt_expect_error(call("fence.query", query_b, 1), GRT_STATUS_ABORTED,
                      "fence failed by the program");
  fail[1] = grt_vm_variant_i32(0);
  grt_expect_error(call("fence.fail", fail, 2), GRT_STATUS_INVALID_ARGUMENT,
                      "fence failure code must be a status code from 1 to 16, "
                      "got 0");
  fail[1] = grt_vm_variant_i32(GRT_STATUS_DEFERRED);
  grt_expect_error(call("fence.fail", fail, 2), GRT_STATUS_INVALID_ARGUMENT,
                      "fence failure code must be a status code from 1 to 16, "
                      "got 17");

  grt_vm_ref_release(&joined);
  grt_vm_ref_release(&a);
  grt_vm_ref_release(&b);
  grt_vm_ref_release(&device);
  grt_vm_ref_release(&bytes);
  grt_vm_ref_release(&cb);
  grt_vm_ref_release(&other);
  grt_vm_ref_release(&buffer);
}

static void test_queue_alloca_and_query(void** state) {
  (void)state;
  grt_vm_ref_t device = device_ref();
  grt_vm_ref_t fence = new_fence();
  grt_vm_ref_t null_ref = grt_vm_ref_null();
  grt_vm_variant_t alloca_args[] = {
      ref_arg(&device),      ref_arg(&null_ref),
      ref_arg(&fence),       grt_vm_variant_i32(GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL),
      grt_vm_variant_i32(0), grt_vm_variant_i64(128)};
  GRT_EXPECT_OK(call("device.queue.alloca", alloca_args, 6));
  grt_vm_ref_t buffer = result_ref(0, &grt_runtime_hal_buffer_type);
  assert_int_equal(grt_hal_buffer_byte_length(buffer.ptr), 128);
  grt_vm_ref_t done = new_fence();
  grt_vm_variant_t dealloca[] = {ref_arg(&device), ref_arg(&fence),
                                 ref_arg(&done), ref_arg(&buffer)};
  GRT_EXPECT_OK(call("device.queue.dealloca", dealloca, 4));
  grt_vm_variant_t await[] = {grt_vm_variant_i32(-1), grt_vm_variant_i32(1),
                              ref_arg(&done)};
  GRT_EXPECT_OK(call("fence.await", await, 3));
  assert_int_equal(result_i64(0), 1);
  alloca_args[5] = grt_vm_variant_i64(-1);
  grt_expect_error(call("device.queue.alloca", alloca_args, 6),
                      GRT_STATUS_INVALID_ARGUMENT, "size must be >= 0, got -1");

  grt_vm_ref_t category = text_ref("hal.device");
  grt_vm_ref_t key = text_ref("concurrency");
  grt_vm_variant_t query[] = {ref_arg(&device), ref_arg(&category),
                              ref_arg(&key)};
  GRT_EXPECT_OK(call("device.query.i64", query, 3));
  assert_int_equal(result_i64(0), 1);
  assert_true(result_i64(1) >= 1);
  grt_vm_ref_t unknown = text_ref("no-such-key");
  query[2] = ref_arg(&unknown);
  GRT_EXPECT_OK(call("device.query.i64", query, 3));
  assert_int_equal(result_i64(0), 0);
  assert_int_equal(result_i64(1), 0);

  grt_vm_ref_release(&unknown);
  grt_vm_ref_release(&key);
  grt_vm_ref_release(&category);
  grt_vm_ref_release(&done);
  grt_vm_ref_release(&buffer);
  grt_vm_ref_release(&fence);
  grt_vm_ref_release(&device);
}

// The test kernels linked in, prepared as cpu-static.
static grt_hal_executable_t* prepare_test_kernels(void) {
  grt_status_t status =
      grt_hal_local_register_static_library(grt_hal_local_test_kernels_library());
  if (grt_status_code(status) == GRT_STATUS_ALREADY_EXISTS) {
    grt_status_free(status);
  } else {
    GRT_EXPECT_OK(status);
  }
  static const grt_hal_entry_point_info_t entry_points[] = {
      GRT_TEST_KERNELS_ENTRY_POINTS};
  const char* name = GRT_TEST_KERNELS_STATIC_NAME;
  uint8_t digest[GRT_HAL_EXECUTABLE_DIGEST_SIZE];
  grt_sha256(name, strlen(name), digest);
  grt_hal_executable_params_t params = {
      grt_make_cstring_view("cpu-static"), (const uint8_t*)name, strlen(name),
      digest, entry_points, GRT_TEST_KERNELS_COUNT};
  grt_hal_executable_t* executable = NULL;
  GRT_EXPECT_OK(grt_hal_executable_cache_prepare(
      grt_hal_device_executable_cache(f.device), &params, &executable));
  return executable;
}

static void test_executables_and_dispatch(void** state) {
  (void)state;
  grt_vm_ref_t device = device_ref();
  grt_vm_ref_t name = text_ref("add");
  grt_vm_variant_t lookup[] = {ref_arg(&device), ref_arg(&name)};
  grt_expect_error(call("executable.lookup", lookup, 2), GRT_STATUS_NOT_FOUND,
                      "no executable for module 'add'; modules with "
                      "executables: (none)");
  grt_expect_error(call("executable.variant", lookup, 2), GRT_STATUS_NOT_FOUND,
                      "no executable for module 'add'; modules with "
                      "executables: (none)");
  grt_hal_executable_t* executable = prepare_test_kernels();
  GRT_EXPECT_OK(grt_runtime_hal_module_register_executable(
      f.hal, grt_make_cstring_view("add"), executable, 0));
  grt_expect_error(grt_runtime_hal_module_register_executable(
                          f.hal, grt_make_cstring_view("add"), executable, 1),
                      GRT_STATUS_ALREADY_EXISTS,
                      "module 'add' already has an executable registered");
  GRT_EXPECT_OK(grt_runtime_hal_module_register_executable(
      f.hal, grt_make_cstring_view("other"), executable, 2));
  grt_hal_executable_release(executable);
  GRT_EXPECT_OK(call("executable.lookup", lookup, 2));
  grt_vm_ref_t exe = result_ref(0, &grt_runtime_hal_executable_type);
  // Each module's variant is the index it was registered with.
  GRT_EXPECT_OK(call("executable.variant", lookup, 2));
  assert_int_equal(result_i64(0), 0);
  grt_vm_ref_t other = text_ref("other");
  lookup[1] = ref_arg(&other);
  GRT_EXPECT_OK(call("executable.variant", lookup, 2));
  assert_int_equal(result_i64(0), 2);
  grt_vm_ref_release(&other);
  grt_vm_ref_t missing = text_ref("mul");
  lookup[1] = ref_arg(&missing);
  grt_expect_error(call("executable.lookup", lookup, 2), GRT_STATUS_NOT_FOUND,
                      "no executable for module 'mul'; modules with "
                      "executables: add, other");
  grt_expect_error(call("executable.variant", lookup, 2), GRT_STATUS_NOT_FOUND,
                      "no executable for module 'mul'; modules with "
                      "executables: add, other");
  grt_runtime_hal_module_unregister_executable(f.hal,
                                               grt_make_cstring_view("other"));
  grt_expect_error(call("executable.lookup", lookup, 2), GRT_STATUS_NOT_FOUND,
                      "modules with executables: add");
  // Not a device, not text: the argument is named.
  grt_vm_variant_t swapped[] = {ref_arg(&missing), ref_arg(&device)};
  grt_expect_error(call("executable.variant", swapped, 2),
                   GRT_STATUS_INVALID_ARGUMENT, "argument 'device'");

  // out = a + b over 100 floats: two workgroups of 64; b comes from the
  // binding table slot 0 of a reusable command buffer.
  enum { N = 100 };
  float a[N], b[N], out[N];
  for (int i = 0; i < N; ++i) {
    a[i] = (float)i;
    b[i] = 0.5f * (float)i;
  }
  grt_vm_ref_t ab = allocate_buffer(N * 4);
  grt_vm_ref_t bb = allocate_buffer(N * 4);
  grt_vm_ref_t ob = allocate_buffer(N * 4);
  GRT_EXPECT_OK(grt_hal_device_transfer_h2d(f.device, a, ab.ptr, 0, sizeof(a)));
  GRT_EXPECT_OK(grt_hal_device_transfer_h2d(f.device, b, bb.ptr, 0, sizeof(b)));
  grt_vm_ref_t cb = new_command_buffer(1, 1);
  grt_vm_variant_t one[] = {ref_arg(&cb)};
  GRT_EXPECT_OK(call("command_buffer.begin", one, 1));
  grt_vm_ref_t null_ref = grt_vm_ref_null();
  grt_vm_variant_t dispatch[] = {
      ref_arg(&cb),          ref_arg(&exe),          grt_vm_variant_i32(0),
      grt_vm_variant_i32(2), grt_vm_variant_i32(1),  grt_vm_variant_i32(1),
      grt_vm_variant_i32(0),  // no constants
      grt_vm_variant_i32(3),  // bindings
      grt_vm_variant_i32(0), ref_arg(&ab),           grt_vm_variant_i64(0),
      grt_vm_variant_i64(-1),
      grt_vm_variant_i32(0), ref_arg(&null_ref),     grt_vm_variant_i64(0),
      grt_vm_variant_i64(N * 4),
      grt_vm_variant_i32(0), ref_arg(&ob),           grt_vm_variant_i64(0),
      grt_vm_variant_i64(N * 4)};
  size_t dispatch_count = sizeof(dispatch) / sizeof(dispatch[0]);
  GRT_EXPECT_OK(call("command_buffer.dispatch", dispatch, dispatch_count));
  GRT_EXPECT_OK(call("command_buffer.end", one, 1));
  grt_vm_ref_t fence = new_fence();
  grt_vm_variant_t execute[] = {ref_arg(&device), ref_arg(&null_ref),
                                ref_arg(&fence),  ref_arg(&cb),
                                grt_vm_variant_i32(1), ref_arg(&bb),
                                grt_vm_variant_i64(0), grt_vm_variant_i64(-1)};
  GRT_EXPECT_OK(call("device.queue.execute.indirect", execute, 8));
  grt_vm_variant_t await[] = {grt_vm_variant_i32(-1), grt_vm_variant_i32(1),
                              ref_arg(&fence)};
  GRT_EXPECT_OK(call("fence.await", await, 3));
  GRT_EXPECT_OK(
      grt_hal_device_transfer_d2h(f.device, ob.ptr, 0, out, sizeof(out)));
  for (int i = 0; i < N; ++i) assert_true(out[i] == a[i] + b[i]);

  // A binding count the entry point does not take is the HAL's error.
  grt_vm_ref_t cb2 = new_command_buffer(0, 0);
  grt_vm_variant_t one2[] = {ref_arg(&cb2)};
  GRT_EXPECT_OK(call("command_buffer.begin", one2, 1));
  dispatch[0] = ref_arg(&cb2);
  dispatch[7] = grt_vm_variant_i32(1);
  grt_expect_error(call("command_buffer.dispatch", dispatch, 12),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "entry point takes 3 bindings, got 1");

  grt_vm_ref_release(&cb2);
  grt_vm_ref_release(&fence);
  grt_vm_ref_release(&cb);
  grt_vm_ref_release(&ob);
  grt_vm_ref_release(&bb);
  grt_vm_ref_release(&ab);
  grt_vm_ref_release(&missing);
  grt_vm_ref_release(&exe);
  grt_vm_ref_release(&name);
  grt_vm_ref_release(&device);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_types_register_once, setup, teardown),
      cmocka_unit_test_setup_teardown(test_allocator_import, setup, teardown),
      cmocka_unit_test_setup_teardown(test_allocator_import_read_only, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_devices_and_buffers, setup, teardown),
      cmocka_unit_test_setup_teardown(test_buffer_views, setup, teardown),
      cmocka_unit_test_setup_teardown(test_command_buffers_and_fences, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_queue_alloca_and_query, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_executables_and_dispatch, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
