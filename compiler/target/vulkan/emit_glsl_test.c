// Tests for the Vulkan target: GLSL emitted for kernels of each kind (key
// lines checked), compiled with shaderc and validated with SPIRV-Tools when
// the build has them, every scalar op and conversion of every element type
// compiled, the container a build produces, and the error paths.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

// The terse kernel IR builders shared with the CPU target's tests.
#include "compiler/target/cpu/cpu_test_util.h"
#include "compiler/target/cpu/symbolic_test_util.h"
#include "compiler/target/vulkan/vulkan_target.h"
#include "schemas/spirv_container.h"

#define P GRTC_KSECTION_PRE
#define L GRTC_KSECTION_LOOP
#define Q GRTC_KSECTION_POST
#define NONE GRTC_KINST_NONE

static void expect_contains(const char* text, const char* line) {
  if (!strstr(text, line)) fail_msg("expected \"%s\" in:\n%s", line, text);
}

// Emits kernel |index| of |set|, checks |lines| appear in it, and compiles
// it (when shaderc is here) to valid SPIR-V.
static void emit_and_compile(grtc_kernel_set_t* set, uint32_t index,
                             const char* const* lines) {
  const grtc_kernel_t* kernel = set->kernels[index];
  grt_string_builder_t glsl;
  grt_string_builder_init(grt_allocator_system(), &glsl);
  GRT_EXPECT_OK(grtc_vulkan_emit_glsl(kernel, &glsl));
  const char* text = grt_string_builder_cstring(&glsl);
  for (; lines && *lines; ++lines) expect_contains(text, *lines);
  if (grtc_vulkan_available()) {
    uint32_t* words = NULL;
    size_t count = 0;
    grt_status_t status = grtc_vulkan_compile_glsl(
        kernel->name, grt_string_builder_view(&glsl), grt_allocator_system(),
        &words, &count);
    if (!grt_status_is_ok(status)) fprintf(stderr, "%s\n", text);
    GRT_EXPECT_OK(status);
    assert_true(count >= 5);
    assert_int_equal(words[0], GRT_SPIRV_MAGIC);
    grt_allocator_free(grt_allocator_system(), words);
  }
  grt_string_builder_deinit(&glsl);
}

static void test_elementwise_add(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, 1000, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, 1000, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, 1000, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(&set, "add", 3, bindings);
  kb_space(&b, 2, (int64_t[]){10, 100}, (int64_t[]){2, 100});
  uint32_t p0 = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
  uint32_t p1 = kb_index(&b, GRTC_KINST_PINDEX, P, 1);
  uint32_t lin = kb_op(&b, P, GRTC_ELEM_I64, GRTC_SCALAR_ADD,
                       kb_op(&b, P, GRTC_ELEM_I64, GRTC_SCALAR_MUL, p0,
                             kb_ci(&b, P, GRTC_ELEM_I64, 100), 0),
                       p1, 0);
  uint32_t sum = kb_op(&b, P, GRTC_ELEM_F32, GRTC_SCALAR_ADD,
                       kb_load(&b, P, 0, lin), kb_load(&b, P, 1, lin), 0);
  kb_store(&b, 2, lin, sum, NONE);
  assert_int_equal(b.k->workgroup_count, 5);
  assert_int_equal(grtc_vulkan_workgroup_size(b.k), 64);
  const char* lines[] = {
      "layout(local_size_x = 64) in;",
      "layout(std430, set = 0, binding = 0) readonly buffer B0 { float b0[]; };",
      "layout(std430, set = 0, binding = 2) writeonly buffer B2 { float b2[]; };",
      "if (wg >= 5ul) return;",
      "const int64_t lo0 = int64_t(t % 5ul) * 2l; t /= 5ul;",
      "for (int64_t q = int64_t(gl_LocalInvocationID.x); q < tn; q += 64l) {",
      "grt_add_f32(v", "b2[uint(v", NULL};
  emit_and_compile(&set, 0, lines);
  grtc_kernel_set_deinit(&set);
}

