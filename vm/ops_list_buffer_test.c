// Buffer and list ops run one at a time (grt_vm_test_run_op) on buffers and
// lists the host creates, so each op's effect is checked on the bytes or
// elements directly: element scaling of load/store/fill offsets, byte
// offsets of copy/compare/hash/clone, sign and zero extension, alignment,
// and the out-of-range messages.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "vm/buffer.h"
#include "vm/test_support.h"

// A 16-byte buffer holding 0x80, 0x81, ... 0x8F, as a ref variant.
static grt_vm_variant_t make_buffer(grt_vm_buffer_t** out_buffer) {
  grt_vm_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_create(GRT_VM_BUFFER_ACCESS_MUTABLE, 16, 16,
                                        grt_allocator_system(), &buffer));
  uint8_t* data = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_map_write(buffer, 0, 16, (void**)&data));
  for (int i = 0; i < 16; ++i) data[i] = (uint8_t)(0x80 + i);
  *out_buffer = buffer;
  grt_vm_ref_t ref = grt_vm_ref_wrap_move(buffer, grt_vm_buffer_type());
  return grt_vm_variant_ref_move(&ref);
}

static const uint8_t* bytes_of(grt_vm_buffer_t* buffer) {
  const void* data = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_map_read(buffer, 0,
                                          grt_vm_buffer_length(buffer), &data));
  return data;
}

static void test_buffer_loads_scale_element_offsets(void** state) {
  (void)state;
  grt_vm_buffer_t* buffer = NULL;
  grt_vm_variant_t args[2] = {make_buffer(&buffer), grt_vm_variant_i64(1)};
  static const struct {
    grt_vm_op_t op;
    int64_t expected;  // element 1 of the op's width
  } cases[] = {
      {GRT_VM_OP_BUFFER_LOAD_I8_S, (int8_t)0x81},
      {GRT_VM_OP_BUFFER_LOAD_I8_U, 0x81},
      {GRT_VM_OP_BUFFER_LOAD_I16_S, (int16_t)0x8382},
      {GRT_VM_OP_BUFFER_LOAD_I16_U, 0x8382},
      {GRT_VM_OP_BUFFER_LOAD_I32, (int32_t)0x87868584u},
      {GRT_VM_OP_BUFFER_LOAD_I64, (int64_t)UINT64_C(0x8F8E8D8C8B8A8988)},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    grt_vm_variant_t out;
    GRT_EXPECT_OK(grt_vm_test_run_op(cases[i].op, args, &out));
    int64_t got = cases[i].op == GRT_VM_OP_BUFFER_LOAD_I64 ? out.i64 : out.i32;
    if (got != cases[i].expected) {
      fail_msg("%s: expected %lld, got %lld",
               grt_vm_op_info(cases[i].op)->mnemonic,
               (long long)cases[i].expected, (long long)got);
    }
  }
  // Element 4 of i32 is byte 16: one past the end.
  args[1] = grt_vm_variant_i64(4);
  grt_vm_variant_t out;
  grt_expect_error(
      grt_vm_test_run_op(GRT_VM_OP_BUFFER_LOAD_I32, args, &out),
      GRT_STATUS_OUT_OF_RANGE,
      "buffer access out of range: offset 16 + length 4 > buffer length 16");
  args[1] = grt_vm_variant_i64(-1);
  grt_expect_error(grt_vm_test_run_op(GRT_VM_OP_BUFFER_LOAD_F64, args, &out),
                      GRT_STATUS_OUT_OF_RANGE,
                      "buffer element index -1 out of range");
  grt_vm_variant_reset(&args[0]);
}

