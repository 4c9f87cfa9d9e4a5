// The graph replay/update decision (graph_update.h).
#include "hal/drivers/cuda/graph_update.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static void test_decisions(void** state) {
  (void)state;
  uint64_t captured[4] = {0x1000, 256, 0x2000, 128};
  uint64_t same[4] = {0x1000, 256, 0x2000, 128};
  uint64_t moved[4] = {0x1000, 256, 0x3000, 128};
  uint64_t shorter[4] = {0x1000, 256, 0x2000, 64};
  assert_int_equal(grt_hal_cuda_graph_choose_action(false, NULL, 0, same, 4),
                   GRT_HAL_CUDA_GRAPH_INSTANTIATE);
  assert_int_equal(grt_hal_cuda_graph_choose_action(true, captured, 4, same, 4),
                   GRT_HAL_CUDA_GRAPH_REPLAY);
  assert_int_equal(
      grt_hal_cuda_graph_choose_action(true, captured, 4, moved, 4),
      GRT_HAL_CUDA_GRAPH_UPDATE);
  // A binding length is a kernel parameter too.
  assert_int_equal(
      grt_hal_cuda_graph_choose_action(true, captured, 4, shorter, 4),
      GRT_HAL_CUDA_GRAPH_UPDATE);
  assert_int_equal(grt_hal_cuda_graph_choose_action(true, NULL, 0, NULL, 0),
                   GRT_HAL_CUDA_GRAPH_REPLAY);
  assert_int_equal(grt_hal_cuda_graph_choose_action(true, captured, 2, same, 4),
                   GRT_HAL_CUDA_GRAPH_INSTANTIATE);
  assert_string_equal(
      grt_hal_cuda_graph_action_name(GRT_HAL_CUDA_GRAPH_UPDATE), "update");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_decisions),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
