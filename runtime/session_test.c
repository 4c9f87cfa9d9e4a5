// The embedding API: instance, devices, sessions, appending modules (from
// memory and files), function lookup and calls, and their error messages.
// Modules are assembled from vm-dialect text in memory.
#define _XOPEN_SOURCE 700  // mkstemp
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
#include "hal/local/executable.h"
#include "hal/transfer.h"
#include "runtime/hal_module.h"
#include "schemas/module_file.h"
#include "schemas/module_signature.h"
#include "schemas/testing/example_module.h"
#include "vm/test_support.h"

// main asserts its argument is tensor<4xf32> and returns it.
static const char kSource[] =
    "vm.module @sess {\n"
    "  vm.import private @hal.buffer_view.assert(%view : !hal.buffer_view, "
    "%message : !vm.buffer, %element_type : i32, %encoding : i32, %shape : "
    "i64 ...)\n"
    "  vm.rodata private @arg0 dense<[97, 114, 103, 117, 109, 101, 110, 116, "
    "32, 48]> : tensor<10xi8>\n"
    "  vm.func @main(%v : !hal.buffer_view) -> !hal.buffer_view {\n"
    "    %msg = vm.const.ref.rodata @arg0 : !vm.buffer\n"
    "    %type = vm.const.i32 553648160\n"  // f32
    "    %enc = vm.const.i32.zero\n"
    "    %c4 = vm.const.i64 4\n"
    "    vm.call.variadic @hal.buffer_view.assert(%v, %msg, %type, %enc, "
    "[%c4]) : (!hal.buffer_view, !vm.buffer, i32, i32, i64 ...) -> ()\n"
    "    vm.return %v : !hal.buffer_view\n"
    "  }\n"
    "  vm.export @main\n"
    "  vm.func @add(%a : i32, %b : i32) -> i32 {\n"
    "    %c = vm.add.i32 %a, %b : i32\n"
    "    vm.return %c : i32\n"
    "  }\n"
    "  vm.export @add\n"
    "}\n";

static const char kBogusSource[] =
    "vm.module @bogus {\n"
    "  vm.func @f() {\n"
    "    vm.return\n"
    "  }\n"
    "  vm.export @f\n"
    "}\n";

typedef struct module_bytes_t {
  void* data;
  size_t size;
} module_bytes_t;

// Assembles |source|; with |format| also adds an executable of that format.
static module_bytes_t assemble(const char* source, const char* format) {
  grt_allocator_t allocator = grt_allocator_system();
  grt_module_writer_t* writer = NULL;
  GRT_EXPECT_OK(grt_module_writer_create(allocator, &writer));
  grtc_compile_options_t options = {0};
  GRT_EXPECT_OK(grtc_compile_source(source, strlen(source), "test.mlir",
                                       &options, allocator, writer));
  if (format) {
    static const char binary[] = "not a kernel library";
    grt_module_executable_t executable = {
        grt_make_cstring_view(format), 1,
        grt_make_const_byte_span(binary, sizeof(binary)), NULL};
    grt_module_entry_point_t entry = {grt_make_cstring_view("k"), 1, 0,
                                      {1, 1, 1}, NULL, NULL};
    uint32_t ordinal = 0;
    GRT_EXPECT_OK(grt_module_writer_add_executable(writer, &executable,
                                                      &entry, 1, &ordinal));
  }
  module_bytes_t bytes = {NULL, 0};
  GRT_EXPECT_OK(grt_module_writer_finish(writer, &bytes.data, &bytes.size));
  grt_module_writer_destroy(writer);
  return bytes;
}

static grt_runtime_instance_t* instance;
static grt_hal_device_t* device;
static grt_runtime_session_t* session;
static module_bytes_t module;

static int setup(void** state) {
  (void)state;
  GRT_EXPECT_OK(grt_runtime_instance_create(NULL, &instance));
  GRT_EXPECT_OK(
      grt_runtime_instance_create_device(instance, "local-sync", NULL, &device));
  GRT_EXPECT_OK(grt_runtime_session_create(instance, device, &session));
  module = assemble(kSource, NULL);
  return 0;
}

static int teardown(void** state) {
  (void)state;
  grt_runtime_session_release(session);
  grt_hal_device_release(device);
  grt_runtime_instance_release(instance);
  grt_allocator_free(grt_allocator_system(), module.data);
  return 0;
}

