// Verifier: one bad function per rule, each checking the message.
//
// The functions are built with the bytecode emitter (code_begin ... code_end
// below), so their opcodes and operand encodings come from the op table and
// follow it when it changes; each test then verifies the bytes against its
// own layout (register counts, signature, imports, rodata, features), which
// the emitter never sees. A test that needs a changed function builds a
// second variant rather than patching bytes. Only the encodings the emitter
// refuses to write (an unknown opcode, a truncated operand, a branch into
// an op, the move bit on a result, an odd i64 pair, a remap of an unknown
// type, a string running past the end) are written byte by byte, with the
// opcode bytes taken from the op table.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/status_matchers.h"
#include "vm/bytecode_emitter.h"
#include "vm/bytecode_verifier.h"
#include "vm/features.h"
#include "vm/op_table.h"
#include "vm/test_support.h"

// One module 'm' whose function 0, 'f', is the code under test: 8 global
// bytes, no ref globals, rodata or imports unless a test adds them.
typedef struct test_module_t {
  grt_vm_signature_t signature;
  grt_module_function_t function;
  grt_vm_bytecode_layout_t layout;
} test_module_t;

// Fills |m| for |code| with signature |cconv|, |i32_count| primitive slots
// and 2 ref registers.
static void test_module_init(test_module_t* m, const uint8_t* code,
                             size_t length, const char* cconv,
                             uint32_t i32_count, uint64_t features) {
  memset(m, 0, sizeof(*m));
  assert_null(
      grt_vm_signature_parse(grt_make_cstring_view(cconv), &m->signature));
  m->function = (grt_module_function_t){grt_make_cstring_view("f"),
                                        grt_make_cstring_view(cconv),
                                        0,
                                        (uint32_t)length,
                                        i32_count,
                                        2};
  m->layout.module_name = grt_make_cstring_view("m");
  m->layout.features = features;
  m->layout.bytecode = grt_make_const_byte_span(code, length);
  m->layout.function_count = 1;
  m->layout.functions = &m->function;
  m->layout.function_signatures = &m->signature;
  m->layout.global_bytes = 8;
}

// Verifies function 0 of |m|; returns the message ("" if it passed). The
// returned text lives until the next call.
static const char* verify_module(const test_module_t* m) {
  static char message[512];
  grt_status_t status =
      grt_vm_bytecode_verify_function(&m->layout, 0, grt_allocator_system());
  snprintf(message, sizeof(message), "%s", grt_status_message(status));
  grt_status_free(status);
  return message;
}

static const char* verify(const uint8_t* code, size_t length, const char* cconv,
                          uint32_t i32_count, uint64_t features) {
  test_module_t m;
  test_module_init(&m, code, length, cconv, i32_count, features);
  return verify_module(&m);
}

//===----------------------------------------------------------------------===//
// One function's bytecode, built with the emitter
//===----------------------------------------------------------------------===//

typedef struct code_t {
  grt_vm_bytecode_emitter_t* emitter;
  const uint8_t* data;  // after code_end; owned by the emitter
  size_t size;
} code_t;

static grt_vm_label_t code_label(code_t* c) {
  grt_vm_label_t label = 0;
  GRT_EXPECT_OK(grt_vm_bytecode_emitter_create_label(c->emitter, &label));
  return label;
}

// Places |label|'s block marker here; returns its offset.
static uint32_t code_place(code_t* c, grt_vm_label_t label) {
  uint32_t offset = grt_vm_bytecode_emitter_offset(c->emitter);
  GRT_EXPECT_OK(grt_vm_bytecode_emitter_place_label(c->emitter, label));
  return offset;
}

// Starts the function and places its entry block marker at offset 0.
static void code_begin(code_t* c) {
  memset(c, 0, sizeof(*c));
  GRT_EXPECT_OK(
      grt_vm_bytecode_emitter_create(grt_allocator_system(), &c->emitter));
  GRT_EXPECT_OK(grt_vm_bytecode_emitter_begin_function(c->emitter));
  assert_int_equal(code_place(c, code_label(c)), 0);
}

// Emits one op; returns its offset.
static uint32_t code_emit(code_t* c, grt_vm_op_t op,
                          const grt_vm_operand_t* operands, size_t count) {
  uint32_t offset = grt_vm_bytecode_emitter_offset(c->emitter);
  GRT_EXPECT_OK(grt_vm_bytecode_emitter_emit(c->emitter, op, operands, count));
  return offset;
}
#define EMIT(c, op, ...)                                          \
  code_emit((c), (op), (const grt_vm_operand_t[]){__VA_ARGS__}, \
            GRT_VM_TEST_COUNT_(grt_vm_operand_t, __VA_ARGS__))

// Ends the function and the blob. The emitter does not check register
// counts and the tests never use its function descriptor, so any will do.
static void code_end(code_t* c) {
  GRT_EXPECT_OK(grt_vm_bytecode_emitter_end_function(
      c->emitter, UINT32_C(1) << 16, UINT32_C(1) << 15, NULL));
  grt_const_byte_span_t bytes;
  GRT_EXPECT_OK(grt_vm_bytecode_emitter_finish(c->emitter, &bytes));
  c->data = bytes.data;
  c->size = bytes.size;
}

static void code_free(code_t* c) {
  grt_vm_bytecode_emitter_destroy(c->emitter);
  memset(c, 0, sizeof(*c));
}

// An i32 block-argument copy %i<source> -> %i<destination>.
#define REMAP_I(source, destination) \
  ((grt_vm_remap_t){TR_I(source), (destination)})
#define BRANCH(label) grt_vm_operand_branch((label), NULL, 0)
#define BRANCH_REMAP(label, remap) \
  grt_vm_operand_branch((label), (const grt_vm_remap_t[]){remap}, 1)
#define NO_SPANS grt_vm_operand_spans(NULL, 0)

// The byte of core op |op|, for the functions written byte by byte.
static uint8_t op_byte(grt_vm_op_t op) {
  const grt_vm_op_info_t* info = grt_vm_op_info(op);
  assert_int_equal(info->prefix, GRT_VM_PREFIX_NONE);
  return info->byte;
}

// block ; return (nothing)
static void build_return_nothing(code_t* c) {
  code_begin(c);
  EMIT(c, GRT_VM_OP_RETURN, TLIST_EMPTY);
  code_end(c);
}