// A run-time split (grtc_kernel_t.split_max) is the CPU's: the Vulkan
// target refuses such a kernel instead of tiling it at compile time.
static void test_runtime_split_refused(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, 64, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, 64, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(&set, "split", 2, bindings);
  kb_space(&b, 1, (int64_t[]){64}, (int64_t[]){16});
  uint32_t p0 = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
  kb_store(&b, 1, p0, kb_load(&b, P, 0, p0), NONE);
  b.k->split_max = 4;
  GRT_EXPECT_OK(grtc_kernel_verify(b.k));
  grt_string_builder_t glsl;
  grt_string_builder_init(grt_allocator_system(), &glsl);
  grt_expect_error(grtc_vulkan_emit_glsl(b.k, &glsl), GRT_STATUS_UNIMPLEMENTED,
                   "kernel split: the Vulkan target has no run-time split (split_max 4); "
                   "expected compile-time tiles");
  grt_string_builder_deinit(&glsl);
  grtc_kernel_set_deinit(&set);
}

// Symbolic extents: a push-constant block read once into e<x>, the
// workgroup count and tile bounds computed from them, symbolic reduction
// and GEMM loops; a serial kernel walks the whole extent.
static void test_symbolic_extents(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  sym_add_all(&set);
  const char* common[] = {
      "layout(push_constant) uniform GrtExtents { uint x[1]; } grt_extents;",
      "const int64_t e0 = int64_t(grt_extents.x[0]);", NULL};
  for (uint32_t k = 0; k < set.count; ++k) emit_and_compile(&set, k, common);
  const char* outer[] = {
      "if (wg >= uint64_t((e0 + 1l) / 2l) * 1ul) return;",
      "const uint64_t tiles0 = uint64_t((e0 + 1l) / 2l);",
      "const int64_t n0 = min(2l, e0 - lo0);", NULL};
  emit_and_compile(&set, SYM_OUTER, outer);
  const char* inner[] = {
      "if (wg >= uint64_t((e0 + 1l) / 2l) * 5ul) return;",
      "const int64_t lo1 = int64_t(t % tiles1) * 2l; t /= tiles1;", NULL};
  emit_and_compile(&set, SYM_INNER, inner);
  const char* serial[] = {"if (wg >= 1ul) return;",
                          "const int64_t lo0 = 0l, n0 = e0;", NULL};
  emit_and_compile(&set, SYM_SERIAL, serial);
  const char* rows[] = {"if (wg >= 3ul) return;",
                        "for (int64_t r0 = 0l; r0 < e0; ++r0) {", NULL};
  emit_and_compile(&set, SYM_ROWS, rows);
  const char* mm[] = {"for (int64_t k0 = 0l; k0 < 9l; k0 += 16l) {",
                      "const int64_t n0 = min(16l, e0 - lo0);", NULL};
  emit_and_compile(&set, SYM_MM, mm);
  grtc_kernel_set_deinit(&set);
}

// Counts |needle| in |text|.
static int count_of(const char* text, const char* needle) {
  int n = 0;
  for (const char* at = strstr(text, needle); at; at = strstr(at + 1, needle)) {
    ++n;
  }
  return n;
}

