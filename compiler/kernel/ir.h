// The kernel IR: one description of each dispatch region that every
// target backend (C for the CPU, GLSL for Vulkan, CUDA C) consumes.
//
// A LOOP kernel computes, for every point p of its parallel space (usually
// the output's shape), a straight-line list of scalar instructions:
//
//   for each parallel point p (the workgroup's tile of the space):
//     PRE instructions            (may read PINDEX)
//     acc[k] = accs[k].init       (PRE instructions)
//     for each reduction point r in row-major order:
//       LOOP instructions         (may read PINDEX, RINDEX, ACC, PRE values)
//       acc[k] = accs[k].update   for all k at once
//     POST instructions           (may read PRE values and final ACC)
//     stores[i]: if (!predicate || predicate) binding[index] = value
//
// Every instruction has an SSA number (its position in |insts|) and may
// only read earlier instructions of an allowed section. Index arithmetic is
// ordinary OP instructions on i64. Loads and stores address elements (not
// bytes) of a binding by a linear i64 index that the lowering guarantees
// in range (out-of-range stores are predicated off). A kernel with no
// reduction has no LOOP section and no accumulators.
//
// A SORT kernel sorts along one dimension: bindings [0, n) are the
// operands, [n, 2n) the results (same shapes); the comparator instructions
// (section PRE) read ARG(2k) / ARG(2k+1), the lhs/rhs element of operand k,
// and sort.comparator (an i1 instruction) says lhs < rhs.
//
// Symbolic extents (docs/compiler.md "Symbolic shapes"). A kernel of a
// shape-polymorphic program reads the extents only known at the call as
// push constants: extent e is 32-bit push constant e of every dispatch of
// the kernel, the value of tensor symbol extent_symbols[e] (a class
// representative of the module's shape table) at the call, and the EXTENT
// instruction reads it as an i64 (>= 0). Where the kernel IR holds a size,
// it may be GRTC_KDIM_EXTENT(e) instead of a number:
//   - parallel_dims[d] and reduction_dims[d] (tile[d] stays a static
//     number >= 1; the dimension has ceil(extent / tile[d]) tiles, and a
//     tile may be cut short by the extent, as for a static dimension);
//   - MATMUL's m, n and k, CONV2D's n and POOL2D's n (their strides and
//     every other field stay static: a lowering that would need a symbolic
//     stride leaves the pattern out);
//   - a binding's element_count is -1 when its size depends on a symbol
//     (also in a kernel that reads it at static positions only and so has
//     no extents).
// The lowering keeps indices in range for the extents it is given, but
// the extents and the bindings' sizes come from untrusted bytecode, so
// the backends check the indices of such kernels against the bindings the
// dispatch gave them (grtc_c_family_bounds_checked; docs/compiler.md
// "Bounds checks").
// The workgroup count of such a kernel is known only at the call:
// workgroup_count is 0 and the host program computes the product of
// ceil(extent / tile[d]) over the parallel dims (1 for a serial kernel).
// SORT kernels take static shapes only.
//
// |pattern| names a computation a backend may implement with a faster
// specialized routine (a tiled matmul microkernel, ...). The generic body
// is always present and equivalent, so a backend may ignore the pattern.
// Backends that use a pattern still run POST and the stores per element
// with ACC(0) bound to the pattern's result (fused epilogues).
#ifndef GRT_COMPILER_KERNEL_IR_H_
#define GRT_COMPILER_KERNEL_IR_H_

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/status.h"
#include "base/string_view.h"
#include "compiler/kernel/scalar.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRTC_KERNEL_MAX_RANK 8
#define GRTC_KINST_NONE UINT32_MAX

