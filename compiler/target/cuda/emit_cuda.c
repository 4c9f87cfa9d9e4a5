// Kernel IR to CUDA C++. Each instruction becomes one `const T vN = ...;`
// local; scalar ops call the prelude's grt_<op>_<type> helpers, which
// carry the exact semantics of compiler/kernel/scalar.h.
//
// LOOP kernels: block blockIdx.x takes the kernel IR's workgroup x (one
// tile of the parallel space); its threads stride over the tile's points
// (row-major, stride blockDim.x), each running PRE, the reduction nest,
// POST and the stores for its point. Serial kernels run as one thread, in
// row-major order. MATMUL kernels cut their tile into 128x128 blocks
// computed in shared memory (tensor cores through WMMA for f16/bf16, and
// for f32 when tf32 is allowed; otherwise a SIMT kernel with 8x8 outputs
// per thread), then run PRE/POST and the stores per element with ACC(0)
// bound to the product. SORT kernels sort each row in place in the results
// (copied from the operands) with an odd-even transposition sort across
// the block's threads: stable, no scratch memory, O(n) phases.
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/target/c_family/c_family.h"
#include "compiler/target/cuda/cuda_internal.h"

// How a kernel is emitted.
typedef enum grtc_cuda_path_e {
  GRTC_CUDA_PATH_LOOPS,
  GRTC_CUDA_PATH_MATMUL_SIMT,  // f32 FMA (or f16/bf16 widened) in shared memory
  GRTC_CUDA_PATH_MATMUL_WMMA,  // tensor cores: f16, bf16, or tf32 for f32
} grtc_cuda_path_t;

// The matmul block tile and threads (8 warps).
#define GRTC_CUDA_MM_BM 128
#define GRTC_CUDA_MM_BN 128
#define GRTC_CUDA_MM_THREADS 256
#define GRTC_CUDA_MAX_BLOCK 256

typedef struct grtc_cuda_emitter_t {
  grt_string_builder_t* out;
  const grtc_kernel_t* kernel;
  const char* indent;
} grtc_cuda_emitter_t;

grt_status_t grtc_cuda_parse_arch(const char* arch, uint32_t* out_cc) {
  if (!arch) arch = GRTC_CUDA_DEFAULT_ARCH;
  unsigned cc = 0;
  int used = 0;
  if (sscanf(arch, "sm_%u%n", &cc, &used) != 1 || arch[used] != '\0' ||
      cc < 70 || cc > 1000 || arch[3] < '1' || arch[3] > '9') {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "CUDA arch '%s' is not sm_XY with XY >= 70 (for "
                           "example sm_80, sm_90)",
                           arch);
  }
  *out_cc = cc;
  return grt_ok_status();
}

static uint32_t grtc_cuda_cc(const grtc_cuda_options_t* options) {
  uint32_t cc = 80;
  grt_status_t status = grtc_cuda_parse_arch(options ? options->arch : NULL, &cc);
  if (!grt_status_is_ok(status)) {
    grt_status_free(status);
    cc = 80;  // grtc_cuda_build rejects the arch before anything runs
  }
  return cc;
}

static grtc_cuda_path_t grtc_cuda_path(const grtc_kernel_t* kernel,
                                       const grtc_cuda_options_t* options) {
  const grtc_kmatmul_t* mm = &kernel->matmul;
  if (kernel->kind != GRTC_KERNEL_LOOP || kernel->serial ||
      kernel->acc_count != 1 || kernel->pattern != GRTC_KPATTERN_MATMUL ||
      kernel->parallel_rank < 2 || mm->acc_elem != GRTC_ELEM_F32 ||
      mm->lhs_elem != mm->rhs_elem) {
    return GRTC_CUDA_PATH_LOOPS;
  }
  // Each workgroup must hold one batch point (the dispatch tiles batch
  // dims by 1) so the block's operands are two plain matrices.
  for (uint32_t d = 0; d + 2 < kernel->parallel_rank; ++d) {
    if (kernel->tile[d] != 1 && kernel->parallel_dims[d] != 1) {
      return GRTC_CUDA_PATH_LOOPS;
    }
  }
  uint32_t cc = grtc_cuda_cc(options);
  switch (mm->lhs_elem) {
    case GRTC_ELEM_F32:
      return options && options->allow_tf32 && cc >= 80
                 ? GRTC_CUDA_PATH_MATMUL_WMMA
                 : GRTC_CUDA_PATH_MATMUL_SIMT;
    case GRTC_ELEM_F16:
      return GRTC_CUDA_PATH_MATMUL_WMMA;  // sm_70 and newer
    case GRTC_ELEM_BF16:
      return cc >= 80 ? GRTC_CUDA_PATH_MATMUL_WMMA : GRTC_CUDA_PATH_MATMUL_SIMT;
    default:
      return GRTC_CUDA_PATH_LOOPS;
  }
}

static uint32_t grtc_cuda_round_threads(int64_t work) {
  if (work >= GRTC_CUDA_MAX_BLOCK) return GRTC_CUDA_MAX_BLOCK;
  if (work < 1) work = 1;
  return (uint32_t)((work + 31) / 32 * 32);
}