// Bounds checks of kernels with symbolic sizes: every load reads 0 and
// every store is skipped outside its binding's .length(), the GEMM's
// staging loads too, each check through grt_in, which records the first
// binding outside in the status word at set 1 (the Vulkan HAL reads it);
// static kernels have none. (lavapipe checks storage buffer accesses
// itself, so run_test cannot see a missing guard there.)
static void test_symbolic_bounds_checks(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  sym_add_all(&set);
  const char* status[] = {
      "layout(std430, set = 1, binding = 0) buffer GrtStatus { uint grt_status; };",
      "bool grt_in(bool inside, uint b) {",
      "if (!inside) atomicCompSwap(grt_status, 0u, b + 1u);", "return inside;", NULL};
  for (uint32_t k = 0; k < set.count; ++k) {
    grt_string_builder_t glsl;
    grt_string_builder_init(grt_allocator_system(), &glsl);
    GRT_EXPECT_OK(grtc_vulkan_emit_glsl(set.kernels[k], &glsl));
    const char* text = grt_string_builder_cstring(&glsl);
    // Each binding access is b<n>[uint(...)], each guarded by a length
    // check that reports.
    int accesses = count_of(text, "[uint(");
    int guards = count_of(text, ".length())");
    int reported = count_of(text, "grt_in(uint64_t(");
    if (accesses == 0 || guards != accesses || reported != accesses) {
      fail_msg("kernel %u: %d accesses, %d guards, %d reported:\n%s", k, accesses,
               guards, reported, text);
    }
    grt_string_builder_deinit(&glsl);
    emit_and_compile(&set, k, status);
  }
  const char* outer[] = {"(grt_in(uint64_t(v", " < uint64_t(b0.length()), 0u) ? b0[uint(v",
                         "if (grt_in(uint64_t(v",
                         " < uint64_t(b1.length()), 1u)) b1[uint(v", NULL};
  emit_and_compile(&set, SYM_OUTER, outer);
  const char* mm[] = {" < uint64_t(b0.length()), 0u)) ? b0[uint(abase",
                      " < uint64_t(b1.length()), 1u)) ? b1[uint(bbase", NULL};
  emit_and_compile(&set, SYM_MM, mm);
  grtc_kernel_set_deinit(&set);
  grtc_kernel_set_init(grt_allocator_system(), &set);
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, 10, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, 10, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(&set, "plain", 2, bindings);
  kb_space(&b, 1, (int64_t[]){10}, NULL);
  uint32_t i = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
  kb_store(&b, 1, i, kb_load(&b, P, 0, i), NONE);
  grt_string_builder_t glsl;
  grt_string_builder_init(grt_allocator_system(), &glsl);
  GRT_EXPECT_OK(grtc_vulkan_emit_glsl(b.k, &glsl));
  assert_null(strstr(grt_string_builder_cstring(&glsl), ".length()"));
  assert_null(strstr(grt_string_builder_cstring(&glsl), "GrtStatus"));
  grt_string_builder_deinit(&glsl);
  grtc_kernel_set_deinit(&set);
}

