// Test-only helpers for the CPU target tests: terse kernel IR builders, and
// building a kernel set with grtc_cpu_build, loading the .so with the
// runtime's own loader (hal/local/elf_loader.h, so every generated kernel's
// imports are checked against its import table) and running an entry over
// all its workgroups the way the local drivers do.
#ifndef GRT_COMPILER_TARGET_CPU_CPU_TEST_UTIL_H_
#define GRT_COMPILER_TARGET_CPU_CPU_TEST_UTIL_H_

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/status_matchers.h"
#include "compiler/target/cpu/cpu_target.h"
#include "hal/local/elf_loader.h"
#include "hal/local/kernel_abi.h"

typedef struct kb_t {
  grtc_kernel_set_t* set;
  grtc_kernel_t* k;
} kb_t;

static inline uint32_t kb_add(kb_t* b, grtc_kinst_t inst) {
  uint32_t out = 0;
  GRT_EXPECT_OK(grtc_kernel_add_inst(b->set, b->k, &inst, &out));
  return out;
}
static inline uint32_t kb_ci(kb_t* b, grtc_ksection_t s, grtc_elem_t t,
                             int64_t v) {
  return kb_add(b, (grtc_kinst_t){.kind = GRTC_KINST_CONST, .section = s,
                                  .type = t, .value.i = v});
}
static inline uint32_t kb_cf(kb_t* b, grtc_ksection_t s, grtc_elem_t t,
                             double v) {
  return kb_add(b, (grtc_kinst_t){.kind = GRTC_KINST_CONST, .section = s,
                                  .type = t, .value.f = v});
}
static inline uint32_t kb_index(kb_t* b, grtc_kinst_kind_t kind,
                                grtc_ksection_t s, uint32_t dim) {
  return kb_add(b, (grtc_kinst_t){.kind = kind, .section = s,
                                  .type = GRTC_ELEM_I64, .dim = dim});
}
static inline uint32_t kb_load(kb_t* b, grtc_ksection_t s, uint32_t binding,
                               uint32_t index) {
  return kb_add(b, (grtc_kinst_t){.kind = GRTC_KINST_LOAD, .section = s,
                                  .type = b->k->bindings[binding].elem,
                                  .binding = binding, .operand_count = 1,
                                  .operands = {index}});
}
static inline uint32_t kb_op(kb_t* b, grtc_ksection_t s, grtc_elem_t t,
                             grtc_scalar_op_t op, uint32_t x, uint32_t y,
                             uint32_t z) {
  uint32_t arity = grtc_scalar_op_arity(op);
  return kb_add(b, (grtc_kinst_t){.kind = GRTC_KINST_OP, .section = s,
                                  .type = t, .op = op, .operand_count = arity,
                                  .operands = {x, y, z}});
}
static inline uint32_t kb_cmp(kb_t* b, grtc_ksection_t s,
                              grtc_compare_direction_t dir,
                              grtc_compare_type_t type, uint32_t x,
                              uint32_t y) {
  return kb_add(b, (grtc_kinst_t){.kind = GRTC_KINST_COMPARE, .section = s,
                                  .type = GRTC_ELEM_I1, .op = dir,
                                  .compare_type = type, .operand_count = 2,
                                  .operands = {x, y}});
}
static inline uint32_t kb_acc(kb_t* b, grtc_ksection_t s, uint32_t acc) {
  return kb_add(b, (grtc_kinst_t){.kind = GRTC_KINST_ACC, .section = s,
                                  .type = b->k->accs[acc].type, .dim = acc});
}
static inline void kb_store(kb_t* b, uint32_t binding, uint32_t index,
                            uint32_t value, uint32_t predicate) {
  GRT_EXPECT_OK(grtc_kernel_add_store(
      b->set, b->k,
      &(grtc_kstore_t){.binding = binding, .index = index, .value = value,
                       .predicate = predicate}));
}
// A 2-D window tap as the dispatch lowering writes it (LOOP section): the
// input position p * stride - pad + r * dilation along y and x, whether it
// lies inside [0, h) x [0, w), and the positions selected to 0 outside.
typedef struct kb_window_t {
  int64_t stride_h, stride_w, pad_h, pad_w, dil_h, dil_w, h, w;
} kb_window_t;
typedef struct kb_tap_t {
  uint32_t inside, iy, ix;  // i1; i64 positions, 0 outside
} kb_tap_t;
static inline uint32_t kb_tap_axis(kb_t* b, uint32_t p, uint32_t r,
                                   int64_t stride, int64_t pad, int64_t dil) {
  const grtc_ksection_t L = GRTC_KSECTION_LOOP;
  uint32_t scaled = kb_op(b, L, GRTC_ELEM_I64, GRTC_SCALAR_MUL, p,
                          kb_ci(b, L, GRTC_ELEM_I64, stride), 0);
  uint32_t shifted = kb_op(b, L, GRTC_ELEM_I64, GRTC_SCALAR_SUB, scaled,
                           kb_ci(b, L, GRTC_ELEM_I64, pad), 0);
  return kb_op(b, L, GRTC_ELEM_I64, GRTC_SCALAR_ADD, shifted,
               kb_op(b, L, GRTC_ELEM_I64, GRTC_SCALAR_MUL, r,
                     kb_ci(b, L, GRTC_ELEM_I64, dil), 0),
               0);
}
static inline uint32_t kb_in_range(kb_t* b, uint32_t x, int64_t hi) {
  const grtc_ksection_t L = GRTC_KSECTION_LOOP;
  return kb_op(b, L, GRTC_ELEM_I1, GRTC_SCALAR_AND,
               kb_cmp(b, L, GRTC_CMP_GE, GRTC_CMP_TYPE_SIGNED, x,
                      kb_ci(b, L, GRTC_ELEM_I64, 0)),
               kb_cmp(b, L, GRTC_CMP_LT, GRTC_CMP_TYPE_SIGNED, x,
                      kb_ci(b, L, GRTC_ELEM_I64, hi)),
               0);
}
static inline kb_tap_t kb_window_tap(kb_t* b, const kb_window_t* w,
                                     uint32_t py, uint32_t px, uint32_t ry,
                                     uint32_t rx) {
  const grtc_ksection_t L = GRTC_KSECTION_LOOP;
  uint32_t iy = kb_tap_axis(b, py, ry, w->stride_h, w->pad_h, w->dil_h);
  uint32_t ix = kb_tap_axis(b, px, rx, w->stride_w, w->pad_w, w->dil_w);
  kb_tap_t t;
  t.inside = kb_op(b, L, GRTC_ELEM_I1, GRTC_SCALAR_AND, kb_in_range(b, iy, w->h),
                   kb_in_range(b, ix, w->w), 0);
  t.iy = kb_op(b, L, GRTC_ELEM_I64, GRTC_SCALAR_SELECT, t.inside, iy,
               kb_ci(b, L, GRTC_ELEM_I64, 0));
  t.ix = kb_op(b, L, GRTC_ELEM_I64, GRTC_SCALAR_SELECT, t.inside, ix,
               kb_ci(b, L, GRTC_ELEM_I64, 0));
  return t;
}
// A batched matmul test case: sizes, the workgroup tile of (m, n), and
// whether the rhs is stored [batch, n, k].
typedef struct kb_matmul_case_t {
  int64_t batch, m, n, k;
  int64_t tile_m, tile_n;
  bool rhs_transposed;
} kb_matmul_case_t;