typedef enum grtc_kinst_kind_e {
  GRTC_KINST_CONST,    // value.f (floats) or value.i (integers, i1 0/1)
  GRTC_KINST_PINDEX,   // parallel index |dim| (i64)
  GRTC_KINST_RINDEX,   // reduction index |dim| (i64)
  GRTC_KINST_ACC,      // accumulator |dim|
  GRTC_KINST_ARG,      // sort comparator argument |dim|
  GRTC_KINST_LOAD,     // binding |binding|, element operands[0] (i64)
  GRTC_KINST_OP,       // scalar op |op| on operands (type: the result)
  GRTC_KINST_COMPARE,  // direction |op|, compare_type; result i1
  GRTC_KINST_CONVERT,  // operands[0] converted to |type|
  GRTC_KINST_BITCAST,  // operands[0] reinterpreted as |type|
  GRTC_KINST_EXTENT,   // symbolic extent |dim| (i64, section PRE)
} grtc_kinst_kind_t;

// A kernel size that is symbolic extent |e| (see "Symbolic extents" above).
#define GRTC_KDIM_EXTENT(e) (-1 - (int64_t)(e))
static inline bool grtc_kdim_is_static(int64_t dim) { return dim >= 0; }
static inline uint32_t grtc_kdim_extent(int64_t dim) {
  return (uint32_t)(-1 - dim);
}

typedef enum grtc_ksection_e {
  GRTC_KSECTION_PRE,
  GRTC_KSECTION_LOOP,
  GRTC_KSECTION_POST,
} grtc_ksection_t;

typedef struct grtc_kinst_t {
  grtc_kinst_kind_t kind;
  grtc_ksection_t section;
  grtc_elem_t type;  // the result type
  uint32_t op;       // OP: grtc_scalar_op_t; COMPARE: direction
  grtc_compare_type_t compare_type;  // COMPARE (resolved, never DEFAULT)
  uint32_t dim;      // PINDEX/RINDEX/ACC/ARG/EXTENT
  uint32_t binding;  // LOAD
  uint32_t operand_count;
  uint32_t operands[3];
  union {
    double f;
    int64_t i;
  } value;  // CONST
} grtc_kinst_t;

typedef enum grtc_kaccess_e {
  GRTC_KACCESS_READ = 1,
  GRTC_KACCESS_WRITE = 2,
  GRTC_KACCESS_READ_WRITE = 3,
} grtc_kaccess_t;

typedef struct grtc_kbinding_t {
  grtc_elem_t elem;
  int64_t element_count;
  grtc_kaccess_t access;
} grtc_kbinding_t;

typedef struct grtc_kacc_t {
  grtc_elem_t type;
  uint32_t init;    // a PRE instruction
  uint32_t update;  // a LOOP instruction
} grtc_kacc_t;

typedef struct grtc_kstore_t {
  uint32_t binding;
  uint32_t index;      // i64 instruction
  uint32_t value;      // instruction of the binding's element type
  uint32_t predicate;  // i1 instruction or GRTC_KINST_NONE
} grtc_kstore_t;

typedef enum grtc_kernel_kind_e {
  GRTC_KERNEL_LOOP,
  GRTC_KERNEL_SORT,
} grtc_kernel_kind_t;

typedef enum grtc_kpattern_e {
  GRTC_KPATTERN_NONE,
  // acc[0] at parallel point (b..., m, n) = sum over k of
  // lhs[b, m, k] * rhs[b, k, n]; see grtc_kmatmul_t.
  GRTC_KPATTERN_MATMUL,
  // acc[0] at output point = 2-D convolution; see grtc_kconv_t.
  GRTC_KPATTERN_CONV2D,
  // acc[0] at output point = a 2-D window folded by one scalar op (max or
  // average pooling); see grtc_kpool_t.
  GRTC_KPATTERN_POOL2D,
  // A computation along rows (the last parallel dim) of one input of the
  // output's shape; see grtc_krows_t.
  GRTC_KPATTERN_ROWS,
} grtc_kpattern_t;