// One kernel per element type applying every scalar op that accepts it,
// every compare type, and a convert and (where widths match) a bitcast to
// every other type: the prelude's helpers must all compile for all types.
static void test_every_op_every_type(void** state) {
  (void)state;
  enum { N = 8 };
  for (int t = 0; t < GRTC_ELEM_COUNT; ++t) {
    grtc_kernel_set_t set;
    grtc_kernel_set_init(grt_allocator_system(), &set);
    grtc_elem_t elem = (grtc_elem_t)t;
    grtc_kbinding_t bindings[2 + GRTC_ELEM_COUNT] = {
        {elem, N, GRTC_KACCESS_READ},
        {elem, N * GRTC_SCALAR_OP_COUNT, GRTC_KACCESS_WRITE}};
    for (int u = 0; u < GRTC_ELEM_COUNT; ++u) {
      bindings[2 + u] = (grtc_kbinding_t){(grtc_elem_t)u, 4 * N,
                                          GRTC_KACCESS_WRITE};
    }
    char name[32];
    snprintf(name, sizeof(name), "ops_%s", grtc_elem_spelling(elem));
    kb_t b = kb_kernel(&set, name, 2 + GRTC_ELEM_COUNT, bindings);
    kb_space(&b, 1, (int64_t[]){N}, NULL);
    uint32_t p = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
    uint32_t x = kb_load(&b, P, 0, p);
    uint32_t y = kb_load(&b, P, 0,
                         kb_op(&b, P, GRTC_ELEM_I64, GRTC_SCALAR_SUB,
                               kb_ci(&b, P, GRTC_ELEM_I64, N - 1), p, 0));
    uint32_t c = kb_cmp(&b, P, GRTC_CMP_LT,
                        grtc_compare_type_resolve(GRTC_CMP_TYPE_DEFAULT, elem),
                        x, y);
    for (int op = 0; op < GRTC_SCALAR_OP_COUNT; ++op) {
      if (!grtc_scalar_op_accepts((grtc_scalar_op_t)op, elem) ||
          grtc_scalar_op_for_elem((grtc_scalar_op_t)op, elem) !=
              (grtc_scalar_op_t)op) {
        continue;  // i1 add/multiply/max/min are emitted as or/and
      }
      uint32_t arity = grtc_scalar_op_arity((grtc_scalar_op_t)op);
      uint32_t value;
      if (op == GRTC_SCALAR_SELECT) {
        value = kb_op(&b, P, elem, op, c, x, y);
      } else if (op == GRTC_SCALAR_IS_FINITE) {
        value = kb_op(&b, P, GRTC_ELEM_I1, op, x, 0, 0);
        value = kb_add(&b, (grtc_kinst_t){.kind = GRTC_KINST_CONVERT,
                                          .type = elem, .operand_count = 1,
                                          .operands = {value}});
      } else {
        value = kb_op(&b, P, elem, op, x, arity > 1 ? y : 0, x);
      }
      uint32_t index = kb_op(
          &b, P, GRTC_ELEM_I64, GRTC_SCALAR_ADD, p,
          kb_ci(&b, P, GRTC_ELEM_I64, (int64_t)op * N), 0);
      kb_store(&b, 1, index, value, c);
    }
    for (int u = 0; u < GRTC_ELEM_COUNT; ++u) {
      grtc_elem_t to = (grtc_elem_t)u;
      uint32_t converted = kb_add(
          &b, (grtc_kinst_t){.kind = GRTC_KINST_CONVERT, .type = to,
                             .operand_count = 1, .operands = {x}});
      kb_store(&b, 2 + u, p, converted, NONE);
      if (grtc_elem_bit_width(to) == grtc_elem_bit_width(elem)) {
        uint32_t cast = kb_add(
            &b, (grtc_kinst_t){.kind = GRTC_KINST_BITCAST, .type = to,
                               .operand_count = 1, .operands = {x}});
        kb_store(&b, 2 + u,
                 kb_op(&b, P, GRTC_ELEM_I64, GRTC_SCALAR_ADD, p,
                       kb_ci(&b, P, GRTC_ELEM_I64, N), 0),
                 cast, NONE);
      }
      // Total order compare for floats.
      if (grtc_elem_is_float(elem) && u == 0) {
        uint32_t total = kb_cmp(&b, P, GRTC_CMP_GE,
                                GRTC_CMP_TYPE_TOTALORDER, x, y);
        kb_store(&b, 2 + GRTC_ELEM_I1,
                 kb_op(&b, P, GRTC_ELEM_I64, GRTC_SCALAR_ADD, p,
                       kb_ci(&b, P, GRTC_ELEM_I64, 2 * N), 0),
                 total, NONE);
      }
    }
    emit_and_compile(&set, 0, NULL);
    grtc_kernel_set_deinit(&set);
  }
}

// Row sums over a reduction dim, with an accumulator.
static void test_reduction(void** state) {
  (void)state;
  enum { R = 7, C = 33 };
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, R * C, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, R, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(&set, "reduce", 2, bindings);
  kb_space(&b, 1, (int64_t[]){R}, (int64_t[]){3});
  b.k->reduction_rank = 1;
  b.k->reduction_dims[0] = C;
  uint32_t p = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
  uint32_t acc = 0;
  GRT_EXPECT_OK(grtc_kernel_add_acc(&set, b.k, GRTC_ELEM_F32,
                                    kb_cf(&b, P, GRTC_ELEM_F32, 0), &acc));
  uint32_t r = kb_index(&b, GRTC_KINST_RINDEX, L, 0);
  uint32_t lin = kb_op(&b, L, GRTC_ELEM_I64, GRTC_SCALAR_ADD,
                       kb_op(&b, L, GRTC_ELEM_I64, GRTC_SCALAR_MUL, p,
                             kb_ci(&b, L, GRTC_ELEM_I64, C), 0),
                       r, 0);
  b.k->accs[acc].update = kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_ADD,
                                kb_acc(&b, L, acc), kb_load(&b, L, 0, lin), 0);
  kb_store(&b, 1, p, kb_acc(&b, Q, acc), NONE);
  const char* lines[] = {"for (int64_t r0 = 0l; r0 < 33l; ++r0) {",
                         "float acc0 = v", "acc0 = v", NULL};
  emit_and_compile(&set, 0, lines);
  grtc_kernel_set_deinit(&set);
}

