// Ref ops: comparisons, select/switch, casts, and the move bit. Refs come in
// from the host as vm.buffer/vm.list objects the test holds its own
// reference to, so every test can check that the VM left the reference
// counts where they started (and ASan catches any leak).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "vm/buffer.h"
#include "vm/test_support.h"

// A fresh 4-byte buffer the caller owns one reference to, and a variant
// holding a second one.
static grt_vm_variant_t make_buffer_arg(grt_vm_buffer_t** out_buffer) {
  GRT_EXPECT_OK(grt_vm_buffer_create(GRT_VM_BUFFER_ACCESS_MUTABLE, 4, 4,
                                        grt_allocator_system(), out_buffer));
  grt_vm_ref_t ref = grt_vm_ref_wrap_retain(*out_buffer, grt_vm_buffer_type());
  return grt_vm_variant_ref_move(&ref);
}

static grt_vm_variant_t null_arg(void) {
  grt_vm_ref_t ref = grt_vm_ref_null();
  return grt_vm_variant_ref_move(&ref);
}

static uint32_t count_of(grt_vm_buffer_t* buffer) {
  return grt_vm_ref_object_count(buffer, grt_vm_buffer_type());
}

static int32_t run_i32(grt_vm_op_t op, grt_vm_variant_t a, grt_vm_variant_t b) {
  grt_vm_variant_t args[2] = {a, b};
  grt_vm_variant_t out;
  GRT_EXPECT_OK(grt_vm_test_run_op(op, args, &out));
  return out.i32;
}

static void test_cmp_ref(void** state) {
  (void)state;
  grt_vm_buffer_t* a = NULL;
  grt_vm_buffer_t* b = NULL;
  grt_vm_variant_t va = make_buffer_arg(&a), vb = make_buffer_arg(&b);
  grt_vm_variant_t vn = null_arg();
  assert_int_equal(run_i32(GRT_VM_OP_CMP_EQ_REF, va, va), 1);
  assert_int_equal(run_i32(GRT_VM_OP_CMP_EQ_REF, va, vb), 0);
  assert_int_equal(run_i32(GRT_VM_OP_CMP_EQ_REF, vn, vn), 1);
  assert_int_equal(run_i32(GRT_VM_OP_CMP_EQ_REF, va, vn), 0);
  assert_int_equal(run_i32(GRT_VM_OP_CMP_NE_REF, va, va), 0);
  assert_int_equal(run_i32(GRT_VM_OP_CMP_NE_REF, va, vb), 1);
  assert_int_equal(run_i32(GRT_VM_OP_CMP_NE_REF, vn, vn), 0);
  assert_int_equal(run_i32(GRT_VM_OP_CMP_NE_REF, vn, vb), 1);
  grt_vm_variant_t out;
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_CMP_NZ_REF, &va, &out));
  assert_int_equal(out.i32, 1);
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_CMP_NZ_REF, &vn, &out));
  assert_int_equal(out.i32, 0);
  assert_int_equal(count_of(a), 2);
  grt_vm_variant_reset(&va);
  grt_vm_variant_reset(&vb);
  assert_int_equal(count_of(a), 1);
  assert_int_equal(count_of(b), 1);
  grt_vm_buffer_release(a);
  grt_vm_buffer_release(b);
}

static void test_select_ref(void** state) {
  (void)state;
  grt_vm_buffer_t* a = NULL;
  grt_vm_buffer_t* b = NULL;
  grt_vm_variant_t args[3] = {grt_vm_variant_i32(7), make_buffer_arg(&a),
                              make_buffer_arg(&b)};
  grt_vm_variant_t out;
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_SELECT_REF, args, &out));
  assert_ptr_equal(out.ref.ptr, a);
  assert_int_equal(count_of(a), 3);  // test, args[1], out
  grt_vm_variant_reset(&out);
  args[0] = grt_vm_variant_i32(0);
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_SELECT_REF, args, &out));
  assert_ptr_equal(out.ref.ptr, b);
  grt_vm_variant_reset(&out);
  assert_int_equal(count_of(a), 2);
  assert_int_equal(count_of(b), 2);
  grt_vm_variant_reset(&args[1]);
  grt_vm_variant_reset(&args[2]);
  grt_vm_buffer_release(a);
  grt_vm_buffer_release(b);
}