// Element strides are in elements of the binding; the pattern's parallel
// space is the kernel's: its last two dims are (m, n) and any dims before
// them are batch dims, each with its own lhs/rhs stride.
typedef struct grtc_kmatmul_t {
  uint32_t lhs_binding, rhs_binding;
  int64_t m, n, k;
  int64_t lhs_stride_m, lhs_stride_k;
  int64_t rhs_stride_k, rhs_stride_n;
  uint32_t batch_rank;  // kernel parallel rank - 2
  int64_t lhs_batch_strides[GRTC_KERNEL_MAX_RANK];
  int64_t rhs_batch_strides[GRTC_KERNEL_MAX_RANK];
  grtc_elem_t lhs_elem, rhs_elem, acc_elem;
  // An i8/ui8 rhs (i4/ui4 held in i8/ui8) of an f32 lhs and accumulator is
  // converted to f32 in the kernel. Set by the CPU target's prepacking
  // (compiler/target/cpu/w4.c): the rhs binding holds 4-bit fields, two per
  // byte, element e in bits 4*(e&1)..4*(e&1)+3 of byte e/2 (e the element
  // index the strides give); its element count is the byte count, and the
  // generic body's rhs loads extract the field (sign-extended for i8).
  bool rhs_packed4;
} grtc_kmatmul_t;

// The kernel's parallel space is (n, oh, ow, oc) in that order; element
// strides map each logical dim into the bindings whatever the source
// layout. Input positions outside [0, h) x [0, w) read as zero.
typedef struct grtc_kconv_t {
  uint32_t input_binding, filter_binding;
  int64_t n, h, w, c;        // input
  int64_t kh, kw, oc;        // filter (input channels per group: c/groups)
  int64_t oh, ow;            // output
  int64_t stride_h, stride_w, pad_h, pad_w;  // pad: low padding
  int64_t dilation_h, dilation_w;  // filter (rhs) dilation
  int64_t groups;            // feature_group_count
  int64_t input_strides[4];   // n, h, w, c
  int64_t filter_strides[4];  // kh, kw, ci, oc
  grtc_elem_t input_elem, filter_elem, acc_elem;
  // The filter binding holds a constant filter laid out at compile time as
  // the CPU GEMM's A panels (compiler/target/cpu/prepack.c), and
  // |filter_strides| no longer apply: with K = kh * kw * (c / groups)
  // ordered (ci, i, j), ocp = output channels per group rounded up to 6,
  // element (oc, k) of group g (ol = oc's index in its group) sits at
  //   g * K * ocp + s * GRTC_KCONV_PACK_KC * ocp + (ol / 6) * 6 * kc
  //   + (k - s * GRTC_KCONV_PACK_KC) * 6 + ol % 6,
  // s = k / GRTC_KCONV_PACK_KC, kc = min(GRTC_KCONV_PACK_KC, K - s * it),
  // zero in the padding rows. The generic body reads it that way too.
  bool filter_packed;
} grtc_kconv_t;

// The K slice of a packed filter (grtc_kconv_t.filter_packed); the CPU
// GEMM's GRT_KC.
#define GRTC_KCONV_PACK_KC 256

// The kernel's parallel space is (n, c, oh, ow): the output's shape, a
// reduce_window whose window spans its last two dims only. acc[0] starts at
// its initial value, a CONST (any value), and folds the KH x KW taps in
// row-major window order, acc = op(acc, tap) (op(tap, acc) when
// |tap_first|), where tap (i, j) is input[n, c, oh * stride_h - pad_h +
// i * dilation_h, ow * stride_w - pad_w + j * dilation_w], or the initial
// value where that position lies outside [0, h) x [0, w) (the padding of
// stablehlo.reduce_window). |op| is a grtc_scalar_op_t of two |elem|
// operands (the lowering sets ADD, MAX or MIN).
typedef struct grtc_kpool_t {
  uint32_t input_binding;
  uint32_t op;
  bool tap_first;
  int64_t n, c, h, w;  // input
  int64_t kh, kw, oh, ow;
  int64_t stride_h, stride_w, pad_h, pad_w, dilation_h, dilation_w;
  int64_t input_strides[4];  // n, c, h, w
  grtc_elem_t elem;
} grtc_kpool_t;