static void append_module(void) {
  GRT_EXPECT_OK(grt_runtime_session_append_module_from_memory(
      session, grt_make_const_byte_span(module.data, module.size)));
}

static grt_hal_buffer_view_t* make_f32_view(grt_hal_dim_t count,
                                            const float* data) {
  grt_hal_buffer_view_t* view = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
      device, &count, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, data,
      (size_t)count * sizeof(float), &view));
  return view;
}

static void test_instance_and_devices(void** state) {
  (void)state;
  assert_non_null(grt_runtime_instance_vm_instance(instance));
  assert_non_null(grt_runtime_instance_driver_registry(instance));
  assert_non_null(grt_runtime_instance_host_allocator(instance).vtable);
  assert_ptr_equal(grt_runtime_session_device(session), device);
  // The HAL types are registered with the instance.
  assert_ptr_equal(
      grt_vm_instance_lookup_type(grt_runtime_instance_vm_instance(instance),
                                  grt_make_cstring_view("hal.buffer_view")),
      &grt_runtime_hal_buffer_view_type);
  grt_hal_device_t* none = NULL;
  grt_expect_error(
      grt_runtime_instance_create_device(instance, "nope", NULL, &none),
      GRT_STATUS_NOT_FOUND, "unknown device 'nope'; available: local-sync");
  // hal and check come first in the context.
  grt_vm_context_t* context = grt_runtime_session_context(session);
  assert_int_equal(grt_vm_context_module_count(context), 2);
  grt_runtime_session_retain(session);
  grt_runtime_session_release(session);
}

static void test_lookup_and_call(void** state) {
  (void)state;
  grt_vm_function_t function;
  grt_expect_error(
      grt_runtime_session_lookup_function(session, "main", &function),
      GRT_STATUS_FAILED_PRECONDITION,
      "cannot look up 'main': no module has been appended to the session");
  // The hal module is callable by its full names from the start.
  grt_vm_list_t* outputs = NULL;
  GRT_EXPECT_OK(grt_vm_list_create(grt_vm_type_def_variant(), 2,
                                      grt_allocator_system(), &outputs));
  GRT_EXPECT_OK(grt_runtime_call(session, "hal.devices.count", NULL, outputs));
  int32_t count = 0;
  GRT_EXPECT_OK(grt_vm_list_get_i32(outputs, 0, &count));
  assert_int_equal(count, 1);

  append_module();
  GRT_EXPECT_OK(grt_runtime_session_lookup_function(session, "add", &function));
  assert_true(grt_string_view_equal_cstring(function.name, "add"));
  GRT_EXPECT_OK(
      grt_runtime_session_lookup_function(session, "sess.add", &function));
  grt_expect_error(
      grt_runtime_session_lookup_function(session, "nope", &function),
      GRT_STATUS_NOT_FOUND,
      "module 'sess' has no function 'nope'; it exports: main, add");
  grt_expect_error(
      grt_runtime_session_lookup_function(session, "other.add", &function),
      GRT_STATUS_NOT_FOUND,
      "no module named 'other' in the context (looking up 'other.add'); "
      "modules: hal, check, sess");

  grt_vm_list_t* inputs = NULL;
  GRT_EXPECT_OK(grt_vm_list_create(grt_vm_type_def_variant(), 2,
                                      grt_allocator_system(), &inputs));
  grt_vm_variant_t three = grt_vm_variant_i32(3);
  grt_vm_variant_t four = grt_vm_variant_i32(4);
  GRT_EXPECT_OK(grt_vm_list_push_variant(inputs, &three));
  GRT_EXPECT_OK(grt_vm_list_push_variant(inputs, &four));
  GRT_EXPECT_OK(grt_vm_list_resize(outputs, 0));
  GRT_EXPECT_OK(grt_runtime_call(session, "sess.add", inputs, outputs));
  int32_t sum = 0;
  GRT_EXPECT_OK(grt_vm_list_get_i32(outputs, 0, &sum));
  assert_int_equal(sum, 7);
  grt_vm_list_release(inputs);
  grt_vm_list_release(outputs);

  // A second copy of the same module is refused; the session still works.
  grt_expect_error(grt_runtime_session_append_module_from_memory(
                          session,
                          grt_make_const_byte_span(module.data, module.size)),
                      GRT_STATUS_ALREADY_EXISTS,
                      "module 'sess' is already in the context (position 2)");
  GRT_EXPECT_OK(grt_runtime_session_lookup_function(session, "add", &function));
}