static void test_buffer_stores_and_fills(void** state) {
  (void)state;
  grt_vm_buffer_t* buffer = NULL;
  grt_vm_variant_t ref = make_buffer(&buffer);
  grt_vm_variant_t store16[3] = {ref, grt_vm_variant_i64(3),
                                 grt_vm_variant_i32(0x71234)};
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_BUFFER_STORE_I16, store16,
                                      NULL));
  const uint8_t* bytes = bytes_of(buffer);
  assert_int_equal(bytes[6], 0x34);  // element 3 of i16 = bytes 6, 7
  assert_int_equal(bytes[7], 0x12);
  assert_int_equal(bytes[8], 0x88);
  grt_vm_variant_t store8[3] = {ref, grt_vm_variant_i64(15),
                                grt_vm_variant_i32(-1)};
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_BUFFER_STORE_I8, store8, NULL));
  assert_int_equal(bytes[15], 0xFF);
  grt_vm_variant_t store64[3] = {ref, grt_vm_variant_i64(0),
                                 grt_vm_variant_i64(-2)};
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_BUFFER_STORE_I64, store64,
                                      NULL));
  assert_int_equal(bytes[0], 0xFE);
  assert_int_equal(bytes[7], 0xFF);
  grt_vm_variant_t storef[3] = {ref, grt_vm_variant_i64(2),
                                grt_vm_variant_f32(1.5f)};
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_BUFFER_STORE_F32, storef, NULL));
  grt_vm_variant_t loadf[2] = {ref, grt_vm_variant_i64(2)}, out;
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_BUFFER_LOAD_F32, loadf, &out));
  assert_true(out.f32 == 1.5f);
  float f;
  memcpy(&f, bytes + 8, 4);
  assert_true(f == 1.5f);
  grt_vm_variant_t stored[3] = {ref, grt_vm_variant_i64(1),
                                grt_vm_variant_f64(-0.5)};
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_BUFFER_STORE_F64, stored, NULL));
  double d;
  memcpy(&d, bytes + 8, 8);
  assert_true(d == -0.5);
  // fill.i16 from element 1, 2 elements: bytes 2..5.
  grt_vm_variant_t fill[4] = {ref, grt_vm_variant_i64(1),
                              grt_vm_variant_i64(2),
                              grt_vm_variant_i32(0xABCD)};
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_BUFFER_FILL_I16, fill, NULL));
  const uint8_t expected[8] = {0xFE, 0xFF, 0xCD, 0xAB, 0xCD, 0xAB, 0xFF, 0xFF};
  assert_memory_equal(bytes, expected, 8);
  grt_vm_variant_t fill64[4] = {ref, grt_vm_variant_i64(1),
                                grt_vm_variant_i64(1),
                                grt_vm_variant_i64(0x0102030405060708)};
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_BUFFER_FILL_I64, fill64, NULL));
  assert_int_equal(bytes[8], 0x08);
  assert_int_equal(bytes[15], 0x01);
  grt_vm_variant_t fillf[4] = {ref, grt_vm_variant_i64(0),
                               grt_vm_variant_i64(1),
                               grt_vm_variant_f32(2.0f)};
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_BUFFER_FILL_F32, fillf, NULL));
  memcpy(&f, bytes, 4);
  assert_true(f == 2.0f);
  fill[2] = grt_vm_variant_i64(8);  // 16 bytes from byte 2
  grt_expect_error(
      grt_vm_test_run_op(GRT_VM_OP_BUFFER_FILL_I16, fill, NULL),
      GRT_STATUS_OUT_OF_RANGE,
      "buffer access out of range: offset 2 + length 16 > buffer length 16");
  grt_vm_variant_reset(&ref);
}