// block ; add.i32 %i0, %i<b> -> %i2 ; return %i2
static void build_add(code_t* c, uint16_t b) {
  code_begin(c);
  EMIT(c, GRT_VM_OP_ADD_I32, TI(0), TI(b), TI(2));
  EMIT(c, GRT_VM_OP_RETURN, TLIST(TR_I(2)));
  code_end(c);
}

//===----------------------------------------------------------------------===//
// Tests
//===----------------------------------------------------------------------===//

// add.i32 r0, r1 -> r2 ; return r2
static void test_valid_function_passes(void** state) {
  code_t c;
  build_add(&c, 1);
  assert_string_equal(verify(c.data, c.size, "0ii_i", 3, 0), "");
  code_free(&c);
}

static void test_register_out_of_range(void** state) {
  code_t c;
  build_add(&c, 40);
  assert_string_equal(verify(c.data, c.size, "0ii_i", 8, 0),
                      "module 'm' function 'f' @ 0x1: register i32:40 out of "
                      "range (function has 8 i32 registers)");
  code_free(&c);
}

static void test_odd_i64_pair(void** state) {
  // add.i64 r1(odd), r2 -> r4. Bytes: the emitter refuses an odd pair.
  const uint8_t code[] = {op_byte(GRT_VM_OP_BLOCK),
                          op_byte(GRT_VM_OP_ADD_I64), 1, 0, 2, 0, 4, 0,
                          op_byte(GRT_VM_OP_RETURN), 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 8, 0),
                      "module 'm' function 'f' @ 0x1: register i64:1 is not "
                      "an even-aligned pair");
}

static void test_unknown_opcode(void** state) {
  // Bytes: the emitter writes only ops of the table.
  const uint8_t code[] = {op_byte(GRT_VM_OP_BLOCK), 0xFE,
                          op_byte(GRT_VM_OP_RETURN), 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: unknown opcode 0xfe "
                      "(next byte 0x06)");
}

static void test_undeclared_extension(void** state) {
  // const.f32 (prefix 0xE0) without the f32 feature bit.
  code_t c;
  code_begin(&c);
  EMIT(&c, GRT_VM_OP_CONST_F32, TK(0), TF(0));
  EMIT(&c, GRT_VM_OP_RETURN, TLIST_EMPTY);
  code_end(&c);
  assert_string_equal(verify(c.data, c.size, "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: const.f32 needs the "
                      "f32 extension, which the module does not declare "
                      "(features 0x0)");
  assert_string_equal(verify(c.data, c.size, "0_v", 1, 1), "");
  code_free(&c);
}

static void test_operand_past_end(void** state) {
  // add.i32 cut after its first operand. Bytes: the emitter writes whole
  // ops.
  const uint8_t code[] = {op_byte(GRT_VM_OP_BLOCK), op_byte(GRT_VM_OP_ADD_I32),
                          0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 2, 0),
                      "module 'm' function 'f' @ 0x1: register needs 2 bytes "
                      "at 0x4 but the function ends at 0x4");
}

static void test_branch_target_not_a_block(void** state) {
  // br to offset 2 (inside the br itself). Bytes: the emitter branches only
  // to placed labels, which are block markers.
  const uint8_t code[] = {op_byte(GRT_VM_OP_BLOCK), op_byte(GRT_VM_OP_BR),
                          2, 0, 0, 0, 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: branch target 0x2 is "
                      "not a block marker");
}

