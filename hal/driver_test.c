// hal driver registry and device wrappers: registration, URI parsing,
// unknown/unavailable drivers and missing devices in messages, device
// listings, and query_i64's message for unknown keys.
#include "hal/driver.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hal/test_support.h"

// A driver with |device_count| devices named by index, or unavailable.
typedef struct fake_driver_t {
  size_t device_count;
  const char* unavailable_reason;  // non-NULL: enumerate fails with it
  char last_path[32];
  uint32_t last_worker_count;
} fake_driver_t;

static grt_status_t fake_enumerate(void* self, grt_allocator_t host_allocator,
                                   size_t capacity,
                                   grt_hal_device_info_t* out_infos,
                                   size_t* out_count) {
  (void)host_allocator;
  fake_driver_t* driver = (fake_driver_t*)self;
  if (driver->unavailable_reason) {
    return grt_make_status(GRT_STATUS_UNAVAILABLE, "%s",
                           driver->unavailable_reason);
  }
  for (size_t i = 0; i < driver->device_count && i < capacity; ++i) {
    memset(&out_infos[i], 0, sizeof(out_infos[i]));
    snprintf(out_infos[i].path, sizeof(out_infos[i].path), "%zu", i);
    snprintf(out_infos[i].name, sizeof(out_infos[i].name), "Fake %zu", i);
    snprintf(out_infos[i].type, sizeof(out_infos[i].type), "cpu");
    snprintf(out_infos[i].driver_version, sizeof(out_infos[i].driver_version),
             "1.0");
  }
  *out_count = driver->device_count;
  return grt_ok_status();
}

static grt_status_t fake_create_device(void* self, grt_string_view_t path,
                                       const char* uri,
                                       const grt_hal_device_options_t* options,
                                       grt_allocator_t host_allocator,
                                       grt_hal_device_t** out_device) {
  (void)host_allocator;
  fake_driver_t* driver = (fake_driver_t*)self;
  snprintf(driver->last_path, sizeof(driver->last_path), "%.*s",
           GRT_SV_ARG(path));
  driver->last_worker_count = options->worker_count;
  grt_hal_test_device_t* device = grt_hal_test_device_create(
      uri, GRT_HAL_TEST_HOST_MEMORY, GRT_HAL_TEST_ALL_USAGE);
  *out_device = &device->base;
  return grt_ok_status();
}

typedef struct fixture_t {
  grt_hal_driver_registry_t* registry;
  fake_driver_t sync;
  fake_driver_t many;
  fake_driver_t gpu;
} fixture_t;

static int setup(void** state) {
  fixture_t* f = calloc(1, sizeof(*f));
  f->sync.device_count = 1;
  f->many.device_count = 12;  // more than one enumerate call holds at first
  f->gpu.unavailable_reason = "no Vulkan device found";
  GRT_EXPECT_OK(
      grt_hal_driver_registry_create(grt_allocator_system(), &f->registry));
  grt_hal_driver_factory_t factories[3] = {
      {"local-sync", fake_enumerate, fake_create_device, &f->sync},
      {"many", fake_enumerate, fake_create_device, &f->many},
      {"vulkan", fake_enumerate, fake_create_device, &f->gpu},
  };
  for (int i = 0; i < 3; ++i) {
    GRT_EXPECT_OK(
        grt_hal_driver_registry_register(f->registry, &factories[i]));
  }
  *state = f;
  return 0;
}

static int teardown(void** state) {
  fixture_t* f = *state;
  grt_hal_driver_registry_destroy(f->registry);
  free(f);
  return 0;
}

static void test_register_and_find(void** state) {
  fixture_t* f = *state;
  assert_int_equal(grt_hal_driver_registry_count(f->registry), 3);
  assert_string_equal(grt_hal_driver_registry_at(f->registry, 1)->name, "many");
  assert_null(grt_hal_driver_registry_at(f->registry, 3));
  assert_ptr_equal(
      grt_hal_driver_registry_find(f->registry, grt_make_cstring_view("vulkan"))
          ->self,
      &f->gpu);
  assert_null(
      grt_hal_driver_registry_find(f->registry, grt_make_cstring_view("cuda")));
  grt_hal_driver_factory_t duplicate = {"many", fake_enumerate,
                                        fake_create_device, &f->sync};
  grt_expect_error(grt_hal_driver_registry_register(f->registry, &duplicate),
                       GRT_STATUS_ALREADY_EXISTS,
                       "driver 'many' is already registered");
  grt_hal_driver_factory_t incomplete = {"half", fake_enumerate, NULL, NULL};
  grt_expect_error(
      grt_hal_driver_registry_register(f->registry, &incomplete),
      GRT_STATUS_INVALID_ARGUMENT,
      "driver factory 'half' needs a name, enumerate_devices and create_device");
}