// copy/compare/hash/clone count bytes.
static void test_buffer_byte_ops(void** state) {
  (void)state;
  grt_vm_buffer_t* a = NULL;
  grt_vm_buffer_t* b = NULL;
  grt_vm_variant_t ra = make_buffer(&a), rb = make_buffer(&b);
  grt_vm_variant_t copy[5] = {ra, grt_vm_variant_i64(1), rb,
                              grt_vm_variant_i64(10), grt_vm_variant_i64(3)};
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_BUFFER_COPY, copy, NULL));
  const uint8_t* bb = bytes_of(b);
  assert_int_equal(bb[9], 0x89);
  assert_int_equal(bb[10], 0x81);
  assert_int_equal(bb[12], 0x83);
  assert_int_equal(bb[13], 0x8D);
  grt_vm_variant_t out;
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_BUFFER_COMPARE, copy, &out));
  assert_int_equal(out.i32, 1);
  copy[3] = grt_vm_variant_i64(11);
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_BUFFER_COMPARE, copy, &out));
  assert_int_equal(out.i32, 0);
  copy[4] = grt_vm_variant_i64(6);
  grt_expect_error(
      grt_vm_test_run_op(GRT_VM_OP_BUFFER_COPY, copy, NULL),
      GRT_STATUS_OUT_OF_RANGE,
      "buffer access out of range: offset 11 + length 6 > buffer length 16");

  // SipHash-2-4 (key 00..0f) of the 11 bytes 0x83..0x8d, at byte offset 3
  // (computed with OpenSSL's SIPHASH MAC).
  grt_vm_variant_t hash[3] = {ra, grt_vm_variant_i64(3),
                              grt_vm_variant_i64(11)};
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_BUFFER_HASH, hash, &out));
  assert_true((uint64_t)out.i64 == UINT64_C(0xe22350ca49e028a8));
  hash[1] = grt_vm_variant_i64(6);
  grt_expect_error(
      grt_vm_test_run_op(GRT_VM_OP_BUFFER_HASH, hash, &out),
      GRT_STATUS_OUT_OF_RANGE,
      "buffer access out of range: offset 6 + length 11 > buffer length 16");

  grt_vm_variant_t clone[4] = {ra, grt_vm_variant_i64(4),
                               grt_vm_variant_i64(8), grt_vm_variant_i32(64)};
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_BUFFER_CLONE, clone, &out));
  grt_vm_buffer_t* cloned = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_check_deref(&out.ref, &cloned));
  assert_int_equal(grt_vm_buffer_length(cloned), 8);
  const uint8_t* cb = bytes_of(cloned);
  assert_int_equal((uintptr_t)cb % 64, 0);
  assert_int_equal(cb[0], 0x84);
  assert_int_equal(cb[7], 0x8B);
  grt_vm_variant_t length_out;
  GRT_EXPECT_OK(
      grt_vm_test_run_op(GRT_VM_OP_BUFFER_LENGTH, &out, &length_out));
  assert_true(length_out.i64 == 8);
  grt_vm_variant_reset(&out);
  clone[3] = grt_vm_variant_i32(3);
  grt_expect_error(
      grt_vm_test_run_op(GRT_VM_OP_BUFFER_CLONE, clone, &out),
      GRT_STATUS_INVALID_ARGUMENT,
      "buffer.clone: expected a power-of-two alignment, got 3");
  grt_vm_variant_reset(&ra);
  grt_vm_variant_reset(&rb);
}

static void test_buffer_alloc(void** state) {
  (void)state;
  grt_vm_variant_t args[2] = {grt_vm_variant_i64(100), grt_vm_variant_i32(256)};
  grt_vm_variant_t out;
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_BUFFER_ALLOC, args, &out));
  grt_vm_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_check_deref(&out.ref, &buffer));
  assert_int_equal(grt_vm_buffer_length(buffer), 100);
  const uint8_t* bytes = bytes_of(buffer);
  assert_int_equal((uintptr_t)bytes % 256, 0);
  for (int i = 0; i < 100; ++i) assert_int_equal(bytes[i], 0);
  grt_vm_variant_reset(&out);
  args[1] = grt_vm_variant_i32(12);
  grt_expect_error(grt_vm_test_run_op(GRT_VM_OP_BUFFER_ALLOC, args, &out),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "buffer.alloc: expected a non-negative length and a "
                      "power-of-two alignment, got 100 and 12");
  args[0] = grt_vm_variant_i64(-1);
  args[1] = grt_vm_variant_i32(0);
  grt_expect_error(grt_vm_test_run_op(GRT_VM_OP_BUFFER_ALLOC, args, &out),
                      GRT_STATUS_INVALID_ARGUMENT, "got -1 and 0");
  // A null ref where a buffer is expected.
  grt_vm_variant_t null_ref[2] = {grt_vm_variant_empty(), grt_vm_variant_i64(0)};
  null_ref[0].type = GRT_VM_VALUE_TYPE_REF;
  grt_expect_error(
      grt_vm_test_run_op(GRT_VM_OP_BUFFER_LOAD_I32, null_ref, &out),
      GRT_STATUS_INVALID_ARGUMENT, "expected ref<vm.buffer>, got a null ref");
}

//===----------------------------------------------------------------------===//
// Lists
//===----------------------------------------------------------------------===//

