// compiler/kernel/scalar_impl.h against its consumers: every op takes
// exactly the element types its rows cover, every prelude (C, CUDA, GLSL)
// prints every row, and the C prelude compiled by `cc` computes what the
// evaluator (compiler/tensor/eval_ops.c, the same rows compiled into the
// compiler, which the kernel IR interpreter of the compiler tests also
// calls) computes, for every row and every integer, f32 and f64 type on
// corner operands. The backends' own tests compile each prelude (cc,
// NVRTC/ptxas, shaderc) for every op of every type.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/status_matchers.h"
#include "compiler/kernel/scalar_impl.h"
#include "compiler/target/c_family/c_family.h"
#include "compiler/target/cpu/cpu_internal.h"
#include "compiler/target/cuda/cuda_internal.h"
#include "compiler/target/vulkan/vulkan_internal.h"
#include "compiler/tensor/eval.h"

// Whether |op| is computed by its own row on |elem| (on i1, add and
// friends are or/and: grtc_scalar_op_for_elem).
static bool computed_directly(grtc_scalar_op_t op, grtc_elem_t elem) {
  return grtc_scalar_op_accepts(op, elem) &&
         grtc_scalar_op_for_elem(op, elem) == op;
}

static void test_rows_cover_every_op(void** state) {
  (void)state;
  uint32_t count;
  const grtc_scalar_impl_t* rows = grtc_scalar_impls(&count);
  for (int o = 0; o < GRTC_SCALAR_OP_COUNT; ++o) {
    grtc_scalar_op_t op = (grtc_scalar_op_t)o;
    for (int t = 0; t < GRTC_ELEM_COUNT; ++t) {
      grtc_elem_t elem = (grtc_elem_t)t;
      uint32_t covering = 0;
      for (uint32_t i = 0; i < count; ++i) {
        covering += rows[i].op == op && grtc_scalar_class_covers(rows[i].cls, elem);
      }
      if (computed_directly(op, elem) && covering != 1) {
        fail_msg("%s on %s: %u rows, want 1", grtc_scalar_op_spelling(op),
                 grtc_elem_spelling(elem), covering);
      }
      // A type the op refuses has no row, except i1, which integer rows
      // cover whatever the op (the verifier refuses the op there).
      if (!grtc_scalar_op_accepts(op, elem) && elem != GRTC_ELEM_I1 &&
          covering != 0) {
        fail_msg("%s does not take %s, yet a row covers it",
                 grtc_scalar_op_spelling(op), grtc_elem_spelling(elem));
      }
    }
  }
  for (uint32_t i = 0; i < count; ++i) {
    const grtc_scalar_impl_t* row = &rows[i];
    if (row->op != GRTC_SCALAR_NONE) {
      assert_string_equal(row->spelling, grtc_scalar_op_spelling(row->op));
      assert_int_equal(row->sig == GRTC_SCALAR_SIG_UN ||
                               row->sig == GRTC_SCALAR_SIG_PRED
                           ? 1
                       : row->sig == GRTC_SCALAR_SIG_BIN ? 2
                                                         : 3,
                       grtc_scalar_op_arity(row->op));
      continue;
    }
    // A support row is called by a row after it, in both languages.
    char call[64];
    snprintf(call, sizeof(call), "GRT_CAT(grt_%s_, S)", row->spelling);
    bool called_c = false, called_glsl = false;
    for (uint32_t j = i + 1; j < count; ++j) {
      called_c |= strstr(rows[j].c_body, call) != NULL;
      called_glsl |= strstr(rows[j].glsl_body, call) != NULL;
    }
    if (!called_c || !called_glsl) {
      fail_msg("support row %s is not called", row->spelling);
    }
  }
}

// Each row's helper, with its body, in the prelude |text| of |lang|.
static void expect_every_row(const char* text, grtc_scalar_lang_t lang) {
  uint32_t count;
  const grtc_scalar_impl_t* rows = grtc_scalar_impls(&count);
  for (uint32_t i = 0; i < count; ++i) {
    char helper[96];
    snprintf(helper, sizeof(helper), " grt_%s_##S(", rows[i].spelling);
    const char* body = lang == GRTC_SCALAR_LANG_C ? rows[i].c_body
                                                  : rows[i].glsl_body;
    size_t body_length = strlen(body) - 2;  // without the parentheses
    bool found = false;
    for (const char* at = strstr(text, helper); at && !found;
         at = strstr(at + 1, helper)) {
      const char* open = strstr(at, ") { ");
      found = open && strncmp(open + 4, body + 1, body_length) == 0 &&
              strncmp(open + 4 + body_length, " }", 2) == 0;
    }
    if (!found) fail_msg("prelude lacks %s with body %s", helper, body);
  }
}