// main(index, default, v0, v1) = switch.ref index [v0, v1] default.
static grt_status_t run_switch(int32_t index, grt_vm_variant_t* refs,
                               grt_vm_variant_t* out) {
  grt_vm_test_module_t t;
  grt_vm_test_module_begin(&t, "m");
  grt_vm_test_function_begin(&t, "main", "0irrr_r");
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_SWITCH_REF, TI(0), TR(0),
                   TLIST(TR_R(1), TR_R(2)), TR(3));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST(TR_R(3)));
  grt_vm_test_function_end(&t, 1, 4);
  grt_vm_test_module_load(&t, NULL, 0);
  grt_vm_variant_t args[4] = {grt_vm_variant_i32(index), refs[0], refs[1],
                              refs[2]};
  grt_status_t status = grt_vm_test_call(&t, "main", args, 4, out, 1);
  grt_vm_test_module_end(&t);
  return status;
}

static void test_switch_ref(void** state) {
  (void)state;
  grt_vm_buffer_t* buffers[3];
  grt_vm_variant_t refs[3];
  for (int i = 0; i < 3; ++i) refs[i] = make_buffer_arg(&buffers[i]);
  static const struct {
    int32_t index;
    int expected;  // which of refs
  } cases[] = {{0, 1}, {1, 2}, {2, 0}, {-1, 0}, {INT32_MAX, 0}};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    grt_vm_variant_t out;
    GRT_EXPECT_OK(run_switch(cases[i].index, refs, &out));
    if (out.ref.ptr != buffers[cases[i].expected]) {
      fail_msg("switch.ref index %d: expected value %d", cases[i].index,
               cases[i].expected);
    }
    grt_vm_variant_reset(&out);
  }
  for (int i = 0; i < 3; ++i) {
    grt_vm_variant_reset(&refs[i]);
    assert_int_equal(count_of(buffers[i]), 1);
    grt_vm_buffer_release(buffers[i]);
  }
}

// main(ref) = cast.any.ref<type_name>(cast.ref.any(ref))
static grt_status_t run_casts(const char* type_name, grt_vm_variant_t arg,
                              grt_vm_variant_t* out) {
  grt_vm_test_module_t t;
  grt_vm_test_module_begin(&t, "m");
  grt_vm_test_function_begin(&t, "main", "0r_r");
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CAST_REF_ANY, TR(0), TR(1));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CAST_ANY_REF, TR(1), TS(type_name), TR(2));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST(TR_R(2)));
  grt_vm_test_function_end(&t, 0, 3);
  grt_vm_test_module_load(&t, NULL, 0);
  grt_status_t status = grt_vm_test_call(&t, "main", &arg, 1, out, 1);
  grt_vm_test_module_end(&t);
  return status;
}

static void test_casts(void** state) {
  (void)state;
  grt_vm_buffer_t* a = NULL;
  grt_vm_variant_t va = make_buffer_arg(&a);
  grt_vm_variant_t out;
  GRT_EXPECT_OK(run_casts("vm.buffer", va, &out));
  assert_ptr_equal(out.ref.ptr, a);
  assert_ptr_equal(out.ref.type, grt_vm_buffer_type());
  grt_vm_variant_reset(&out);
  // A null ref casts to any type.
  GRT_EXPECT_OK(run_casts("vm.list", null_arg(), &out));
  assert_null(out.ref.ptr);
  grt_expect_error(run_casts("vm.list", va, &out),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "cast.any.ref: expected ref<vm.list>, got ref<vm.buffer>"
                      "; at m.main@0x");
  // The failed call released everything it held.
  grt_vm_variant_reset(&va);
  assert_int_equal(count_of(a), 1);
  grt_vm_buffer_release(a);
}

// main(a) moves a through cast.ref.any and cast.any.ref and returns the
// result with whether each moved-from register is still non-null.
static void test_cast_moves_leave_null(void** state) {
  (void)state;
  grt_vm_buffer_t* a = NULL;
  grt_vm_variant_t va = make_buffer_arg(&a);
  grt_vm_test_module_t t;
  grt_vm_test_module_begin(&t, "m");
  grt_vm_test_function_begin(&t, "main", "0r_rii");
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CAST_REF_ANY, TRM(0), TR(1));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CAST_ANY_REF, TRM(1), TS("vm.buffer"), TR(2));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CMP_NZ_REF, TR(0), TI(0));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CMP_NZ_REF, TR(1), TI(1));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST(TR_R(2), TR_I(0), TR_I(1)));
  grt_vm_test_function_end(&t, 2, 3);
  grt_vm_test_module_load(&t, NULL, 0);
  grt_vm_variant_t out[3];
  GRT_EXPECT_OK(grt_vm_test_call(&t, "main", &va, 1, out, 3));
  assert_ptr_equal(out[0].ref.ptr, a);
  assert_int_equal(out[1].i32, 0);
  assert_int_equal(out[2].i32, 0);
  // test, va, out[0]: the moves neither retained nor dropped a reference.
  assert_int_equal(count_of(a), 3);
  grt_vm_variant_reset(&out[0]);
  grt_vm_test_module_end(&t);
  grt_vm_variant_reset(&va);
  assert_int_equal(count_of(a), 1);
  grt_vm_buffer_release(a);
}

