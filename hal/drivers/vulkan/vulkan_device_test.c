// The Vulkan driver's own checks beyond the conformance suite: VkResult
// names, a missing loader, device selection by URI, SPIR-V reflection on
// good and malformed modules, executables whose binary does not match the
// module's entry table, and no validation message from any of it. Tests
// that need a device skip when this machine has none.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/sha256.h"
#include "base/status_matchers.h"
#include "hal/drivers/vulkan/driver.h"
#include "hal/drivers/vulkan/loader.h"
#include "hal/drivers/vulkan/spirv_reflect.h"
#include "schemas/spirv_container.h"

// glslangValidator -V --target-env vulkan1.2 of:
//   layout(local_size_x = 8, local_size_y = 2, local_size_z = 1) in;
//   layout(set = 0, binding = 2) buffer B { uint values[]; } b;
//   layout(push_constant) uniform C { uint x; uint y; } c;
//   void main() { b.values[gl_LocalInvocationIndex] = c.x + c.y; }
static const uint32_t kTestModule[] = {
    0x07230203,0x00010500,0x0008000b,0x00000021,0x00000000,0x00020011,0x00000001,0x0006000b,
    0x00000001,0x4c534c47,0x6474732e,0x3035342e,0x00000000,0x0003000e,0x00000000,0x00000001,
    0x0008000f,0x00000005,0x00000004,0x6e69616d,0x00000000,0x0000000a,0x0000000e,0x00000012,
    0x00060010,0x00000004,0x00000011,0x00000008,0x00000002,0x00000001,0x00030003,0x00000002,
    0x000001c2,0x00040005,0x00000004,0x6e69616d,0x00000000,0x00030005,0x00000008,0x00000042,
    0x00050006,0x00000008,0x00000000,0x756c6176,0x00007365,0x00030005,0x0000000a,0x00000062,
    0x00080005,0x0000000e,0x4c5f6c67,0x6c61636f,0x6f766e49,0x69746163,0x6e496e6f,0x00786564,
    0x00030005,0x00000010,0x00000043,0x00040006,0x00000010,0x00000000,0x00000078,0x00040006,
    0x00000010,0x00000001,0x00000079,0x00030005,0x00000012,0x00000063,0x00040047,0x00000007,
    0x00000006,0x00000004,0x00050048,0x00000008,0x00000000,0x00000023,0x00000000,0x00030047,
    0x00000008,0x00000002,0x00040047,0x0000000a,0x00000022,0x00000000,0x00040047,0x0000000a,
    0x00000021,0x00000002,0x00040047,0x0000000e,0x0000000b,0x0000001d,0x00050048,0x00000010,
    0x00000000,0x00000023,0x00000000,0x00050048,0x00000010,0x00000001,0x00000023,0x00000004,
    0x00030047,0x00000010,0x00000002,0x00040047,0x00000020,0x0000000b,0x00000019,0x00020013,
    0x00000002,0x00030021,0x00000003,0x00000002,0x00040015,0x00000006,0x00000020,0x00000000,
    0x0003001d,0x00000007,0x00000006,0x0003001e,0x00000008,0x00000007,0x00040020,0x00000009,
    0x0000000c,0x00000008,0x0004003b,0x00000009,0x0000000a,0x0000000c,0x00040015,0x0000000b,
    0x00000020,0x00000001,0x0004002b,0x0000000b,0x0000000c,0x00000000,0x00040020,0x0000000d,
    0x00000001,0x00000006,0x0004003b,0x0000000d,0x0000000e,0x00000001,0x0004001e,0x00000010,
    0x00000006,0x00000006,0x00040020,0x00000011,0x00000009,0x00000010,0x0004003b,0x00000011,
    0x00000012,0x00000009,0x00040020,0x00000013,0x00000009,0x00000006,0x0004002b,0x0000000b,
    0x00000016,0x00000001,0x00040020,0x0000001a,0x0000000c,0x00000006,0x00040017,0x0000001c,
    0x00000006,0x00000003,0x0004002b,0x00000006,0x0000001d,0x00000008,0x0004002b,0x00000006,
    0x0000001e,0x00000002,0x0004002b,0x00000006,0x0000001f,0x00000001,0x0006002c,0x0000001c,
    0x00000020,0x0000001d,0x0000001e,0x0000001f,0x00050036,0x00000002,0x00000004,0x00000000,
    0x00000003,0x000200f8,0x00000005,0x0004003d,0x00000006,0x0000000f,0x0000000e,0x00050041,
    0x00000013,0x00000014,0x00000012,0x0000000c,0x0004003d,0x00000006,0x00000015,0x00000014,
    0x00050041,0x00000013,0x00000017,0x00000012,0x00000016,0x0004003d,0x00000006,0x00000018,
    0x00000017,0x00050080,0x00000006,0x00000019,0x00000015,0x00000018,0x00060041,0x0000001a,
    0x0000001b,0x0000000a,0x0000000c,0x0000000f,0x0003003e,0x0000001b,0x00000019,0x000100fd,
    0x00010038
};