static void test_create_device(void** state) {
  fixture_t* f = *state;
  grt_hal_device_t* device = NULL;
  grt_hal_device_options_t options = {4};
  GRT_EXPECT_OK(grt_hal_driver_registry_create_device(
      f->registry, "local-sync", &options, grt_allocator_system(), &device));
  assert_string_equal(grt_hal_device_uri(device), "local-sync");
  assert_string_equal(f->sync.last_path, "");
  assert_int_equal(f->sync.last_worker_count, 4);
  grt_hal_device_release(device);
  GRT_EXPECT_OK(grt_hal_driver_registry_create_device(
      f->registry, "local-sync://0", NULL, grt_allocator_system(), &device));
  assert_string_equal(grt_hal_device_uri(device), "local-sync://0");
  assert_string_equal(f->sync.last_path, "0");
  assert_int_equal(f->sync.last_worker_count, 0);
  grt_hal_device_release(device);
  GRT_EXPECT_OK(grt_hal_driver_registry_create_device(
      f->registry, "many://11", NULL, grt_allocator_system(), &device));
  assert_string_equal(f->many.last_path, "11");
  grt_hal_device_release(device);

  grt_expect_error(
      grt_hal_driver_registry_create_device(f->registry, "local-sync://3", NULL,
                                            grt_allocator_system(), &device),
      GRT_STATUS_NOT_FOUND,
      "device 'local-sync://3' not found; local-sync has 1 device");
  grt_expect_error(
      grt_hal_driver_registry_create_device(f->registry, "many://gpu0", NULL,
                                            grt_allocator_system(), &device),
      GRT_STATUS_NOT_FOUND, "device 'many://gpu0' not found; many has 12 devices");
  grt_expect_error(
      grt_hal_driver_registry_create_device(f->registry, "foo", NULL,
                                            grt_allocator_system(), &device),
      GRT_STATUS_NOT_FOUND,
      "unknown device 'foo'; available: local-sync, many, vulkan "
      "(unavailable: no Vulkan device found)");
  grt_expect_error(
      grt_hal_driver_registry_create_device(f->registry, "", NULL,
                                            grt_allocator_system(), &device),
      GRT_STATUS_NOT_FOUND, "unknown device ''; available: local-sync");
  grt_expect_error(
      grt_hal_driver_registry_create_device(f->registry, "vulkan://1", NULL,
                                            grt_allocator_system(), &device),
      GRT_STATUS_UNAVAILABLE,
      "no Vulkan device found; while creating device 'vulkan://1'");
  grt_expect_error(
      grt_hal_driver_registry_create_device(f->registry, "local-sync:0", NULL,
                                            grt_allocator_system(), &device),
      GRT_STATUS_INVALID_ARGUMENT,
      "bad device URI 'local-sync:0': expected '<driver>' or "
      "'<driver>://<index or name>'");
  assert_null(device);

  grt_hal_driver_registry_t* empty = NULL;
  GRT_EXPECT_OK(grt_hal_driver_registry_create(grt_allocator_system(), &empty));
  grt_expect_error(
      grt_hal_driver_registry_create_device(empty, "local-sync", NULL,
                                            grt_allocator_system(), &device),
      GRT_STATUS_NOT_FOUND,
      "unknown device 'local-sync'; available: none (no drivers built)");
  grt_hal_driver_registry_destroy(empty);
}

static void test_format_devices(void** state) {
  fixture_t* f = *state;
  f->many.device_count = 2;
  char text[512];
  size_t length =
      grt_hal_driver_registry_format_devices(f->registry, text, sizeof(text));
  const char* expected =
      "local-sync://0\tFake 0\tcpu\t1.0\n"
      "many://0\tFake 0\tcpu\t1.0\n"
      "many://1\tFake 1\tcpu\t1.0\n"
      "vulkan\tunavailable: no Vulkan device found\n";
  assert_string_equal(text, expected);
  assert_int_equal(length, strlen(expected));
  char small[10];
  assert_int_equal(
      grt_hal_driver_registry_format_devices(f->registry, small, sizeof(small)),
      strlen(expected));
  assert_string_equal(small, "local-syn");
}