static grt_vm_variant_t make_list(grt_vm_type_def_t type, size_t size,
                                  grt_vm_list_t** out_list) {
  grt_vm_list_t* list = NULL;
  GRT_EXPECT_OK(grt_vm_list_create(type, size, grt_allocator_system(),
                                      &list));
  GRT_EXPECT_OK(grt_vm_list_resize(list, size));
  *out_list = list;
  grt_vm_ref_t ref = grt_vm_ref_wrap_move(list, grt_vm_list_type());
  return grt_vm_variant_ref_move(&ref);
}

// set then get each primitive width, on a typed and on a variant list.
static void test_list_primitive_elements(void** state) {
  (void)state;
  static const struct {
    grt_vm_value_type_t type;
    grt_vm_op_t set, get;
  } kinds[] = {
      {GRT_VM_VALUE_TYPE_I32, GRT_VM_OP_LIST_SET_I32, GRT_VM_OP_LIST_GET_I32},
      {GRT_VM_VALUE_TYPE_I64, GRT_VM_OP_LIST_SET_I64, GRT_VM_OP_LIST_GET_I64},
      {GRT_VM_VALUE_TYPE_F32, GRT_VM_OP_LIST_SET_F32, GRT_VM_OP_LIST_GET_F32},
      {GRT_VM_VALUE_TYPE_F64, GRT_VM_OP_LIST_SET_F64, GRT_VM_OP_LIST_GET_F64},
  };
  for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); ++k) {
    for (int variant = 0; variant < 2; ++variant) {
      grt_vm_list_t* list = NULL;
      grt_vm_variant_t ref =
          make_list(variant ? grt_vm_type_def_variant()
                            : grt_vm_type_def_value(kinds[k].type),
                    3, &list);
      grt_vm_variant_t value;
      switch (kinds[k].type) {
        case GRT_VM_VALUE_TYPE_I32: value = grt_vm_variant_i32(-9); break;
        case GRT_VM_VALUE_TYPE_I64:
          value = grt_vm_variant_i64(INT64_C(1) << 45);
          break;
        case GRT_VM_VALUE_TYPE_F32: value = grt_vm_variant_f32(2.5f); break;
        default: value = grt_vm_variant_f64(-6.25); break;
      }
      grt_vm_variant_t set[3] = {ref, grt_vm_variant_i32(2), value};
      GRT_EXPECT_OK(grt_vm_test_run_op(kinds[k].set, set, NULL));
      grt_vm_variant_t get[2] = {ref, grt_vm_variant_i32(2)}, out;
      GRT_EXPECT_OK(grt_vm_test_run_op(kinds[k].get, get, &out));
      assert_memory_equal(&out.i64, &value.i64,
                          grt_vm_value_type_size(kinds[k].type));
      get[1] = grt_vm_variant_i32(3);
      grt_expect_error(grt_vm_test_run_op(kinds[k].get, get, &out),
                          GRT_STATUS_OUT_OF_RANGE,
                          "list index 3 out of range: size 3");
      get[1] = grt_vm_variant_i32(-1);
      grt_expect_error(grt_vm_test_run_op(kinds[k].get, get, &out),
                          GRT_STATUS_OUT_OF_RANGE, "out of range: size 3");
      grt_vm_variant_reset(&ref);
    }
  }
}