// The index instructions of a batched matmul over the parallel space
// (batch, m, n) and reduction k: lhs [batch, m, k], rhs [batch, k, n] (or
// [batch, n, k] when |rhs_transposed|), out [batch, m, n]; the load
// indices in the LOOP section, the output index in POST.
typedef struct kb_matmul_index_t {
  uint32_t pn;        // the n index (PRE)
  uint32_t lhs, rhs;  // load indices (LOOP)
  uint32_t out;       // store index (POST)
} kb_matmul_index_t;
static inline kb_matmul_index_t kb_matmul_indices(kb_t* b, int64_t m, int64_t n,
                                                  int64_t k, bool rhs_transposed) {
  const grtc_ksection_t P = GRTC_KSECTION_PRE, L = GRTC_KSECTION_LOOP,
                        Q = GRTC_KSECTION_POST;
  int64_t rsk = rhs_transposed ? 1 : n, rsn = rhs_transposed ? k : 1;
  uint32_t pb = kb_index(b, GRTC_KINST_PINDEX, P, 0);
  uint32_t pm = kb_index(b, GRTC_KINST_PINDEX, P, 1);
  uint32_t pn = kb_index(b, GRTC_KINST_PINDEX, P, 2);
  uint32_t rk = kb_index(b, GRTC_KINST_RINDEX, L, 0);
#define KB_I64(s, v) kb_ci(b, s, GRTC_ELEM_I64, (v))
#define KB_MUL(s, x, y) kb_op(b, s, GRTC_ELEM_I64, GRTC_SCALAR_MUL, (x), (y), 0)
#define KB_ADD(s, x, y) kb_op(b, s, GRTC_ELEM_I64, GRTC_SCALAR_ADD, (x), (y), 0)
  kb_matmul_index_t r;
  r.pn = pn;
  r.lhs = KB_ADD(L, KB_ADD(L, KB_MUL(L, pb, KB_I64(L, m * k)), KB_MUL(L, pm, KB_I64(L, k))),
                 rk);
  r.rhs = KB_ADD(L, KB_ADD(L, KB_MUL(L, pb, KB_I64(L, k * n)), KB_MUL(L, rk, KB_I64(L, rsk))),
                 KB_MUL(L, pn, KB_I64(L, rsn)));
  r.out = KB_ADD(Q, KB_MUL(Q, pb, KB_I64(Q, m * n)), KB_ADD(Q, KB_MUL(Q, pm, KB_I64(Q, n)), pn));
#undef KB_I64
#undef KB_MUL
#undef KB_ADD
  return r;
}
// The MATMUL pattern of such a kernel (strides as kb_matmul_indices lays
// the bindings out: lhs 0, rhs 1).
static inline grtc_kmatmul_t kb_matmul_pattern(int64_t m, int64_t n, int64_t k,
                                               bool rhs_transposed, grtc_elem_t in,
                                               grtc_elem_t acc) {
  return (grtc_kmatmul_t){
      .lhs_binding = 0, .rhs_binding = 1, .m = m, .n = n, .k = k,
      .lhs_stride_m = k, .lhs_stride_k = 1, .rhs_stride_k = rhs_transposed ? 1 : n,
      .rhs_stride_n = rhs_transposed ? k : 1, .batch_rank = 1,
      .lhs_batch_strides = {m * k}, .rhs_batch_strides = {k * n},
      .lhs_elem = in, .rhs_elem = in, .acc_elem = acc};
}

