// The memory plan: which values share arena space, which escape it, and
// the peak size.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "compiler/host/memory_plan.h"
#include "compiler/host/test_ir.h"

typedef struct fixture_t {
  grtc_tmodule_t* module;
  grtc_tfunc_t* func;
  grtc_memory_plan_t plan;
} fixture_t;

static fixture_t f;

// f(%a: tensor<100xf32>) -> tensor<100xf32>
static int setup(void** state) {
  (void)state;
  memset(&f, 0, sizeof(f));
  GRT_EXPECT_OK(grtc_tmodule_create("m", "m.mlir", grt_allocator_system(), &f.module));
  grtc_ttype_t type = test_vector(GRTC_ELEM_F32, 100);
  GRT_EXPECT_OK(grtc_tfunc_create(f.module, grt_make_cstring_view("f"), &type, 1, &type, 1,
                                  &f.func));
  return 0;
}

static int teardown(void** state) {
  (void)state;
  grtc_memory_plan_deinit(&f.plan);
  grtc_tmodule_destroy(f.module);
  return 0;
}

static const grtc_value_storage_t* plan_of(const grtc_tvalue_t* value) {
  const grtc_value_storage_t* storage = grtc_memory_plan_storage(&f.plan, value);
  assert_non_null(storage);
  return storage;
}

static void build(void) {
  GRT_EXPECT_OK(grtc_memory_plan_build(f.module, f.func, grt_allocator_system(), &f.plan));
}

static grtc_tvalue_t* arg(void) { return &f.func->body->args[0]; }

// A chain d1 -> d2 -> d3 -> d4 (returned): d1 and d2 overlap (d2 reads
// d1), d3 may reuse d1's space once d1 is dead, d4 escapes. 400 bytes
// round up to 448: the peak is two such blocks.
static void test_chain_reuses_dead_space(void** state) {
  (void)state;
  grtc_ttype_t type = test_vector(GRTC_ELEM_F32, 100);
  grtc_tblock_t* body = f.func->body;
  grtc_tvalue_t* a = arg();
  grtc_tvalue_t* d1 = test_dispatch(f.module, body, 0, &a, 1, type);
  grtc_tvalue_t* d2 = test_dispatch(f.module, body, 0, &d1, 1, type);
  grtc_tvalue_t* d3 = test_dispatch(f.module, body, 0, &d2, 1, type);
  grtc_tvalue_t* d4 = test_dispatch(f.module, body, 0, &d3, 1, type);
  test_return(f.module, body, &d4, 1);
  build();
  assert_int_equal(plan_of(a)->kind, GRTC_STORAGE_EXTERNAL);
  assert_int_equal(plan_of(d1)->kind, GRTC_STORAGE_ARENA);
  assert_int_equal(plan_of(d2)->kind, GRTC_STORAGE_ARENA);
  assert_int_equal(plan_of(d3)->kind, GRTC_STORAGE_ARENA);
  assert_int_equal(plan_of(d4)->kind, GRTC_STORAGE_OWN);
  assert_int_equal(plan_of(d1)->size, 400);
  assert_int_not_equal(plan_of(d1)->offset, plan_of(d2)->offset);
  assert_int_not_equal(plan_of(d2)->offset, plan_of(d3)->offset);
  assert_int_equal(plan_of(d1)->offset, plan_of(d3)->offset);
  assert_int_equal(plan_of(d1)->offset % GRTC_MEMORY_PLAN_ALIGNMENT, 0);
  assert_int_equal(plan_of(d2)->offset % GRTC_MEMORY_PLAN_ALIGNMENT, 0);
  assert_int_equal(f.plan.transient_bytes, 2 * 448);
  assert_int_equal(f.plan.arena_value_count, 3);
}