// What a ROWS kernel computes per row.
typedef enum grtc_krows_kind_e {
  // store 0's value at point p = exp(x[p] - max(row)) / sum over the row
  // of exp(x[j] - max(row)). The generic body: accumulators 0 (the max,
  // from -inf) and 1 (the sum, from +0) over a reduction space of 2 x n,
  // the first pass folding the max, the second the exponentials.
  GRTC_KROWS_SOFTMAX,
  // Two reductions along the row, the second reading the first's result
  // (a layer norm's sum, then its sum of squared deviations): accumulators
  // 0 and 1 over a reduction space of 2 x n, pass 0 updating acc 0 and
  // pass 1 acc 1, and no instruction of the LOOP section or an initial
  // value reads the last parallel index, so the accumulators are the
  // row's; POST and the stores are per point.
  GRTC_KROWS_TWO_PASS,
} grtc_krows_kind_t;

// The kernel's parallel space is static, n its last dim, and its tiles
// are of whole rows. SOFTMAX: the space is the shape of |input_binding|
// (f32, row-major), and the kernel has exactly one store, of the row
// computation's value at the point's row-major position in the last
// binding. TWO_PASS: |input_binding| is unused. A backend may compute each
// row's reductions once instead of running the generic body per point.
typedef struct grtc_krows_t {
  grtc_krows_kind_t kind;
  uint32_t input_binding;
  int64_t n;
} grtc_krows_t;

typedef struct grtc_kernel_t {
  grt_string_view_t name;  // a C identifier, unique in the module
  grtc_kernel_kind_t kind;
  uint32_t binding_count;
  grtc_kbinding_t* bindings;
  uint32_t parallel_rank;
  int64_t parallel_dims[GRTC_KERNEL_MAX_RANK];
  uint32_t reduction_rank;
  int64_t reduction_dims[GRTC_KERNEL_MAX_RANK];
  // Workgroups: the parallel space is cut into tiles of |tile| (tile[d] ==
  // parallel_dims[d] means dim d is not split; every tile[d] >= 1);
  // workgroup x covers the x-th tile in row-major order of tile
  // coordinates. workgroup_count = product of ceil(dims[d] / tile[d]), or
  // 0 when a parallel dim is symbolic (the host computes it at the call).
  int64_t tile[GRTC_KERNEL_MAX_RANK];
  uint32_t workgroup_count;
  // Symbolic extents: push constant e holds tensor symbol
  // extent_symbols[e] (grtc_tshapes_t index) at the call.
  uint32_t extent_count;
  uint32_t* extent_symbols;
  // Run-time split of the last parallel dim (0: none; the CPU target sets
  // it on the planar GEMM convolutions: grtc_dispatch_plan_runtime_split).
  // The kernel then takes one more 32-bit push constant after its extents,
  // the split s >= 1; the last dim has tiles of
  // grtc_kernel_split_tile(dim, s) instead of tile[last], and the dispatch
  // grtc_kernel_split_workgroups(kernel, s) workgroups. The host program
  // picks s from the device's concurrency (grtc_kernel_split_for), at most
  // split_max. tile[] and workgroup_count keep the compile-time plan (what
  // a target without run-time splits uses). Only static kernels.
  uint32_t split_max;
  // Scatter-like kernels whose stores may collide run as one workgroup
  // visiting points in row-major order.
  bool serial;
  uint32_t inst_count;
  grtc_kinst_t* insts;
  uint32_t acc_count;
  grtc_kacc_t* accs;
  uint32_t store_count;
  grtc_kstore_t* stores;
  grtc_kpattern_t pattern;
  grtc_kmatmul_t matmul;
  grtc_kconv_t conv;
  grtc_kpool_t pool;
  grtc_krows_t rows;
  struct {
    uint32_t dimension;
    uint32_t operand_count;
    int64_t dims[GRTC_KERNEL_MAX_RANK];  // the operands' shape
    uint32_t rank;
    uint32_t comparator;  // i1 instruction
  } sort;
} grtc_kernel_t;

// The kernels of one module, in dispatch-op order (DISPATCH ops' kernel
// attribute indexes |kernels|).
typedef struct grtc_kernel_set_t {
  grt_arena_t arena;
  uint32_t count;
  uint32_t capacity;
  grtc_kernel_t** kernels;
} grtc_kernel_set_t;

