// Lowering of one dispatch region (a root op and the producers fused into
// it) to one kernel: the parallel and reduction spaces of each op family,
// accumulators, epilogues, patterns, stores and workgroup tiles.
#ifndef GRT_COMPILER_DISPATCH_LOWER_H_
#define GRT_COMPILER_DISPATCH_LOWER_H_

#include "base/arena.h"
#include "base/status.h"
#include "compiler/kernel/ir.h"
#include "compiler/tensor/ir.h"

typedef struct grtc_lower_context_t {
  grtc_kernel_set_t* set;
  const grtc_tmodule_t* module;
  grt_arena_t* scratch;
  const uint8_t* fuse;  // grtc_fuse_t by value id
  uint32_t fuse_count;
  int64_t elements_per_workgroup;
} grtc_lower_context_t;

typedef enum grtc_lower_mode_e {
  // The root's results (with any reduction fused into it as a prologue).
  GRTC_LOWER_ROOT,
  // Scatter, first half: a copy of the root's operand 0 (producers fused).
  GRTC_LOWER_SCATTER_COPY,
  // Scatter, second half: a serial kernel updating |copy| in place.
  GRTC_LOWER_SCATTER_UPDATE,
} grtc_lower_mode_t;

typedef struct grtc_lowered_t {
  grtc_kernel_t* kernel;
  uint32_t kernel_index;
  uint32_t input_count;
  grtc_tvalue_t** inputs;  // in |scratch|: the DISPATCH operands
} grtc_lowered_t;

// Lowers |root| (in |block|) to a kernel named |name|. |copy| is the
// buffer a SCATTER_UPDATE kernel updates (its input 0, tied).
grt_status_t grtc_lower_region(const grtc_lower_context_t* context,
                               const grtc_tblock_t* block, grtc_top_t* root,
                               grtc_lower_mode_t mode, grtc_tvalue_t* copy,
                               const char* name, grtc_lowered_t* out)
    GRT_MUST_USE;

#endif  // GRT_COMPILER_DISPATCH_LOWER_H_