static void test_result_names(void** state) {
  (void)state;
  GRT_EXPECT_OK(grt_vk_result_status(VK_SUCCESS, "vkQueueSubmit"));
  grt_expect_error(grt_vk_result_status(VK_ERROR_DEVICE_LOST, "vkQueueSubmit"),
                   GRT_STATUS_UNAVAILABLE,
                   "vkQueueSubmit failed: VK_ERROR_DEVICE_LOST");
  grt_expect_error(
      grt_vk_result_status(VK_ERROR_OUT_OF_DEVICE_MEMORY, "vkAllocateMemory"),
      GRT_STATUS_RESOURCE_EXHAUSTED,
      "vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY");
  grt_expect_error(grt_vk_result_status((VkResult)-12345, "vkFoo"),
                   GRT_STATUS_INTERNAL, "vkFoo failed: VkResult(-12345)");
}

static void test_missing_loader(void** state) {
  (void)state;
  grt_vk_instance_t* instance = NULL;
  grt_expect_error(grt_vk_instance_create("libvulkan-grt-absent.so.1",
                                          grt_allocator_system(), &instance),
                   GRT_STATUS_UNAVAILABLE,
                   "no Vulkan device found (libvulkan-grt-absent.so.1: "
                   "cannot open shared object file");
  assert_null(instance);
}

static void test_reflect(void** state) {
  (void)state;
  grt_spirv_reflection_t reflection;
  GRT_EXPECT_OK(grt_spirv_reflect(
      kTestModule, sizeof(kTestModule) / 4, grt_allocator_system(),
      &reflection));
  assert_int_equal(reflection.binding_count, 3);
  assert_int_equal(reflection.push_constant_bytes, 8);
  assert_int_equal(reflection.workgroup_size[0], 8);
  assert_int_equal(reflection.workgroup_size[1], 2);
  assert_int_equal(reflection.workgroup_size[2], 1);
  assert_int_equal(reflection.capabilities, 0);  // Shader needs no feature

  // Capabilities that need a device feature are recorded: the module's
  // OpCapability Shader (words 5-6) turned into StorageBuffer8BitAccess.
  uint32_t capable[sizeof(kTestModule) / 4];
  memcpy(capable, kTestModule, sizeof(capable));
  assert_int_equal(capable[5], 0x00020011u);
  capable[6] = 4448;
  GRT_EXPECT_OK(grt_spirv_reflect(capable, sizeof(capable) / 4, grt_allocator_system(),
                                  &reflection));
  assert_int_equal(reflection.capabilities, GRT_SPIRV_CAP_STORAGE8);
  assert_string_equal(grt_spirv_capability_feature(GRT_SPIRV_CAP_STORAGE8),
                      "storageBuffer8BitAccess");
  assert_string_equal(grt_spirv_capability_feature(GRT_SPIRV_CAP_INT8), "shaderInt8");

  // An instruction claiming more words than the module has.
  uint32_t broken[sizeof(kTestModule) / 4];
  memcpy(broken, kTestModule, sizeof(broken));
  broken[5] = (1000u << 16) | 17u;
  grt_expect_error(grt_spirv_reflect(broken, sizeof(broken) / 4,
                                     grt_allocator_system(), &reflection),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "SPIR-V instruction at word 5 has length 1000");
  // No entry point named "main".
  memcpy(broken, kTestModule, sizeof(broken));
  for (size_t i = 5; i < sizeof(broken) / 4; ++i) {
    if (memcmp(&broken[i], "main", 4) == 0) memcpy(&broken[i], "mian", 4);
  }
  grt_expect_error(grt_spirv_reflect(broken, sizeof(broken) / 4,
                                     grt_allocator_system(), &reflection),
                   GRT_STATUS_INCOMPATIBLE,
                   "SPIR-V module has no GLCompute entry point 'main'");
  // A variable moved to descriptor set 1 is the out-of-range status word;
  // set 2 is refused.
  assert_false(reflection.status_word);
  memcpy(broken, kTestModule, sizeof(broken));
  size_t set_word = 0;
  for (size_t i = 5; i + 3 < sizeof(broken) / 4 && !set_word; ++i) {
    if (broken[i] == ((4u << 16) | 71u) && broken[i + 2] == 34u) set_word = i + 3;
  }
  assert_true(set_word != 0);
  broken[set_word] = 1;
  GRT_EXPECT_OK(grt_spirv_reflect(broken, sizeof(broken) / 4, grt_allocator_system(),
                                  &reflection));
  assert_true(reflection.status_word);
  broken[set_word] = 2;
  grt_expect_error(grt_spirv_reflect(broken, sizeof(broken) / 4,
                                     grt_allocator_system(), &reflection),
                   GRT_STATUS_INCOMPATIBLE,
                   "a variable in descriptor set 2; expected set 0 (the bindings) or 1 (the "
                   "out-of-range status word)");
}

