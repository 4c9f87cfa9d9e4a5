// The no-driver paths: a missing library, the toolkit's stub library
// (cuInit returns 34), and what the registry says for --device=cuda then.
// On a machine with a driver these still hold: they name the library.
#define _POSIX_C_SOURCE 200809L

#include "hal/drivers/cuda/driver.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "base/status_matchers.h"
#include "hal/drivers/cuda/dynamic_symbols.h"

#ifndef GRT_CUDA_STUB_LIBRARY
#define GRT_CUDA_STUB_LIBRARY ""
#endif

static void test_missing_library(void** state) {
  (void)state;
  grt_hal_cuda_symbols_t symbols;
  grt_expect_error(
      grt_hal_cuda_symbols_load("/nonexistent/libcuda.so.1", &symbols),
      GRT_STATUS_UNAVAILABLE,
      "no CUDA driver: cannot load /nonexistent/libcuda.so.1 (");
  assert_null(symbols.library);
  assert_null(symbols.cuInit);
}

static void test_stub_library(void** state) {
  (void)state;
  if (!GRT_CUDA_STUB_LIBRARY[0]) {
    print_message("skipped: the CUDA toolkit has no stub libcuda.so\n");
    skip();
  }
  grt_hal_cuda_symbols_t symbols;
  // The stub exports every symbol, so loading works; cuInit refuses.
  GRT_EXPECT_OK(grt_hal_cuda_symbols_load(GRT_CUDA_STUB_LIBRARY, &symbols));
  assert_non_null(symbols.cuLaunchKernel);
  assert_non_null(symbols.cuGraphExecUpdate);
  grt_expect_error(grt_hal_cuda_symbols_initialize(&symbols),
                   GRT_STATUS_UNAVAILABLE,
                   "no CUDA driver (libcuda is the toolkit's stub library; "
                   "cuInit returned 34 CUDA_ERROR_STUB_LIBRARY)");
  grt_hal_cuda_symbols_unload(&symbols);
  assert_null(symbols.library);
}

// Through the registry, as grt-run --device=cuda does. The process loads
// the driver once, so this points it at the stub before anything else.
static void test_registry_reports_no_driver(void** state) {
  (void)state;
  if (!GRT_CUDA_STUB_LIBRARY[0]) {
    print_message("skipped: the CUDA toolkit has no stub libcuda.so\n");
    skip();
  }
  setenv("GRT_CUDA_LIBRARY", GRT_CUDA_STUB_LIBRARY, 1);
  assert_string_equal(grt_hal_cuda_library_path(), GRT_CUDA_STUB_LIBRARY);
  grt_hal_driver_registry_t* registry = NULL;
  GRT_EXPECT_OK(
      grt_hal_driver_registry_create(grt_allocator_system(), &registry));
  GRT_EXPECT_OK(grt_hal_cuda_driver_register(registry));
  grt_hal_device_t* device = NULL;
  grt_expect_error(grt_hal_driver_registry_create_device(
                       registry, "cuda", NULL, grt_allocator_system(), &device),
                   GRT_STATUS_UNAVAILABLE,
                   "no CUDA driver (libcuda is the toolkit's stub library");
  assert_null(device);
  grt_expect_error(
      grt_hal_driver_registry_create_device(registry, "cuda://1", NULL,
                                            grt_allocator_system(), &device),
      GRT_STATUS_UNAVAILABLE, "while creating device 'cuda://1'");
  char listing[512];
  grt_hal_driver_registry_format_devices(registry, listing, sizeof(listing));
  assert_non_null(strstr(listing, "cuda\tunavailable: no CUDA driver"));
  grt_hal_driver_registry_destroy(registry);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_missing_library),
      cmocka_unit_test(test_stub_library),
      cmocka_unit_test(test_registry_reports_no_driver),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
