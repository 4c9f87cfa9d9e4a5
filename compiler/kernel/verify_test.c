// Tests for the kernel IR verifier: a valid kernel passes and each broken
// invariant is reported with the kernel and instruction it concerns.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/status_matchers.h"
#include "compiler/kernel/ir.h"

typedef struct fixture_t {
  grtc_kernel_set_t set;
  grtc_kernel_t* k;
  uint32_t p, x, y, sum;
} fixture_t;

static uint32_t add(fixture_t* f, grtc_kinst_t inst) {
  uint32_t out = 0;
  GRT_EXPECT_OK(grtc_kernel_add_inst(&f->set, f->k, &inst, &out));
  return out;
}

// out[p] = a[p] + b[p] over 16 elements.
static void build_add(fixture_t* f) {
  grtc_kernel_set_init(grt_allocator_system(), &f->set);
  GRT_EXPECT_OK(grtc_kernel_set_add(&f->set, "k", 3, &f->k, NULL));
  for (int b = 0; b < 3; ++b) {
    f->k->bindings[b] = (grtc_kbinding_t){
        GRTC_ELEM_F32, 16, b == 2 ? GRTC_KACCESS_WRITE : GRTC_KACCESS_READ};
  }
  f->k->parallel_rank = 1;
  f->k->parallel_dims[0] = 16;
  f->k->tile[0] = 16;
  f->p = add(f, (grtc_kinst_t){.kind = GRTC_KINST_PINDEX, .type = GRTC_ELEM_I64});
  f->x = add(f, (grtc_kinst_t){.kind = GRTC_KINST_LOAD, .type = GRTC_ELEM_F32,
                               .binding = 0, .operand_count = 1,
                               .operands = {f->p}});
  f->y = add(f, (grtc_kinst_t){.kind = GRTC_KINST_LOAD, .type = GRTC_ELEM_F32,
                               .binding = 1, .operand_count = 1,
                               .operands = {f->p}});
  f->sum = add(f, (grtc_kinst_t){.kind = GRTC_KINST_OP, .type = GRTC_ELEM_F32,
                                 .op = GRTC_SCALAR_ADD, .operand_count = 2,
                                 .operands = {f->x, f->y}});
  GRT_EXPECT_OK(grtc_kernel_add_store(
      &f->set, f->k,
      &(grtc_kstore_t){.binding = 2, .index = f->p, .value = f->sum,
                       .predicate = GRTC_KINST_NONE}));
}

static void expect_invalid(fixture_t* f, const char* fragment) {
  grt_expect_error(grtc_kernel_verify(f->k), GRT_STATUS_INTERNAL, fragment);
  grtc_kernel_set_deinit(&f->set);
}

static void test_valid(void** state) {
  (void)state;
  fixture_t f;
  build_add(&f);
  GRT_EXPECT_OK(grtc_kernel_verify(f.k));
  grtc_kernel_set_deinit(&f.set);
}

static void test_forward_reference(void** state) {
  (void)state;
  fixture_t f;
  build_add(&f);
  f.k->insts[f.x].operands[0] = f.sum;
  expect_invalid(&f, "kernel k: instruction %1: index %3 is not an earlier");
}

static void test_operand_type_mismatch(void** state) {
  (void)state;
  fixture_t f;
  build_add(&f);
  f.k->insts[f.sum].operands[1] = f.p;
  expect_invalid(&f, "operand %0 is i64, expected f32");
}

static void test_op_type_rejected(void** state) {
  (void)state;
  fixture_t f;
  build_add(&f);
  f.k->insts[f.sum].op = GRTC_SCALAR_XOR;
  expect_invalid(&f, "xor does not accept f32");
}