static void test_list_size_reserve_resize_and_refs(void** state) {
  (void)state;
  grt_vm_list_t* list = NULL;
  grt_vm_variant_t ref = make_list(grt_vm_type_def_ref(NULL), 0, &list);
  grt_vm_variant_t n[2] = {ref, grt_vm_variant_i32(40)}, out;
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_LIST_RESERVE, n, NULL));
  assert_true(grt_vm_list_capacity(list) >= 40);
  assert_int_equal(grt_vm_list_size(list), 0);
  n[1] = grt_vm_variant_i32(2);
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_LIST_RESIZE, n, NULL));
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_LIST_SIZE, &ref, &out));
  assert_int_equal(out.i32, 2);
  n[1] = grt_vm_variant_i32(-1);
  grt_expect_error(grt_vm_test_run_op(GRT_VM_OP_LIST_RESIZE, n, NULL),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "list.resize: negative size -1");
  // The list stores itself in element 1 (retained), reads it back, and the
  // element is dropped by shrinking.
  grt_vm_variant_t set[3] = {ref, grt_vm_variant_i32(1), ref};
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_LIST_SET_REF, set, NULL));
  assert_int_equal(grt_vm_ref_object_count(list, grt_vm_list_type()), 2);
  grt_vm_variant_t get[2] = {ref, grt_vm_variant_i32(1)};
  GRT_EXPECT_OK(grt_vm_test_run_op_with_string(GRT_VM_OP_LIST_GET_REF,
                                               "vm.list", get, &out));
  assert_ptr_equal(out.ref.ptr, list);
  grt_vm_variant_reset(&out);
  get[1] = grt_vm_variant_i32(0);
  GRT_EXPECT_OK(grt_vm_test_run_op_with_string(GRT_VM_OP_LIST_GET_REF,
                                               "vm.list", get, &out));
  assert_null(out.ref.ptr);
  n[1] = grt_vm_variant_i32(0);
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_LIST_RESIZE, n, NULL));
  assert_int_equal(grt_vm_ref_object_count(list, grt_vm_list_type()), 1);
  grt_vm_variant_reset(&ref);
}

// list.get.ref names the result's ref type: an element of another ref type
// reads as null (IREE's rule), "" takes any ref, an unset variant element
// is null, and a primitive element still fails.
static void test_list_get_ref_type_mismatch(void** state) {
  (void)state;
  grt_vm_list_t* list = NULL;
  grt_vm_variant_t ref = make_list(grt_vm_type_def_variant(), 3, &list);
  grt_vm_buffer_t* buffer = NULL;
  grt_vm_variant_t buffer_ref = make_buffer(&buffer);
  grt_vm_variant_t set[3] = {ref, grt_vm_variant_i32(0), buffer_ref};
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_LIST_SET_REF, set, NULL));
  grt_vm_variant_t set_i32[3] = {ref, grt_vm_variant_i32(1),
                                 grt_vm_variant_i32(5)};
  GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_LIST_SET_I32, set_i32, NULL));
  static const struct {
    int32_t index;
    const char* type;
    bool is_buffer;  // else null
  } cases[] = {
      {0, "vm.buffer", true},   // the named type
      {0, "", true},            // any ref
      {0, "vm.list", false},    // another ref type: null, no failure
      {0, "hal.buffer", false},
      {2, "vm.buffer", false},  // never set: null
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    grt_vm_variant_t get[2] = {ref, grt_vm_variant_i32(cases[i].index)}, out;
    GRT_EXPECT_OK(grt_vm_test_run_op_with_string(GRT_VM_OP_LIST_GET_REF,
                                                 cases[i].type, get, &out));
    if (cases[i].is_buffer ? out.ref.ptr != (void*)buffer
                           : out.ref.ptr != NULL) {
      fail_msg("list.get.ref element %d as '%s': expected %s", cases[i].index,
               cases[i].type, cases[i].is_buffer ? "the buffer" : "null");
    }
    grt_vm_variant_reset(&out);
  }
  // The mismatched reads released what they took: the list and buffer_ref
  // hold the only references.
  assert_int_equal(grt_vm_ref_object_count(buffer, grt_vm_buffer_type()), 2);
  grt_vm_variant_t get_i32[2] = {ref, grt_vm_variant_i32(1)}, out;
  grt_expect_error(grt_vm_test_run_op_with_string(GRT_VM_OP_LIST_GET_REF,
                                                  "vm.buffer", get_i32, &out),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "list element type mismatch: element 1 holds i32, accessed "
                   "as ref");
  grt_vm_variant_reset(&buffer_ref);
  grt_vm_variant_reset(&ref);
}