// The device under test, or NULL (and the test skipped) without Vulkan.
static grt_hal_driver_registry_t* g_registry;

static grt_hal_device_t* create_device_or_skip(const char* uri) {
  grt_hal_device_t* device = NULL;
  grt_status_t status = grt_hal_driver_registry_create_device(
      g_registry, uri, NULL, grt_allocator_system(), &device);
  if (grt_status_code(status) == GRT_STATUS_UNAVAILABLE) {
    char message[256];
    grt_status_format(status, message, sizeof(message));
    grt_status_free(status);
    print_message("skipped: %s\n", message);
    skip();
  }
  GRT_EXPECT_OK(status);
  return device;
}

static void test_device_selection(void** state) {
  (void)state;
  grt_hal_device_t* device = create_device_or_skip("vulkan");
  assert_string_equal(grt_hal_device_uri(device), "vulkan");
  int64_t value = 0;
  GRT_EXPECT_OK(grt_hal_device_query_i64(
      device, grt_make_cstring_view("hal.executable.format"),
      grt_make_cstring_view("vulkan-spirv"), &value));
  assert_int_equal(value, 1);
  GRT_EXPECT_OK(grt_hal_device_query_i64(
      device, grt_make_cstring_view("hal.device.id"),
      grt_make_cstring_view("vulkan*"), &value));
  assert_int_equal(value, 1);
  grt_hal_device_release(device);

  device = create_device_or_skip("vulkan://0");
  grt_hal_device_release(device);
  device = NULL;
  grt_expect_error(grt_hal_driver_registry_create_device(
                       g_registry, "vulkan://99", NULL, grt_allocator_system(),
                       &device),
                   GRT_STATUS_NOT_FOUND, "vulkan://99");
  assert_null(device);
}

// Prepares |binary| as a one-entry executable expecting |entry|.
static grt_status_t prepare(grt_hal_device_t* device, const uint8_t* binary,
                            size_t size, grt_hal_entry_point_info_t entry,
                            grt_hal_executable_t** out) {
  uint8_t digest[GRT_SHA256_DIGEST_SIZE];
  grt_sha256(binary, size, digest);
  grt_hal_executable_params_t params = {
      grt_make_cstring_view("vulkan-spirv"), binary, size, digest, &entry, 1};
  return grt_hal_executable_cache_prepare(
      grt_hal_device_executable_cache(device), &params, out);
}