// What a driver's query_i64 says before grt_hal_device_query_i64 names the
// device: the category and the key both have to match.
static void test_device_answer_concurrency(void** state) {
  (void)state;
  int64_t value = 0;
  GRT_EXPECT_OK(grt_hal_device_answer_concurrency(
      grt_make_cstring_view("hal.device"), grt_make_cstring_view("concurrency"),
      7, &value));
  assert_int_equal(value, 7);
  value = 0;
  grt_expect_error(grt_hal_device_answer_concurrency(
                       grt_make_cstring_view("hal.device"),
                       grt_make_cstring_view("foo"), 7, &value),
                   GRT_STATUS_NOT_FOUND, "no query hal.device/foo");
  grt_expect_error(grt_hal_device_answer_concurrency(
                       grt_make_cstring_view("hal.executable"),
                       grt_make_cstring_view("concurrency"), 7, &value),
                   GRT_STATUS_NOT_FOUND, "no query hal.executable/concurrency");
  assert_int_equal(value, 0);
}

static void test_device_wrappers(void** state) {
  (void)state;
  grt_hal_test_device_t* device = grt_hal_test_device_create(
      "local-sync", GRT_HAL_TEST_HOST_MEMORY, GRT_HAL_TEST_ALL_USAGE);
  int64_t value = 0;
  GRT_EXPECT_OK(grt_hal_device_query_i64(&device->base,
                                             grt_make_cstring_view("hal.device"),
                                             grt_make_cstring_view("concurrency"),
                                             &value));
  assert_int_equal(value, 1);
  grt_expect_error(
      grt_hal_device_query_i64(&device->base, grt_make_cstring_view("hal.device"),
                               grt_make_cstring_view("foo"), &value),
      GRT_STATUS_NOT_FOUND, "device local-sync has no query hal.device/foo");
  grt_hal_command_buffer_t* cb = NULL;
  grt_expect_error(grt_hal_device_create_command_buffer(
                           &device->base, (grt_hal_command_buffer_mode_t)7, 0,
                           &cb),
                       GRT_STATUS_INVALID_ARGUMENT,
                       "unknown command buffer mode 7");
  grt_hal_semaphore_t* null_semaphore = NULL;
  uint64_t one = 1;
  grt_hal_semaphore_list_t bad = {1, &null_semaphore, &one};
  grt_expect_error(
      grt_hal_device_queue_execute(&device->base, bad,
                                   grt_hal_semaphore_list_empty(), 0, NULL, NULL),
      GRT_STATUS_INVALID_ARGUMENT, "wait semaphore 0 is NULL");
  grt_expect_error(
      grt_hal_device_queue_dealloca(&device->base, grt_hal_semaphore_list_empty(),
                                    bad, NULL),
      GRT_STATUS_INVALID_ARGUMENT, "signal semaphore 0 is NULL");
  grt_expect_error(
      grt_hal_device_queue_dealloca(&device->base, grt_hal_semaphore_list_empty(),
                                    grt_hal_semaphore_list_empty(), NULL),
      GRT_STATUS_INVALID_ARGUMENT, "queue dealloca of a NULL buffer");
  grt_hal_command_buffer_t* null_cb = NULL;
  grt_expect_error(
      grt_hal_device_queue_execute(&device->base, grt_hal_semaphore_list_empty(),
                                   grt_hal_semaphore_list_empty(), 1, &null_cb,
                                   NULL),
      GRT_STATUS_INVALID_ARGUMENT, "command buffer 0 of 1 is NULL");
  // queue_alloca reaches the device and signals.
  grt_hal_semaphore_t* semaphore = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_semaphore(&device->base, 0, &semaphore));
  grt_hal_semaphore_list_t signal = {1, &semaphore, &one};
  grt_hal_buffer_params_t params = {0, 0, 0, 0};
  grt_hal_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_hal_device_queue_alloca(
      &device->base, grt_hal_semaphore_list_empty(), signal, params, 32,
      &buffer));
  GRT_EXPECT_OK(grt_hal_semaphore_wait(semaphore, 1, GRT_HAL_TIMEOUT_IMMEDIATE));
  assert_int_equal(grt_hal_buffer_byte_length(buffer), 32);
  GRT_EXPECT_OK(grt_hal_device_queue_flush(&device->base));
  grt_hal_buffer_release(buffer);
  grt_hal_semaphore_release(semaphore);
  grt_hal_device_release(&device->base);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_register_and_find, setup, teardown),
      cmocka_unit_test_setup_teardown(test_create_device, setup, teardown),
      cmocka_unit_test_setup_teardown(test_format_devices, setup, teardown),
      cmocka_unit_test(test_device_answer_concurrency),
      cmocka_unit_test(test_device_wrappers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