// Points of one (full) tile.
static int64_t grtc_cuda_tile_points(const grtc_kernel_t* kernel) {
  int64_t points = 1;
  for (uint32_t d = 0; d < kernel->parallel_rank; ++d) {
    int64_t dim = kernel->parallel_dims[d];
    int64_t tile = kernel->tile[d] < dim || !grtc_kdim_is_static(dim)
                       ? kernel->tile[d]
                       : dim;
    points *= tile > 0 ? tile : 0;
  }
  return points;
}

uint32_t grtc_cuda_block_size(const grtc_kernel_t* kernel,
                              const grtc_cuda_options_t* options) {
  if (kernel->serial) return 1;
  if (kernel->kind == GRTC_KERNEL_SORT) {
    int64_t rows, length, stride;
    grtc_c_family_sort_geometry(kernel, &rows, &length, &stride);
    return grtc_cuda_round_threads((length + 1) / 2);
  }
  if (grtc_cuda_path(kernel, options) != GRTC_CUDA_PATH_LOOPS) {
    return GRTC_CUDA_MM_THREADS;
  }
  return grtc_cuda_round_threads(grtc_cuda_tile_points(kernel));
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

// NaN and infinities have no literal; their bit patterns do.
static void grtc_cuda_special_float(grt_string_builder_t* out,
                                    const char* compute, double v,
                                    bool is_f64) {
  (void)compute;
  const char* bits = v != v ? (is_f64 ? "0x7ff8000000000000ll" : "0x7fc00000")
                     : v < 0 ? (is_f64 ? "(long long)0xfff0000000000000ull"
                                       : "0xff800000")
                             : (is_f64 ? "0x7ff0000000000000ll" : "0x7f800000");
  grt_string_builder_appendf(out, "%s(%s)",
                             is_f64 ? "__longlong_as_double" : "__int_as_float",
                             bits);
}

// From f32-computed values the hardware rounds to f16/bf16 once; from f64
// and the integers (through f64) the prelude's software rounding does.
static const grtc_c_family_dialect_t grtc_cuda_dialect = {
    .int_literal_prefix = "",
    .int_literal_suffix = "ull",
    .special_float = grtc_cuda_special_float,
    .narrow_from_f32 = true,
};

// The shared emitter's view of |e|: a SORT comparator's ARG(dim) reads
// operand dim/2 of the results being sorted in place (after the operands'
// bindings).
static grtc_c_family_emitter_t grtc_cuda_family(const grtc_cuda_emitter_t* e) {
  grtc_c_family_emitter_t cf = {.dialect = &grtc_cuda_dialect,
                                .out = e->out,
                                .kernel = e->kernel,
                                .indent = e->indent,
                                .index_only = NULL,
                                .arg_binding_base = e->kernel->sort.operand_count,
                                .bounds_checked =
                                    grtc_c_family_bounds_checked(e->kernel)};
  return cf;
}

static void grtc_cuda_emit_section(grtc_cuda_emitter_t* e,
                                   grtc_ksection_t section) {
  for (uint32_t i = 0; i < e->kernel->inst_count; ++i) {
    if (e->kernel->insts[i].section == section) {
      grtc_c_family_emitter_t cf = grtc_cuda_family(e);
      grtc_c_family_emit_inst(&cf, i);
    }
  }
}

static void grtc_cuda_emit_stores(grtc_cuda_emitter_t* e) {
  grtc_c_family_emitter_t cf = grtc_cuda_family(e);
  grtc_c_family_emit_stores(&cf);
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

// extern "C" __global__ void <name>(T0* b0, ...) {
static void grtc_cuda_emit_signature(grtc_cuda_emitter_t* e, uint32_t threads) {
  const grtc_kernel_t* kernel = e->kernel;
  grt_string_builder_appendf(e->out,
                             "extern \"C\" __global__ void __launch_bounds__(%u) "
                             "%.*s(",
                             threads, (int)kernel->name.size, kernel->name.data);
  for (uint32_t b = 0; b < kernel->binding_count; ++b) {
    const grtc_kbinding_t* binding = &kernel->bindings[b];
    // Sort kernels may sort in place (a result sharing its operand's
    // memory), so only loop kernels promise no aliasing.
    bool read_only = !(binding->access & GRTC_KACCESS_WRITE) &&
                     kernel->kind == GRTC_KERNEL_LOOP;
    grt_string_builder_appendf(e->out, "%s%s%s*%s b%u", b ? ", " : "",
                               read_only ? "const " : "",
                               grtc_c_family_type(binding->elem)->storage,
                               kernel->kind == GRTC_KERNEL_LOOP ? " __restrict__" : "",
                               b);
  }
  // Push constants follow the bindings (hal/drivers/cuda's parameter
  // order): extent x is 32-bit word x, read once as int64_t e<x>.
  for (uint32_t x = 0; x < kernel->extent_count; ++x) {
    grt_string_builder_appendf(e->out, "%suint32_t x%u",
                               kernel->binding_count || x ? ", " : "", x);
  }
  // Bounds-checked kernels (grtc_c_family_bounds_checked) also take each
  // binding's byte length, which the driver passes after the push
  // constants (kernels without checks declare none and ignore them), as
  // the element count len<b>.
  bool checked = grtc_c_family_bounds_checked(kernel);
  for (uint32_t b = 0; checked && b < kernel->binding_count; ++b) {
    grt_string_builder_appendf(e->out, ", uint64_t bytes%u", b);
  }
  grt_string_builder_append_cstring(e->out, ") {\n");
  for (uint32_t x = 0; x < kernel->extent_count; ++x) {
    grt_string_builder_appendf(
        e->out, "  const int64_t e%u = (int64_t)x%u; (void)e%u;\n", x, x, x);
  }
  for (uint32_t b = 0; checked && b < kernel->binding_count; ++b) {
    grt_string_builder_appendf(
        e->out, "  const uint64_t len%u = bytes%u / sizeof(*b%u); (void)len%u;\n",
        b, b, b, b);
  }
}

// Defines lo<d>/hi<d> for block blockIdx.x's tile of the parallel space.
static void grtc_cuda_emit_tile_bounds(grtc_cuda_emitter_t* e) {
  grtc_c_family_emit_tile_bounds(e->out, e->kernel, "blockIdx.x", "ull");
}

// The reduction nest with the LOOP section and the accumulator updates.
static void grtc_cuda_emit_reduction(grtc_cuda_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  for (uint32_t a = 0; a < kernel->acc_count; ++a) {
    grt_string_builder_appendf(e->out, "    %s acc%u = v%u;\n",
                               grtc_c_family_type(kernel->accs[a].type)->compute, a,
                               kernel->accs[a].init);
  }
  if (!grtc_c_family_has_reduction_loop(kernel)) return;
  grt_string_builder_append_cstring(e->out, "    {\n");
  for (uint32_t r = 0; r < kernel->reduction_rank; ++r) {
    char size[24];
    grtc_c_family_size(size, sizeof(size), kernel->reduction_dims[r]);
    grt_string_builder_appendf(e->out,
                               "    for (int64_t r%u = 0; r%u < %s; ++r%u) {\n",
                               r, r, size, r);
  }
  e->indent = "      ";
  grtc_cuda_emit_section(e, GRTC_KSECTION_LOOP);
  for (uint32_t a = 0; a < kernel->acc_count; ++a) {
    grt_string_builder_appendf(e->out, "      acc%u = v%u;\n", a,
                               kernel->accs[a].update);
  }
  for (uint32_t r = 0; r < kernel->reduction_rank + 1; ++r) {
    grt_string_builder_append_cstring(e->out, "    }\n");
  }
  e->indent = "    ";
}

// Threads stride over the tile's points: q enumerates a full tile
// row-major (tile sizes are constants, so the divisions are cheap), and
// points past the end of a partial tile are skipped.
// The points a full tile spans along parallel dim |d|: a number, or (a
// serial kernel's symbolic dim) the extent e<x>.
static void grtc_cuda_tile_span(const grtc_kernel_t* kernel, uint32_t d,
                                char* buffer, size_t size) {
  int64_t dim = kernel->parallel_dims[d];
  int64_t tile = kernel->serial || (grtc_kdim_is_static(dim) &&
                                    kernel->tile[d] > dim)
                     ? dim
                     : kernel->tile[d];
  grtc_c_family_size(buffer, size, tile);
}

static void grtc_cuda_emit_loop_kernel(grtc_cuda_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  grt_string_builder_t* out = e->out;
  grtc_cuda_emit_tile_bounds(e);
  int64_t points = 1;
  bool symbolic_span = false;
  for (uint32_t d = 0; d < kernel->parallel_rank; ++d) {
    int64_t dim = kernel->parallel_dims[d];
    int64_t tile = kernel->serial || (grtc_kdim_is_static(dim) &&
                                      kernel->tile[d] > dim)
                       ? dim
                       : kernel->tile[d];
    if (grtc_kdim_is_static(tile)) {
      points *= tile;
    } else {
      symbolic_span = true;
    }
  }
  grt_string_builder_appendf(out,
                             "  for (int64_t q = threadIdx.x; q < %" PRId64,
                             points);
  for (uint32_t d = 0; symbolic_span && d < kernel->parallel_rank; ++d) {
    char span[24];
    grtc_cuda_tile_span(kernel, d, span, sizeof(span));
    if (span[0] == 'e') grt_string_builder_appendf(out, " * %s", span);
  }
  grt_string_builder_append_cstring(out,
                                    "; q += blockDim.x) {\n"
                                    "    int64_t rest = q; (void)rest;\n");
  for (uint32_t d = kernel->parallel_rank; d-- > 0;) {
    char span[24];
    grtc_cuda_tile_span(kernel, d, span, sizeof(span));
    grt_string_builder_appendf(out,
                               "    const int64_t p%u = lo%u + rest %% %s"
                               "; rest /= %s;\n"
                               "    if (p%u >= hi%u) continue;\n",
                               d, d, span, span, d, d);
  }
  e->indent = "    ";
  grtc_cuda_emit_section(e, GRTC_KSECTION_PRE);
  grtc_cuda_emit_reduction(e);
  grtc_cuda_emit_section(e, GRTC_KSECTION_POST);
  grtc_cuda_emit_stores(e);
  grt_string_builder_append_cstring(out, "  }\n}\n\n");
}

// Rows are spread over the blocks; in each, the operands are copied into
// the results (a no-op where they share memory) and sorted there in place
// by odd-even transposition: in phase ph, the pairs (a, a + 1) with a of
// ph's parity swap when the comparator says element a + 1 < element a.
// Only neighbours swap and ties never do, so the sort is stable.
static void grtc_cuda_emit_sort_kernel(grtc_cuda_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  grt_string_builder_t* out = e->out;
  uint32_t n = kernel->sort.operand_count;
  int64_t rows, length, stride;
  grtc_c_family_sort_geometry(kernel, &rows, &length, &stride);
  grt_string_builder_appendf(
      out,
      "  for (int64_t row = blockIdx.x; row < %" PRId64 "; row += gridDim.x) {\n"
      "    const int64_t base = (row / %" PRId64 ") * %" PRId64 " + row %% %" PRId64
      ";\n"
      "    for (int64_t k = threadIdx.x; k < %" PRId64 "; k += blockDim.x) {\n",
      rows, stride, length * stride, stride, length);
  for (uint32_t o = 0; o < n; ++o) {
    grt_string_builder_appendf(out,
                               "      b%u[base + k * %" PRId64 "] = b%u[base + k * %" PRId64
                               "];\n",
                               n + o, stride, o, stride);
  }
  grt_string_builder_appendf(
      out,
      "    }\n"
      "    __syncthreads();\n"
      "    for (int64_t ph = 0; ph < %" PRId64 "; ++ph) {\n"
      "      for (int64_t a = 2 * (int64_t)threadIdx.x + (ph & 1); a + 1 < %" PRId64
      "; a += 2 * (int64_t)blockDim.x) {\n"
      "        const int64_t i = base + (a + 1) * %" PRId64 ", j = base + a * %" PRId64
      ";\n",
      length, length, stride, stride);
  e->indent = "        ";
  grtc_cuda_emit_section(e, GRTC_KSECTION_PRE);
  grt_string_builder_appendf(out, "        if (v%u) {\n", kernel->sort.comparator);
  for (uint32_t o = 0; o < n; ++o) {
    grt_string_builder_appendf(out,
                               "          { const %s s = b%u[i]; b%u[i] = b%u[j]; "
                               "b%u[j] = s; }\n",
                               grtc_c_family_type(kernel->bindings[n + o].elem)->storage,
                               n + o, n + o, n + o, n + o);
  }
  grt_string_builder_append_cstring(out,
                                    "        }\n"
                                    "      }\n"
                                    "      __syncthreads();\n"
                                    "    }\n"
                                    "  }\n}\n\n");
}

// PRE, ACC(0) = |value| (+ the accumulator's initial value unless it is
// the constant +0), POST and the stores at point (p...).
static void grtc_cuda_emit_pattern_epilogue(grtc_cuda_emitter_t* e,
                                            const char* value) {
  grtc_cuda_emit_section(e, GRTC_KSECTION_PRE);
  grtc_c_family_emitter_t cf = grtc_cuda_family(e);
  grtc_c_family_emit_pattern_acc(&cf, value);
  grtc_cuda_emit_section(e, GRTC_KSECTION_POST);
  grtc_cuda_emit_stores(e);
}

// Defines A(m, k) / B(k, n) loads (as float, zero outside the matrices)
// and the 128x128 block loop over the workgroup's (m, n) tile; the batch
// point is the tile's first (batch tiles are 1).
static void grtc_cuda_emit_matmul_head(grtc_cuda_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  const grtc_kmatmul_t* mm = &kernel->matmul;
  grt_string_builder_t* out = e->out;
  uint32_t rank = kernel->parallel_rank, dm = rank - 2, dn = rank - 1;
  grtc_cuda_emit_tile_bounds(e);
  grt_string_builder_append_cstring(out, "  int64_t a_base = 0, b_base = 0;\n");
  for (uint32_t d = 0; d < mm->batch_rank && d < dm; ++d) {
    grt_string_builder_appendf(out,
                               "  const int64_t p%u = lo%u;\n"
                               "  a_base += p%u * %" PRId64 "; b_base += p%u * %" PRId64
                               ";\n",
                               d, d, d, mm->lhs_batch_strides[d], d,
                               mm->rhs_batch_strides[d]);
  }
  (void)dn;
}

// The (m, n) block loop around a body; the body sees m0, n0 (the block's
// origin) and must end with the epilogue.
static void grtc_cuda_emit_block_loop_open(grtc_cuda_emitter_t* e) {
  uint32_t rank = e->kernel->parallel_rank, dm = rank - 2, dn = rank - 1;
  grt_string_builder_appendf(e->out,
                             "  for (int64_t m0 = lo%u; m0 < hi%u; m0 += %d)\n"
                             "  for (int64_t n0 = lo%u; n0 < hi%u; n0 += %d) {\n",
                             dm, dm, GRTC_CUDA_MM_BM, dn, dn, GRTC_CUDA_MM_BN);
}

// How one operand's k-slice goes from global memory through registers to
// shared memory: the block's 256 threads each carry |count| elements
// (element l = threadIdx.x + 256 r of the slice), consecutive threads
// walking the operand's contiguous dimension so loads coalesce. The next
// slice is loaded into registers while the current one is computed on.
typedef struct grtc_cuda_stage_t {
  bool lhs;               // A (m x k) or B (k x n)
  int bk;                 // slice depth
  int count;              // elements per thread: 128 * bk / 256
  const char* reg_type;   // register (and shared) element type
  const char* convert;    // format turning the loaded storage value into it
  // The shared element: array[row][col] (ld 0) or array[row * ld + col],
  // row and col naming the slice's indices (mi, ni, ki).
  const char* array;
  const char* row;
  const char* col;
  int ld;
  const char* regs;  // register array name
} grtc_cuda_stage_t;

// Defines mi/ki (A) or ki/ni (B) of element r.
static void grtc_cuda_emit_stage_map(grtc_cuda_emitter_t* e, const grtc_cuda_stage_t* st) {
  const grtc_kmatmul_t* mm = &e->kernel->matmul;
  bool k_contiguous = st->lhs ? mm->lhs_stride_k == 1 && mm->lhs_stride_m != 1
                              : !(mm->rhs_stride_n == 1 || mm->rhs_stride_k != 1);
  const char* x = st->lhs ? "mi" : "ni";
  grt_string_builder_appendf(e->out, "        const int l = threadIdx.x + 256 * r;\n");
  if (k_contiguous) {
    grt_string_builder_appendf(e->out, "        const int %s = l / %d, ki = l %% %d;\n", x,
                               st->bk, st->bk);
  } else {
    grt_string_builder_appendf(e->out, "        const int %s = l %% 128, ki = l / 128;\n", x);
  }
}

// regs[r] = the operand's element of slice |k0| (zero outside the matrix).
static void grtc_cuda_emit_stage_load(grtc_cuda_emitter_t* e, const grtc_cuda_stage_t* st,
                                      const char* k0) {
  const grtc_kernel_t* kernel = e->kernel;
  const grtc_kmatmul_t* mm = &kernel->matmul;
  uint32_t rank = kernel->parallel_rank;
  grt_string_builder_t* out = e->out;
  grt_string_builder_appendf(out, "      #pragma unroll\n      for (int r = 0; r < %d; ++r) {\n",
                             st->count);
  grtc_cuda_emit_stage_map(e, st);
  char element[160], k_size[24], index[128], guard[192] = "";
  grtc_c_family_size(k_size, sizeof(k_size), mm->k);
  uint32_t binding = st->lhs ? mm->lhs_binding : mm->rhs_binding;
  if (st->lhs) {
    snprintf(index, sizeof(index), "a_base + gm * %" PRId64 " + gk * %" PRId64,
             mm->lhs_stride_m, mm->lhs_stride_k);
  } else {
    snprintf(index, sizeof(index), "b_base + gk * %" PRId64 " + gn * %" PRId64,
             mm->rhs_stride_k, mm->rhs_stride_n);
  }
  // Bounds-checked kernels read 0 outside the binding.
  if (grtc_c_family_bounds_checked(kernel)) {
    snprintf(guard, sizeof(guard), " && (uint64_t)(%s) < len%u", index, binding);
  }
  if (st->lhs) {
    grt_string_builder_appendf(out,
                               "        const int64_t gm = m0 + mi, gk = (%s) + ki;\n"
                               "        %s[r] = gm < hi%u && gk < %s%s ? (%s)",
                               k0, st->regs, rank - 2, k_size, guard, st->reg_type);
  } else {
    grt_string_builder_appendf(out,
                               "        const int64_t gn = n0 + ni, gk = (%s) + ki;\n"
                               "        %s[r] = gn < hi%u && gk < %s%s ? (%s)",
                               k0, st->regs, rank - 1, k_size, guard, st->reg_type);
  }
  snprintf(element, sizeof(element), "b%u[%s]", binding, index);
  grtc_c_family_wrap(out, st->convert, element);
  grt_string_builder_appendf(out, " : (%s)0;\n      }\n", st->reg_type);
}

static void grtc_cuda_emit_stage_store(grtc_cuda_emitter_t* e, const grtc_cuda_stage_t* st) {
  grt_string_builder_appendf(e->out, "      #pragma unroll\n      for (int r = 0; r < %d; ++r) {\n",
                             st->count);
  grtc_cuda_emit_stage_map(e, st);
  if (st->ld) {
    grt_string_builder_appendf(e->out, "        %s[%s * %d + %s] = %s[r];\n      }\n",
                               st->array, st->row, st->ld, st->col, st->regs);
  } else {
    grt_string_builder_appendf(e->out, "        %s[%s][%s] = %s[r];\n      }\n", st->array,
                               st->row, st->col, st->regs);
  }
}

// The k loop around |compute| (emitting the math on the staged slices),
// with the next slices prefetched into registers during the computation.
typedef void (*grtc_cuda_compute_fn_t)(grtc_cuda_emitter_t* e, const void* context);
static void grtc_cuda_emit_k_loop(grtc_cuda_emitter_t* e, const grtc_cuda_stage_t* a,
                                  const grtc_cuda_stage_t* b, grtc_cuda_compute_fn_t compute,
                                  const void* context) {
  grt_string_builder_t* out = e->out;
  grt_string_builder_appendf(out, "    %s %s[%d];\n    %s %s[%d];\n", a->reg_type, a->regs,
                             a->count, b->reg_type, b->regs, b->count);
  grt_string_builder_append_cstring(out, "    {\n      const int64_t k0 = 0;\n");
  grtc_cuda_emit_stage_load(e, a, "k0");
  grtc_cuda_emit_stage_load(e, b, "k0");
  char k_size[24];
  grtc_c_family_size(k_size, sizeof(k_size), e->kernel->matmul.k);
  grt_string_builder_appendf(out,
                             "    }\n"
                             "    for (int64_t k0 = 0; k0 < %s; k0 += %d) {\n",
                             k_size, a->bk);
  grtc_cuda_emit_stage_store(e, a);
  grtc_cuda_emit_stage_store(e, b);
  grt_string_builder_appendf(out,
                             "      __syncthreads();\n"
                             "      if (k0 + %d < %s) {\n",
                             a->bk, k_size);
  char next[32];
  snprintf(next, sizeof(next), "k0 + %d", a->bk);
  grtc_cuda_emit_stage_load(e, a, next);
  grtc_cuda_emit_stage_load(e, b, next);
  grt_string_builder_append_cstring(out, "      }\n");
  compute(e, context);
  grt_string_builder_append_cstring(out, "      __syncthreads();\n    }\n");
}

static void grtc_cuda_emit_simt_compute(grtc_cuda_emitter_t* e, const void* context) {
  (void)context;
  grt_string_builder_append_cstring(
      e->out,
      "      #pragma unroll\n"
      "      for (int kk = 0; kk < 8; ++kk) {\n"
      "        const float4 a0 = *(const float4*)&As[kk][4 * ty];\n"
      "        const float4 a1 = *(const float4*)&As[kk][64 + 4 * ty];\n"
      "        const float4 b0 = *(const float4*)&Bs[kk][4 * tx];\n"
      "        const float4 b1 = *(const float4*)&Bs[kk][64 + 4 * tx];\n"
      "        const float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};\n"
      "        const float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};\n"
      "        #pragma unroll\n"
      "        for (int i = 0; i < 8; ++i)\n"
      "          #pragma unroll\n"
      "          for (int j = 0; j < 8; ++j) c[i][j] = fmaf(av[i], bv[j], c[i][j]);\n"
      "      }\n");
}

// The SIMT path: BK = 8, A staged transposed (As[k][m]) and B as Bs[k][n];
// thread (tx, ty) of a 16x16 grid owns rows 4 ty + {0..3} and
// 64 + 4 ty + {0..3}, columns likewise from tx, read from shared memory as
// float4 (a warp's 16 tx read 256 contiguous bytes, its 2 ty broadcast).
static void grtc_cuda_emit_matmul_simt(grtc_cuda_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  const grtc_kmatmul_t* mm = &kernel->matmul;
  grt_string_builder_t* out = e->out;
  uint32_t rank = kernel->parallel_rank, dm = rank - 2, dn = rank - 1;
  grtc_cuda_stage_t a = {true, 8, 4, "float", grtc_c_family_type(mm->lhs_elem)->from_storage,
                         "As", "ki", "mi", 0, "ra"};
  grtc_cuda_stage_t b = {false, 8, 4, "float", grtc_c_family_type(mm->rhs_elem)->from_storage,
                         "Bs", "ki", "ni", 0, "rb"};
  grtc_cuda_emit_matmul_head(e);
  grt_string_builder_append_cstring(
      out,
      "  __shared__ __align__(16) float As[8][128];\n"
      "  __shared__ __align__(16) float Bs[8][128];\n"
      "  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;\n");
  grtc_cuda_emit_block_loop_open(e);
  grt_string_builder_append_cstring(
      out, "    float c[8][8];\n"
           "    for (int i = 0; i < 8; ++i) for (int j = 0; j < 8; ++j) c[i][j] = 0.0f;\n");
  grtc_cuda_emit_k_loop(e, &a, &b, grtc_cuda_emit_simt_compute, NULL);
  grt_string_builder_append_cstring(out,
                                    "    #pragma unroll 1\n"
                                    "    for (int i = 0; i < 8; ++i)\n"
                                    "    #pragma unroll 1\n"
                                    "    for (int j = 0; j < 8; ++j) {\n");
  grt_string_builder_appendf(out,
                             "      const int64_t p%u = m0 + (i / 4) * 64 + 4 * ty + i %% 4, "
                             "p%u = n0 + (j / 4) * 64 + 4 * tx + j %% 4;\n"
                             "      if (p%u >= hi%u || p%u >= hi%u) continue;\n",
                             dm, dn, dm, dm, dn, dn);
  e->indent = "      ";
  grtc_cuda_emit_pattern_epilogue(e, "c[i][j]");
  grt_string_builder_append_cstring(out, "    }\n  }\n}\n\n");
}

// The fragment types of a tensor-core kernel.
typedef struct grtc_cuda_wmma_t {
  bool tf32;
  int fk;            // fragment k: 16 (f16/bf16) or 8 (tf32)
  const char* frag;  // fragment element type
  const char* ptr;   // pointer type the fragments load from
  int lda, ldb;      // padded shared rows: fragment pointers stay 32-byte aligned
} grtc_cuda_wmma_t;

static void grtc_cuda_emit_wmma_compute(grtc_cuda_emitter_t* e, const void* context) {
  const grtc_cuda_wmma_t* w = (const grtc_cuda_wmma_t*)context;
  grt_string_builder_t* out = e->out;
  grt_string_builder_appendf(
      out,
      "      #pragma unroll\n"
      "      for (int kk = 0; kk < 32; kk += %d) {\n"
      "        wmma::fragment<wmma::matrix_a, 16, 16, %d, %s, wmma::row_major> fa[4];\n"
      "        wmma::fragment<wmma::matrix_b, 16, 16, %d, %s, wmma::row_major> fb[2];\n"
      "        for (int i = 0; i < 4; ++i) {\n"
      "          wmma::load_matrix_sync(fa[i], (const %s*)As + (wm + 16 * i) * %d + kk, %d);\n",
      w->fk, w->fk, w->frag, w->fk, w->frag, w->ptr, w->lda, w->lda);
  if (w->tf32) {
    grt_string_builder_append_cstring(
        out,
        "          for (int t = 0; t < fa[i].num_elements; ++t) "
        "fa[i].x[t] = wmma::__float_to_tf32(fa[i].x[t]);\n");
  }
  grt_string_builder_appendf(
      out,
      "        }\n"
      "        for (int j = 0; j < 2; ++j) {\n"
      "          wmma::load_matrix_sync(fb[j], (const %s*)Bs + kk * %d + wn + 16 * j, %d);\n",
      w->ptr, w->ldb, w->ldb);
  if (w->tf32) {
    grt_string_builder_append_cstring(
        out,
        "          for (int t = 0; t < fb[j].num_elements; ++t) "
        "fb[j].x[t] = wmma::__float_to_tf32(fb[j].x[t]);\n");
  }
  grt_string_builder_append_cstring(
      out,
      "        }\n"
      "        for (int i = 0; i < 4; ++i)\n"
      "          for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);\n"
      "      }\n");
}

// The tensor-core path: BK = 32 staged row-major as As[m][k] and Bs[k][n]
// (raw f16/bf16 bits, or floats for tf32); the 8 warps form a 2x4 grid,
// each owning a 64x32 block (4x2 fragments of 16x16, f32 accumulators).
// Each accumulator fragment goes through a per-warp 16x16 staging tile for
// the epilogue.
static void grtc_cuda_emit_matmul_wmma(grtc_cuda_emitter_t* e) {
  const grtc_kernel_t* kernel = e->kernel;
  const grtc_kmatmul_t* mm = &kernel->matmul;
  grt_string_builder_t* out = e->out;
  uint32_t rank = kernel->parallel_rank, dm = rank - 2, dn = rank - 1;
  bool tf32 = mm->lhs_elem == GRTC_ELEM_F32;
  bool f16 = mm->lhs_elem == GRTC_ELEM_F16;
  grtc_cuda_wmma_t w = {tf32, tf32 ? 8 : 16,
                        tf32 ? "wmma::precision::tf32" : f16 ? "__half" : "__nv_bfloat16",
                        tf32 ? "float" : f16 ? "__half" : "__nv_bfloat16",
                        tf32 ? 36 : 40, tf32 ? 132 : 136};
  const char* smem = tf32 ? "float" : "uint16_t";
  grtc_cuda_stage_t a = {true, 32, 16, smem, "%s", "As", "mi", "ki", w.lda, "ra"};
  grtc_cuda_stage_t b = {false, 32, 16, smem, "%s", "Bs", "ki", "ni", w.ldb, "rb"};
  grtc_cuda_emit_matmul_head(e);
  grt_string_builder_appendf(
      out,
      "  __shared__ __align__(32) %s As[128 * %d];\n"
      "  __shared__ __align__(32) %s Bs[32 * %d];\n"
      "  __shared__ __align__(32) float Cs[8][256];\n"
      "  const int warp = threadIdx.x / 32, lane = threadIdx.x %% 32;\n"
      "  const int wm = (warp / 4) * 64, wn = (warp %% 4) * 32;\n",
      smem, w.lda, smem, w.ldb);
  grtc_cuda_emit_block_loop_open(e);
  grt_string_builder_appendf(
      out,
      "    wmma::fragment<wmma::accumulator, 16, 16, %d, float> acc[4][2];\n"
      "    for (int i = 0; i < 4; ++i) for (int j = 0; j < 2; ++j) "
      "wmma::fill_fragment(acc[i][j], 0.0f);\n",
      w.fk);
  grtc_cuda_emit_k_loop(e, &a, &b, grtc_cuda_emit_wmma_compute, &w);
  grt_string_builder_append_cstring(
      out,
      "    for (int i = 0; i < 4; ++i)\n"
      "    for (int j = 0; j < 2; ++j) {\n"
      "      wmma::store_matrix_sync(Cs[warp], acc[i][j], 16, wmma::mem_row_major);\n"
      "      __syncwarp();\n"
      "      for (int x = lane; x < 256; x += 32) {\n");
  grt_string_builder_appendf(out,
                             "        const int64_t p%u = m0 + wm + 16 * i + x / 16, "
                             "p%u = n0 + wn + 16 * j + x %% 16;\n"
                             "        if (p%u >= hi%u || p%u >= hi%u) continue;\n",
                             dm, dn, dm, dm, dn, dn);
  e->indent = "        ";
  grtc_cuda_emit_pattern_epilogue(e, "Cs[warp][x]");
  grt_string_builder_append_cstring(out, "      }\n      __syncwarp();\n    }\n  }\n}\n\n");
}

static grt_status_t grtc_cuda_emit_kernel(const grtc_kernel_t* kernel,
                                          const grtc_cuda_options_t* options,
                                          grt_string_builder_t* out) {
  GRT_RETURN_IF_ERROR(grtc_kernel_verify(kernel));
  grtc_cuda_emitter_t e = {.out = out, .kernel = kernel, .indent = "    "};
  grtc_cuda_emit_signature(&e, grtc_cuda_block_size(kernel, options));
  if (kernel->kind == GRTC_KERNEL_SORT) {
    grtc_cuda_emit_sort_kernel(&e);
    return grt_ok_status();
  }
  switch (grtc_cuda_path(kernel, options)) {
    case GRTC_CUDA_PATH_MATMUL_SIMT:
      grtc_cuda_emit_matmul_simt(&e);
      break;
    case GRTC_CUDA_PATH_MATMUL_WMMA:
      grtc_cuda_emit_matmul_wmma(&e);
      break;
    default:
      grtc_cuda_emit_loop_kernel(&e);
      break;
  }
  return grt_ok_status();
}

// The 1-based line number the text appended next to |out| starts on,
// counting from |start|.
static uint32_t grtc_cuda_next_line(const grt_string_builder_t* out,
                                    size_t start) {
  uint32_t lines = 1;
  for (size_t i = start; i < out->size; ++i) lines += out->data[i] == '\n';
  return lines;
}

grt_status_t grtc_cuda_emit_with_lines(const grtc_kernel_set_t* kernels,
                                       const grtc_cuda_options_t* options,
                                       grt_string_builder_t* out,
                                       uint32_t* out_kernel_lines,
                                       bool* out_uses_wmma) {
  uint32_t cc = 0;
  GRT_RETURN_IF_ERROR(grtc_cuda_parse_arch(options ? options->arch : NULL, &cc));
  bool uses_wmma = false;
  for (uint32_t k = 0; k < kernels->count; ++k) {
    uses_wmma |= kernels->kernels[k]->kind == GRTC_KERNEL_LOOP &&
                 grtc_cuda_path(kernels->kernels[k], options) ==
                     GRTC_CUDA_PATH_MATMUL_WMMA;
  }
  size_t start = out->size;
  grt_string_builder_append_cstring(out,
                                    "/* Generated by grt-compile (CUDA target). */\n");
  if (uses_wmma) {
    grt_string_builder_append_cstring(out, "#include <mma.h>\nusing namespace nvcuda;\n");
  }
  grtc_cuda_emit_prelude(out);
  for (uint32_t k = 0; k < kernels->count; ++k) {
    // Run-time splits are the CPU's; GPU kernels keep compile-time tiles.
    const grtc_kernel_t* kernel = kernels->kernels[k];
    if (kernel->split_max > 0) {
      return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                             "kernel %.*s: the CUDA target has no run-time "
                             "split (split_max %u); expected compile-time tiles",
                             (int)kernel->name.size, kernel->name.data,
                             kernel->split_max);
    }
  }
  for (uint32_t k = 0; k < kernels->count; ++k) {
    if (out_kernel_lines) out_kernel_lines[k] = grtc_cuda_next_line(out, start);
    GRT_RETURN_IF_ERROR(grtc_cuda_emit_kernel(kernels->kernels[k], options, out));
  }
  if (out_uses_wmma) *out_uses_wmma = uses_wmma;
  return grt_string_builder_status(out);
}

grt_status_t grtc_cuda_emit(const grtc_kernel_set_t* kernels,
                            const grtc_cuda_options_t* options,
                            grt_string_builder_t* out) {
  return grtc_cuda_emit_with_lines(kernels, options, out, NULL, NULL);
}