static void test_sort(void** state) {
  (void)state;
  enum { R = 3, C = 10 };
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, R * C, GRTC_KACCESS_READ},
      {GRTC_ELEM_I32, R * C, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, R * C, GRTC_KACCESS_WRITE},
      {GRTC_ELEM_I32, R * C, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(&set, "sort", 4, bindings);
  b.k->kind = GRTC_KERNEL_SORT;
  b.k->sort.operand_count = 2;
  b.k->sort.rank = 2;
  b.k->sort.dims[0] = R;
  b.k->sort.dims[1] = C;
  b.k->sort.dimension = 1;
  b.k->workgroup_count = 2;
  uint32_t lhs = kb_add(&b, (grtc_kinst_t){.kind = GRTC_KINST_ARG,
                                           .type = GRTC_ELEM_F32, .dim = 0});
  uint32_t rhs = kb_add(&b, (grtc_kinst_t){.kind = GRTC_KINST_ARG,
                                           .type = GRTC_ELEM_F32, .dim = 1});
  b.k->sort.comparator =
      kb_cmp(&b, P, GRTC_CMP_LT, GRTC_CMP_TYPE_FLOAT, lhs, rhs);
  const char* lines[] = {
      "layout(std430, set = 0, binding = 0) buffer B0 { float b0[]; };",
      "b2[uint(base + int64_t(k) * 1l)] = b0[uint(base + int64_t(k) * 1l)];",
      "float v0 = b2[uint(i)];", "float v1 = b2[uint(j)];", "if (v2 == 0u) break;",
      "{ int x = b3[uint(i)]; b3[uint(i)] = b3[uint(j)]; b3[uint(j)] = x; }", NULL};
  emit_and_compile(&set, 0, lines);
  grtc_kernel_set_deinit(&set);
}

static void test_serial(void** state) {
  (void)state;
  enum { N = 40, M = 6 };
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_I32, N, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, M, GRTC_KACCESS_READ_WRITE},
  };
  kb_t b = kb_kernel(&set, "scatter", 2, bindings);
  b.k->serial = true;
  kb_space(&b, 1, (int64_t[]){N}, (int64_t[]){4});
  uint32_t p = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
  uint32_t idx = kb_add(&b, (grtc_kinst_t){.kind = GRTC_KINST_CONVERT,
                                           .type = GRTC_ELEM_I64,
                                           .operand_count = 1,
                                           .operands = {kb_load(&b, P, 0, p)}});
  uint32_t v = kb_op(&b, P, GRTC_ELEM_F32, GRTC_SCALAR_ADD,
                     kb_load(&b, P, 1, idx), kb_cf(&b, P, GRTC_ELEM_F32, 1), 0);
  kb_store(&b, 1, idx, v, NONE);
  assert_int_equal(grtc_vulkan_workgroup_size(b.k), 1);
  const char* lines[] = {"layout(local_size_x = 1) in;",
                         "if (wg != 0ul) return;",
                         "const int64_t lo0 = 0l, n0 = 40l;", NULL};
  emit_and_compile(&set, 0, lines);
  grtc_kernel_set_deinit(&set);
}

