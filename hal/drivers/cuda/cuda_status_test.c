// CUresult mapping without a driver: messages, codes, cuInit's reasons.
#include "hal/drivers/cuda/cuda_status.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "base/status_matchers.h"

static void test_call_failures_name_call_result_and_description(void** state) {
  (void)state;
  grt_expect_error(
      grt_hal_cuda_make_status(CUDA_ERROR_OUT_OF_MEMORY,
                               "CUDA_ERROR_OUT_OF_MEMORY", "out of memory",
                               "cuMemAlloc"),
      GRT_STATUS_RESOURCE_EXHAUSTED,
      "cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)");
  // Without the driver's strings the table still names the result.
  grt_expect_error(
      grt_hal_cuda_make_status(CUDA_ERROR_INVALID_PTX, NULL, NULL,
                               "cuModuleLoadDataEx"),
      GRT_STATUS_INCOMPATIBLE, "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX");
  grt_expect_error(grt_hal_cuda_make_status((CUresult)12345, NULL, NULL,
                                            "cuLaunchKernel"),
                   GRT_STATUS_INTERNAL, "cuLaunchKernel failed: CUresult 12345");
  GRT_EXPECT_OK(grt_hal_cuda_make_status(CUDA_SUCCESS, NULL, NULL, "cuInit"));
}

static void test_status_codes(void** state) {
  (void)state;
  assert_int_equal(grt_hal_cuda_status_code(CUDA_SUCCESS), GRT_STATUS_OK);
  assert_int_equal(grt_hal_cuda_status_code(CUDA_ERROR_INVALID_VALUE),
                   GRT_STATUS_INVALID_ARGUMENT);
  assert_int_equal(grt_hal_cuda_status_code(CUDA_ERROR_NOT_SUPPORTED),
                   GRT_STATUS_UNIMPLEMENTED);
  assert_int_equal(grt_hal_cuda_status_code(CUDA_ERROR_LAUNCH_FAILED),
                   GRT_STATUS_INTERNAL);
}

static void test_init_failures_say_what_is_missing(void** state) {
  (void)state;
  grt_expect_error(
      grt_hal_cuda_init_status(CUDA_ERROR_STUB_LIBRARY, NULL, NULL),
      GRT_STATUS_UNAVAILABLE,
      "no CUDA driver (libcuda is the toolkit's stub library; cuInit "
      "returned 34 CUDA_ERROR_STUB_LIBRARY)");
  grt_expect_error(grt_hal_cuda_init_status(CUDA_ERROR_NO_DEVICE,
                                            "CUDA_ERROR_NO_DEVICE",
                                            "no CUDA-capable device"),
                   GRT_STATUS_UNAVAILABLE,
                   "no CUDA device (cuInit returned 100 CUDA_ERROR_NO_DEVICE)");
  grt_expect_error(
      grt_hal_cuda_init_status((CUresult)35, NULL,
                               "driver version is insufficient"),
      GRT_STATUS_UNAVAILABLE,
      "the CUDA driver is too old for this build (built against CUDA ");
  grt_expect_error(
      grt_hal_cuda_init_status((CUresult)35, NULL, NULL),
      GRT_STATUS_UNAVAILABLE, "cuInit returned 35 CUDA_ERROR_INSUFFICIENT_DRIVER)");
  grt_expect_error(
      grt_hal_cuda_init_status(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, NULL, NULL),
      GRT_STATUS_UNAVAILABLE,
      "too old for this build (built against CUDA 13.0; cuInit returned 803 "
      "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH)");
  grt_expect_error(
      grt_hal_cuda_init_status(CUDA_ERROR_OPERATING_SYSTEM,
                               "CUDA_ERROR_OPERATING_SYSTEM", "OS call failed"),
      GRT_STATUS_UNAVAILABLE,
      "cuInit failed: CUDA_ERROR_OPERATING_SYSTEM (OS call failed)");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_call_failures_name_call_result_and_description),
      cmocka_unit_test(test_status_codes),
      cmocka_unit_test(test_init_failures_say_what_is_missing),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
