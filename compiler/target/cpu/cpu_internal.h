// Pieces of the CPU target shared between its files (not a public API).
#ifndef GRT_COMPILER_TARGET_CPU_CPU_INTERNAL_H_
#define GRT_COMPILER_TARGET_CPU_CPU_INTERNAL_H_

#include "base/string_builder.h"
#include "compiler/kernel/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

// The ABI structs (grtk_dispatch_t, ...) and scalar helpers every
// generated file starts with.
void grtc_cpu_emit_prelude(grt_string_builder_t* out);

// The register-blocked SGEMM micro-kernel and packing routines that
// MATMUL and CONV2D kernels call (emitted once per file when used).
void grtc_cpu_emit_gemm_support(grt_string_builder_t* out);

// The most points a tile of |kernel| spans along parallel dim |d| (its
// tile size, cut to the dim when that is static).
int64_t grtc_cpu_tile_size(const grtc_kernel_t* kernel, uint32_t d);

// The int8 GEMM (gemm_i8.c) of i8 x i8 -> i32 MATMUL kernels: AVX-512
// VNNI, AVX2 or portable C as the kernel compiler's target allows.
void grtc_cpu_emit_igemm_support(grt_string_builder_t* out);
// Whether |kernel| runs on it: a MATMUL pattern of i8 operands into an i32
// accumulator that starts at 0, in a kernel without symbolic extents.
// Whether |kernel| is a MATMUL-pattern loop kernel of static sizes with one
// accumulator of type |acc| that starts from 0: what both the int8 and the
// int4-weight GEMMs take (each then checks its operand types).
bool grtc_cpu_gemm_from_zero(const grtc_kernel_t* kernel, grtc_elem_t acc);
bool grtc_cpu_igemm_supported(const grtc_kernel_t* kernel);
// Bytes of per-worker scratch such a kernel needs.
uint64_t grtc_cpu_igemm_scratch_bytes(const grtc_kernel_t* kernel);

// Indentation of |depth| levels of generated loops (two spaces each, at
// most 40), shared by the integer and int4-weight GEMM emitters.
const char* grtc_cpu_loop_indent(uint32_t depth);
// Emits PRE, `const int32_t acc0 = <value>;`, POST and the stores of one
// parallel point at nesting |depth| (the CPU emitter's).
typedef void (*grtc_cpu_epilogue_fn_t)(void* user, uint32_t depth, const char* value);
// The body of such a kernel after its binding pointers and tile bounds
// (lo<d>/hi<d>): the tile's batch points, then C blocks through
// grt_igemm_block, |epilogue| per element, up to the final `return`.
void grtc_cpu_emit_igemm_loops(const grtc_kernel_t* kernel, grt_string_builder_t* out,
                               grtc_cpu_epilogue_fn_t epilogue, void* user);

// The int4-weight GEMM (w4.c) of f32 x packed i4/ui4 MATMUL kernels
// (grtc_kmatmul_t.rhs_packed4): AVX2 or portable C as the kernel
// compiler's target allows.
void grtc_cpu_emit_w4gemm_support(grt_string_builder_t* out);
// Whether |kernel| has its shape: an f32 x i8/ui8 (converted) MATMUL into
// an f32 accumulator that starts at 0, without symbolic extents.
bool grtc_cpu_w4gemm_shape(const grtc_kernel_t* kernel);
// Whether |kernel| runs on it: that shape with its rhs packed.
bool grtc_cpu_w4gemm_supported(const grtc_kernel_t* kernel);
uint64_t grtc_cpu_w4gemm_scratch_bytes(const grtc_kernel_t* kernel);
// Its body after the binding pointers and tile bounds, as
// grtc_cpu_emit_igemm_loops (the epilogue's value is a float).
void grtc_cpu_emit_w4gemm_loops(const grtc_kernel_t* kernel, grt_string_builder_t* out,
                                grtc_cpu_epilogue_fn_t epilogue, void* user);

// Whether |kernel| is an i8 x i8 -> i32 CONV2D (accumulator from 0, no
// symbolic extents, any layout) that runs on grt_igemm_block: im2col
// blocks of whole output rows of the tile times the filter rows.
bool grtc_cpu_iconv_supported(const grtc_kernel_t* kernel);
// Bytes of per-worker scratch such a kernel needs.
uint64_t grtc_cpu_iconv_scratch_bytes(const grtc_kernel_t* kernel);
// Its body after the binding pointers and tile bounds, as
// grtc_cpu_emit_igemm_loops (the epilogue at depth 7).
void grtc_cpu_emit_iconv_loops(const grtc_kernel_t* kernel, grt_string_builder_t* out,
                               grtc_cpu_epilogue_fn_t epilogue, void* user);

// Whether |kernel| is a CONV2D the emitter runs on the planar GEMM path
// (output channels x pixels, the filter as the GEMM's A), the one path that
// reads a packed filter (grtc_kconv_t.filter_packed).
bool grtc_cpu_conv_on_pixels_path(const grtc_kernel_t* kernel);

// ROWS kernels (rows.c): the per-row routines (emitted once per file when
// used), whether |kernel| runs on them, and its body after the binding
// pointers and tile bounds (lo<d>/hi<d>), up to the kernel's closing brace.
void grtc_cpu_emit_rows_support(grt_string_builder_t* out);
bool grtc_cpu_rows_supported(const grtc_kernel_t* kernel);
void grtc_cpu_emit_rows_loops(const grtc_kernel_t* kernel,
                              grt_string_builder_t* out);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_TARGET_CPU_CPU_INTERNAL_H_