// optimization_barrier is a parallel copy: swapping two registers of each
// kind through it must not read a result it already wrote.
static void test_optimization_barrier_swaps(void** state) {
  (void)state;
  grt_vm_buffer_t* a = NULL;
  grt_vm_buffer_t* b = NULL;
  grt_vm_variant_t args[4] = {grt_vm_variant_i32(1), grt_vm_variant_i32(2),
                              make_buffer_arg(&a), make_buffer_arg(&b)};
  grt_vm_test_module_t t;
  grt_vm_test_module_begin(&t, "m");
  grt_vm_test_function_begin(&t, "main", "0iirr_iirr");
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_OPTIMIZATION_BARRIER,
                   TLIST(TR_I(0), TR_I(1), TR_R(0), TR_R(1)),
                   TLIST(TR_I(1), TR_I(0), TR_R(1), TR_R(0)));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN,
                   TLIST(TR_I(0), TR_I(1), TR_R(0), TR_R(1)));
  grt_vm_test_function_end(&t, 2, 2);
  grt_vm_test_module_load(&t, NULL, 0);
  grt_vm_variant_t out[4];
  GRT_EXPECT_OK(grt_vm_test_call(&t, "main", args, 4, out, 4));
  assert_int_equal(out[0].i32, 2);
  assert_int_equal(out[1].i32, 1);
  assert_ptr_equal(out[2].ref.ptr, b);
  assert_ptr_equal(out[3].ref.ptr, a);
  grt_vm_variant_reset(&out[2]);
  grt_vm_variant_reset(&out[3]);
  grt_vm_test_module_end(&t);
  grt_vm_variant_reset(&args[2]);
  grt_vm_variant_reset(&args[3]);
  assert_int_equal(count_of(a), 1);
  assert_int_equal(count_of(b), 1);
  grt_vm_buffer_release(a);
  grt_vm_buffer_release(b);
}

// Runs |emit_op| (which uses refs 0 and 1 with the move bit, and may write
// ref 2 and i32 0) in main(a, b), then returns ref 2 and whether refs 0 and
// 1 are still non-null.
typedef void (*emit_fn)(grt_vm_test_module_t* t);
static void run_moving(emit_fn emit_op, int32_t cond, grt_vm_buffer_t* a,
                       grt_vm_buffer_t* b, grt_vm_variant_t* out) {
  grt_vm_ref_t ra = grt_vm_ref_wrap_retain(a, grt_vm_buffer_type());
  grt_vm_ref_t rb = grt_vm_ref_wrap_retain(b, grt_vm_buffer_type());
  grt_vm_variant_t args[3] = {grt_vm_variant_i32(cond),
                              grt_vm_variant_ref_move(&ra),
                              grt_vm_variant_ref_move(&rb)};
  grt_vm_test_module_t t;
  grt_vm_test_module_begin(&t, "m");
  grt_vm_test_function_begin(&t, "main", "0irr_rii");
  emit_op(&t);
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CMP_NZ_REF, TR(0), TI(1));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CMP_NZ_REF, TR(1), TI(2));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST(TR_R(2), TR_I(1), TR_I(2)));
  grt_vm_test_function_end(&t, 3, 3);
  grt_vm_test_module_load(&t, NULL, 0);
  GRT_EXPECT_OK(grt_vm_test_call(&t, "main", args, 3, out, 3));
  grt_vm_test_module_end(&t);
  grt_vm_variant_reset(&args[1]);
  grt_vm_variant_reset(&args[2]);
}

static void emit_select_moves(grt_vm_test_module_t* t) {
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_SELECT_REF, TI(0), TRM(0), TRM(1), TR(2));
}
static void emit_switch_moves(grt_vm_test_module_t* t) {
  // cond 0 picks value 0 (ref 1), anything else the default (ref 0).
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_SWITCH_REF, TI(0), TRM(0), TLIST(TR_RM(1)),
                   TR(2));
}
static void emit_cmp_moves(grt_vm_test_module_t* t) {
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_CMP_EQ_REF, TRM(0), TRM(1), TI(0));
}
static void emit_cmp_ne_nz_moves(grt_vm_test_module_t* t) {
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_CMP_NE_REF, TR(0), TRM(1), TI(0));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_CMP_NZ_REF, TRM(0), TI(0));
}

