// What a reusable command buffer does with its CUDA graph at submit.
//
// A reusable recording is captured into a CUDA graph on its first submit
// and replayed with cuGraphLaunch after that. Kernel parameters (binding
// addresses and lengths) and memset/memcpy addresses are baked into the
// graph, so a submit whose binding table resolves to different addresses
// re-captures the graph and updates the instantiated one in place
// (cuGraphExecUpdate, which only rewrites node parameters; the node
// topology of a recording never changes). This is the decision, kept free
// of driver calls so it is tested without a GPU.
#ifndef GRT_HAL_DRIVERS_CUDA_GRAPH_UPDATE_H_
#define GRT_HAL_DRIVERS_CUDA_GRAPH_UPDATE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum grt_hal_cuda_graph_action_e {
  // No instantiated graph yet: capture and instantiate.
  GRT_HAL_CUDA_GRAPH_INSTANTIATE = 0,
  // The instantiated graph was captured with these exact addresses.
  GRT_HAL_CUDA_GRAPH_REPLAY = 1,
  // Same recording, other addresses: capture again, cuGraphExecUpdate.
  GRT_HAL_CUDA_GRAPH_UPDATE = 2,
} grt_hal_cuda_graph_action_t;

// |captured| are the binding-table resolutions (address, length per slot
// use, in recording order) the instantiated graph was captured with;
// |current| those of this submit. |has_exec| says whether a graph is
// instantiated.
grt_hal_cuda_graph_action_t grt_hal_cuda_graph_choose_action(
    bool has_exec, const uint64_t* captured, size_t captured_count,
    const uint64_t* current, size_t current_count);

const char* grt_hal_cuda_graph_action_name(grt_hal_cuda_graph_action_t action);

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_DRIVERS_CUDA_GRAPH_UPDATE_H_