static void test_missing_terminator(void** state) {
  code_t c;
  code_begin(&c);
  EMIT(&c, GRT_VM_OP_CONST_I32, TK(1), TI(0));
  code_end(&c);
  assert_string_equal(verify(c.data, c.size, "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x8: function ends without a "
                      "terminator (last op const.i32)");
  code_free(&c);
}

static void test_op_after_terminator_needs_block(void** state) {
  code_t c;
  code_begin(&c);
  EMIT(&c, GRT_VM_OP_RETURN, TLIST_EMPTY);
  EMIT(&c, GRT_VM_OP_RETURN, TLIST_EMPTY);
  code_end(&c);
  assert_string_equal(verify(c.data, c.size, "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x4: return follows a "
                      "terminator (or starts the function) without a block "
                      "marker");
  code_free(&c);
}

static void test_return_count_mismatch(void** state) {
  code_t c;
  build_return_nothing(&c);
  assert_string_equal(verify(c.data, c.size, "0_i", 1, 0),
                      "module 'm' function 'f' @ 0x1: return list has 0 "
                      "registers but the signature '0_i' needs 1");
  code_free(&c);
}

static void test_move_bit_on_result(void** state) {
  // const.ref.zero -> ref 0 with the move bit. Bytes: the emitter refuses
  // the move bit on a result.
  const uint8_t code[] = {op_byte(GRT_VM_OP_BLOCK),
                          op_byte(GRT_VM_OP_CONST_REF_ZERO), 0x00,
                          (uint8_t)(GRT_VM_REF_MOVE_BIT >> 8),
                          op_byte(GRT_VM_OP_RETURN), 0, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: result register ref:0 "
                      "carries the move bit (only operands may)");
}

// block ; global.load.i32 @<offset> -> %i0 ; return
static void build_global_load_i32(code_t* c, uint32_t offset) {
  code_begin(c);
  EMIT(c, GRT_VM_OP_GLOBAL_LOAD_I32, TO(offset), TI(0));
  EMIT(c, GRT_VM_OP_RETURN, TLIST_EMPTY);
  code_end(c);
}

static void test_global_out_of_range(void** state) {
  // global.load.i32 @8 (module has 8 bytes)
  code_t c;
  build_global_load_i32(&c, 8);
  assert_string_equal(verify(c.data, c.size, "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: global byte offset 8 "
                      "(4 bytes) out of range (module has 8 global bytes)");
  code_free(&c);
}

// block ; call <callee>() -> () ; return
static void build_call_nothing(code_t* c, uint32_t callee) {
  code_begin(c);
  EMIT(c, GRT_VM_OP_CALL, TO(callee), TLIST_EMPTY, TLIST_EMPTY);
  EMIT(c, GRT_VM_OP_RETURN, TLIST_EMPTY);
  code_end(c);
}

static void test_call_to_missing_function(void** state) {
  code_t c;
  build_call_nothing(&c, 5);
  assert_string_equal(verify(c.data, c.size, "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: function 5 out of range "
                      "(module has 1 functions)");
  code_free(&c);
}

static void test_arguments_must_fit(void** state) {
  code_t c;
  build_return_nothing(&c);
  assert_string_equal(verify(c.data, c.size, "0iI_v", 3, 0),
                      "module 'm' function 'f' @ 0x0: signature '0iI_v' needs "
                      "4 i32 and 0 ref registers for its arguments, function "
                      "has 3 and 2");
  code_free(&c);
}

// block ; optimization_barrier (operands) -> (results) ; return
static void build_barrier(code_t* c, grt_vm_operand_t operands,
                          grt_vm_operand_t results) {
  code_begin(c);
  EMIT(c, GRT_VM_OP_OPTIMIZATION_BARRIER, operands, results);
  EMIT(c, GRT_VM_OP_RETURN, TLIST_EMPTY);
  code_end(c);
}

static void test_optimization_barrier_lists_must_match(void** state) {
  // optimization_barrier (i32 r0, i32 r1) -> (i32 r2, i32 r3) passes.
  code_t c;
  build_barrier(&c, TLIST(TR_I(0), TR_I(1)), TLIST(TR_I(2), TR_I(3)));
  assert_string_equal(verify(c.data, c.size, "0ii_v", 4, 0), "");
  code_free(&c);
  // Two operands, one result.
  build_barrier(&c, TLIST(TR_I(0), TR_I(1)), TLIST(TR_I(2)));
  assert_string_equal(verify(c.data, c.size, "0_v", 4, 0),
                      "module 'm' function 'f' @ 0x1: optimization_barrier "
                      "has 2 operands but 1 results");
  code_free(&c);
  // One operand, no results (what a result-less vm.optimization_barrier
  // would assemble to; the assembler refuses to write it).
  build_barrier(&c, TLIST(TR_I(0)), TLIST_EMPTY);
  assert_string_equal(verify(c.data, c.size, "0i_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: optimization_barrier "
                      "has 1 operands but 0 results");
  code_free(&c);
  // i32 operand, i64 result.
  build_barrier(&c, TLIST(TR_I(0)), TLIST(TR_L(2)));
  assert_string_equal(verify(c.data, c.size, "0_v", 4, 0),
                      "module 'm' function 'f' @ 0x1: optimization_barrier "
                      "result 0 is i64 but operand 0 is i32");
  code_free(&c);
}

static void test_ref_register_out_of_range(void** state) {
  // cmp.nz.ref ref:5 -> i32:0 (the function has 2 ref registers)
  code_t c;
  code_begin(&c);
  EMIT(&c, GRT_VM_OP_CMP_NZ_REF, TR(5), TI(0));
  EMIT(&c, GRT_VM_OP_RETURN, TLIST_EMPTY);
  code_end(&c);
  assert_string_equal(verify(c.data, c.size, "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: register ref:5 out of "
                      "range (function has 2 ref registers)");
  code_free(&c);
}

static void test_global_misaligned(void** state) {
  // global.load.i32 @2
  code_t c;
  build_global_load_i32(&c, 2);
  assert_string_equal(verify(c.data, c.size, "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: global byte offset 2 "
                      "is not 4-byte aligned");
  code_free(&c);
}

static void test_ref_global_out_of_range(void** state) {
  // global.load.ref @global.ref#0 -> ref:0 (the module has none)
  code_t c;
  code_begin(&c);
  EMIT(&c, GRT_VM_OP_GLOBAL_LOAD_REF, TO(0), TR(0));
  EMIT(&c, GRT_VM_OP_RETURN, TLIST_EMPTY);
  code_end(&c);
  assert_string_equal(verify(c.data, c.size, "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: ref global 0 out of "
                      "range (module has 0 ref globals)");
  code_free(&c);
}

static void test_rodata_out_of_range(void** state) {
  // const.ref.rodata @rodata#1 -> ref:0 (the module has one segment)
  code_t c;
  code_begin(&c);
  EMIT(&c, GRT_VM_OP_CONST_REF_RODATA, TO(1), TR(0));
  EMIT(&c, GRT_VM_OP_RETURN, TLIST_EMPTY);
  code_end(&c);
  test_module_t m;
  test_module_init(&m, c.data, c.size, "0_v", 1, 0);
  m.layout.rodata_count = 1;
  assert_string_equal(verify_module(&m),
                      "module 'm' function 'f' @ 0x1: rodata 1 out of range "
                      "(module has 1 rodata segments)");
  code_free(&c);
}

static void test_import_out_of_range(void** state) {
  // call @import#0 with no arguments and results (the module has none)
  code_t c;
  build_call_nothing(&c, GRT_VM_CALLEE_IMPORT_BIT | 0);
  assert_string_equal(verify(c.data, c.size, "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: import 0 out of range "
                      "(module has 0 imports)");
  code_free(&c);
}

static void test_variadic_import_needs_call_variadic(void** state) {
  code_t c;
  build_call_nothing(&c, GRT_VM_CALLEE_IMPORT_BIT | 0);
  test_module_t m;
  test_module_init(&m, c.data, c.size, "0_v", 1, 0);
  grt_vm_signature_t import;
  assert_null(grt_vm_signature_parse(grt_make_cstring_view("0CiD_v"), &import));
  m.layout.import_count = 1;
  m.layout.import_signatures = &import;
  assert_string_equal(verify_module(&m),
                      "module 'm' function 'f' @ 0x1: call to variadic import "
                      "0 (signature '0CiD_v') must use call.variadic");
  code_free(&c);
}

// Verifies block ; import.resolved @import#<import> -> %i<result> ; return
// in a module whose imports are 0i_i and the variadic 0CiD_v.
static const char* verify_import_resolved(uint32_t import, uint16_t result) {
  code_t c;
  code_begin(&c);
  EMIT(&c, GRT_VM_OP_IMPORT_RESOLVED, TO(import), TI(result));
  EMIT(&c, GRT_VM_OP_RETURN, TLIST_EMPTY);
  code_end(&c);
  test_module_t m;
  test_module_init(&m, c.data, c.size, "0_v", 1, 0);
  grt_vm_signature_t imports[2];
  assert_null(grt_vm_signature_parse(grt_make_cstring_view("0i_i"), &imports[0]));
  assert_null(grt_vm_signature_parse(grt_make_cstring_view("0CiD_v"), &imports[1]));
  m.layout.import_count = 2;
  m.layout.import_signatures = imports;
  const char* message = verify_module(&m);
  code_free(&c);
  return message;
}

// import.resolved @import#N -> i32:0 checks N like every import operand and
// takes any import, variadic or not.
static void test_import_resolved_checks_its_import(void** state) {
  assert_string_equal(verify_import_resolved(0, 0), "");
  assert_string_equal(verify_import_resolved(1, 0), "");
  assert_string_equal(verify_import_resolved(2, 0),
                      "module 'm' function 'f' @ 0x1: import 2 out of range "
                      "(module has 2 imports)");
  // result i32:1 of a function with one i32 register
  assert_string_equal(verify_import_resolved(0, 1),
                      "module 'm' function 'f' @ 0x1: register i32:1 out of "
                      "range (function has 1 i32 registers)");
}

// block ; call.variadic @import#0 <spans> () -> () ; return
static void build_call_variadic(code_t* c, grt_vm_operand_t spans) {
  code_begin(c);
  EMIT(c, GRT_VM_OP_CALL_VARIADIC, TO(0), spans, TLIST_EMPTY, TLIST_EMPTY);
  EMIT(c, GRT_VM_OP_RETURN, TLIST_EMPTY);
  code_end(c);
}

static void test_call_variadic_needs_variadic_import(void** state) {
  // call.variadic @import#0 <> () -> () where import 0 is 0i_i
  code_t c;
  build_call_variadic(&c, NO_SPANS);
  test_module_t m;
  test_module_init(&m, c.data, c.size, "0_v", 1, 0);
  grt_vm_signature_t import;
  assert_null(grt_vm_signature_parse(grt_make_cstring_view("0i_i"), &import));
  m.layout.import_count = 1;
  m.layout.import_signatures = &import;
  assert_string_equal(verify_module(&m),
                      "module 'm' function 'f' @ 0x1: call.variadic to import "
                      "0 whose signature '0i_i' has no variadic span");
  code_free(&c);
}

// block ; call @function#0(arguments) -> (results) ; return (returned)
static void build_call(code_t* c, grt_vm_operand_t arguments,
                       grt_vm_operand_t results, grt_vm_operand_t returned) {
  code_begin(c);
  EMIT(c, GRT_VM_OP_CALL, TO(0), arguments, results);
  EMIT(c, GRT_VM_OP_RETURN, returned);
  code_end(c);
}

static void test_call_arguments_must_match_callee(void** state) {
  // f is 0ii_i; call @function#0(i32:0) -> (i32:2) passes one argument.
  code_t c;
  build_call(&c, TLIST(TR_I(0)), TLIST(TR_I(2)), TLIST(TR_I(2)));
  assert_string_equal(verify(c.data, c.size, "0ii_i", 3, 0),
                      "module 'm' function 'f' @ 0x1: argument list has 1 "
                      "registers but the signature '0ii_i' needs 2");
  code_free(&c);
}

static void test_call_results_must_match_callee(void** state) {
  // f is 0_i; call @function#0() -> (i32:0, i32:1) takes two results.
  code_t c;
  build_call(&c, TLIST_EMPTY, TLIST(TR_I(0), TR_I(1)), TLIST(TR_I(0)));
  assert_string_equal(verify(c.data, c.size, "0_i", 2, 0),
                      "module 'm' function 'f' @ 0x1: result list has 2 "
                      "registers but the signature '0_i' needs 1");
  code_free(&c);
}

// f is 0i_i. block ; call.yieldable @function#0(%i0) -> (%i<result>),
// ^next ; next: block ; return %i1. The results are written before the
// edge, so the successor may read them; a result list of another length is
// refused as for call.
static void build_call_yieldable(code_t* c, grt_vm_operand_t results) {
  code_begin(c);
  grt_vm_label_t next = code_label(c);
  EMIT(c, GRT_VM_OP_CALL_YIELDABLE, TO(0), TLIST(TR_I(0)), results, BRANCH(next));
  code_place(c, next);
  EMIT(c, GRT_VM_OP_RETURN, TLIST(TR_I(1)));
  code_end(c);
}

static void test_call_yieldable_results_reach_successor(void** state) {
  code_t c;
  build_call_yieldable(&c, TLIST(TR_I(1)));
  assert_string_equal(verify(c.data, c.size, "0i_i", 2, 0), "");
  code_free(&c);
  build_call_yieldable(&c, TLIST(TR_I(0)));  // writes %i0; %i1 never written
  assert_string_equal(verify(c.data, c.size, "0i_i", 2, 0),
                      "module 'm' function 'f' @ 0x15: register %i1 is read "
                      "before it is written on some path");
  code_free(&c);
  build_call_yieldable(&c, TLIST(TR_I(1), TR_I(0)));
  assert_string_equal(verify(c.data, c.size, "0i_i", 2, 0),
                      "module 'm' function 'f' @ 0x1: result list has 2 "
                      "registers but the signature '0i_i' needs 1");
  code_free(&c);
}

// yield ends a block (an op after it needs a marker) and its edge carries
// block arguments like br's.
static void test_yield_is_a_terminator_with_an_edge(void** state) {
  code_t c;
  code_begin(&c);
  grt_vm_label_t next = code_label(&c);
  EMIT(&c, GRT_VM_OP_YIELD, BRANCH_REMAP(next, REMAP_I(0, 1)));
  code_place(&c, next);
  EMIT(&c, GRT_VM_OP_RETURN, TLIST(TR_I(1)));
  code_end(&c);
  assert_string_equal(verify(c.data, c.size, "0i_i", 2, 0), "");
  code_free(&c);
  code_begin(&c);
  next = code_label(&c);
  EMIT(&c, GRT_VM_OP_YIELD, BRANCH(next));
  EMIT(&c, GRT_VM_OP_RETURN, TLIST(TR_I(0)));
  code_place(&c, next);
  EMIT(&c, GRT_VM_OP_RETURN, TLIST(TR_I(0)));
  code_end(&c);
  assert_string_equal(verify(c.data, c.size, "0i_i", 1, 0),
                      "module 'm' function 'f' @ 0x8: return follows a "
                      "terminator (or starts the function) without a block "
                      "marker");
  code_free(&c);
}

static void test_unknown_remap_type(void** state) {
  // br ^0x0 with one remap of type 9. Bytes: the emitter refuses a register
  // type past the table's.
  const uint8_t code[] = {op_byte(GRT_VM_OP_BLOCK), op_byte(GRT_VM_OP_BR),
                          0, 0, 0, 0, 1, 0, 9, 0, 0, 1, 0};
  assert_string_equal(verify(code, sizeof(code), "0_v", 2, 0),
                      "module 'm' function 'f' @ 0x1: unknown register type 9 "
                      "(expected 0-4)");
}

static void test_string_past_end(void** state) {
  // fail i32:0, "..." claiming 100 bytes. Bytes: the emitter writes the
  // length of the string it is given.
  const uint8_t code[] = {op_byte(GRT_VM_OP_BLOCK), op_byte(GRT_VM_OP_FAIL),
                          0, 0, 100, 0, 'x'};
  assert_string_equal(verify(code, sizeof(code), "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: string of 100 bytes "
                      "runs past the function end at 0x7");
}

static void test_descriptor_rules(void** state) {
  code_t c;
  build_return_nothing(&c);
  test_module_t m;
  test_module_init(&m, c.data, c.size, "0_v", 70000, 0);
  assert_string_equal(verify_module(&m),
                      "module 'm' function 'f' @ 0x0: register counts 70000 "
                      "i32 / 2 ref exceed the limits 65536 / 32768");
  assert_string_equal(verify(c.data, c.size, "0CiD_v", 1, 0),
                      "module 'm' function 'f' @ 0x0: bytecode functions "
                      "cannot be variadic (signature '0CiD_v')");
  test_module_init(&m, c.data, c.size, "0_v", 1, 0);
  m.function.bytecode_offset = 2;
  assert_string_equal(verify_module(&m),
                      "module 'm' function 'f' @ 0x0: bytecode [0x2, 0x6) "
                      "runs past the module's 4 bytes");
  test_module_init(&m, c.data, 0, "0_v", 1, 0);
  assert_string_equal(verify_module(&m),
                      "module 'm' function 'f' @ 0x0: function has no "
                      "bytecode");
  code_free(&c);
}

static void test_span_counts_must_match_signature(void** state) {
  // call.variadic @import#0 <1, 1> () -> () where import 0 is 0CiD_v.
  code_t c;
  build_call_variadic(&c, grt_vm_operand_spans((const uint16_t[]){1, 1}, 2));
  test_module_t m;
  test_module_init(&m, c.data, c.size, "0_v", 1, 0);
  grt_vm_signature_t import;
  assert_null(grt_vm_signature_parse(grt_make_cstring_view("0CiD_v"), &import));
  m.layout.import_count = 1;
  m.layout.import_signatures = &import;
  assert_string_equal(verify_module(&m),
                      "module 'm' function 'f' @ 0x1: call.variadic gives 2 "
                      "span counts but the signature '0CiD_v' has 1 spans");
  code_free(&c);
}

static void test_optimization_barrier_operand_limit(void** state) {
  // optimization_barrier with 65 operands (all i32:0) and as many results
  grt_vm_register_t registers[65];
  for (size_t i = 0; i < 65; ++i) registers[i] = TR_I(0);
  code_t c;
  build_barrier(&c, grt_vm_operand_list(registers, 65),
                grt_vm_operand_list(registers, 65));
  assert_string_equal(verify(c.data, c.size, "0_v", 1, 0),
                      "module 'm' function 'f' @ 0x1: optimization_barrier "
                      "with 65 operands (at most 64)");
  code_free(&c);
}

static void test_unsupported_features(void** state) {
  test_module_t m;
  code_t c;
  build_return_nothing(&c);
  test_module_init(&m, c.data, c.size, "0_v", 1,
                   GRT_VM_FEATURES_SUPPORTED | (UINT64_C(1) << 40));
  grt_expect_error(grt_vm_bytecode_verify_module(&m.layout),
                   GRT_STATUS_UNIMPLEMENTED,
                   "module 'm' needs VM features 0x10000000000 that this "
                   "runtime does not support");
  m.layout.features = GRT_VM_FEATURES_SUPPORTED;
  GRT_EXPECT_OK(grt_vm_bytecode_verify_module(&m.layout));
  code_free(&c);
}

// The globals a module state allocates are bounded: a layout that declares
// about 4 GiB of them (as a fuzzed module did) is refused at load, before
// any state exists.
static void test_globals_bound(void** state) {
  test_module_t m;
  code_t c;
  build_return_nothing(&c);
  test_module_init(&m, c.data, c.size, "0_v", 1, GRT_VM_FEATURES_SUPPORTED);
  m.layout.global_bytes = 0xFFFFFFF8u;
  grt_expect_error(grt_vm_bytecode_verify_module(&m.layout),
                   GRT_STATUS_RESOURCE_EXHAUSTED,
                   "module 'm' declares 4294967288 bytes of primitive globals "
                   "and 0 ref globals; this runtime allows at most 16777216 "
                   "and 1048576");
  m.layout.global_bytes = 16u * 1024u * 1024u;
  GRT_EXPECT_OK(grt_vm_bytecode_verify_module(&m.layout));
  m.layout.global_ref_count = 1024u * 1024u + 1u;
  grt_expect_error(grt_vm_bytecode_verify_module(&m.layout),
                   GRT_STATUS_RESOURCE_EXHAUSTED,
                   "1048577 ref globals; this runtime allows at most");
  m.layout.global_ref_count = 1024u * 1024u;
  GRT_EXPECT_OK(grt_vm_bytecode_verify_module(&m.layout));
  code_free(&c);
}

// Defined before use: add.i32 %i0, %i1 -> %i2 ; return %i2 where only %i0 is
// an argument.
static void test_read_of_unwritten_register(void** state) {
  code_t c;
  build_add(&c, 1);
  assert_string_equal(verify(c.data, c.size, "0i_i", 3, 0),
                      "module 'm' function 'f' @ 0x1: register %i1 is read "
                      "before it is written on some path");
  assert_string_equal(verify(c.data, c.size, "0ii_i", 3, 0), "");
  code_free(&c);
}

// 0x00 block ; 0x01 cond_br %i0, ^0x10, ^0x1f
// 0x10 block ; 0x11 const.i32 7 -> %i1 ; 0x18 br ^0x2e
// 0x1f block ; 0x20 const.i32 9 -> %i<second> ; 0x27 br ^0x2e
// 0x2e block ; 0x2f return %i1
static void build_join(code_t* c, uint16_t second) {
  code_begin(c);
  grt_vm_label_t then = code_label(c), otherwise = code_label(c),
                 join = code_label(c);
  EMIT(c, GRT_VM_OP_COND_BR, TI(0), BRANCH(then), BRANCH(otherwise));
  code_place(c, then);
  EMIT(c, GRT_VM_OP_CONST_I32, TK(7), TI(1));
  EMIT(c, GRT_VM_OP_BR, BRANCH(join));
  code_place(c, otherwise);
  EMIT(c, GRT_VM_OP_CONST_I32, TK(9), TI(second));
  EMIT(c, GRT_VM_OP_BR, BRANCH(join));
  code_place(c, join);
  EMIT(c, GRT_VM_OP_RETURN, TLIST(TR_I(1)));
  code_end(c);
}

static void test_written_on_one_branch_read_at_join(void** state) {
  code_t c;
  build_join(&c, 1);
  assert_string_equal(verify(c.data, c.size, "0i_i", 2, 0), "");
  code_free(&c);
  build_join(&c, 0);  // the second branch writes %i0 instead
  assert_string_equal(verify(c.data, c.size, "0i_i", 2, 0),
                      "module 'm' function 'f' @ 0x2f: register %i1 is read "
                      "before it is written on some path");
  code_free(&c);
}

// const.i32 5 -> %i0 ; return %I0: only the low slot of the pair is written.
static void test_i64_read_needs_both_slots(void** state) {
  code_t c;
  code_begin(&c);
  EMIT(&c, GRT_VM_OP_CONST_I32, TK(5), TI(0));
  EMIT(&c, GRT_VM_OP_RETURN, TLIST(TR_L(0)));
  code_end(&c);
  assert_string_equal(verify(c.data, c.size, "0_I", 2, 0),
                      "module 'm' function 'f' @ 0x8: register %I0 is read "
                      "before it is written on some path");
  code_free(&c);
  // const.i64 5 -> %I0 writes both.
  code_begin(&c);
  EMIT(&c, GRT_VM_OP_CONST_I64, TK(5), TL(0));
  EMIT(&c, GRT_VM_OP_RETURN, TLIST(TR_L(0)));
  code_end(&c);
  assert_string_equal(verify(c.data, c.size, "0_I", 2, 0), "");
  code_free(&c);
  // Slots, not types: const.i32 -> %i0 and const.i32 -> %i1 define %I0.
  code_begin(&c);
  EMIT(&c, GRT_VM_OP_CONST_I32, TK(5), TI(0));
  EMIT(&c, GRT_VM_OP_CONST_I32, TK(0), TI(1));
  EMIT(&c, GRT_VM_OP_RETURN, TLIST(TR_L(0)));
  code_end(&c);
  assert_string_equal(verify(c.data, c.size, "0_I", 2, 0), "");
  code_free(&c);
}

// 0x00 block ; 0x01 br ^0x0d (i32 %i1 -> %i0) ; 0x0d block ; 0x0e return %i0
static void test_remap_source_must_be_defined(void** state) {
  code_t c;
  code_begin(&c);
  grt_vm_label_t next = code_label(&c);
  EMIT(&c, GRT_VM_OP_BR, BRANCH_REMAP(next, REMAP_I(1, 0)));
  code_place(&c, next);
  EMIT(&c, GRT_VM_OP_RETURN, TLIST(TR_I(0)));
  code_end(&c);
  assert_string_equal(verify(c.data, c.size, "0_i", 2, 0),
                      "module 'm' function 'f' @ 0x1: register %i1 is read "
                      "before it is written on some path (remap source of "
                      "the edge to ^0x000d)");
  // %i1 an argument: the remap defines %i0 on the edge.
  assert_string_equal(verify(c.data, c.size, "0ii_i", 2, 0), "");
  code_free(&c);
}

// A remap defines its destination on its own edge only:
// 0x00 block ; 0x01 cond_br %i0, ^0x1a (i32 %i0 -> %i1),
//                                 ^0x1a (i32 %i0 -> %i<second>)
// 0x1a block ; 0x1b return %i1
static void build_two_edges(code_t* c, uint16_t second) {
  code_begin(c);
  grt_vm_label_t join = code_label(c);
  EMIT(c, GRT_VM_OP_COND_BR, TI(0), BRANCH_REMAP(join, REMAP_I(0, 1)),
       BRANCH_REMAP(join, REMAP_I(0, second)));
  code_place(c, join);
  EMIT(c, GRT_VM_OP_RETURN, TLIST(TR_I(1)));
  code_end(c);
}

static void test_remap_defines_on_its_edge_only(void** state) {
  code_t c;
  build_two_edges(&c, 1);
  assert_string_equal(verify(c.data, c.size, "0i_i", 2, 0), "");
  code_free(&c);
  build_two_edges(&c, 0);  // the second edge copies into %i0 instead
  assert_string_equal(verify(c.data, c.size, "0i_i", 2, 0),
                      "module 'm' function 'f' @ 0x1b: register %i1 is read "
                      "before it is written on some path");
  code_free(&c);
}

// Every br_table edge counts, the default and each case:
// 0x00 block ; 0x01 br_table %i0, ^0x27 (i32 %i0 -> %i1),
//                    [^0x27 (i32 %i0 -> %i1), ^0x27 (i32 %i0 -> %i<last>)]
// 0x27 block ; 0x28 return %i1
static void build_br_table(code_t* c, uint16_t last) {
  code_begin(c);
  grt_vm_label_t join = code_label(c);
  const grt_vm_remap_t to_i1 = REMAP_I(0, 1), to_last = REMAP_I(0, last);
  const grt_vm_branch_t cases[] = {{join, &to_i1, 1}, {join, &to_last, 1}};
  EMIT(c, GRT_VM_OP_BR_TABLE, TI(0), grt_vm_operand_branch(join, &to_i1, 1),
       grt_vm_operand_table(cases, 2));
  code_place(c, join);
  EMIT(c, GRT_VM_OP_RETURN, TLIST(TR_I(1)));
  code_end(c);
}

static void test_br_table_edges(void** state) {
  code_t c;
  build_br_table(&c, 1);
  assert_string_equal(verify(c.data, c.size, "0i_i", 2, 0), "");
  code_free(&c);
  build_br_table(&c, 0);  // the last case copies into %i0 instead
  assert_string_equal(verify(c.data, c.size, "0i_i", 2, 0),
                      "module 'm' function 'f' @ 0x28: register %i1 is read "
                      "before it is written on some path");
  code_free(&c);
}

// A loop whose header reads %i2, carried in by remaps on both edges:
// 0x00 block ; 0x01 const.i32 0 -> %i1 ; 0x08 br ^0x14 (i32 %i1 -> %i<entry>)
// 0x14 block ; 0x15 add.i32 %i2, %i0 -> %i3
// 0x1c cmp_br.lt.i32.s %i3, %i0, ^0x14 (i32 %i3 -> %i2), ^0x32
// 0x32 block ; 0x33 return %i3
static void build_loop(code_t* c, uint16_t entry) {
  code_begin(c);
  grt_vm_label_t header = code_label(c), exit = code_label(c);
  EMIT(c, GRT_VM_OP_CONST_I32, TK(0), TI(1));
  EMIT(c, GRT_VM_OP_BR, BRANCH_REMAP(header, REMAP_I(1, entry)));
  code_place(c, header);
  EMIT(c, GRT_VM_OP_ADD_I32, TI(2), TI(0), TI(3));
  EMIT(c, GRT_VM_OP_CMP_BR_LT_I32_S, TI(3), TI(0),
       BRANCH_REMAP(header, REMAP_I(3, 2)), BRANCH(exit));
  code_place(c, exit);
  EMIT(c, GRT_VM_OP_RETURN, TLIST(TR_I(3)));
  code_end(c);
}

static void test_loop_carried_through_remaps(void** state) {
  code_t c;
  build_loop(&c, 2);
  assert_string_equal(verify(c.data, c.size, "0i_i", 4, 0), "");
  code_free(&c);
  // The entry edge copies into %i3: %i2 is defined on the back edge only.
  build_loop(&c, 3);
  assert_string_equal(verify(c.data, c.size, "0i_i", 4, 0),
                      "module 'm' function 'f' @ 0x15: register %i2 is read "
                      "before it is written on some path");
  code_free(&c);
}

// call @function#0(%i0) -> (%i1) ; return %i1: results are written, the
// arguments read.
static void test_call_lists(void** state) {
  code_t c;
  build_call(&c, TLIST(TR_I(0)), TLIST(TR_I(1)), TLIST(TR_I(1)));
  assert_string_equal(verify(c.data, c.size, "0i_i", 2, 0), "");
  code_free(&c);
  // the result goes to %i0: %i1 is never written
  build_call(&c, TLIST(TR_I(0)), TLIST(TR_I(0)), TLIST(TR_I(1)));
  assert_string_equal(verify(c.data, c.size, "0i_i", 2, 0),
                      "module 'm' function 'f' @ 0xe: register %i1 is read "
                      "before it is written on some path");
  code_free(&c);
  // the argument is %i1, written only by the call
  build_call(&c, TLIST(TR_I(1)), TLIST(TR_I(1)), TLIST(TR_I(1)));
  assert_string_equal(verify(c.data, c.size, "0i_i", 2, 0),
                      "module 'm' function 'f' @ 0x1: register %i1 is read "
                      "before it is written on some path");
  code_free(&c);
}

// Arguments land as grt_vm_bytecode_place_argument says: "0iI" puts i32 in
// slot 0 and i64 in slots 2-3; slot 1 is padding, never written.
static void test_arguments_are_defined(void** state) {
  code_t c;
  code_begin(&c);
  EMIT(&c, GRT_VM_OP_RETURN, TLIST(TR_L(2)));
  code_end(&c);
  assert_string_equal(verify(c.data, c.size, "0iI_I", 4, 0), "");
  code_free(&c);
  code_begin(&c);
  EMIT(&c, GRT_VM_OP_NEG_F64, TD(2), TD(2));
  EMIT(&c, GRT_VM_OP_RETURN, TLIST(TR_D(2)));
  code_end(&c);
  assert_string_equal(verify(c.data, c.size, "0fF_F", 4,
                             GRT_VM_FEATURE_EXT_F64),
                      "");
  code_free(&c);
  // add.i32 %i0, %i1 -> %i0
  code_begin(&c);
  EMIT(&c, GRT_VM_OP_ADD_I32, TI(0), TI(1), TI(0));
  EMIT(&c, GRT_VM_OP_RETURN, TLIST_EMPTY);
  code_end(&c);
  assert_string_equal(verify(c.data, c.size, "0iI_v", 4, 0),
                      "module 'm' function 'f' @ 0x1: register %i1 is read "
                      "before it is written on some path");
  code_free(&c);
  // Refs are outside the rule: cmp.nz.ref %r1 -> %i0 ; return %i0.
  code_begin(&c);
  EMIT(&c, GRT_VM_OP_CMP_NZ_REF, TR(1), TI(0));
  EMIT(&c, GRT_VM_OP_RETURN, TLIST(TR_I(0)));
  code_end(&c);
  assert_string_equal(verify(c.data, c.size, "0_i", 1, 0), "");
  code_free(&c);
}

// Blocks no edge reaches are not checked and narrow nothing:
// 0x00 block ; 0x01 const.i32 1 -> %i1 ; 0x08 br ^0x17
// 0x0f block ; 0x10 br ^0x17          (unreachable, %i1 not written)
// 0x17 block ; 0x18 return %i1
// 0x1d block ; 0x1e return %i2        (unreachable, %i2 never written)
static void test_unreachable_blocks(void** state) {
  code_t c;
  code_begin(&c);
  grt_vm_label_t skipped = code_label(&c), join = code_label(&c),
                 dead = code_label(&c);
  EMIT(&c, GRT_VM_OP_CONST_I32, TK(1), TI(1));
  EMIT(&c, GRT_VM_OP_BR, BRANCH(join));
  code_place(&c, skipped);
  EMIT(&c, GRT_VM_OP_BR, BRANCH(join));
  code_place(&c, join);
  EMIT(&c, GRT_VM_OP_RETURN, TLIST(TR_I(1)));
  code_place(&c, dead);
  EMIT(&c, GRT_VM_OP_RETURN, TLIST(TR_I(2)));
  code_end(&c);
  assert_string_equal(verify(c.data, c.size, "0_i", 3, 0), "");
  code_free(&c);
}

// A block that reads a slot before writing it still defines it for its
// successors, so the read in that block is the one reported, not the later
// read in a block placed before it:
// 0x00 block ; 0x01 br ^0x0e
// 0x08 block ; 0x09 return %i1
// 0x0e block ; 0x0f add.i32 %i1, %i1 -> %i1 ; 0x16 br ^0x08
static void test_read_then_written_in_one_block(void** state) {
  code_t c;
  code_begin(&c);
  grt_vm_label_t ret = code_label(&c), body = code_label(&c);
  EMIT(&c, GRT_VM_OP_BR, BRANCH(body));
  code_place(&c, ret);
  EMIT(&c, GRT_VM_OP_RETURN, TLIST(TR_I(1)));
  code_place(&c, body);
  EMIT(&c, GRT_VM_OP_ADD_I32, TI(1), TI(1), TI(1));
  EMIT(&c, GRT_VM_OP_BR, BRANCH(ret));
  code_end(&c);
  assert_string_equal(verify(c.data, c.size, "0_i", 2, 0),
                      "module 'm' function 'f' @ 0xf: register %i1 is read "
                      "before it is written on some path");
  assert_string_equal(verify(c.data, c.size, "0ii_i", 2, 0), "");
  code_free(&c);
}

// Many registers and blocks: block k writes %i(7k) and branches to block
// k+1; the last returns %i<returned>. Returns the offset of the return.
enum { kBlocks = 300, kRegisters = 7 * kBlocks + 2 };
static uint32_t build_chain(code_t* c, uint16_t returned) {
  code_begin(c);  // block 0 is the entry block
  for (uint32_t k = 0; k < kBlocks; ++k) {
    grt_vm_label_t next = code_label(c);
    EMIT(c, GRT_VM_OP_CONST_I32, TK(k), TI((uint16_t)(7 * k)));
    EMIT(c, GRT_VM_OP_BR, BRANCH(next));
    code_place(c, next);
  }
  uint32_t at = EMIT(c, GRT_VM_OP_RETURN, TLIST(TR_I(returned)));
  code_end(c);
  return at;
}

// The sets span several 64-bit words.
static void test_many_blocks_and_registers(void** state) {
  const uint16_t last = 7 * (kBlocks - 1);
  code_t c;
  build_chain(&c, last);
  assert_string_equal(verify(c.data, c.size, "0_i", kRegisters, 0), "");
  code_free(&c);
  uint32_t at = build_chain(&c, last + 1);
  char expected[160];
  snprintf(expected, sizeof(expected),
           "module 'm' function 'f' @ 0x%zx: register %%i%u is read before "
           "it is written on some path",
           (size_t)at, (unsigned)(last + 1));
  assert_string_equal(verify(c.data, c.size, "0_i", kRegisters, 0),
                      expected);
  code_free(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_valid_function_passes),
      cmocka_unit_test(test_register_out_of_range),
      cmocka_unit_test(test_odd_i64_pair),
      cmocka_unit_test(test_unknown_opcode),
      cmocka_unit_test(test_undeclared_extension),
      cmocka_unit_test(test_operand_past_end),
      cmocka_unit_test(test_branch_target_not_a_block),
      cmocka_unit_test(test_missing_terminator),
      cmocka_unit_test(test_op_after_terminator_needs_block),
      cmocka_unit_test(test_return_count_mismatch),
      cmocka_unit_test(test_move_bit_on_result),
      cmocka_unit_test(test_global_out_of_range),
      cmocka_unit_test(test_call_to_missing_function),
      cmocka_unit_test(test_arguments_must_fit),
      cmocka_unit_test(test_optimization_barrier_lists_must_match),
      cmocka_unit_test(test_ref_register_out_of_range),
      cmocka_unit_test(test_global_misaligned),
      cmocka_unit_test(test_ref_global_out_of_range),
      cmocka_unit_test(test_rodata_out_of_range),
      cmocka_unit_test(test_import_out_of_range),
      cmocka_unit_test(test_variadic_import_needs_call_variadic),
      cmocka_unit_test(test_import_resolved_checks_its_import),
      cmocka_unit_test(test_call_variadic_needs_variadic_import),
      cmocka_unit_test(test_call_arguments_must_match_callee),
      cmocka_unit_test(test_call_results_must_match_callee),
      cmocka_unit_test(test_call_yieldable_results_reach_successor),
      cmocka_unit_test(test_yield_is_a_terminator_with_an_edge),
      cmocka_unit_test(test_unknown_remap_type),
      cmocka_unit_test(test_string_past_end),
      cmocka_unit_test(test_descriptor_rules),
      cmocka_unit_test(test_unsupported_features),
      cmocka_unit_test(test_globals_bound),
      cmocka_unit_test(test_span_counts_must_match_signature),
      cmocka_unit_test(test_optimization_barrier_operand_limit),
      cmocka_unit_test(test_read_of_unwritten_register),
      cmocka_unit_test(test_written_on_one_branch_read_at_join),
      cmocka_unit_test(test_i64_read_needs_both_slots),
      cmocka_unit_test(test_remap_source_must_be_defined),
      cmocka_unit_test(test_remap_defines_on_its_edge_only),
      cmocka_unit_test(test_br_table_edges),
      cmocka_unit_test(test_loop_carried_through_remaps),
      cmocka_unit_test(test_call_lists),
      cmocka_unit_test(test_arguments_are_defined),
      cmocka_unit_test(test_unreachable_blocks),
      cmocka_unit_test(test_read_then_written_in_one_block),
      cmocka_unit_test(test_many_blocks_and_registers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