// A batched f32 matmul with a fused epilogue (+1) takes the shared-memory
// path.
static void test_matmul_shared_memory(void** state) {
  (void)state;
  enum { B = 2, M = 20, K = 19, N = 18 };
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, B * M * K, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, B * K * N, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, B * M * N, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(&set, "mm", 3, bindings);
  kb_space(&b, 3, (int64_t[]){B, M, N}, (int64_t[]){1, 16, N});
  b.k->reduction_rank = 1;
  b.k->reduction_dims[0] = K;
  uint32_t pb = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
  uint32_t pm = kb_index(&b, GRTC_KINST_PINDEX, P, 1);
  uint32_t pn = kb_index(&b, GRTC_KINST_PINDEX, P, 2);
  uint32_t acc = 0;
  GRT_EXPECT_OK(grtc_kernel_add_acc(&set, b.k, GRTC_ELEM_F32,
                                    kb_cf(&b, P, GRTC_ELEM_F32, 0), &acc));
  uint32_t r = kb_index(&b, GRTC_KINST_RINDEX, L, 0);
#define I64(v) kb_ci(&b, L, GRTC_ELEM_I64, v)
#define ADD(x, y) kb_op(&b, L, GRTC_ELEM_I64, GRTC_SCALAR_ADD, x, y, 0)
#define MUL(x, y) kb_op(&b, L, GRTC_ELEM_I64, GRTC_SCALAR_MUL, x, y, 0)
  uint32_t a = kb_load(&b, L, 0, ADD(ADD(MUL(pb, I64(M * K)), MUL(pm, I64(K))), r));
  uint32_t w = kb_load(&b, L, 1, ADD(ADD(MUL(pb, I64(K * N)), MUL(r, I64(N))), pn));
  b.k->accs[acc].update =
      kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_ADD, kb_acc(&b, L, acc),
            kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_MUL, a, w, 0), 0);
  uint32_t out_index = kb_op(
      &b, Q, GRTC_ELEM_I64, GRTC_SCALAR_ADD,
      kb_op(&b, Q, GRTC_ELEM_I64, GRTC_SCALAR_MUL, pb,
            kb_ci(&b, Q, GRTC_ELEM_I64, M * N), 0),
      kb_op(&b, Q, GRTC_ELEM_I64, GRTC_SCALAR_ADD,
            kb_op(&b, Q, GRTC_ELEM_I64, GRTC_SCALAR_MUL, pm,
                  kb_ci(&b, Q, GRTC_ELEM_I64, N), 0),
            pn, 0),
      0);
  uint32_t value = kb_op(&b, Q, GRTC_ELEM_F32, GRTC_SCALAR_ADD,
                         kb_acc(&b, Q, acc), kb_cf(&b, Q, GRTC_ELEM_F32, 1), 0);
  kb_store(&b, 2, out_index, value, NONE);
  b.k->pattern = GRTC_KPATTERN_MATMUL;
  b.k->matmul = (grtc_kmatmul_t){
      .lhs_binding = 0, .rhs_binding = 1, .m = M, .n = N, .k = K,
      .lhs_stride_m = K, .lhs_stride_k = 1, .rhs_stride_k = N,
      .rhs_stride_n = 1, .batch_rank = 1, .lhs_batch_strides = {M * K},
      .rhs_batch_strides = {K * N}, .lhs_elem = GRTC_ELEM_F32,
      .rhs_elem = GRTC_ELEM_F32, .acc_elem = GRTC_ELEM_F32};
  assert_int_equal(grtc_vulkan_workgroup_size(b.k), 256);
  const char* lines[] = {"layout(local_size_x = 256) in;",
                         "shared float grt_a[16][16];", "barrier();",
                         "const float acc0 = sum + v", NULL};
  emit_and_compile(&set, 0, lines);
  grtc_kernel_set_deinit(&set);
#undef I64
#undef ADD
#undef MUL
}