// Values live at once never overlap; a small value fits into the gap a
// dead large one left (best fit) instead of growing the arena.
static void test_live_values_do_not_overlap(void** state) {
  (void)state;
  grtc_tblock_t* body = f.func->body;
  grtc_tvalue_t* a = arg();
  grtc_tvalue_t* big = test_dispatch(f.module, body, 0, &a, 1, test_vector(GRTC_ELEM_F32, 1000));
  grtc_tvalue_t* keep = test_dispatch(f.module, body, 0, &a, 1, test_vector(GRTC_ELEM_F32, 100));
  grtc_tvalue_t* use_big[2] = {big, keep};
  grtc_tvalue_t* mid = test_dispatch(f.module, body, 0, use_big, 2, test_vector(GRTC_ELEM_F32, 100));
  grtc_tvalue_t* small = test_dispatch(f.module, body, 0, &mid, 1, test_vector(GRTC_ELEM_F32, 10));
  grtc_tvalue_t* last_in[2] = {small, keep};
  grtc_tvalue_t* out = test_dispatch(f.module, body, 0, last_in, 2, test_vector(GRTC_ELEM_F32, 100));
  test_return(f.module, body, &out, 1);
  build();
  // big [0, 4000) rounded to 4032; keep and mid live beside it.
  const grtc_value_storage_t* values[4] = {plan_of(big), plan_of(keep), plan_of(mid),
                                           plan_of(small)};
  for (int i = 0; i < 4; ++i) assert_int_equal(values[i]->kind, GRTC_STORAGE_ARENA);
  int64_t big_end = values[0]->offset + 4032;
  assert_true(values[1]->offset >= big_end || values[1]->offset + 448 <= values[0]->offset);
  assert_true(values[2]->offset >= big_end || values[2]->offset + 448 <= values[0]->offset);
  assert_int_not_equal(values[1]->offset, values[2]->offset);
  // small is defined after big died: it reuses big's bytes.
  assert_true(values[3]->offset >= values[0]->offset && values[3]->offset < big_end);
  assert_int_equal(f.plan.transient_bytes, 4032 + 2 * 448);
}

// RESHAPE is a view: its uses keep the operand alive, and a returned view
// makes its operand escape.
static void test_reshape_aliases_its_operand(void** state) {
  (void)state;
  grtc_tblock_t* body = f.func->body;
  grtc_tvalue_t* a = arg();
  grtc_ttype_t type = test_vector(GRTC_ELEM_F32, 100);
  grtc_ttype_t matrix = {GRTC_ELEM_F32, 2, {10, 10}};
  grtc_tvalue_t* d1 = test_dispatch(f.module, body, 0, &a, 1, type);
  grtc_tvalue_t* view = &test_op(f.module, body, GRTC_TOP_RESHAPE, &d1, 1, &matrix, 0)->results[0];
  grtc_tvalue_t* d2 = test_dispatch(f.module, body, 0, &a, 1, type);
  grtc_tvalue_t* both[2] = {view, d2};
  grtc_tvalue_t* d3 = test_dispatch(f.module, body, 0, both, 2, type);
  grtc_tvalue_t* d4 = test_dispatch(f.module, body, 0, &d3, 1, matrix);
  grtc_tvalue_t* returned = &test_op(f.module, body, GRTC_TOP_RESHAPE, &d4, 1, &type, 0)->results[0];
  test_return(f.module, body, &returned, 1);
  build();
  assert_ptr_equal(plan_of(view)->root, d1);
  assert_int_equal(plan_of(view)->kind, GRTC_STORAGE_ARENA);
  assert_int_equal(plan_of(view)->offset, plan_of(d1)->offset);
  // d1 is live (through the view) until d3, so d2 cannot take its space.
  assert_int_not_equal(plan_of(d1)->offset, plan_of(d2)->offset);
  assert_int_equal(plan_of(d4)->kind, GRTC_STORAGE_OWN);
  assert_int_equal(plan_of(returned)->kind, GRTC_STORAGE_OWN);
  assert_ptr_equal(plan_of(returned)->root, d4);
}

// Values passed to calls and control flow, yielded, or used inside a
// region get allocations of their own; values local to a region use the
// arena.
static void test_escapes(void** state) {
  (void)state;
  grtc_tblock_t* body = f.func->body;
  grtc_tvalue_t* a = arg();
  grtc_ttype_t type = test_vector(GRTC_ELEM_F32, 100);
  grtc_ttype_t pred_type = test_scalar(GRTC_ELEM_I1);
  grtc_tvalue_t* captured = test_dispatch(f.module, body, 0, &a, 1, type);
  grtc_tvalue_t* pred = test_dispatch(f.module, body, 0, &a, 1, pred_type);
  grtc_top_t* if_op = test_op(f.module, body, GRTC_TOP_IF, &pred, 1, &type, 2);
  grtc_tblock_t* regions[2];
  for (int r = 0; r < 2; ++r) {
    GRT_EXPECT_OK(grtc_tblock_create(f.module, NULL, 0, &regions[r]));
    grtc_top_set_region(if_op, (uint32_t)r, regions[r]);
  }
  grtc_tvalue_t* local = test_dispatch(f.module, regions[0], 0, &captured, 1, type);
  grtc_tvalue_t* yielded = test_dispatch(f.module, regions[0], 0, &local, 1, type);
  test_op(f.module, regions[0], GRTC_TOP_YIELD, &yielded, 1, NULL, 0);
  grtc_tvalue_t* other = test_dispatch(f.module, regions[1], 0, &a, 1, type);
  grtc_tvalue_t* other_yield = test_dispatch(f.module, regions[1], 0, &other, 1, type);
  test_op(f.module, regions[1], GRTC_TOP_YIELD, &other_yield, 1, NULL, 0);
  grtc_tvalue_t* result = &if_op->results[0];
  test_return(f.module, body, &result, 1);
  build();
  assert_int_equal(plan_of(captured)->kind, GRTC_STORAGE_OWN);
  assert_int_equal(plan_of(pred)->kind, GRTC_STORAGE_OWN);
  assert_int_equal(plan_of(yielded)->kind, GRTC_STORAGE_OWN);
  assert_int_equal(plan_of(other_yield)->kind, GRTC_STORAGE_OWN);
  assert_int_equal(plan_of(result)->kind, GRTC_STORAGE_EXTERNAL);
  assert_int_equal(plan_of(local)->kind, GRTC_STORAGE_ARENA);
  assert_int_equal(plan_of(other)->kind, GRTC_STORAGE_ARENA);
  // The two branches never run together: their locals share space.
  assert_int_equal(plan_of(local)->offset, plan_of(other)->offset);
  assert_int_equal(f.plan.transient_bytes, 448);
}