static void test_call_buffer_views(void** state) {
  (void)state;
  append_module();
  const float data[4] = {1, 2, 3, 4};
  grt_hal_buffer_view_t* input = make_f32_view(4, data);
  grt_hal_buffer_view_t* outputs[2] = {NULL, NULL};
  size_t output_count = 0;
  GRT_EXPECT_OK(grt_runtime_call_buffer_views(session, "main", 1, &input, 2,
                                                 outputs, &output_count));
  assert_int_equal(output_count, 1);
  assert_ptr_equal(outputs[0], input);
  grt_hal_buffer_view_release(outputs[0]);
  outputs[0] = NULL;

  grt_expect_error(grt_runtime_call_buffer_views(session, "main", 1, &input,
                                                    0, outputs, &output_count),
                      GRT_STATUS_OUT_OF_RANGE,
                      "'main' returned 1 values, but there is room for 0");
  assert_null(outputs[0]);
  grt_expect_error(grt_runtime_call_buffer_views(session, "main", 0, NULL, 2,
                                                    outputs, &output_count),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "main: argument 0 (ref) is missing: 0 given");

  const float five[5] = {1, 2, 3, 4, 5};
  grt_hal_buffer_view_t* wrong = make_f32_view(5, five);
  grt_status_t status = grt_runtime_call_buffer_views(
      session, "main", 1, &wrong, 2, outputs, &output_count);
  assert_int_equal(grt_status_code(status), GRT_STATUS_INVALID_ARGUMENT);
  const char* message = grt_status_message(status);
  const char* expected =
      "argument 0: expected tensor<4xf32>, got tensor<5xf32>";
  assert_memory_equal(message, expected, strlen(expected));
  assert_non_null(strstr(message, "in invocation of 'sess.main'"));
  grt_status_free(status);
  assert_int_equal(output_count, 0);

  grt_hal_buffer_view_release(wrong);
  grt_hal_buffer_view_release(input);
}

static void test_incompatible_executables(void** state) {
  (void)state;
  module_bytes_t bogus = assemble(kBogusSource, "cpu-bogus");
  char expected[256];
  snprintf(expected, sizeof(expected),
           "module 'bogus' has executables for cpu-bogus; device local-sync "
           "runs %s, cpu-static",
           grt_hal_local_host_executable_format());
  grt_expect_error(grt_runtime_session_append_module_from_memory(
                          session, grt_make_const_byte_span(bogus.data,
                                                            bogus.size)),
                      GRT_STATUS_INCOMPATIBLE, expected);
  assert_int_equal(
      grt_vm_context_module_count(grt_runtime_session_context(session)), 2);
  grt_allocator_free(grt_allocator_system(), bogus.data);

  // A module with no executables appends without asking the device.
  module_bytes_t plain = assemble(kBogusSource, NULL);
  GRT_EXPECT_OK(grt_runtime_session_append_module_from_memory(
      session, grt_make_const_byte_span(plain.data, plain.size)));
  grt_vm_function_t function;
  GRT_EXPECT_OK(grt_runtime_session_lookup_function(session, "f", &function));
  grt_runtime_session_release(session);  // before the bytes it borrows
  session = NULL;
  grt_allocator_free(grt_allocator_system(), plain.data);
}

static void test_append_from_file(void** state) {
  (void)state;
  grt_status_t status = grt_runtime_session_append_module_from_file(
      session, "/nonexistent/model.vmfb");
  assert_non_null(status);
  assert_non_null(strstr(grt_status_message(status), "/nonexistent/model.vmfb"));
  grt_status_free(status);

  char path[] = "/tmp/grt_session_test_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE* file = fdopen(fd, "wb");
  assert_non_null(file);
  assert_int_equal(fwrite(module.data, 1, module.size, file), module.size);
  fclose(file);
  GRT_EXPECT_OK(grt_runtime_session_append_module_from_file(session, path));
  remove(path);  // the module keeps its mapping
  grt_vm_function_t function;
  GRT_EXPECT_OK(
      grt_runtime_session_lookup_function(session, "sess.main", &function));
}