// list.alloc's immediate is the element type; the verifier refuses an
// unknown one when the module loads.
static void test_list_alloc(void** state) {
  (void)state;
  grt_vm_test_module_t t;
  grt_vm_test_module_begin(&t, "m");
  grt_vm_test_function_begin(&t, "main", "0ii_r");
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_LIST_ALLOC, TK(GRT_VM_TYPE_I64), TI(0),
                   TR(0));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_LIST_RESIZE, TR(0), TI(1));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST(TR_RM(0)));
  grt_vm_test_function_end(&t, 2, 1);
  grt_vm_test_module_load(&t, NULL, 0);
  grt_vm_variant_t args[2] = {grt_vm_variant_i32(8), grt_vm_variant_i32(3)};
  grt_vm_variant_t out;
  GRT_EXPECT_OK(grt_vm_test_call(&t, "main", args, 2, &out, 1));
  grt_vm_list_t* list = NULL;
  GRT_EXPECT_OK(grt_vm_list_check_deref(&out.ref, &list));
  assert_int_equal(grt_vm_list_size(list), 3);
  assert_true(grt_vm_list_capacity(list) >= 8);
  assert_int_equal(grt_vm_list_element_type(list).value_type,
                   GRT_VM_VALUE_TYPE_I64);
  // Returned with the move bit: the caller holds the only reference.
  assert_int_equal(grt_vm_ref_object_count(list, grt_vm_list_type()), 1);
  grt_vm_variant_reset(&out);
  grt_vm_test_module_end(&t);

  grt_vm_test_module_begin(&t, "m");
  grt_vm_test_function_begin(&t, "bad", "0v_v");
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CONST_I32, TK(0), TI(0));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_LIST_ALLOC, TK(99), TI(0), TR(0));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST_EMPTY);
  grt_vm_test_function_end(&t, 1, 1);
  grt_vm_test_module_finish(&t);
  grt_expect_error(grt_vm_test_module_link(&t, NULL, 0),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "list.alloc element type 99 is not a list element type "
                   "(expected 0-7: i32, i64, f32, f64, ref, variant, i8, i16)");
  grt_vm_test_module_end(&t);
}