static void test_preludes_print_every_row(void** state) {
  (void)state;
  grt_string_builder_t text;
  grt_string_builder_init(grt_allocator_system(), &text);
  grtc_cpu_emit_prelude(&text);
  GRT_EXPECT_OK(grt_string_builder_status(&text));
  expect_every_row(text.data, GRTC_SCALAR_LANG_C);
  grt_string_builder_clear(&text);
  grtc_cuda_emit_prelude(&text);
  GRT_EXPECT_OK(grt_string_builder_status(&text));
  expect_every_row(text.data, GRTC_SCALAR_LANG_C);
  grt_string_builder_clear(&text);
  bool used[GRTC_ELEM_COUNT];
  for (int t = 0; t < GRTC_ELEM_COUNT; ++t) used[t] = true;
  grtc_vulkan_emit_prelude(used, &text);
  GRT_EXPECT_OK(grt_string_builder_status(&text));
  expect_every_row(text.data, GRTC_SCALAR_LANG_GLSL);
  grt_string_builder_deinit(&text);
}

//===----------------------------------------------------------------------===//
// The C prelude against the evaluator
//===----------------------------------------------------------------------===//

enum { SAMPLES = 16 };

// Corner operands of |elem|, in the evaluator's representation.
static void samples(grtc_elem_t elem, grtc_scalar_value_t* out) {
  static const int64_t ints[SAMPLES] = {
      0, 1, -1, 2, 3, 7, -8, 63, 64, 100, INT64_MIN, INT64_MAX, 0x80,
      0x8000, -0x80000000ll, 5};
  static const double floats[SAMPLES] = {
      0.0, -0.0, 1.5, -2.5, 0.5, -0.5, 2.5, 3.0, NAN, INFINITY, -INFINITY,
      1e30, 1e-30, 100.0, -7.0, 0.25};
  for (int i = 0; i < SAMPLES; ++i) {
    if (grtc_elem_is_float(elem)) {
      grtc_scalar_value_t v;
      v.f = floats[i];
      out[i] = grtc_eval_convert(GRTC_ELEM_F64, elem, v);
    } else {
      out[i] = grtc_eval_from_int(elem, ints[i]);
    }
  }
}

// An operand as a C expression of |elem|'s compute type.
static void append_operand(grt_string_builder_t* out, grtc_elem_t elem,
                           grtc_scalar_value_t v) {
  const char* type = grtc_c_family_type(elem)->compute;
  if (elem == GRTC_ELEM_F32) {
    float f = (float)v.f;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    grt_string_builder_appendf(out, "f32_of(0x%08xu)", bits);
  } else if (elem == GRTC_ELEM_F64) {
    uint64_t bits;
    memcpy(&bits, &v.f, 8);
    grt_string_builder_appendf(out, "f64_of(0x%016llxull)",
                               (unsigned long long)bits);
  } else {
    grt_string_builder_appendf(out, "(%s)0x%llxull", type,
                               (unsigned long long)v.u);
  }
}

// The result bits both sides print: integers in the evaluator's
// representation, floats as doubles.
static uint64_t result_bits(grtc_elem_t elem, const grtc_scalar_impl_t* row,
                            grtc_scalar_value_t v) {
  if (row->sig != GRTC_SCALAR_SIG_PRED && grtc_elem_is_float(elem)) {
    uint64_t bits;
    memcpy(&bits, &v.f, 8);
    return bits;
  }
  return v.u;
}

static bool is_nan_bits(uint64_t bits) {
  double d;
  memcpy(&d, &bits, 8);
  return d != d;
}