// An i8 x i8 -> i32 matmul (the quantized dot_general's stored integers)
// at sizes that are not multiples of the tile, with an epilogue (+3),
// takes the tiled GEMM with int tiles, the i8 read through 8-bit storage
// and widened once; an i16 one keeps the generic loops.
static void test_matmul_int8(void** state) {
  (void)state;
  enum { M = 17, K = 5, N = 33 };
  for (int i16 = 0; i16 < 2; ++i16) {
    grtc_elem_t in = i16 ? GRTC_ELEM_I16 : GRTC_ELEM_I8;
    grtc_kernel_set_t set;
    grtc_kernel_set_init(grt_allocator_system(), &set);
    const grtc_kbinding_t bindings[] = {
        {in, M * K, GRTC_KACCESS_READ},
        {in, K * N, GRTC_KACCESS_READ},
        {GRTC_ELEM_I32, M * N, GRTC_KACCESS_WRITE},
    };
    kb_t b = kb_kernel(&set, "imm", 3, bindings);
    kb_space(&b, 2, (int64_t[]){M, N}, (int64_t[]){16, N});
    b.k->reduction_rank = 1;
    b.k->reduction_dims[0] = K;
    uint32_t pm = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
    uint32_t pn = kb_index(&b, GRTC_KINST_PINDEX, P, 1);
    uint32_t acc = 0;
    GRT_EXPECT_OK(grtc_kernel_add_acc(&set, b.k, GRTC_ELEM_I32,
                                      kb_ci(&b, P, GRTC_ELEM_I32, 0), &acc));
    uint32_t r = kb_index(&b, GRTC_KINST_RINDEX, L, 0);
#define I64(v) kb_ci(&b, L, GRTC_ELEM_I64, v)
#define ADD(x, y) kb_op(&b, L, GRTC_ELEM_I64, GRTC_SCALAR_ADD, x, y, 0)
#define MUL(x, y) kb_op(&b, L, GRTC_ELEM_I64, GRTC_SCALAR_MUL, x, y, 0)
#define WIDEN(v)                                                                 \
  kb_add(&b, (grtc_kinst_t){.kind = GRTC_KINST_CONVERT, .section = L,            \
                            .type = GRTC_ELEM_I32, .operand_count = 1, .operands = {v}})
    uint32_t a = WIDEN(kb_load(&b, L, 0, ADD(MUL(pm, I64(K)), r)));
    uint32_t w = WIDEN(kb_load(&b, L, 1, ADD(MUL(r, I64(N)), pn)));
    b.k->accs[acc].update =
        kb_op(&b, L, GRTC_ELEM_I32, GRTC_SCALAR_ADD, kb_acc(&b, L, acc),
              kb_op(&b, L, GRTC_ELEM_I32, GRTC_SCALAR_MUL, a, w, 0), 0);
    uint32_t out_index = kb_op(&b, Q, GRTC_ELEM_I64, GRTC_SCALAR_ADD,
                               kb_op(&b, Q, GRTC_ELEM_I64, GRTC_SCALAR_MUL, pm,
                                     kb_ci(&b, Q, GRTC_ELEM_I64, N), 0),
                               pn, 0);
    uint32_t value = kb_op(&b, Q, GRTC_ELEM_I32, GRTC_SCALAR_ADD, kb_acc(&b, Q, acc),
                           kb_ci(&b, Q, GRTC_ELEM_I32, 3), 0);
    kb_store(&b, 2, out_index, value, NONE);
    b.k->pattern = GRTC_KPATTERN_MATMUL;
    b.k->matmul = (grtc_kmatmul_t){
        .lhs_binding = 0, .rhs_binding = 1, .m = M, .n = N, .k = K,
        .lhs_stride_m = K, .lhs_stride_k = 1, .rhs_stride_k = N,
        .rhs_stride_n = 1, .batch_rank = 0, .lhs_elem = in,
        .rhs_elem = in, .acc_elem = GRTC_ELEM_I32};
    if (i16) {
      assert_int_equal(grtc_vulkan_workgroup_size(b.k), 64);
      const char* lines[] = {"layout(local_size_x = 64) in;", "int16_t b0[]", NULL};
      emit_and_compile(&set, 0, lines);
    } else {
      assert_int_equal(grtc_vulkan_workgroup_size(b.k), 256);
      const char* lines[] = {"layout(local_size_x = 256) in;",
                             "readonly buffer B0 { int8_t b0[]; };",
                             "shared int grt_a[16][16];", "shared int grt_b[16][16];",
                             "int sum = 0;", "? int(b0[uint(abase + p0 * 5l + ka * 1l)]) : 0;",
                             "? int(b1[uint(bbase + kb * 33l + p1 * 1l)]) : 0;",
                             "const int acc0 = sum + v", NULL};
      emit_and_compile(&set, 0, lines);
    }
    grtc_kernel_set_deinit(&set);
#undef I64
#undef ADD
#undef MUL
#undef WIDEN
  }
}

