// Dispatch region formation and lowering to the kernel IR.
//
// For every function (and every region of its control flow) this groups
// the computation into dispatch regions and replaces each with one
// DISPATCH op whose kernel it appends to |kernels|:
//   - chains of elementwise and structural ops (broadcast, transpose,
//     slice, pad, concatenate, reverse, iota, convert, select, gather,
//     dynamic_slice/update_slice, ...) fuse into one loop kernel,
//     producers inlined into their consumers;
//   - elementwise/structural producers fuse into reductions (reduce,
//     reduce_window, dot_general, convolution) and elementwise consumers
//     of a reduction fuse as its epilogue (bias, activation);
//   - dot_general and convolution carry a MATMUL/CONV2D pattern when their
//     shapes fit it, so backends can use their fast microkernels;
//   - scatter lowers to a copy of its input and a serial kernel updating
//     that copy in place (a tied DISPATCH), sort to a SORT kernel.
// Decisions (at optimization_level >= 1; level 0 makes every op its own
// kernel): a value with several consumers is recomputed in each when its
// fused tree is small (<= 8 ops) and holds no reduction, else it gets a
// buffer; operands of dot_general/convolution are buffers, or transposes
// of buffers read with strides; values that host ops, other blocks or
// sort use are buffers. One kernel holds at most one reduction, except
// with row_patterns: two reductions along the last dim whose second reads
// the first (a softmax, a layer norm) and the elementwise work after them
// are one ROWS kernel (rows.h; a softmax's input is then a buffer).
// Small constants (splats, and constants up to 16 elements, except
// util.unfoldable_constant) are inlined into kernels as CONST
// instructions; others stay CONSTANT ops (rodata).
// After this pass only CONSTANT, RESHAPE (of a materialized value),
// DISPATCH, CALL, RETURN, YIELD, WHILE, IF, CASE and CHECK_* ops remain.
// Kernels are named "<function>_dispatch_<n>" (n counts the module's
// kernels) and checked with grtc_kernel_verify.
#ifndef GRT_COMPILER_DISPATCH_DISPATCH_H_
#define GRT_COMPILER_DISPATCH_DISPATCH_H_

#include "base/status.h"
#include "compiler/kernel/ir.h"
#include "compiler/tensor/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grtc_dispatch_options_t {
  // 0: no fusion (one kernel per op); >= 1: fusion as described above.
  int optimization_level;
  // Target work per workgroup in output elements for loop kernels (0: the
  // default, 64K elements), so local-task can spread large ops over its
  // workers while small ones stay one workgroup.
  int64_t elements_per_workgroup;
  // Row patterns (compiler/dispatch/rows.h: a softmax, and two reductions
  // along the last dim whose second reads the first, such as a layer norm)
  // become one ROWS kernel each instead of one per reduction. Their generic
  // body redoes the row's reductions for every point, so this is for
  // targets that run the pattern (the CPU); the driver sets it when the CPU
  // is the only target.
  //
  // The same CPU-only switch also puts int4 weights in their matmul's
  // kernel: the rhs of an f32 dot_general that is convert(i8/ui8 constant)
  // -> f32, the constant used once and every value fitting 4 bits (i4/ui4
  // held in i8/ui8; not unfoldable, not a splat) and the dot's sizes
  // static, is computed in the dot's kernel instead of a buffer; the CPU
  // target packs such weights two to a byte and converts them in its
  // int4-weight GEMM (compiler/target/cpu/w4.c). Other targets would lose
  // their f32 matmul path to it.
  bool row_patterns;
} grtc_dispatch_options_t;

grt_status_t grtc_dispatch_form(grtc_tmodule_t* module,
                                const grtc_dispatch_options_t* options,
                                grtc_kernel_set_t* kernels) GRT_MUST_USE;

// Sets kernel->tile the way grtc_dispatch_form does, for a kernel whose
// kind, pattern and parallel/reduction spaces are set (exposed for
// bench/matmul, which builds its kernel by hand). Loop kernels get about
// |elements_per_workgroup| (0: 64K) elements of work per workgroup, inner
// dims whole; MATMUL and CONV2D kernels get tiles shaped for the CPU
// target's packed GEMM (see lower.c).
void grtc_dispatch_choose_tile(grtc_kernel_t* kernel,
                               int64_t elements_per_workgroup);

// Makes the output-channel split of a CONV2D kernel's formed tiles a
// run-time choice (grtc_kernel_t.split_max): up to as many channel tiles
// (of GRTC_KERNEL_SPLIT_STEP channels at least) as bring its workgroups to
// GRTC_DISPATCH_MIN_WORKGROUPS (8); the host program picks the split from
// the device's concurrency. Leaves split_max 0 where the rows alone give 8
// workgroups, the channels fit one step, or the kernel is not a static
// CONV2D. The CPU target calls it for its planar GEMM convolutions
// (compiler/driver/driver.c, when every target is a CPU); the compile-time
// tiles stay as they were for other targets.
void grtc_dispatch_plan_runtime_split(grtc_kernel_t* kernel);

// Retiles a formed kernel for a GPU target (CUDA): loop kernels get 8K
// elements of work per workgroup (a CPU's 64K leaves a GPU too few
// blocks), MATMUL kernels 128x128 (m, n) tiles (one per block), CONV2D
// kernels the CPU's tile shapes split for 8 workgroups (the CPU's aim at 4),
// the others the CPU's tiles; then sets workgroup_count. The kernel's instructions do
// not depend on the tile, so one formed kernel set serves every target,
// each with its own tiles (compiler/driver/driver.c builds the CPU and
// Vulkan executables with formation's tiles and the CUDA one with these).
grt_status_t grtc_dispatch_choose_gpu_tile(grtc_kernel_t* kernel) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_DISPATCH_DISPATCH_H_