// A new kernel with |count| bindings given as (elem, element count, access).
static inline kb_t kb_kernel(grtc_kernel_set_t* set, const char* name,
                             uint32_t count, const grtc_kbinding_t* bindings) {
  kb_t b = {set, NULL};
  GRT_EXPECT_OK(grtc_kernel_set_add(set, name, count, &b.k, NULL));
  memcpy(b.k->bindings, bindings, count * sizeof(*bindings));
  return b;
}
static inline void kb_space(kb_t* b, uint32_t rank, const int64_t* dims,
                            const int64_t* tile) {
  b->k->parallel_rank = rank;
  for (uint32_t d = 0; d < rank; ++d) {
    b->k->parallel_dims[d] = dims[d];
    b->k->tile[d] = tile ? tile[d] : dims[d];
  }
  GRT_EXPECT_OK(grtc_kernel_finalize_workgroups(b->k));
}

// A built and loaded kernel library.
typedef struct cpu_library_t {
  grt_hal_local_elf_image_t* handle;
  const grt_kernel_library_t* library;
} cpu_library_t;

static inline cpu_library_t cpu_build_and_load(
    const grtc_kernel_set_t* set, const grtc_cpu_options_t* options) {
  cpu_library_t result = {NULL, NULL};
  // The generated C must be warning-free under the house warnings.
  grtc_cpu_options_t defaults = {
      .features = "host",
      .optimization_level = 2,
      .flags = "-Wall -Wextra -Werror -Wshadow -Wstrict-prototypes "
               "-Wmissing-prototypes -Wno-unused-parameter"};
  uint8_t* binary = NULL;
  size_t size = 0;
  char format[32];
  GRT_EXPECT_OK(grtc_cpu_build(set, options ? options : &defaults,
                               grt_allocator_system(), &binary, &size, format));
  assert_string_equal(format, "cpu-x86_64");  // this test runs on x86-64
  GRT_EXPECT_OK(grt_hal_local_elf_load(binary, size, "test",
                                       grt_allocator_system(), &result.handle));
  grt_allocator_free(grt_allocator_system(), binary);
  void* symbol = NULL;
  GRT_EXPECT_OK(grt_hal_local_elf_lookup(
      result.handle, GRT_KERNEL_LIBRARY_QUERY_SYMBOL, "test", &symbol));
  grt_kernel_library_query_fn_t query = NULL;
  memcpy(&query, &symbol, sizeof(query));
  assert_non_null(query);
  assert_null(query(GRT_KERNEL_ABI_VERSION + 1));
  result.library = query(GRT_KERNEL_ABI_VERSION);
  assert_non_null(result.library);
  assert_int_equal(result.library->entry_count, set->count);
  for (uint32_t i = 0; i < set->count; ++i) {
    const grt_kernel_entry_t* entry = &result.library->entries[i];
    assert_int_equal(strlen(entry->name), set->kernels[i]->name.size);
    assert_memory_equal(entry->name, set->kernels[i]->name.data,
                        set->kernels[i]->name.size);
    assert_int_equal(entry->binding_count, set->kernels[i]->binding_count);
  }
  return result;
}

