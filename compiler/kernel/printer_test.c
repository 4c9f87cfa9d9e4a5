// Tests for the kernel IR printer: the header line, section labels,
// instruction spellings, accumulators, stores and patterns.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/status_matchers.h"
#include "compiler/kernel/printer.h"

static uint32_t add(grtc_kernel_set_t* set, grtc_kernel_t* kernel,
                    grtc_kinst_t inst) {
  uint32_t out = 0;
  GRT_EXPECT_OK(grtc_kernel_add_inst(set, kernel, &inst, &out));
  return out;
}

static void test_prints_reduction_kernel(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  grtc_kernel_t* k = NULL;
  GRT_EXPECT_OK(grtc_kernel_set_add(&set, "main_dispatch_0", 2, &k, NULL));
  k->bindings[0] = (grtc_kbinding_t){GRTC_ELEM_F32, 1024, GRTC_KACCESS_READ};
  k->bindings[1] = (grtc_kbinding_t){GRTC_ELEM_F32, 32, GRTC_KACCESS_WRITE};
  k->parallel_rank = 1;
  k->parallel_dims[0] = 32;
  k->tile[0] = 8;
  k->reduction_rank = 1;
  k->reduction_dims[0] = 32;
  GRT_EXPECT_OK(grtc_kernel_finalize_workgroups(k));
  uint32_t p = add(&set, k, (grtc_kinst_t){.kind = GRTC_KINST_PINDEX,
                                           .type = GRTC_ELEM_I64});
  uint32_t zero = add(&set, k, (grtc_kinst_t){.kind = GRTC_KINST_CONST,
                                              .type = GRTC_ELEM_F32,
                                              .value.f = 0.5});
  uint32_t acc = 0;
  GRT_EXPECT_OK(grtc_kernel_add_acc(&set, k, GRTC_ELEM_F32, zero, &acc));
  uint32_t r = add(&set, k, (grtc_kinst_t){.kind = GRTC_KINST_RINDEX,
                                           .section = GRTC_KSECTION_LOOP,
                                           .type = GRTC_ELEM_I64});
  uint32_t c32 = add(&set, k, (grtc_kinst_t){.kind = GRTC_KINST_CONST,
                                             .section = GRTC_KSECTION_LOOP,
                                             .type = GRTC_ELEM_I64,
                                             .value.i = 32});
  uint32_t row = add(&set, k, (grtc_kinst_t){.kind = GRTC_KINST_OP,
                                             .section = GRTC_KSECTION_LOOP,
                                             .type = GRTC_ELEM_I64,
                                             .op = GRTC_SCALAR_MUL,
                                             .operand_count = 2,
                                             .operands = {p, c32}});
  uint32_t idx = add(&set, k, (grtc_kinst_t){.kind = GRTC_KINST_OP,
                                             .section = GRTC_KSECTION_LOOP,
                                             .type = GRTC_ELEM_I64,
                                             .op = GRTC_SCALAR_ADD,
                                             .operand_count = 2,
                                             .operands = {row, r}});
  uint32_t x = add(&set, k, (grtc_kinst_t){.kind = GRTC_KINST_LOAD,
                                           .section = GRTC_KSECTION_LOOP,
                                           .type = GRTC_ELEM_F32,
                                           .operand_count = 1,
                                           .operands = {idx}});
  uint32_t a = add(&set, k, (grtc_kinst_t){.kind = GRTC_KINST_ACC,
                                           .section = GRTC_KSECTION_LOOP,
                                           .type = GRTC_ELEM_F32});
  k->accs[acc].update = add(&set, k, (grtc_kinst_t){
                                         .kind = GRTC_KINST_OP,
                                         .section = GRTC_KSECTION_LOOP,
                                         .type = GRTC_ELEM_F32,
                                         .op = GRTC_SCALAR_ADD,
                                         .operand_count = 2,
                                         .operands = {a, x}});
  uint32_t fin = add(&set, k, (grtc_kinst_t){.kind = GRTC_KINST_ACC,
                                             .section = GRTC_KSECTION_POST,
                                             .type = GRTC_ELEM_F32});
  uint32_t pos = add(&set, k, (grtc_kinst_t){.kind = GRTC_KINST_COMPARE,
                                             .section = GRTC_KSECTION_POST,
                                             .type = GRTC_ELEM_I1,
                                             .op = GRTC_CMP_GT,
                                             .compare_type = GRTC_CMP_TYPE_FLOAT,
                                             .operand_count = 2,
                                             .operands = {fin, zero}});
  GRT_EXPECT_OK(grtc_kernel_add_store(
      &set, k, &(grtc_kstore_t){.binding = 1, .index = p, .value = fin,
                                .predicate = pos}));
  GRT_EXPECT_OK(grtc_kernel_verify(k));

  grt_string_builder_t text;
  grt_string_builder_init(grt_allocator_system(), &text);
  grtc_kernel_print(k, &text);
  GRT_EXPECT_OK(grt_string_builder_status(&text));
  assert_string_equal(
      grt_string_builder_cstring(&text),
      "kernel @main_dispatch_0 bindings(f32[1024] r, f32[32] w) parallel[32] "
      "reduction[32] tile[8] wg=4\n"
      "  pre:\n"
      "    %0 = pindex 0\n"
      "    %1 = const 0.5 : f32\n"
      "  loop:\n"
      "    %2 = rindex 0\n"
      "    %3 = const 32 : i64\n"
      "    %4 = multiply.i64 %0, %3\n"
      "    %5 = add.i64 %4, %2\n"
      "    %6 = load.f32 b0[%5]\n"
      "    %7 = acc 0 : f32\n"
      "    %8 = add.f32 %7, %6\n"
      "  post:\n"
      "    %9 = acc 0 : f32\n"
      "    %10 = compare.GT.FLOAT %9, %1\n"
      "  acc 0 : f32 init %1 update %8\n"
      "  store b1[%0] = %9 if %10\n");
  grt_string_builder_deinit(&text);
  grtc_kernel_set_deinit(&set);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_prints_reduction_kernel),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