void grtc_kernel_set_init(grt_allocator_t allocator, grtc_kernel_set_t* set);
void grtc_kernel_set_deinit(grtc_kernel_set_t* set);
// Adds an empty LOOP kernel named |name| (copied) with |binding_count|
// zeroed bindings; *out_index is its position.
grt_status_t grtc_kernel_set_add(grtc_kernel_set_t* set, const char* name,
                                 uint32_t binding_count,
                                 grtc_kernel_t** out_kernel,
                                 uint32_t* out_index) GRT_MUST_USE;

// Builders: each appends to the kernel's arrays (growing them in the set's
// arena) and returns the new instruction's number through |out|.
grt_status_t grtc_kernel_add_inst(grtc_kernel_set_t* set,
                                  grtc_kernel_t* kernel,
                                  const grtc_kinst_t* inst,
                                  uint32_t* out) GRT_MUST_USE;
grt_status_t grtc_kernel_add_acc(grtc_kernel_set_t* set, grtc_kernel_t* kernel,
                                 grtc_elem_t type, uint32_t init,
                                 uint32_t* out_index) GRT_MUST_USE;
grt_status_t grtc_kernel_add_store(grtc_kernel_set_t* set,
                                   grtc_kernel_t* kernel,
                                   const grtc_kstore_t* store) GRT_MUST_USE;
// Appends tensor symbol |symbol| to the kernel's extents unless it is
// there already; *out_extent is its extent index.
grt_status_t grtc_kernel_add_extent(grtc_kernel_set_t* set,
                                    grtc_kernel_t* kernel, uint32_t symbol,
                                    uint32_t* out_extent) GRT_MUST_USE;
// Whether any size of |kernel| is a symbolic extent (extent_count > 0).
static inline bool grtc_kernel_is_symbolic(const grtc_kernel_t* kernel) {
  return kernel->extent_count > 0;
}
// The workgroup count of |kernel| for the extents' values |extents|
// (extent_count of them; ignored by a static kernel, whose count is
// workgroup_count); errors when a tile is < 1 or the count exceeds
// UINT32_MAX.
grt_status_t grtc_kernel_workgroups_for(const grtc_kernel_t* kernel,
                                        const int64_t* extents,
                                        uint32_t* out_count) GRT_MUST_USE;
// Run-time splits (grtc_kernel_t.split_max): a split's tiles of the last
// parallel dim are ceil(dim / split) rounded up to GRTC_KERNEL_SPLIT_STEP
// (the GEMM's 16-column panels), at most dim (split < 1 counts as 1).
#define GRTC_KERNEL_SPLIT_STEP 16
int64_t grtc_kernel_split_tile(int64_t dim, int64_t split);
// The tiles of every parallel dim but the last (what a split multiplies).
int64_t grtc_kernel_split_others(const grtc_kernel_t* kernel);
// The split for a device running |concurrency| (c, taken as 1 below 1)
// workgroups at once: enough output-channel tiles that the workgroups
// number at least c, s = clamp(ceil(c / others), 1, split_max); but when
// others * s is not a multiple of c (3 row tiles on 2 workers would leave
// one worker a third of the layer alone) and c <= split_max, s = c.
int64_t grtc_kernel_split_for(const grtc_kernel_t* kernel,
                              int64_t concurrency);
// The workgroup count of a dispatch with split |split|:
// others * ceil(dim / grtc_kernel_split_tile(dim, split)).
int64_t grtc_kernel_split_workgroups(const grtc_kernel_t* kernel,
                                     int64_t split);
// Computes workgroup_count from the dims and tile (0 when a parallel dim
// is symbolic); errors when a tile is < 1 or the count exceeds UINT32_MAX.
grt_status_t grtc_kernel_finalize_workgroups(grtc_kernel_t* kernel)
    GRT_MUST_USE;

// Checks the invariants above (sections, operand order and types, binding
// and dim numbers, accesses); errors name the kernel and instruction.
grt_status_t grtc_kernel_verify(const grtc_kernel_t* kernel) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_KERNEL_IR_H_