// A tied result over an operand the call produced updates it in place; a
// tied result over an argument is a value of its own (a copy).
static void test_tied_results(void** state) {
  (void)state;
  grtc_tblock_t* body = f.func->body;
  grtc_tvalue_t* a = arg();
  grtc_ttype_t type = test_vector(GRTC_ELEM_F32, 100);
  grtc_tvalue_t* over_arg = test_dispatch(f.module, body, 0, &a, 1, type);
  over_arg->def->attrs.tied = true;
  grtc_tvalue_t* d1 = test_dispatch(f.module, body, 0, &over_arg, 1, type);
  grtc_tvalue_t* in_place = test_dispatch(f.module, body, 0, &d1, 1, type);
  in_place->def->attrs.tied = true;
  grtc_tvalue_t* out = test_dispatch(f.module, body, 0, &in_place, 1, type);
  test_return(f.module, body, &out, 1);
  build();
  assert_ptr_equal(plan_of(over_arg)->root, over_arg);
  assert_int_equal(plan_of(over_arg)->kind, GRTC_STORAGE_ARENA);
  assert_ptr_equal(plan_of(in_place)->root, d1);
  assert_int_equal(plan_of(in_place)->offset, plan_of(d1)->offset);
}

// A function without dispatches needs no arena.
static void test_no_arena(void** state) {
  (void)state;
  grtc_tvalue_t* a = arg();
  test_return(f.module, f.func->body, &a, 1);
  build();
  assert_int_equal(f.plan.transient_bytes, 0);
  assert_int_equal(f.plan.arena_value_count, 0);
}

static const char* format(const grtc_size_expr_t* expr) {
  static char buffer[GRTC_SIZE_EXPR_FORMAT_CAPACITY];
  return grtc_size_expr_format(expr, buffer, sizeof(buffer));
}

// Size expressions: static factor x symbols (ascending), and covering.
static void test_size_exprs(void** state) {
  (void)state;
  grtc_ttype_t type = {GRTC_ELEM_F32, 3, {GRTC_DIM_SYMBOL(2), 5, GRTC_DIM_SYMBOL(0)}};
  grtc_size_expr_t a;
  assert_true(grtc_size_expr_of_type(f.module, &type, &a));
  assert_string_equal(format(&a), "20*s0*s2");
  grtc_ttype_t smaller = {GRTC_ELEM_F16, 3, {GRTC_DIM_SYMBOL(0), 5, GRTC_DIM_SYMBOL(2)}};
  grtc_size_expr_t b;
  assert_true(grtc_size_expr_of_type(f.module, &smaller, &b));
  assert_string_equal(format(&b), "10*s0*s2");
  assert_true(grtc_size_expr_covers(&a, &b));
  assert_false(grtc_size_expr_covers(&b, &a));
  grtc_ttype_t other = {GRTC_ELEM_F32, 1, {GRTC_DIM_SYMBOL(0)}};
  grtc_size_expr_t c;
  assert_true(grtc_size_expr_of_type(f.module, &other, &c));
  assert_string_equal(format(&c), "4*s0");
  assert_false(grtc_size_expr_covers(&a, &c));  // s2 may be 0
  grtc_ttype_t empty = {GRTC_ELEM_F32, 2, {0, GRTC_DIM_SYMBOL(1)}};
  grtc_size_expr_t zero;
  assert_true(grtc_size_expr_of_type(f.module, &empty, &zero));
  assert_string_equal(format(&zero), "0");
  assert_true(grtc_size_expr_covers(&c, &zero));
  grtc_ttype_t huge = {GRTC_ELEM_F64, 3, {INT64_C(1) << 30, INT64_C(1) << 30, GRTC_DIM_SYMBOL(0)}};
  assert_false(grtc_size_expr_of_type(f.module, &huge, &a));
}