// One opened module file serves several sessions; each retains it, so the
// caller may drop its reference at once.
static void test_append_module_file_to_two_sessions(void** state) {
  (void)state;
  grt_module_file_t* file = NULL;
  GRT_EXPECT_OK(grt_module_file_open_memory(
      grt_make_const_byte_span(module.data, module.size),
      grt_allocator_system(), &file));
  grt_runtime_session_t* second = NULL;
  GRT_EXPECT_OK(grt_runtime_session_create(instance, device, &second));
  GRT_EXPECT_OK(grt_runtime_session_append_module_file(session, file));
  GRT_EXPECT_OK(grt_runtime_session_append_module_file(second, file));
  grt_module_file_release(file);
  grt_vm_function_t function;
  GRT_EXPECT_OK(
      grt_runtime_session_lookup_function(session, "sess.main", &function));
  GRT_EXPECT_OK(
      grt_runtime_session_lookup_function(second, "sess.main", &function));
  grt_runtime_session_release(second);
}

static module_bytes_t sign_bytes(module_bytes_t bytes,
                                 const grt_module_secret_key_t* key) {
  module_bytes_t signed_bytes = {NULL, 0};
  GRT_EXPECT_OK(grt_module_sign(grt_make_const_byte_span(bytes.data, bytes.size),
                                key, false, grt_allocator_system(),
                                &signed_bytes.data, &signed_bytes.size));
  return signed_bytes;
}

static grt_status_t append_bytes(module_bytes_t bytes) {
  return grt_runtime_session_append_module_from_memory(
      session, grt_make_const_byte_span(bytes.data, bytes.size));
}

// Appending fails, but not for its signature: it got past the check to the
// kernel loader, which refuses "not a kernel library".
static void expect_loader_error(grt_status_t status) {
  assert_non_null(status);
  if (grt_status_code(status) == GRT_STATUS_PERMISSION_DENIED) {
    fail_msg("expected the loader's error, got %s", grt_status_message(status));
  }
  grt_status_free(status);
}

// require_signed_native_code: an unsigned module with executables, or one
// signed by a key that is not trusted, or whose signature does not hold,
// never gets to the kernel loader; bytecode-only modules need no signature.
static void test_require_signed_native_code(void** state) {
  (void)state;
  const char* format = grt_hal_local_host_executable_format();
  module_bytes_t native = assemble(kBogusSource, format);
  // By default the (bogus) kernel library goes to the loader.
  expect_loader_error(append_bytes(native));

  GRT_EXPECT_OK(grt_runtime_session_set_require_signed_native_code(session, true));
  char expected[256];
  snprintf(expected, sizeof(expected),
           "module 'bogus' is not signed and has native code (executables: "
           "%s); the session requires signed native code",
           format);
  grt_expect_error(append_bytes(native), GRT_STATUS_PERMISSION_DENIED,
                   expected);
  if (!grt_module_signing_available()) {
    grt_runtime_session_release(session);
    session = NULL;
    grt_allocator_free(grt_allocator_system(), native.data);
    return;
  }
  grt_module_secret_key_t key, other;
  GRT_EXPECT_OK(grt_example_signing_key(1, &key));
  GRT_EXPECT_OK(grt_example_signing_key(2, &other));
  module_bytes_t signed_native = sign_bytes(native, &key);
  grt_expect_error(append_bytes(signed_native), GRT_STATUS_PERMISSION_DENIED,
                   "which is not one of the 0 trusted keys");
  GRT_EXPECT_OK(grt_runtime_session_add_trusted_key(session, &other.public_key));
  grt_expect_error(append_bytes(signed_native), GRT_STATUS_PERMISSION_DENIED,
                   "which is not one of the 1 trusted key");
  GRT_EXPECT_OK(grt_runtime_session_add_trusted_key(session, &key.public_key));
  GRT_EXPECT_OK(grt_runtime_session_add_trusted_key(session, &key.public_key));
  expect_loader_error(append_bytes(signed_native));
  // The binary changed after signing (its digest recomputed or not).
  ((uint8_t*)signed_native.data)[signed_native.size -
                                 GRT_MODULE_SIGNATURE_BLOCK_SIZE - 1] ^= 1;
  grt_status_t status = append_bytes(signed_native);
  assert_non_null(status);
  if (grt_status_code(status) == GRT_STATUS_PERMISSION_DENIED) {
    assert_non_null(strstr(grt_status_message(status), "does not match"));
  }
  grt_status_free(status);
  // Bytecode only: unsigned is fine.
  module_bytes_t plain = assemble(kBogusSource, NULL);
  GRT_EXPECT_OK(append_bytes(plain));
  grt_vm_function_t function;
  GRT_EXPECT_OK(grt_runtime_session_lookup_function(session, "bogus.f", &function));
  grt_runtime_session_release(session);  // before the bytes it borrows
  session = NULL;
  grt_allocator_free(grt_allocator_system(), plain.data);
  grt_allocator_free(grt_allocator_system(), signed_native.data);
  grt_allocator_free(grt_allocator_system(), native.data);
}