static inline void cpu_unload(cpu_library_t* lib) {
  grt_hal_local_elf_unload(lib->handle);
  lib->handle = NULL;
}

// Runs entry |index| over |workgroup_count| workgroups (in reverse, since
// workgroups may run in any order) with push constants |constants| and
// binding byte lengths |lengths| (NULL: all 0, for kernels that do not
// read them) and returns the first nonzero code.
static inline int cpu_run_constants(const cpu_library_t* lib, uint32_t index,
                                    void* const* bindings,
                                    uint32_t binding_count,
                                    uint32_t workgroup_count,
                                    const uint32_t* constants,
                                    uint32_t constant_count,
                                    const size_t* lengths) {
  const grt_kernel_entry_t* entry = &lib->library->entries[index];
  static const size_t zero_lengths[16] = {0};
  if (!lengths) lengths = zero_lengths;
  grt_kernel_dispatch_state_t dispatch = {
      .workgroup_count = {workgroup_count, 1, 1},
      .workgroup_size = {1, 1, 1},
      .constant_count = constant_count,
      .constants = constants,
      .binding_count = binding_count,
      .bindings = bindings,
      .binding_lengths = lengths,
  };
  void* scratch = NULL;
  if (entry->local_memory_size) {
    scratch = aligned_alloc(64, (entry->local_memory_size + 63) / 64 * 64);
    assert_non_null(scratch);
  }
  grt_kernel_workgroup_state_t workgroup = {
      .local_memory = scratch, .local_memory_size = entry->local_memory_size};
  int code = 0;
  for (uint32_t w = workgroup_count; w-- > 0 && code == 0;) {
    workgroup.workgroup_id[0] = w;
    code = entry->fn(&dispatch, &workgroup);
  }
  free(scratch);
  return code;
}

static inline int cpu_run(const cpu_library_t* lib, uint32_t index,
                          void* const* bindings, uint32_t binding_count,
                          uint32_t workgroup_count) {
  return cpu_run_constants(lib, index, bindings, binding_count,
                           workgroup_count, NULL, 0, NULL);
}

// Runs a kernel of |set| whose symbolic extents have the values |extents|
// (push constant e = extents[e]) over the workgroups they give it, with
// bindings of |lengths| bytes.
static inline int cpu_run_extents(const cpu_library_t* lib,
                                  const grtc_kernel_set_t* set,
                                  uint32_t index, void* const* bindings,
                                  const size_t* lengths,
                                  const int64_t* extents) {
  const grtc_kernel_t* kernel = set->kernels[index];
  uint32_t constants[GRTC_KERNEL_MAX_RANK * 4] = {0};
  assert_true(kernel->extent_count <= GRTC_KERNEL_MAX_RANK * 4);
  for (uint32_t e = 0; e < kernel->extent_count; ++e) {
    constants[e] = (uint32_t)extents[e];
  }
  uint32_t workgroups = 0;
  GRT_EXPECT_OK(grtc_kernel_workgroups_for(kernel, extents, &workgroups));
  assert_int_equal(lib->library->entries[index].constant_count,
                   kernel->extent_count);
  return cpu_run_constants(lib, index, bindings, kernel->binding_count,
                           workgroups, constants, kernel->extent_count,
                           lengths);
}

// Entries 0 and 1 of |set| (a pattern kernel and the same kernel without
// the pattern, extent 0 their batch, binding 0 their input) run with the
// batch one past what the bindings of |lengths| bytes hold (a tampered
// push constant): both refuse with binding 0's code instead of reading
// past it.
static inline void cpu_expect_batch_past_input(const cpu_library_t* lib,
                                               const grtc_kernel_set_t* set,
                                               void* const* fast_bindings,
                                               void* const* generic_bindings,
                                               const size_t* lengths,
                                               int64_t batch) {
  int64_t more = batch + 1;
  assert_int_equal(
      cpu_run_extents(lib, set, 0, fast_bindings, lengths, &more),
      GRT_KERNEL_CODE_OUT_OF_RANGE);
  assert_int_equal(
      cpu_run_extents(lib, set, 1, generic_bindings, lengths, &more),
      GRT_KERNEL_CODE_OUT_OF_RANGE);
}

#endif  // GRT_COMPILER_TARGET_CPU_CPU_TEST_UTIL_H_