// Backends never see arithmetic on i1: the emitter maps add/max to or and
// multiply/min to and, and the verifier refuses the unmapped forms.
static void test_i1_arithmetic_rejected(void** state) {
  (void)state;
  static const struct {
    grtc_scalar_op_t op;
    const char* message;
  } cases[] = {
      {GRTC_SCALAR_ADD, "instruction %3: add on i1 must be emitted as or"},
      {GRTC_SCALAR_MAX, "instruction %3: maximum on i1 must be emitted as or"},
      {GRTC_SCALAR_MUL, "instruction %3: multiply on i1 must be emitted as and"},
      {GRTC_SCALAR_MIN, "instruction %3: minimum on i1 must be emitted as and"},
      {GRTC_SCALAR_SUB, "instruction %3: subtract does not accept i1"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    fixture_t f;
    build_add(&f);
    for (int b = 0; b < 3; ++b) f.k->bindings[b].elem = GRTC_ELEM_I1;
    f.k->insts[f.x].type = GRTC_ELEM_I1;
    f.k->insts[f.y].type = GRTC_ELEM_I1;
    f.k->insts[f.sum].type = GRTC_ELEM_I1;
    f.k->insts[f.sum].op = cases[i].op;
    expect_invalid(&f, cases[i].message);
  }
  fixture_t f;
  build_add(&f);
  for (int b = 0; b < 3; ++b) f.k->bindings[b].elem = GRTC_ELEM_I1;
  f.k->insts[f.x].type = GRTC_ELEM_I1;
  f.k->insts[f.y].type = GRTC_ELEM_I1;
  f.k->insts[f.sum].type = GRTC_ELEM_I1;
  f.k->insts[f.sum].op = GRTC_SCALAR_OR;
  GRT_EXPECT_OK(grtc_kernel_verify(f.k));
  grtc_kernel_set_deinit(&f.set);
}

static void test_arity(void** state) {
  (void)state;
  fixture_t f;
  build_add(&f);
  f.k->insts[f.sum].operand_count = 1;
  expect_invalid(&f, "add takes 2 operands, got 1");
}

static void test_load_from_write_only(void** state) {
  (void)state;
  fixture_t f;
  build_add(&f);
  f.k->insts[f.y].binding = 2;
  expect_invalid(&f, "load of write-only binding 2");
}

static void test_store_to_read_only(void** state) {
  (void)state;
  fixture_t f;
  build_add(&f);
  f.k->stores[0].binding = 0;
  expect_invalid(&f, "store 0 to binding 0, which is not a writable");
}

static void test_store_value_type(void** state) {
  (void)state;
  fixture_t f;
  build_add(&f);
  f.k->stores[0].value = f.p;
  expect_invalid(&f, "store 0 value %0 is i64, expected f32");
}

static void test_pindex_out_of_rank(void** state) {
  (void)state;
  fixture_t f;
  build_add(&f);
  f.k->insts[f.p].dim = 1;
  expect_invalid(&f, "parallel dimension 1 of rank 1");
}

static void test_section_order(void** state) {
  (void)state;
  fixture_t f;
  build_add(&f);
  f.k->insts[f.x].section = GRTC_KSECTION_POST;
  expect_invalid(&f, "pre section cannot read %1 of the post section");
}

static void test_acc_without_update(void** state) {
  (void)state;
  fixture_t f;
  build_add(&f);
  uint32_t acc = 0;
  GRT_EXPECT_OK(grtc_kernel_add_acc(&f.set, f.k, GRTC_ELEM_F32, f.x, &acc));
  expect_invalid(&f, "accumulator 0 update is missing");
}

static void test_compare_type_unresolved(void** state) {
  (void)state;
  fixture_t f;
  build_add(&f);
  add(&f, (grtc_kinst_t){.kind = GRTC_KINST_COMPARE, .type = GRTC_ELEM_I1,
                         .op = GRTC_CMP_LT, .operand_count = 2,
                         .operands = {f.x, f.y}});
  expect_invalid(&f, "compare type must be resolved");
}

static void test_bitcast_width(void** state) {
  (void)state;
  fixture_t f;
  build_add(&f);
  add(&f, (grtc_kinst_t){.kind = GRTC_KINST_BITCAST, .type = GRTC_ELEM_I64,
                         .operand_count = 1, .operands = {f.x}});
  expect_invalid(&f, "bitcast from f32 to i64 changes the width");
}

static void test_bad_tile(void** state) {
  (void)state;
  fixture_t f;
  build_add(&f);
  f.k->tile[0] = 0;
  expect_invalid(&f, "parallel dimension 0 is 16 with tile 0");
}

static void test_matmul_pattern_mismatch(void** state) {
  (void)state;
  fixture_t f;
  build_add(&f);
  uint32_t acc = 0;
  GRT_EXPECT_OK(grtc_kernel_add_acc(&f.set, f.k, GRTC_ELEM_F32, f.x, &acc));
  f.k->accs[acc].update =
      add(&f, (grtc_kinst_t){.kind = GRTC_KINST_ACC,
                             .section = GRTC_KSECTION_LOOP,
                             .type = GRTC_ELEM_F32});
  GRT_EXPECT_OK(grtc_kernel_verify(f.k));
  f.k->pattern = GRTC_KPATTERN_MATMUL;
  expect_invalid(&f, "matmul pattern disagrees");
}

static void test_sort_bindings(void** state) {
  (void)state;
  fixture_t f;
  build_add(&f);
  f.k->kind = GRTC_KERNEL_SORT;
  f.k->sort.operand_count = 1;
  f.k->sort.rank = 1;
  f.k->sort.dims[0] = 16;
  expect_invalid(&f, "sort of 1 operands over dimension 0 of rank 1 with 3");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_valid),
      cmocka_unit_test(test_forward_reference),
      cmocka_unit_test(test_operand_type_mismatch),
      cmocka_unit_test(test_op_type_rejected),
      cmocka_unit_test(test_i1_arithmetic_rejected),
      cmocka_unit_test(test_arity),
      cmocka_unit_test(test_load_from_write_only),
      cmocka_unit_test(test_store_to_read_only),
      cmocka_unit_test(test_store_value_type),
      cmocka_unit_test(test_pindex_out_of_rank),
      cmocka_unit_test(test_section_order),
      cmocka_unit_test(test_acc_without_update),
      cmocka_unit_test(test_compare_type_unresolved),
      cmocka_unit_test(test_bitcast_width),
      cmocka_unit_test(test_bad_tile),
      cmocka_unit_test(test_matmul_pattern_mismatch),
      cmocka_unit_test(test_sort_bindings),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