// With trusted keys (and no requirement) a signed module must verify; an
// unsigned one is appended as before.
static void test_trusted_keys(void** state) {
  (void)state;
  grt_expect_error(
      grt_runtime_session_add_trusted_key_file(session, "/nonexistent/k.pub"),
      GRT_STATUS_NOT_FOUND, "reading trusted key '/nonexistent/k.pub'");
  grt_expect_error(
      grt_runtime_session_add_trusted_key_file(session, "/dev/null"),
      GRT_STATUS_INVALID_ARGUMENT,
      "'/dev/null' has 0 bytes, expected 40 (a grt public key file");
  if (!grt_module_signing_available()) return;
  grt_module_secret_key_t key, other;
  GRT_EXPECT_OK(grt_example_signing_key(1, &key));
  GRT_EXPECT_OK(grt_example_signing_key(2, &other));
  module_bytes_t by_key = sign_bytes(module, &key);
  module_bytes_t by_other = sign_bytes(module, &other);
  // No trusted key: signatures are not checked.
  grt_runtime_session_t* unchecked = NULL;
  GRT_EXPECT_OK(grt_runtime_session_create(instance, device, &unchecked));
  GRT_EXPECT_OK(grt_runtime_session_append_module_from_memory(
      unchecked, grt_make_const_byte_span(by_other.data, by_other.size)));
  grt_runtime_session_release(unchecked);

  GRT_EXPECT_OK(grt_runtime_session_add_trusted_key(session, &key.public_key));
  grt_expect_error(append_bytes(by_other), GRT_STATUS_PERMISSION_DENIED,
                   "module 'sess' is signed by key");
  // A changed rodata byte (the "argument 0" message).
  module_bytes_t tampered = sign_bytes(module, &key);
  uint8_t* bytes = tampered.data;
  size_t at = 0;
  while (at + 10 <= tampered.size && memcmp(bytes + at, "argument 0", 10) != 0) {
    ++at;
  }
  assert_true(at + 10 <= tampered.size);
  bytes[at] = 'A';
  grt_expect_error(append_bytes(tampered), GRT_STATUS_PERMISSION_DENIED,
                   "module 'sess': the signature by key");
  GRT_EXPECT_OK(append_bytes(by_key));
  grt_vm_list_t* inputs = NULL;
  grt_vm_list_t* outputs = NULL;
  GRT_EXPECT_OK(grt_vm_list_create(grt_vm_type_def_variant(), 2,
                                   grt_allocator_system(), &inputs));
  GRT_EXPECT_OK(grt_vm_list_create(grt_vm_type_def_variant(), 1,
                                   grt_allocator_system(), &outputs));
  grt_vm_variant_t two = grt_vm_variant_i32(2);
  grt_vm_variant_t three = grt_vm_variant_i32(3);
  GRT_EXPECT_OK(grt_vm_list_push_variant(inputs, &two));
  GRT_EXPECT_OK(grt_vm_list_push_variant(inputs, &three));
  GRT_EXPECT_OK(grt_runtime_call(session, "sess.add", inputs, outputs));
  int32_t sum = 0;
  GRT_EXPECT_OK(grt_vm_list_get_i32(outputs, 0, &sum));
  assert_int_equal(sum, 5);
  grt_vm_list_release(inputs);
  grt_vm_list_release(outputs);
  // Unsigned: appended (the requirement is off).
  module_bytes_t plain = assemble(kBogusSource, NULL);
  GRT_EXPECT_OK(append_bytes(plain));
  grt_runtime_session_release(session);
  session = NULL;
  grt_allocator_free(grt_allocator_system(), plain.data);
  grt_allocator_free(grt_allocator_system(), tampered.data);
  grt_allocator_free(grt_allocator_system(), by_other.data);
  grt_allocator_free(grt_allocator_system(), by_key.data);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_instance_and_devices, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_lookup_and_call, setup, teardown),
      cmocka_unit_test_setup_teardown(test_call_buffer_views, setup, teardown),
      cmocka_unit_test_setup_teardown(test_incompatible_executables, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_append_from_file, setup, teardown),
      cmocka_unit_test_setup_teardown(test_append_module_file_to_two_sessions,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(test_require_signed_native_code, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_trusted_keys, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