// !vm.list<i8> and !vm.list<i16>: 1- and 2-byte elements, read through
// list.get.i32/i64 sign-extended and written through list.set.i32/i64
// keeping the low bits (IREE's list conversions); other accessors fail.
static void test_list_narrow_elements(void** state) {
  (void)state;
  static const struct {
    grt_vm_value_type_t type;
    grt_vm_op_t set, get;
    int64_t stored, read_back;
  } cases[] = {
      {GRT_VM_VALUE_TYPE_I8, GRT_VM_OP_LIST_SET_I32, GRT_VM_OP_LIST_GET_I32,
       0x17F, 127},
      {GRT_VM_VALUE_TYPE_I8, GRT_VM_OP_LIST_SET_I32, GRT_VM_OP_LIST_GET_I32,
       0x80, -128},
      {GRT_VM_VALUE_TYPE_I8, GRT_VM_OP_LIST_SET_I32, GRT_VM_OP_LIST_GET_I32,
       -1, -1},
      {GRT_VM_VALUE_TYPE_I8, GRT_VM_OP_LIST_SET_I64, GRT_VM_OP_LIST_GET_I64,
       INT64_C(0x12345678000000FE), -2},
      {GRT_VM_VALUE_TYPE_I16, GRT_VM_OP_LIST_SET_I32, GRT_VM_OP_LIST_GET_I32,
       0x18000, -32768},
      {GRT_VM_VALUE_TYPE_I16, GRT_VM_OP_LIST_SET_I32, GRT_VM_OP_LIST_GET_I32,
       0x7FFF, 32767},
      {GRT_VM_VALUE_TYPE_I16, GRT_VM_OP_LIST_SET_I64, GRT_VM_OP_LIST_GET_I64,
       -40000, 25536},
      {GRT_VM_VALUE_TYPE_I16, GRT_VM_OP_LIST_SET_I32, GRT_VM_OP_LIST_GET_I64,
       0xFFFF, -1},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    grt_vm_list_t* list = NULL;
    grt_vm_variant_t ref =
        make_list(grt_vm_type_def_value(cases[i].type), 3, &list);
    bool wide_set = cases[i].set == GRT_VM_OP_LIST_SET_I64;
    grt_vm_variant_t set[3] = {
        ref, grt_vm_variant_i32(1),
        wide_set ? grt_vm_variant_i64(cases[i].stored)
                 : grt_vm_variant_i32((int32_t)cases[i].stored)};
    GRT_EXPECT_OK(grt_vm_test_run_op(cases[i].set, set, NULL));
    grt_vm_variant_t get[2] = {ref, grt_vm_variant_i32(1)}, out;
    GRT_EXPECT_OK(grt_vm_test_run_op(cases[i].get, get, &out));
    int64_t got = cases[i].get == GRT_VM_OP_LIST_GET_I64 ? out.i64 : out.i32;
    if (got != cases[i].read_back) {
      fail_msg("%s list: %s(%lld) then %s gave %lld, expected %lld",
               grt_vm_value_type_name(cases[i].type),
               grt_vm_op_info(cases[i].set)->mnemonic,
               (long long)cases[i].stored,
               grt_vm_op_info(cases[i].get)->mnemonic, (long long)got,
               (long long)cases[i].read_back);
    }
    // The neighbours stay zero: the element is 1 or 2 bytes wide.
    get[1] = grt_vm_variant_i32(0);
    GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_LIST_GET_I32, get, &out));
    assert_int_equal(out.i32, 0);
    get[1] = grt_vm_variant_i32(2);
    GRT_EXPECT_OK(grt_vm_test_run_op(GRT_VM_OP_LIST_GET_I32, get, &out));
    assert_int_equal(out.i32, 0);
    get[1] = grt_vm_variant_i32(3);
    grt_expect_error(grt_vm_test_run_op(cases[i].get, get, &out),
                     GRT_STATUS_OUT_OF_RANGE,
                     "list index 3 out of range: size 3");
    grt_vm_variant_reset(&ref);
  }
  grt_vm_list_t* list = NULL;
  grt_vm_variant_t ref =
      make_list(grt_vm_type_def_value(GRT_VM_VALUE_TYPE_I8), 1, &list);
  grt_vm_variant_t get[2] = {ref, grt_vm_variant_i32(0)}, out;
  grt_expect_error(grt_vm_test_run_op(GRT_VM_OP_LIST_GET_F32, get, &out),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "list element type mismatch: list holds i8, accessed as f32");
  grt_expect_error(
      grt_vm_test_run_op_with_string(GRT_VM_OP_LIST_GET_REF, "", get, &out),
      GRT_STATUS_INVALID_ARGUMENT,
      "list element type mismatch: list holds i8, accessed as ref");
  grt_vm_variant_reset(&ref);
  // list.alloc makes them from the ISA's type codes 6 and 7.
  static const grt_vm_type_t narrow_codes[] = {GRT_VM_TYPE_I8, GRT_VM_TYPE_I16};
  static const grt_vm_value_type_t narrow[] = {GRT_VM_VALUE_TYPE_I8,
                                               GRT_VM_VALUE_TYPE_I16};
  for (size_t i = 0; i < 2; ++i) {
    grt_vm_test_module_t t;
    grt_vm_test_module_begin(&t, "m");
    grt_vm_test_function_begin(&t, "main", "0i_r");
    GRT_VM_TEST_EMIT(&t, GRT_VM_OP_LIST_ALLOC, TK(narrow_codes[i]), TI(0), TR(0));
    GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST(TR_RM(0)));
    grt_vm_test_function_end(&t, 1, 1);
    grt_vm_test_module_load(&t, NULL, 0);
    grt_vm_variant_t arg = grt_vm_variant_i32(4), result;
    GRT_EXPECT_OK(grt_vm_test_call(&t, "main", &arg, 1, &result, 1));
    grt_vm_list_t* made = NULL;
    GRT_EXPECT_OK(grt_vm_list_check_deref(&result.ref, &made));
    assert_int_equal(grt_vm_list_element_type(made).value_type, narrow[i]);
    grt_vm_variant_reset(&result);
    grt_vm_test_module_end(&t);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_buffer_loads_scale_element_offsets),
      cmocka_unit_test(test_buffer_stores_and_fills),
      cmocka_unit_test(test_buffer_byte_ops),
      cmocka_unit_test(test_buffer_alloc),
      cmocka_unit_test(test_list_primitive_elements),
      cmocka_unit_test(test_list_size_reserve_resize_and_refs),
      cmocka_unit_test(test_list_get_ref_type_mismatch),
      cmocka_unit_test(test_list_alloc),
      cmocka_unit_test(test_list_narrow_elements),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