// Symbolic arena values take slots above the static part: a dead slot is
// reused only when its monomial covers the new value's, largest first
// within each set of symbols.
//   d1 = k(a): ?x4 (16*s0)   d2 = k(d1): ?x2 (8*s0)   d3 = k(d2): ?x4 (16*s0)
//   d4 = k(d3): ?x8 (32*s0)  d5 = k(b): ? (4*s1)      d6 = k(a): 10 (static)
//   return k(d4, d5, d6)
static void test_symbolic_slots(void** state) {
  (void)state;
  grtc_ttype_t a_type = {GRTC_ELEM_F32, 2, {GRTC_DIM_SYMBOL(0), 4}};
  grtc_ttype_t b_type = {GRTC_ELEM_F32, 1, {GRTC_DIM_SYMBOL(1)}};
  grtc_ttype_t args[2] = {a_type, b_type};
  grtc_tfunc_t* g = NULL;
  GRT_EXPECT_OK(grtc_tfunc_create(f.module, grt_make_cstring_view("g"), args, 2, &a_type, 1, &g));
  f.func = g;
  grtc_tblock_t* body = g->body;
  grtc_tvalue_t* a = &body->args[0];
  grtc_tvalue_t* b = &body->args[1];
  grtc_ttype_t x2 = {GRTC_ELEM_F32, 2, {GRTC_DIM_SYMBOL(0), 2}};
  grtc_ttype_t x8 = {GRTC_ELEM_F32, 2, {GRTC_DIM_SYMBOL(0), 8}};
  grtc_tvalue_t* d1 = test_dispatch(f.module, body, 0, &a, 1, a_type);
  grtc_tvalue_t* d2 = test_dispatch(f.module, body, 0, &d1, 1, x2);
  grtc_tvalue_t* d3 = test_dispatch(f.module, body, 0, &d2, 1, a_type);
  grtc_tvalue_t* d4 = test_dispatch(f.module, body, 0, &d3, 1, x8);
  grtc_tvalue_t* d5 = test_dispatch(f.module, body, 0, &b, 1, b_type);
  grtc_tvalue_t* d6 = test_dispatch(f.module, body, 0, &a, 1, test_vector(GRTC_ELEM_F32, 10));
  grtc_tvalue_t* last[3] = {d4, d5, d6};
  grtc_tvalue_t* r = test_dispatch(f.module, body, 0, last, 3, a_type);
  test_return(f.module, body, &r, 1);
  build();
  assert_int_equal(f.plan.transient_bytes, 64);  // d6 alone
  assert_int_equal(plan_of(d6)->slot, GRTC_MEMORY_PLAN_NO_SLOT);
  assert_int_equal(f.plan.slot_count, 4);
  assert_int_equal(plan_of(d4)->slot, 0);
  assert_string_equal(format(&f.plan.slots[0]), "32*s0");
  assert_int_equal(plan_of(d1)->slot, 0);  // dead before d4 is made, and covered
  assert_int_equal(plan_of(d3)->slot, 1);  // live with d4
  assert_string_equal(format(&f.plan.slots[1]), "16*s0");
  assert_int_equal(plan_of(d2)->slot, 2);  // live with d1 and d3
  assert_string_equal(format(&f.plan.slots[2]), "8*s0");
  assert_int_equal(plan_of(d5)->slot, 3);  // other symbols
  assert_string_equal(format(&f.plan.slots[3]), "4*s1");
  assert_int_equal(plan_of(d1)->kind, GRTC_STORAGE_ARENA);
  assert_int_equal(plan_of(d1)->size, -1);
  assert_string_equal(format(&plan_of(d1)->bytes), "16*s0");
  assert_int_equal(plan_of(r)->kind, GRTC_STORAGE_OWN);
  assert_int_equal(plan_of(r)->slot, GRTC_MEMORY_PLAN_NO_SLOT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_chain_reuses_dead_space, setup, teardown),
      cmocka_unit_test_setup_teardown(test_live_values_do_not_overlap, setup, teardown),
      cmocka_unit_test_setup_teardown(test_reshape_aliases_its_operand, setup, teardown),
      cmocka_unit_test_setup_teardown(test_escapes, setup, teardown),
      cmocka_unit_test_setup_teardown(test_tied_results, setup, teardown),
      cmocka_unit_test_setup_teardown(test_no_arena, setup, teardown),
      cmocka_unit_test_setup_teardown(test_size_exprs, setup, teardown),
      cmocka_unit_test_setup_teardown(test_symbolic_slots, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