// A ref operand with the move bit is its last use: whichever way an op
// goes, the register is null afterwards, and the chosen value moves into
// the result rather than being retained.
static void test_moved_operands_are_null_afterwards(void** state) {
  (void)state;
  grt_vm_buffer_t* a = NULL;
  grt_vm_buffer_t* b = NULL;
  grt_vm_variant_t va = make_buffer_arg(&a), vb = make_buffer_arg(&b);
  grt_vm_variant_reset(&va);
  grt_vm_variant_reset(&vb);
  static const struct {
    const char* name;
    emit_fn emit_op;
    int32_t cond;
    int result;  // 0: null, 1: a, 2: b
  } cases[] = {
      {"select.ref true", emit_select_moves, 1, 1},
      {"select.ref false", emit_select_moves, 0, 2},
      {"switch.ref in range", emit_switch_moves, 0, 2},
      {"switch.ref default", emit_switch_moves, 5, 1},
      {"cmp.eq.ref", emit_cmp_moves, 0, 0},
      {"cmp.ne.ref + cmp.nz.ref", emit_cmp_ne_nz_moves, 0, 0},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    grt_vm_variant_t out[3];
    run_moving(cases[i].emit_op, cases[i].cond, a, b, out);
    void* expected = cases[i].result == 0 ? NULL
                     : cases[i].result == 1 ? (void*)a
                                            : (void*)b;
    if (out[0].ref.ptr != expected || out[1].i32 != 0 || out[2].i32 != 0) {
      fail_msg("%s: result %s, ref 0 %s, ref 1 %s", cases[i].name,
               out[0].ref.ptr == expected ? "right" : "wrong",
               out[1].i32 ? "still set" : "null",
               out[2].i32 ? "still set" : "null");
    }
    grt_vm_variant_reset(&out[0]);
    assert_int_equal(count_of(a), 1);
    assert_int_equal(count_of(b), 1);
  }
  grt_vm_buffer_release(a);
  grt_vm_buffer_release(b);
}

// const.ref.rodata of an external segment aliases the module file's bytes
// (zero-copy), and the alias is read-only to the program.
static void test_rodata_is_zero_copy_and_read_only(void** state) {
  (void)state;
  static const uint8_t payload[256] = {0x11, 0x22, 0x33, 0x44};
  grt_vm_test_module_t t;
  grt_vm_test_module_begin(&t, "m");
  grt_module_rodata_t rodata = {grt_make_const_byte_span(payload,
                                                         sizeof(payload)),
                                64, true};
  uint32_t ordinal = 0;
  GRT_EXPECT_OK(grt_module_writer_add_rodata(t.writer, &rodata, &ordinal));
  grt_vm_test_function_begin(&t, "get", "0_r");
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CONST_REF_RODATA, TO(ordinal), TR(0));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST(TR_R(0)));
  grt_vm_test_function_end(&t, 0, 1);
  grt_vm_test_function_begin(&t, "poke", "0_v");
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CONST_REF_RODATA, TO(ordinal), TR(0));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CONST_I64, TK(1), TL(0));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CONST_I32, TK(7), TI(2));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_BUFFER_STORE_I32, TR(0), TL(0), TI(2));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST_EMPTY);
  grt_vm_test_function_end(&t, 3, 1);
  grt_vm_test_module_load(&t, NULL, 0);

  grt_vm_variant_t out;
  GRT_EXPECT_OK(grt_vm_test_call(&t, "get", NULL, 0, &out, 1));
  grt_vm_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_check_deref(&out.ref, &buffer));
  assert_int_equal(grt_vm_buffer_length(buffer), sizeof(payload));
  const void* data = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_map_read(buffer, 0, sizeof(payload), &data));
  const uint8_t* file_begin = t.file_data;
  const uint8_t* p = data;
  assert_true(p >= file_begin && p + sizeof(payload) <= file_begin + t.file_size);
  assert_int_equal((uintptr_t)p % 64, 0);
  assert_memory_equal(p, payload, sizeof(payload));
  assert_int_equal(grt_vm_buffer_access(buffer) & GRT_VM_BUFFER_ACCESS_MUTABLE,
                   0);
  grt_vm_variant_reset(&out);

  grt_expect_error(grt_vm_test_call(&t, "poke", NULL, 0, NULL, 0),
                      GRT_STATUS_PERMISSION_DENIED,
                      "buffer is read-only (it aliases module rodata): cannot "
                      "write 4 bytes at offset 4 of a 256-byte buffer");
  assert_memory_equal(p, payload, sizeof(payload));
  grt_vm_test_module_end(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cmp_ref),
      cmocka_unit_test(test_select_ref),
      cmocka_unit_test(test_switch_ref),
      cmocka_unit_test(test_casts),
      cmocka_unit_test(test_cast_moves_leave_null),
      cmocka_unit_test(test_optimization_barrier_swaps),
      cmocka_unit_test(test_moved_operands_are_null_afterwards),
      cmocka_unit_test(test_rodata_is_zero_copy_and_read_only),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