static void test_executables(void** state) {
  (void)state;
  grt_hal_device_t* device = create_device_or_skip("vulkan");
  grt_spirv_module_t module = {kTestModule, sizeof(kTestModule) / 4};
  uint8_t* binary = NULL;
  size_t size = 0;
  GRT_EXPECT_OK(grt_spirv_container_write(&module, 1, grt_allocator_system(),
                                          &binary, &size));
  grt_hal_entry_point_info_t entry = {grt_make_cstring_view("sum"), 3, 2,
                                      {0, 0, 0}, NULL, NULL};
  grt_hal_executable_t* executable = NULL;
  GRT_EXPECT_OK(prepare(device, binary, size, entry, &executable));
  // The workgroup size recorded is the shader's.
  const grt_hal_entry_point_info_t* info = NULL;
  GRT_EXPECT_OK(grt_hal_executable_entry_point(executable, 0, &info));
  assert_int_equal(info->workgroup_size[0], 8);
  assert_int_equal(info->workgroup_size[1], 2);
  grt_hal_executable_release(executable);
  executable = NULL;

  // A shader that binds more than the module says.
  entry.binding_count = 2;
  grt_expect_error(prepare(device, binary, size, entry, &executable),
                   GRT_STATUS_INCOMPATIBLE,
                   "entry point 0 'sum': module expects 2 bindings, binary "
                   "has 3");
  entry.binding_count = 3;
  entry.constant_count = 1;
  grt_expect_error(prepare(device, binary, size, entry, &executable),
                   GRT_STATUS_INCOMPATIBLE,
                   "module expects 1 constants, binary has 2");
  entry.constant_count = 2;
  // Not a container.
  grt_expect_error(prepare(device, (const uint8_t*)kTestModule,
                           sizeof(kTestModule), entry, &executable),
                   GRT_STATUS_INVALID_ARGUMENT, "spirv container: magic");
  // More entries expected than the binary has.
  grt_hal_entry_point_info_t two[2] = {entry, entry};
  uint8_t digest[GRT_SHA256_DIGEST_SIZE];
  grt_sha256(binary, size, digest);
  grt_hal_executable_params_t params = {
      grt_make_cstring_view("vulkan-spirv"), binary, size, digest, two, 2};
  grt_expect_error(
      grt_hal_executable_cache_prepare(grt_hal_device_executable_cache(device),
                                       &params, &executable),
      GRT_STATUS_INCOMPATIBLE,
      "module expects 2 entry points, binary has 1");
  assert_null(executable);
  grt_allocator_free(grt_allocator_system(), binary);
  grt_hal_device_release(device);
}

// Work still waiting when the last user releases the device is cancelled
// (its signals fail), and objects may outlive the device.
static void test_release_with_queued_work(void** state) {
  (void)state;
  grt_hal_device_t* device = create_device_or_skip("vulkan");
  grt_hal_semaphore_t* gate = NULL;
  grt_hal_semaphore_t* done = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_semaphore(device, 0, &gate));
  GRT_EXPECT_OK(grt_hal_device_create_semaphore(device, 0, &done));
  grt_hal_buffer_params_t params = {0};
  grt_hal_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_hal_allocator_allocate_buffer(
      grt_hal_device_allocator(device), params, 64, &buffer));
  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_command_buffer(
      device, GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0, &command_buffer));
  GRT_EXPECT_OK(grt_hal_command_buffer_begin(command_buffer));
  GRT_EXPECT_OK(grt_hal_command_buffer_fill_buffer(
      command_buffer, grt_hal_make_buffer_ref(buffer, 0, 64), 7, 1));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(command_buffer));
  uint64_t one = 1;
  grt_hal_semaphore_list_t wait = {1, &gate, &one};
  grt_hal_semaphore_list_t signal = {1, &done, &one};
  GRT_EXPECT_OK(grt_hal_device_queue_execute(device, wait, signal, 1,
                                             &command_buffer, NULL));
  grt_hal_device_release(device);
  grt_expect_error(grt_hal_semaphore_wait(done, 1, GRT_HAL_TIMEOUT_INFINITE),
                   GRT_STATUS_CANCELLED,
                   "device vulkan was released before the submission's "
                   "waits were reached");
  GRT_EXPECT_OK(grt_hal_semaphore_signal(gate, 1));
  grt_hal_command_buffer_release(command_buffer);
  grt_hal_buffer_release(buffer);
  grt_hal_semaphore_release(done);
  grt_hal_semaphore_release(gate);
}

static void test_no_validation_messages(void** state) {
  (void)state;
  assert_int_equal(grt_vk_validation_message_count(), 0);
}

static int setup(void** state) {
  (void)state;
  // Every test runs under the validation layer (when installed).
  setenv("GRT_VULKAN_VALIDATION", "1", 1);
  if (!grt_status_consume_ok(
          grt_hal_driver_registry_create(grt_allocator_system(), &g_registry))) {
    return -1;
  }
  return grt_status_consume_ok(grt_hal_vulkan_driver_register(g_registry)) ? 0
                                                                           : -1;
}

static int teardown(void** state) {
  (void)state;
  grt_hal_driver_registry_destroy(g_registry);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_result_names),
      cmocka_unit_test(test_missing_loader),
      cmocka_unit_test(test_reflect),
      cmocka_unit_test(test_device_selection),
      cmocka_unit_test(test_executables),
      cmocka_unit_test(test_release_with_queued_work),
      cmocka_unit_test(test_no_validation_messages),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