// grtc_vulkan_build packs one verified module per kernel.
static void test_build_container(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  for (int k = 0; k < 2; ++k) {
    const grtc_kbinding_t bindings[] = {{GRTC_ELEM_I32, 4, GRTC_KACCESS_WRITE}};
    kb_t b = kb_kernel(&set, k ? "fill1" : "fill0", 1, bindings);
    kb_space(&b, 1, (int64_t[]){4}, NULL);
    kb_store(&b, 0, kb_index(&b, GRTC_KINST_PINDEX, P, 0),
             kb_ci(&b, P, GRTC_ELEM_I32, k), NONE);
  }
  uint8_t* binary = NULL;
  size_t size = 0;
  grt_status_t status =
      grtc_vulkan_build(&set, grt_allocator_system(), NULL, &binary, &size);
  if (!grtc_vulkan_available()) {
    grt_expect_error(status, GRT_STATUS_UNAVAILABLE,
                     "vulkan target needs libshaderc (not found at build "
                     "time)");
    grtc_kernel_set_deinit(&set);
    return;
  }
  GRT_EXPECT_OK(status);
  // The allocator's blocks are suitably aligned for the in-place reader.
  grt_spirv_container_t container;
  GRT_EXPECT_OK(grt_spirv_container_parse(binary, size, &container));
  assert_int_equal(container.entry_count, 2);
  grt_allocator_free(grt_allocator_system(), binary);
  grtc_kernel_set_deinit(&set);
}

// A shader that does not compile names the kernel and shaderc's message.
static void test_compile_error_names_kernel(void** state) {
  (void)state;
  uint32_t* words = NULL;
  size_t count = 0;
  grt_status_t status = grtc_vulkan_compile_glsl(
      grt_make_cstring_view("broken_kernel"),
      grt_make_cstring_view("#version 450\nvoid main() { undeclared = 1; }\n"),
      grt_allocator_system(), &words, &count);
  if (!grtc_vulkan_available()) {
    grt_expect_error(status, GRT_STATUS_UNAVAILABLE, "needs libshaderc");
    return;
  }
  assert_non_null(status);
  const char* message = grt_status_message(status);
  expect_contains(message, "kernel broken_kernel: the shader compiler "
                           "(shaderc) failed: ");
  expect_contains(message, "'undeclared' : undeclared identifier");
  assert_int_equal(grt_status_code(status), GRT_STATUS_INVALID_ARGUMENT);
  grt_status_free(status);
  assert_null(words);
}

// An invalid kernel is reported by the verifier before any GLSL.
static void test_invalid_kernel(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  const grtc_kbinding_t bindings[] = {{GRTC_ELEM_I32, 4, GRTC_KACCESS_READ}};
  kb_t b = kb_kernel(&set, "bad", 1, bindings);
  kb_space(&b, 1, (int64_t[]){4}, NULL);
  // A store into a read-only binding.
  b.k->stores = NULL;
  kb_store(&b, 0, kb_index(&b, GRTC_KINST_PINDEX, P, 0),
           kb_ci(&b, P, GRTC_ELEM_I32, 1), NONE);
  grt_string_builder_t glsl;
  grt_string_builder_init(grt_allocator_system(), &glsl);
  grt_status_t status = grtc_vulkan_emit_glsl(b.k, &glsl);
  assert_non_null(status);
  expect_contains(grt_status_message(status), "bad");
  grt_status_free(status);
  assert_int_equal(glsl.size, 0);
  grt_string_builder_deinit(&glsl);
  grtc_kernel_set_deinit(&set);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_runtime_split_refused),
      cmocka_unit_test(test_elementwise_add),
      cmocka_unit_test(test_symbolic_extents),
      cmocka_unit_test(test_symbolic_bounds_checks),
      cmocka_unit_test(test_every_op_every_type),
      cmocka_unit_test(test_reduction),
      cmocka_unit_test(test_sort),
      cmocka_unit_test(test_serial),
      cmocka_unit_test(test_matmul_shared_memory),
      cmocka_unit_test(test_matmul_int8),
      cmocka_unit_test(test_build_container),
      cmocka_unit_test(test_compile_error_names_kernel),
      cmocka_unit_test(test_invalid_kernel),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