static void test_c_prelude_matches_evaluator(void** state) {
  (void)state;
  grt_string_builder_t text;
  grt_string_builder_init(grt_allocator_system(), &text);
  grtc_cpu_emit_prelude(&text);
  grt_string_builder_append_cstring(
      &text,
      "#include <stdio.h>\n"
      // Operands through volatile: gcc would otherwise fold the libm calls
      // with correctly rounded MPFR results, not the library's.
      "static float f32_of(uint32_t u) { volatile uint32_t v = u; uint32_t w = v;\n"
      "  float f; memcpy(&f, &w, 4); return f; }\n"
      "static double f64_of(uint64_t u) { volatile uint64_t v = u; uint64_t w = v;\n"
      "  double d; memcpy(&d, &w, 8); return d; }\n"
      "static void put_f(double d) { uint64_t u; memcpy(&u, &d, 8);\n"
      "  printf(\"%llx\\n\", (unsigned long long)u); }\n"
      "#define PUT_S(x) printf(\"%llx\\n\", (unsigned long long)(long long)(x))\n"
      "#define PUT_U(x) printf(\"%llx\\n\", (unsigned long long)(x))\n"
      "int main(void) {\n");
  uint32_t count;
  const grtc_scalar_impl_t* rows = grtc_scalar_impls(&count);
  // What the evaluator gives, in the program's order.
  uint64_t* want = calloc(GRTC_SCALAR_OP_COUNT * GRTC_ELEM_COUNT * SAMPLES,
                          sizeof(uint64_t));
  char (*what)[64] = calloc(GRTC_SCALAR_OP_COUNT * GRTC_ELEM_COUNT * SAMPLES,
                            64);
  assert_non_null(want);
  assert_non_null(what);
  uint32_t cases = 0;
  for (uint32_t r = 0; r < count; ++r) {
    const grtc_scalar_impl_t* row = &rows[r];
    if (row->op == GRTC_SCALAR_NONE) continue;
    for (int t = 0; t < GRTC_ELEM_COUNT; ++t) {
      grtc_elem_t elem = (grtc_elem_t)t;
      if (elem == GRTC_ELEM_F16 || elem == GRTC_ELEM_BF16) continue;
      if (!grtc_scalar_class_covers(row->cls, elem) ||
          !computed_directly(row->op, elem)) {
        continue;
      }
      grtc_scalar_value_t v[SAMPLES];
      samples(elem, v);
      for (int i = 0; i < SAMPLES; ++i) {
        grtc_scalar_value_t x[3] = {v[i], v[(i * 7 + 3) % SAMPLES],
                                    v[(i * 11 + 5) % SAMPLES]};
        if (row->sig == GRTC_SCALAR_SIG_SEL) x[0].u = i & 1;
        bool put_float =
            grtc_elem_is_float(elem) && row->sig != GRTC_SCALAR_SIG_PRED;
        grt_string_builder_appendf(
            &text, "  %s(grt_%s_%s(",
            put_float ? "put_f"
            : grtc_elem_is_signed_integer(elem) &&
                    row->sig != GRTC_SCALAR_SIG_PRED
                ? "PUT_S"
                : "PUT_U",
            row->spelling, grtc_c_family_type(elem)->helper);
        uint32_t arity = grtc_scalar_op_arity(row->op);
        for (uint32_t k = 0; k < arity; ++k) {
          if (k) grt_string_builder_append_cstring(&text, ", ");
          if (k == 0 && row->sig == GRTC_SCALAR_SIG_SEL) {
            grt_string_builder_appendf(&text, "%d", i & 1);
          } else {
            append_operand(&text, elem, x[k]);
          }
        }
        grt_string_builder_append_cstring(&text, "));\n");
        want[cases] = result_bits(elem, row,
                                  grtc_eval_scalar(row->op, elem, x));
        snprintf(what[cases], 64, "%s on %s, sample %d", row->spelling,
                 grtc_elem_spelling(elem), i);
        ++cases;
      }
    }
  }
  grt_string_builder_append_cstring(&text, "  return 0;\n}\n");
  GRT_EXPECT_OK(grt_string_builder_status(&text));

  char dir[] = "/tmp/grtc-scalar-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char source[64], binary[64], output[64];
  snprintf(source, sizeof(source), "%s/ops.c", dir);
  snprintf(binary, sizeof(binary), "%s/ops", dir);
  snprintf(output, sizeof(output), "%s/ops.txt", dir);
  FILE* file = fopen(source, "wb");
  assert_non_null(file);
  assert_int_equal(fwrite(text.data, 1, text.size, file), text.size);
  fclose(file);
  // The kernels' floating-point flags (compiler/target/cpu/build.c).
  char command[512];
  snprintf(command, sizeof(command),
           "cc -std=c11 -O2 -fno-trapping-math -o %s %s -lm && %s > %s",
           binary, source, binary, output);
  int rc = system(command);
  assert_int_equal(rc, 0);
  file = fopen(output, "rb");
  assert_non_null(file);
  uint32_t mismatches = 0;
  for (uint32_t i = 0; i < cases; ++i) {
    unsigned long long got;
    if (fscanf(file, "%llx", &got) != 1) fail_msg("output ends at %u", i);
    bool same = got == want[i] || (is_nan_bits(got) && is_nan_bits(want[i]));
    if (!same && mismatches++ < 10) {
      print_message("%s: C prelude %llx, evaluator %llx\n", what[i], got,
                    (unsigned long long)want[i]);
    }
  }
  fclose(file);
  unlink(source);
  unlink(binary);
  unlink(output);
  rmdir(dir);
  free(want);
  free(what);
  grt_string_builder_deinit(&text);
  assert_true(cases > 1000);
  assert_int_equal(mismatches, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rows_cover_every_op),
      cmocka_unit_test(test_preludes_print_every_row),
      cmocka_unit_test(test_c_prelude_matches_evaluator),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
