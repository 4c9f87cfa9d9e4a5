// The graph replay/update decision (graph_update.h).
#include "hal/drivers/cuda/graph_update.h"

#include <string.h>

grt_hal_cuda_graph_action_t grt_hal_cuda_graph_choose_action(
    bool has_exec, const uint64_t* captured, size_t captured_count,
    const uint64_t* current, size_t current_count) {
  if (!has_exec) return GRT_HAL_CUDA_GRAPH_INSTANTIATE;
  // A different count means a different recording shape: the exec cannot
  // be updated in place (cuGraphExecUpdate would refuse the topology).
  if (captured_count != current_count) return GRT_HAL_CUDA_GRAPH_INSTANTIATE;
  if (current_count == 0 ||
      memcmp(captured, current, current_count * sizeof(uint64_t)) == 0) {
    return GRT_HAL_CUDA_GRAPH_REPLAY;
  }
  return GRT_HAL_CUDA_GRAPH_UPDATE;
}

const char* grt_hal_cuda_graph_action_name(grt_hal_cuda_graph_action_t action) {
  switch (action) {
    case GRT_HAL_CUDA_GRAPH_INSTANTIATE:
      return "instantiate";
    case GRT_HAL_CUDA_GRAPH_REPLAY:
      return "replay";
    case GRT_HAL_CUDA_GRAPH_UPDATE:
      return "update";
  }
  return "unknown";
}
