// The VM instruction set: the one table every bytecode tool is driven by.
//
// The emitter, the verifier, the interpreter's dispatch tables, the
// disassembler, the text assembler (compiler/) and the docs/vm-isa.md check
// all expand GRT_VM_OP_TABLE, so adding an op is one row here plus its
// handler in bytecode_dispatch.c.
//
// Row: X(NAME, "mnemonic", PREFIX, BYTE, "operands", "meaning")
//   NAME      C suffix: GRT_VM_OP_<NAME>.
//   mnemonic  the op as IREE's MLIR vm dialect spells it, without "vm.".
//             "block" is the bytecode-only basic block marker.
//   PREFIX    extension the op lives in (GRT_VM_PREFIX_LIST): NONE ops are
//             one byte; the others are the prefix byte followed by BYTE.
//   BYTE      opcode byte within the prefix.
//   operands  encoding, one character per operand in emission order; the
//             operands after '>' are the results. All values little-endian
//             and unaligned:
//     i  i32 register         u16 slot ordinal in the primitive bank
//     I  i64 register pair    u16 even slot ordinal (slots n, n+1)
//     f  f32 register         u16 slot ordinal
//     F  f64 register pair    u16 even slot ordinal
//     r  ref register         u16: bits 0-14 ordinal in the ref bank,
//                             bit 15 the move bit (last use; operands only)
//     k  32-bit immediate     u32 (i32 value or f32 bits)
//     K  64-bit immediate     u64 (i64 value or f64 bits)
//     g  4-byte global        u32 byte offset into the primitive globals
//     d  8-byte global        u32 byte offset into the primitive globals
//     G  ref global           u32 ordinal into the ref globals
//     R  rodata segment       u32 ordinal
//     C  callee               u32: bit 31 clear = internal function ordinal,
//                             set = import ordinal (low 31 bits)
//     M  import               u32 import ordinal (call.variadic,
//                             import.resolved)
//     B  branch target        u32 block offset from the function's first
//                             byte, u16 remap count, then per remap
//                             {u8 type, u16 source, u16 destination}
//                             (type as in grt_vm_type_t; a ref source may
//                             carry the move bit); remaps are parallel copies
//     T  branch table         u16 count, then count B targets
//     L  register list        u16 count, then count u16 registers; the
//                             next character gives their type (Li, LI, Lr...)
//     A  call arguments       u16 count + u16 registers, typed by the
//                             callee's calling convention arguments
//     Y  call results         as A, typed by the callee's results
//     W  return values        as A, typed by this function's results
//     V  variadic spans       u16 count, then u16 repetitions per span
//     X  typed register list  u16 count, then {u8 type, u16 register}
//     S  string               u16 byte length, then the bytes
//   A B after '>' (call.yieldable) is the op's successor, taken after the
//   results are written.
//
// Integer ops wrap (two's complement). Float-to-integer casts round half
// away from zero (IREE's lroundf), then saturate; NaN becomes 0. rem.f32/f64
// are IEEE remainder(), as in IREE. Buffer load/store/fill offsets count elements; clone, copy,
// compare and hash count bytes.
#ifndef GRT_VM_OP_TABLE_H_
#define GRT_VM_OP_TABLE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/string_view.h"
#include "vm/features.h"

#ifdef __cplusplus
extern "C" {
#endif

// Extension prefixes: X(NAME, "name", prefix byte in the core opcode space,
// feature bit (vm/features.h) a module declares to use the extension). Core
// ops have prefix NONE (index 0, no prefix byte).
#define GRT_VM_PREFIX_LIST(X)                  \
  X(F32, "f32", 0xE0, GRT_VM_FEATURE_EXT_F32)  \
  X(F64, "f64", 0xE1, GRT_VM_FEATURE_EXT_F64)

typedef enum grt_vm_prefix_e {
  GRT_VM_PREFIX_NONE = 0,
#define GRT_VM_PREFIX_ENUM(name, str, byte, feature) GRT_VM_PREFIX_##name,
  GRT_VM_PREFIX_LIST(GRT_VM_PREFIX_ENUM)
#undef GRT_VM_PREFIX_ENUM
  GRT_VM_PREFIX_COUNT
} grt_vm_prefix_t;

// The bytecode's one value-type code, wherever a type is encoded: the type
// byte of remap entries and typed lists (a register type, 0-4) and
// list.alloc's element type (any of the eight). The last three are list
// element types only: a list of variants, and i8/i16 elements stored in 1
// or 2 bytes and read and written through i32/i64 registers. The runtime's
// grt_vm_value_type_t (vm/variant.h) is an API type and never encoded.
typedef enum grt_vm_type_e {
  GRT_VM_TYPE_I32 = 0,
  GRT_VM_TYPE_I64 = 1,
  GRT_VM_TYPE_F32 = 2,
  GRT_VM_TYPE_F64 = 3,
  GRT_VM_TYPE_REF = 4,
  GRT_VM_TYPE_COUNT,  // register types end here
  GRT_VM_TYPE_VARIANT = GRT_VM_TYPE_COUNT,
  GRT_VM_TYPE_I8 = 6,
  GRT_VM_TYPE_I16 = 7,
  GRT_VM_TYPE_LIST_ELEMENT_COUNT
} grt_vm_type_t;

// Bit 15 of a ref register operand: this use is the last, the value moves.
#define GRT_VM_REF_MOVE_BIT 0x8000u
#define GRT_VM_REF_ORDINAL_MASK 0x7FFFu
// Bit 31 of a C operand: the callee is an import.
#define GRT_VM_CALLEE_IMPORT_BIT 0x80000000u
// cmp.eq.f32.near / cmp.eq.f64.near: a is near b when |a - b| <= ATOL +
// RTOL * |b| (computed in the operands' width): the absolute term decides
// near zero, the relative one for large values (numpy's isclose rule). A NaN
// on either side is never near. vm.check.nearly_eq is built on it.
#define GRT_VM_NEAR_ATOL 1e-4
#define GRT_VM_NEAR_RTOL 1e-4

// clang-format off
#define GRT_VM_OP_TABLE(X)                                                              \
  /* structure and control flow */                                                      \
  X(BLOCK,              "block",              NONE, 0x00, "",      "basic block marker; every branch target is one") \
  X(BR,                 "br",                 NONE, 0x01, "B",     "jump, copying block arguments") \
  X(COND_BR,            "cond_br",            NONE, 0x02, "iBB",   "jump to the first target if the i32 is nonzero, else the second") \
  X(BR_TABLE,           "br_table",           NONE, 0x03, "iBT",   "jump to case[index], or the default target when out of range") \
  X(CALL,               "call",               NONE, 0x04, "CA>Y",  "call an internal function or an import") \
  X(CALL_VARIADIC,      "call.variadic",      NONE, 0x05, "MVA>Y", "call an import with variadic argument spans") \
  X(RETURN,             "return",             NONE, 0x06, "W",     "return values to the caller") \
  X(FAIL,               "fail",               NONE, 0x07, "iS",    "fail with the status code in the register and the message") \
  X(COND_FAIL,          "cond_fail",          NONE, 0x08, "iiS",   "fail as fail when the condition is nonzero") \
  X(PRINT,              "print",              NONE, 0x09, "SX",    "print the message and the operand values to stderr") \
  X(TRACE,              "trace",              NONE, 0x0A, "SX",    "print a trace event with the operand values to stderr") \
  X(OPTIMIZATION_BARRIER, "optimization_barrier", NONE, 0x0B, "X>X", "copy the operands to the results unchanged") \
  X(DISCARD_REFS,       "discard.refs",       NONE, 0x0C, "Lr",    "release the refs and null the registers") \
  X(YIELD,              "yield",              NONE, 0x0D, "B",     "suspend the invocation (the host sees DEFERRED); on resume, jump to the target with its block arguments") \
  X(CALL_YIELDABLE,     "call.yieldable",     NONE, 0x0E, "CA>YB", "call that may suspend: an import may return DEFERRED and is called again on resume; the results go to Y, then jump to B") \
  X(CALL_VARIADIC_YIELDABLE, "call.variadic.yieldable", NONE, 0x0F, "MVA>YB", "call.variadic that may suspend, as call.yieldable") \
  /* constants */                                                                       \
  X(CONST_I32,          "const.i32",          NONE, 0x10, "k>i",   "load an i32 immediate") \
  X(CONST_I64,          "const.i64",          NONE, 0x11, "K>I",   "load an i64 immediate") \
  X(CONST_REF_ZERO,     "const.ref.zero",     NONE, 0x12, ">r",    "load the null ref") \
  X(CONST_REF_RODATA,   "const.ref.rodata",   NONE, 0x13, "R>r",   "load a vm.buffer aliasing a rodata segment") \
  /* globals */                                                                         \
  X(GLOBAL_LOAD_I32,    "global.load.i32",    NONE, 0x18, "g>i",   "load an i32 global") \
  X(GLOBAL_STORE_I32,   "global.store.i32",   NONE, 0x19, "ig",    "store an i32 global") \
  X(GLOBAL_LOAD_I64,    "global.load.i64",    NONE, 0x1A, "d>I",   "load an i64 global") \
  X(GLOBAL_STORE_I64,   "global.store.i64",   NONE, 0x1B, "Id",    "store an i64 global") \
  X(GLOBAL_LOAD_REF,    "global.load.ref",    NONE, 0x1C, "G>r",   "load a ref global (retained)") \
  X(GLOBAL_STORE_REF,   "global.store.ref",   NONE, 0x1D, "rG",    "store a ref global") \
  /* select and switch */                                                               \
  X(SELECT_I32,         "select.i32",         NONE, 0x20, "iii>i", "cond ? a : b") \
  X(SELECT_I64,         "select.i64",         NONE, 0x21, "iII>I", "cond ? a : b") \
  X(SELECT_REF,         "select.ref",         NONE, 0x22, "irr>r", "cond ? a : b (moved if the chosen operand has the move bit, else retained)") \
  X(SWITCH_I32,         "switch.i32",         NONE, 0x23, "iiLi>i", "values[index], or the default when out of range") \
  X(SWITCH_I64,         "switch.i64",         NONE, 0x24, "iILI>I", "values[index], or the default when out of range") \
  X(SWITCH_REF,         "switch.ref",         NONE, 0x25, "irLr>r", "values[index], or the default when out of range") \
  /* i32 arithmetic */                                                                  \
  X(ADD_I32,            "add.i32",            NONE, 0x30, "ii>i",  "a + b") \
  X(SUB_I32,            "sub.i32",            NONE, 0x31, "ii>i",  "a - b") \
  X(MUL_I32,            "mul.i32",            NONE, 0x32, "ii>i",  "a * b") \
  X(DIV_I32_S,          "div.i32.s",          NONE, 0x33, "ii>i",  "signed a / b; b == 0 or INT32_MIN / -1 fail") \
  X(DIV_I32_U,          "div.i32.u",          NONE, 0x34, "ii>i",  "unsigned a / b; b == 0 fails") \
  X(REM_I32_S,          "rem.i32.s",          NONE, 0x35, "ii>i",  "signed a % b; b == 0 or INT32_MIN % -1 fail") \
  X(REM_I32_U,          "rem.i32.u",          NONE, 0x36, "ii>i",  "unsigned a % b; b == 0 fails") \
  X(FMA_I32,            "fma.i32",            NONE, 0x37, "iii>i", "a * b + c") \
  X(ABS_I32,            "abs.i32",            NONE, 0x38, "i>i",   "|a| (INT32_MIN stays)") \
  X(MIN_I32_S,          "min.i32.s",          NONE, 0x39, "ii>i",  "signed minimum") \
  X(MIN_I32_U,          "min.i32.u",          NONE, 0x3A, "ii>i",  "unsigned minimum") \
  X(MAX_I32_S,          "max.i32.s",          NONE, 0x3B, "ii>i",  "signed maximum") \
  X(MAX_I32_U,          "max.i32.u",          NONE, 0x3C, "ii>i",  "unsigned maximum") \
  X(NOT_I32,            "not.i32",            NONE, 0x3D, "i>i",   "~a") \
  X(AND_I32,            "and.i32",            NONE, 0x3E, "ii>i",  "a & b") \
  X(OR_I32,             "or.i32",             NONE, 0x3F, "ii>i",  "a | b") \
  X(XOR_I32,            "xor.i32",            NONE, 0x40, "ii>i",  "a ^ b") \
  X(SHL_I32,            "shl.i32",            NONE, 0x41, "ii>i",  "a << (b & 31)") \
  X(SHR_I32_S,          "shr.i32.s",          NONE, 0x42, "ii>i",  "arithmetic a >> (b & 31)") \
  X(SHR_I32_U,          "shr.i32.u",          NONE, 0x43, "ii>i",  "logical a >> (b & 31)") \
  X(CTLZ_I32,           "ctlz.i32",           NONE, 0x44, "i>i",   "count leading zeros (32 for 0)") \
  /* i64 arithmetic */                                                                  \
  X(ADD_I64,            "add.i64",            NONE, 0x50, "II>I",  "a + b") \
  X(SUB_I64,            "sub.i64",            NONE, 0x51, "II>I",  "a - b") \
  X(MUL_I64,            "mul.i64",            NONE, 0x52, "II>I",  "a * b") \
  X(DIV_I64_S,          "div.i64.s",          NONE, 0x53, "II>I",  "signed a / b; b == 0 or INT64_MIN / -1 fail") \
  X(DIV_I64_U,          "div.i64.u",          NONE, 0x54, "II>I",  "unsigned a / b; b == 0 fails") \
  X(REM_I64_S,          "rem.i64.s",          NONE, 0x55, "II>I",  "signed a % b; b == 0 or INT64_MIN % -1 fail") \
  X(REM_I64_U,          "rem.i64.u",          NONE, 0x56, "II>I",  "unsigned a % b; b == 0 fails") \
  X(FMA_I64,            "fma.i64",            NONE, 0x57, "III>I", "a * b + c") \
  X(ABS_I64,            "abs.i64",            NONE, 0x58, "I>I",   "|a| (INT64_MIN stays)") \
  X(MIN_I64_S,          "min.i64.s",          NONE, 0x59, "II>I",  "signed minimum") \
  X(MIN_I64_U,          "min.i64.u",          NONE, 0x5A, "II>I",  "unsigned minimum") \
  X(MAX_I64_S,          "max.i64.s",          NONE, 0x5B, "II>I",  "signed maximum") \
  X(MAX_I64_U,          "max.i64.u",          NONE, 0x5C, "II>I",  "unsigned maximum") \
  X(NOT_I64,            "not.i64",            NONE, 0x5D, "I>I",   "~a") \
  X(AND_I64,            "and.i64",            NONE, 0x5E, "II>I",  "a & b") \
  X(OR_I64,             "or.i64",             NONE, 0x5F, "II>I",  "a | b") \
  X(XOR_I64,            "xor.i64",            NONE, 0x60, "II>I",  "a ^ b") \
  X(SHL_I64,            "shl.i64",            NONE, 0x61, "Ii>I",  "a << (b & 63)") \
  X(SHR_I64_S,          "shr.i64.s",          NONE, 0x62, "Ii>I",  "arithmetic a >> (b & 63)") \
  X(SHR_I64_U,          "shr.i64.u",          NONE, 0x63, "Ii>I",  "logical a >> (b & 63)") \
  X(CTLZ_I64,           "ctlz.i64",           NONE, 0x64, "I>I",   "count leading zeros (64 for 0)") \
  /* integer conversions */                                                             \
  X(TRUNC_I32_I8,       "trunc.i32.i8",       NONE, 0x70, "i>i",   "keep the low 8 bits (zero-extended)") \
  X(TRUNC_I32_I16,      "trunc.i32.i16",      NONE, 0x71, "i>i",   "keep the low 16 bits (zero-extended)") \
  X(TRUNC_I64_I32,      "trunc.i64.i32",      NONE, 0x72, "I>i",   "keep the low 32 bits") \
  X(EXT_I8_I32_S,       "ext.i8.i32.s",       NONE, 0x73, "i>i",   "sign-extend the low 8 bits") \
  X(EXT_I8_I32_U,       "ext.i8.i32.u",       NONE, 0x74, "i>i",   "zero-extend the low 8 bits") \
  X(EXT_I16_I32_S,      "ext.i16.i32.s",      NONE, 0x75, "i>i",   "sign-extend the low 16 bits") \
  X(EXT_I16_I32_U,      "ext.i16.i32.u",      NONE, 0x76, "i>i",   "zero-extend the low 16 bits") \
  X(EXT_I32_I64_S,      "ext.i32.i64.s",      NONE, 0x77, "i>I",   "sign-extend to i64") \
  X(EXT_I32_I64_U,      "ext.i32.i64.u",      NONE, 0x78, "i>I",   "zero-extend to i64") \
  X(TRUNC_I64_I8,       "trunc.i64.i8",       NONE, 0x79, "I>i",   "keep the low 8 bits (zero-extended)") \
  X(TRUNC_I64_I16,      "trunc.i64.i16",      NONE, 0x7A, "I>i",   "keep the low 16 bits (zero-extended)") \
  X(EXT_I8_I64_S,       "ext.i8.i64.s",       NONE, 0x7B, "i>I",   "sign-extend the low 8 bits to i64") \
  X(EXT_I8_I64_U,       "ext.i8.i64.u",       NONE, 0x7C, "i>I",   "zero-extend the low 8 bits to i64") \
  X(EXT_I16_I64_S,      "ext.i16.i64.s",      NONE, 0x7D, "i>I",   "sign-extend the low 16 bits to i64") \
  X(EXT_I16_I64_U,      "ext.i16.i64.u",      NONE, 0x7E, "i>I",   "zero-extend the low 16 bits to i64") \
  /* integer and ref comparisons (results are i32 0 or 1) */                            \
  X(CMP_EQ_I32,         "cmp.eq.i32",         NONE, 0x80, "ii>i",  "a == b") \
  X(CMP_NE_I32,         "cmp.ne.i32",         NONE, 0x81, "ii>i",  "a != b") \
  X(CMP_LT_I32_S,       "cmp.lt.i32.s",       NONE, 0x82, "ii>i",  "signed a < b") \
  X(CMP_LT_I32_U,       "cmp.lt.i32.u",       NONE, 0x83, "ii>i",  "unsigned a < b") \
  X(CMP_LTE_I32_S,      "cmp.lte.i32.s",      NONE, 0x84, "ii>i",  "signed a <= b") \
  X(CMP_LTE_I32_U,      "cmp.lte.i32.u",      NONE, 0x85, "ii>i",  "unsigned a <= b") \
  X(CMP_GT_I32_S,       "cmp.gt.i32.s",       NONE, 0x86, "ii>i",  "signed a > b") \
  X(CMP_GT_I32_U,       "cmp.gt.i32.u",       NONE, 0x87, "ii>i",  "unsigned a > b") \
  X(CMP_GTE_I32_S,      "cmp.gte.i32.s",      NONE, 0x88, "ii>i",  "signed a >= b") \
  X(CMP_GTE_I32_U,      "cmp.gte.i32.u",      NONE, 0x89, "ii>i",  "unsigned a >= b") \
  X(CMP_NZ_I32,         "cmp.nz.i32",         NONE, 0x8A, "i>i",   "a != 0") \
  X(CMP_EQ_I64,         "cmp.eq.i64",         NONE, 0x90, "II>i",  "a == b") \
  X(CMP_NE_I64,         "cmp.ne.i64",         NONE, 0x91, "II>i",  "a != b") \
  X(CMP_LT_I64_S,       "cmp.lt.i64.s",       NONE, 0x92, "II>i",  "signed a < b") \
  X(CMP_LT_I64_U,       "cmp.lt.i64.u",       NONE, 0x93, "II>i",  "unsigned a < b") \
  X(CMP_LTE_I64_S,      "cmp.lte.i64.s",      NONE, 0x94, "II>i",  "signed a <= b") \
  X(CMP_LTE_I64_U,      "cmp.lte.i64.u",      NONE, 0x95, "II>i",  "unsigned a <= b") \
  X(CMP_GT_I64_S,       "cmp.gt.i64.s",       NONE, 0x96, "II>i",  "signed a > b") \
  X(CMP_GT_I64_U,       "cmp.gt.i64.u",       NONE, 0x97, "II>i",  "unsigned a > b") \
  X(CMP_GTE_I64_S,      "cmp.gte.i64.s",      NONE, 0x98, "II>i",  "signed a >= b") \
  X(CMP_GTE_I64_U,      "cmp.gte.i64.u",      NONE, 0x99, "II>i",  "unsigned a >= b") \
  X(CMP_NZ_I64,         "cmp.nz.i64",         NONE, 0x9A, "I>i",   "a != 0") \
  X(CMP_EQ_REF,         "cmp.eq.ref",         NONE, 0x9B, "rr>i",  "same object (or both null)") \
  X(CMP_NE_REF,         "cmp.ne.ref",         NONE, 0x9C, "rr>i",  "different objects") \
  X(CMP_NZ_REF,         "cmp.nz.ref",         NONE, 0x9D, "r>i",   "not null") \
  /* ref casts */                                                                       \
  X(CAST_ANY_REF,       "cast.any.ref",       NONE, 0xA0, "rS>r",  "the ref if null or of the named type, else fail") \
  X(CAST_REF_ANY,       "cast.ref.any",       NONE, 0xA1, "r>r",   "the ref, as an untyped ref") \
  /* lists */                                                                           \
  X(LIST_ALLOC,         "list.alloc",         NONE, 0xA8, "ki>r",  "new list of element type k with capacity") \
  X(LIST_RESERVE,       "list.reserve",       NONE, 0xA9, "ri",    "grow capacity to at least n") \
  X(LIST_SIZE,          "list.size",          NONE, 0xAA, "r>i",   "element count") \
  X(LIST_RESIZE,        "list.resize",        NONE, 0xAB, "ri",    "set the element count (new elements zero/null)") \
  X(LIST_GET_I32,       "list.get.i32",       NONE, 0xAC, "ri>i",  "element as i32") \
  X(LIST_SET_I32,       "list.set.i32",       NONE, 0xAD, "rii",   "set element from i32") \
  X(LIST_GET_I64,       "list.get.i64",       NONE, 0xAE, "ri>I",  "element as i64") \
  X(LIST_SET_I64,       "list.set.i64",       NONE, 0xAF, "riI",   "set element from i64") \
  X(LIST_GET_REF,       "list.get.ref",       NONE, 0xB0, "riS>r", "element as ref (retained); null when it is a ref of another type than the string names (empty: any ref)") \
  X(LIST_SET_REF,       "list.set.ref",       NONE, 0xB1, "rir",   "set element from ref") \
  /* buffers */                                                                         \
  X(BUFFER_ALLOC,       "buffer.alloc",       NONE, 0xB8, "Ii>r",  "new zeroed buffer of length bytes and alignment") \
  X(BUFFER_CLONE,       "buffer.clone",       NONE, 0xB9, "rIIi>r", "new buffer copying [offset, offset+length) with alignment") \
  X(BUFFER_LENGTH,      "buffer.length",      NONE, 0xBA, "r>I",   "length in bytes") \
  X(BUFFER_COPY,        "buffer.copy",        NONE, 0xBB, "rIrII", "copy length bytes from src+offset to dst+offset") \
  X(BUFFER_COMPARE,     "buffer.compare",     NONE, 0xBC, "rIrII>i", "1 if the byte ranges are equal, else 0") \
  X(BUFFER_HASH,        "buffer.hash",        NONE, 0xBD, "rII>I", "SipHash-2-4 of the byte range (key 00..0f)") \
  X(BUFFER_FILL_I8,     "buffer.fill.i8",     NONE, 0xBE, "rIIi",  "fill count i8 elements from element offset") \
  X(BUFFER_FILL_I16,    "buffer.fill.i16",    NONE, 0xBF, "rIIi",  "fill count i16 elements from element offset") \
  X(BUFFER_FILL_I32,    "buffer.fill.i32",    NONE, 0xC0, "rIIi",  "fill count i32 elements from element offset") \
  X(BUFFER_FILL_I64,    "buffer.fill.i64",    NONE, 0xC1, "rIII",  "fill count i64 elements from element offset") \
  X(BUFFER_LOAD_I8_S,   "buffer.load.i8.s",   NONE, 0xC2, "rI>i",  "sign-extended i8 element") \
  X(BUFFER_LOAD_I8_U,   "buffer.load.i8.u",   NONE, 0xC3, "rI>i",  "zero-extended i8 element") \
  X(BUFFER_LOAD_I16_S,  "buffer.load.i16.s",  NONE, 0xC4, "rI>i",  "sign-extended i16 element") \
  X(BUFFER_LOAD_I16_U,  "buffer.load.i16.u",  NONE, 0xC5, "rI>i",  "zero-extended i16 element") \
  X(BUFFER_LOAD_I32,    "buffer.load.i32",    NONE, 0xC6, "rI>i",  "i32 element") \
  X(BUFFER_LOAD_I64,    "buffer.load.i64",    NONE, 0xC7, "rI>I",  "i64 element") \
  X(BUFFER_STORE_I8,    "buffer.store.i8",    NONE, 0xC8, "rIi",   "store the low 8 bits") \
  X(BUFFER_STORE_I16,   "buffer.store.i16",   NONE, 0xC9, "rIi",   "store the low 16 bits") \
  X(BUFFER_STORE_I32,   "buffer.store.i32",   NONE, 0xCA, "rIi",   "store an i32 element") \
  X(BUFFER_STORE_I64,   "buffer.store.i64",   NONE, 0xCB, "rII",   "store an i64 element") \
  /* imports */                                                                         \
  X(IMPORT_RESOLVED,    "import.resolved",    NONE, 0xD0, "M>i",   "1 if the import resolved when the context was created, else 0 (only an optional import can be unresolved)") \
  /* compare and branch (grt only): the assembler fuses a compare whose only */     \
  /* use is the next cond_br; gt/gte swap the operands */                               \
  X(CMP_BR_EQ_I32,      "cmp_br.eq.i32",      NONE, 0xD4, "iiBB",  "jump to the first target if a == b, else the second (cmp.eq.i32 + cond_br fused; grt bytecode only)") \
  X(CMP_BR_NE_I32,      "cmp_br.ne.i32",      NONE, 0xD5, "iiBB",  "jump to the first target if a != b, else the second (cmp.ne.i32 + cond_br fused; grt bytecode only)") \
  X(CMP_BR_LT_I32_S,    "cmp_br.lt.i32.s",    NONE, 0xD6, "iiBB",  "jump to the first target if signed a < b, else the second (cmp.lt.i32.s + cond_br fused; grt bytecode only)") \
  X(CMP_BR_LT_I32_U,    "cmp_br.lt.i32.u",    NONE, 0xD7, "iiBB",  "jump to the first target if unsigned a < b, else the second (cmp.lt.i32.u + cond_br fused; grt bytecode only)") \
  X(CMP_BR_LTE_I32_S,   "cmp_br.lte.i32.s",   NONE, 0xD8, "iiBB",  "jump to the first target if signed a <= b, else the second (cmp.lte.i32.s + cond_br fused; grt bytecode only)") \
  X(CMP_BR_LTE_I32_U,   "cmp_br.lte.i32.u",   NONE, 0xD9, "iiBB",  "jump to the first target if unsigned a <= b, else the second (cmp.lte.i32.u + cond_br fused; grt bytecode only)") \
  X(CMP_BR_EQ_I64,      "cmp_br.eq.i64",      NONE, 0xDA, "IIBB",  "jump to the first target if a == b, else the second (cmp.eq.i64 + cond_br fused; grt bytecode only)") \
  X(CMP_BR_NE_I64,      "cmp_br.ne.i64",      NONE, 0xDB, "IIBB",  "jump to the first target if a != b, else the second (cmp.ne.i64 + cond_br fused; grt bytecode only)") \
  X(CMP_BR_LT_I64_S,    "cmp_br.lt.i64.s",    NONE, 0xDC, "IIBB",  "jump to the first target if signed a < b, else the second (cmp.lt.i64.s + cond_br fused; grt bytecode only)") \
  X(CMP_BR_LT_I64_U,    "cmp_br.lt.i64.u",    NONE, 0xDD, "IIBB",  "jump to the first target if unsigned a < b, else the second (cmp.lt.i64.u + cond_br fused; grt bytecode only)") \
  X(CMP_BR_LTE_I64_S,   "cmp_br.lte.i64.s",   NONE, 0xDE, "IIBB",  "jump to the first target if signed a <= b, else the second (cmp.lte.i64.s + cond_br fused; grt bytecode only)") \
  X(CMP_BR_LTE_I64_U,   "cmp_br.lte.i64.u",   NONE, 0xDF, "IIBB",  "jump to the first target if unsigned a <= b, else the second (cmp.lte.i64.u + cond_br fused; grt bytecode only)") \
  /* f32 extension */                                                                   \
  X(CONST_F32,          "const.f32",          F32,  0x00, "k>f",   "load an f32 immediate") \
  X(GLOBAL_LOAD_F32,    "global.load.f32",    F32,  0x01, "g>f",   "load an f32 global") \
  X(GLOBAL_STORE_F32,   "global.store.f32",   F32,  0x02, "fg",    "store an f32 global") \
  X(SELECT_F32,         "select.f32",         F32,  0x03, "iff>f", "cond ? a : b") \
  X(SWITCH_F32,         "switch.f32",         F32,  0x04, "ifLf>f", "values[index], or the default when out of range") \
  X(LIST_GET_F32,       "list.get.f32",       F32,  0x05, "ri>f",  "element as f32") \
  X(LIST_SET_F32,       "list.set.f32",       F32,  0x06, "rif",   "set element from f32") \
  X(BUFFER_FILL_F32,    "buffer.fill.f32",    F32,  0x07, "rIIf",  "fill count f32 elements from element offset") \
  X(BUFFER_LOAD_F32,    "buffer.load.f32",    F32,  0x08, "rI>f",  "f32 element") \
  X(BUFFER_STORE_F32,   "buffer.store.f32",   F32,  0x09, "rIf",   "store an f32 element") \
  X(ADD_F32,            "add.f32",            F32,  0x10, "ff>f",  "a + b") \
  X(SUB_F32,            "sub.f32",            F32,  0x11, "ff>f",  "a - b") \
  X(MUL_F32,            "mul.f32",            F32,  0x12, "ff>f",  "a * b") \
  X(DIV_F32,            "div.f32",            F32,  0x13, "ff>f",  "a / b (IEEE)") \
  X(REM_F32,            "rem.f32",            F32,  0x14, "ff>f",  "IEEE remainder(a, b): a - n * b, n = a / b rounded to nearest, ties to even") \
  X(FMA_F32,            "fma.f32",            F32,  0x15, "fff>f", "fused a * b + c") \
  X(ABS_F32,            "abs.f32",            F32,  0x16, "f>f",   "|a|") \
  X(NEG_F32,            "neg.f32",            F32,  0x17, "f>f",   "-a") \
  X(CEIL_F32,           "ceil.f32",           F32,  0x18, "f>f",   "round up") \
  X(FLOOR_F32,          "floor.f32",          F32,  0x19, "f>f",   "round down") \
  X(ROUND_F32,          "round.f32",          F32,  0x1A, "f>f",   "round half away from zero") \
  X(ROUND_F32_EVEN,     "round.f32.even",     F32,  0x1B, "f>f",   "round half to even") \
  X(MIN_F32,            "min.f32",            F32,  0x1C, "ff>f",  "minimum (NaN if either is NaN)") \
  X(MAX_F32,            "max.f32",            F32,  0x1D, "ff>f",  "maximum (NaN if either is NaN)") \
  X(SQRT_F32,           "sqrt.f32",           F32,  0x1E, "f>f",   "square root") \
  X(RSQRT_F32,          "rsqrt.f32",          F32,  0x1F, "f>f",   "1 / sqrt(a)") \
  X(EXP_F32,            "exp.f32",            F32,  0x20, "f>f",   "e^a") \
  X(EXP2_F32,           "exp2.f32",           F32,  0x21, "f>f",   "2^a") \
  X(EXPM1_F32,          "expm1.f32",          F32,  0x22, "f>f",   "e^a - 1") \
  X(LOG_F32,            "log.f32",            F32,  0x23, "f>f",   "natural logarithm") \
  X(LOG2_F32,           "log2.f32",           F32,  0x24, "f>f",   "base-2 logarithm") \
  X(LOG10_F32,          "log10.f32",          F32,  0x25, "f>f",   "base-10 logarithm") \
  X(LOG1P_F32,          "log1p.f32",          F32,  0x26, "f>f",   "log(1 + a)") \
  X(POW_F32,            "pow.f32",            F32,  0x27, "ff>f",  "a^b") \
  X(TANH_F32,           "tanh.f32",           F32,  0x28, "f>f",   "hyperbolic tangent") \
  X(SIN_F32,            "sin.f32",            F32,  0x29, "f>f",   "sine") \
  X(COS_F32,            "cos.f32",            F32,  0x2A, "f>f",   "cosine") \
  X(ATAN_F32,           "atan.f32",           F32,  0x2B, "f>f",   "arc tangent") \
  X(ATAN2_F32,          "atan2.f32",          F32,  0x2C, "ff>f",  "arc tangent of a/b using both signs") \
  X(ERF_F32,            "erf.f32",            F32,  0x2D, "f>f",   "error function") \
  X(CMP_EQ_F32_O,       "cmp.eq.f32.o",       F32,  0x40, "ff>i",  "ordered and a == b") \
  X(CMP_EQ_F32_U,       "cmp.eq.f32.u",       F32,  0x41, "ff>i",  "unordered or a == b") \
  X(CMP_NE_F32_O,       "cmp.ne.f32.o",       F32,  0x42, "ff>i",  "ordered and a != b") \
  X(CMP_NE_F32_U,       "cmp.ne.f32.u",       F32,  0x43, "ff>i",  "unordered or a != b") \
  X(CMP_LT_F32_O,       "cmp.lt.f32.o",       F32,  0x44, "ff>i",  "ordered and a < b") \
  X(CMP_LT_F32_U,       "cmp.lt.f32.u",       F32,  0x45, "ff>i",  "unordered or a < b") \
  X(CMP_LTE_F32_O,      "cmp.lte.f32.o",      F32,  0x46, "ff>i",  "ordered and a <= b") \
  X(CMP_LTE_F32_U,      "cmp.lte.f32.u",      F32,  0x47, "ff>i",  "unordered or a <= b") \
  X(CMP_GT_F32_O,       "cmp.gt.f32.o",       F32,  0x48, "ff>i",  "ordered and a > b") \
  X(CMP_GT_F32_U,       "cmp.gt.f32.u",       F32,  0x49, "ff>i",  "unordered or a > b") \
  X(CMP_GTE_F32_O,      "cmp.gte.f32.o",      F32,  0x4A, "ff>i",  "ordered and a >= b") \
  X(CMP_GTE_F32_U,      "cmp.gte.f32.u",      F32,  0x4B, "ff>i",  "unordered or a >= b") \
  X(CMP_NZ_F32_U,       "cmp.nz.f32.u",       F32,  0x4C, "f>i",   "unordered or a != 0 (NaN counts as nonzero)") \
  X(CMP_NAN_F32,        "cmp.nan.f32",        F32,  0x4D, "f>i",   "a is NaN") \
  X(CMP_NZ_F32_O,       "cmp.nz.f32.o",       F32,  0x4E, "f>i",   "ordered and a != 0 (NaN counts as zero)") \
  X(CMP_EQ_F32_NEAR,    "cmp.eq.f32.near",    F32,  0x4F, "ff>i",  "ordered and |a - b| <= 1e-4 + 1e-4 * |b|") \
  X(CAST_SI32_F32,      "cast.si32.f32",      F32,  0x60, "i>f",   "signed i32 to f32") \
  X(CAST_UI32_F32,      "cast.ui32.f32",      F32,  0x61, "i>f",   "unsigned i32 to f32") \
  X(CAST_F32_SI32,      "cast.f32.si32",      F32,  0x62, "f>i",   "f32 to signed i32 (rounding half away from zero, saturating)") \
  X(CAST_F32_UI32,      "cast.f32.ui32",      F32,  0x63, "f>i",   "f32 to unsigned i32 (rounding half away from zero, saturating)") \
  X(CAST_SI64_F32,      "cast.si64.f32",      F32,  0x64, "I>f",   "signed i64 to f32") \
  X(CAST_UI64_F32,      "cast.ui64.f32",      F32,  0x65, "I>f",   "unsigned i64 to f32") \
  X(CAST_F32_SI64,      "cast.f32.si64",      F32,  0x66, "f>I",   "f32 to signed i64 (rounding half away from zero, saturating)") \
  X(CAST_F32_UI64,      "cast.f32.ui64",      F32,  0x67, "f>I",   "f32 to unsigned i64 (rounding half away from zero, saturating)") \
  X(BITCAST_I32_F32,    "bitcast.i32.f32",    F32,  0x68, "i>f",   "reinterpret the bits") \
  X(BITCAST_F32_I32,    "bitcast.f32.i32",    F32,  0x69, "f>i",   "reinterpret the bits") \
  /* f64 extension */                                                                   \
  X(CONST_F64,          "const.f64",          F64,  0x00, "K>F",   "load an f64 immediate") \
  X(GLOBAL_LOAD_F64,    "global.load.f64",    F64,  0x01, "d>F",   "load an f64 global") \
  X(GLOBAL_STORE_F64,   "global.store.f64",   F64,  0x02, "Fd",    "store an f64 global") \
  X(SELECT_F64,         "select.f64",         F64,  0x03, "iFF>F", "cond ? a : b") \
  X(SWITCH_F64,         "switch.f64",         F64,  0x04, "iFLF>F", "values[index], or the default when out of range") \
  X(LIST_GET_F64,       "list.get.f64",       F64,  0x05, "ri>F",  "element as f64") \
  X(LIST_SET_F64,       "list.set.f64",       F64,  0x06, "riF",   "set element from f64") \
  X(BUFFER_FILL_F64,    "buffer.fill.f64",    F64,  0x07, "rIIF",  "fill count f64 elements from element offset") \
  X(BUFFER_LOAD_F64,    "buffer.load.f64",    F64,  0x08, "rI>F",  "f64 element") \
  X(BUFFER_STORE_F64,   "buffer.store.f64",   F64,  0x09, "rIF",   "store an f64 element") \
  X(ADD_F64,            "add.f64",            F64,  0x10, "FF>F",  "a + b") \
  X(SUB_F64,            "sub.f64",            F64,  0x11, "FF>F",  "a - b") \
  X(MUL_F64,            "mul.f64",            F64,  0x12, "FF>F",  "a * b") \
  X(DIV_F64,            "div.f64",            F64,  0x13, "FF>F",  "a / b (IEEE)") \
  X(REM_F64,            "rem.f64",            F64,  0x14, "FF>F",  "IEEE remainder(a, b): a - n * b, n = a / b rounded to nearest, ties to even") \
  X(FMA_F64,            "fma.f64",            F64,  0x15, "FFF>F", "fused a * b + c") \
  X(ABS_F64,            "abs.f64",            F64,  0x16, "F>F",   "|a|") \
  X(NEG_F64,            "neg.f64",            F64,  0x17, "F>F",   "-a") \
  X(CEIL_F64,           "ceil.f64",           F64,  0x18, "F>F",   "round up") \
  X(FLOOR_F64,          "floor.f64",          F64,  0x19, "F>F",   "round down") \
  X(ROUND_F64,          "round.f64",          F64,  0x1A, "F>F",   "round half away from zero") \
  X(ROUND_F64_EVEN,     "round.f64.even",     F64,  0x1B, "F>F",   "round half to even") \
  X(MIN_F64,            "min.f64",            F64,  0x1C, "FF>F",  "minimum (NaN if either is NaN)") \
  X(MAX_F64,            "max.f64",            F64,  0x1D, "FF>F",  "maximum (NaN if either is NaN)") \
  X(SQRT_F64,           "sqrt.f64",           F64,  0x1E, "F>F",   "square root") \
  X(RSQRT_F64,          "rsqrt.f64",          F64,  0x1F, "F>F",   "1 / sqrt(a)") \
  X(EXP_F64,            "exp.f64",            F64,  0x20, "F>F",   "e^a") \
  X(EXP2_F64,           "exp2.f64",           F64,  0x21, "F>F",   "2^a") \
  X(EXPM1_F64,          "expm1.f64",          F64,  0x22, "F>F",   "e^a - 1") \
  X(LOG_F64,            "log.f64",            F64,  0x23, "F>F",   "natural logarithm") \
  X(LOG2_F64,           "log2.f64",           F64,  0x24, "F>F",   "base-2 logarithm") \
  X(LOG10_F64,          "log10.f64",          F64,  0x25, "F>F",   "base-10 logarithm") \
  X(LOG1P_F64,          "log1p.f64",          F64,  0x26, "F>F",   "log(1 + a)") \
  X(POW_F64,            "pow.f64",            F64,  0x27, "FF>F",  "a^b") \
  X(TANH_F64,           "tanh.f64",           F64,  0x28, "F>F",   "hyperbolic tangent") \
  X(SIN_F64,            "sin.f64",            F64,  0x29, "F>F",   "sine") \
  X(COS_F64,            "cos.f64",            F64,  0x2A, "F>F",   "cosine") \
  X(ATAN_F64,           "atan.f64",           F64,  0x2B, "F>F",   "arc tangent") \
  X(ATAN2_F64,          "atan2.f64",          F64,  0x2C, "FF>F",  "arc tangent of a/b using both signs") \
  X(ERF_F64,            "erf.f64",            F64,  0x2D, "F>F",   "error function") \
  X(CMP_EQ_F64_O,       "cmp.eq.f64.o",       F64,  0x40, "FF>i",  "ordered and a == b") \
  X(CMP_EQ_F64_U,       "cmp.eq.f64.u",       F64,  0x41, "FF>i",  "unordered or a == b") \
  X(CMP_NE_F64_O,       "cmp.ne.f64.o",       F64,  0x42, "FF>i",  "ordered and a != b") \
  X(CMP_NE_F64_U,       "cmp.ne.f64.u",       F64,  0x43, "FF>i",  "unordered or a != b") \
  X(CMP_LT_F64_O,       "cmp.lt.f64.o",       F64,  0x44, "FF>i",  "ordered and a < b") \
  X(CMP_LT_F64_U,       "cmp.lt.f64.u",       F64,  0x45, "FF>i",  "unordered or a < b") \
  X(CMP_LTE_F64_O,      "cmp.lte.f64.o",      F64,  0x46, "FF>i",  "ordered and a <= b") \
  X(CMP_LTE_F64_U,      "cmp.lte.f64.u",      F64,  0x47, "FF>i",  "unordered or a <= b") \
  X(CMP_GT_F64_O,       "cmp.gt.f64.o",       F64,  0x48, "FF>i",  "ordered and a > b") \
  X(CMP_GT_F64_U,       "cmp.gt.f64.u",       F64,  0x49, "FF>i",  "unordered or a > b") \
  X(CMP_GTE_F64_O,      "cmp.gte.f64.o",      F64,  0x4A, "FF>i",  "ordered and a >= b") \
  X(CMP_GTE_F64_U,      "cmp.gte.f64.u",      F64,  0x4B, "FF>i",  "unordered or a >= b") \
  X(CMP_NZ_F64_U,       "cmp.nz.f64.u",       F64,  0x4C, "F>i",   "unordered or a != 0 (NaN counts as nonzero)") \
  X(CMP_NAN_F64,        "cmp.nan.f64",        F64,  0x4D, "F>i",   "a is NaN") \
  X(CMP_NZ_F64_O,       "cmp.nz.f64.o",       F64,  0x4E, "F>i",   "ordered and a != 0 (NaN counts as zero)") \
  X(CMP_EQ_F64_NEAR,    "cmp.eq.f64.near",    F64,  0x4F, "FF>i",  "ordered and |a - b| <= 1e-4 + 1e-4 * |b|") \
  X(CAST_SI32_F64,      "cast.si32.f64",      F64,  0x60, "i>F",   "signed i32 to f64") \
  X(CAST_UI32_F64,      "cast.ui32.f64",      F64,  0x61, "i>F",   "unsigned i32 to f64") \
  X(CAST_F64_SI32,      "cast.f64.si32",      F64,  0x62, "F>i",   "f64 to signed i32 (rounding half away from zero, saturating)") \
  X(CAST_F64_UI32,      "cast.f64.ui32",      F64,  0x63, "F>i",   "f64 to unsigned i32 (rounding half away from zero, saturating)") \
  X(CAST_SI64_F64,      "cast.si64.f64",      F64,  0x64, "I>F",   "signed i64 to f64") \
  X(CAST_UI64_F64,      "cast.ui64.f64",      F64,  0x65, "I>F",   "unsigned i64 to f64") \
  X(CAST_F64_SI64,      "cast.f64.si64",      F64,  0x66, "F>I",   "f64 to signed i64 (rounding half away from zero, saturating)") \
  X(CAST_F64_UI64,      "cast.f64.ui64",      F64,  0x67, "F>I",   "f64 to unsigned i64 (rounding half away from zero, saturating)") \
  X(BITCAST_I64_F64,    "bitcast.i64.f64",    F64,  0x68, "I>F",   "reinterpret the bits") \
  X(BITCAST_F64_I64,    "bitcast.f64.i64",    F64,  0x69, "F>I",   "reinterpret the bits") \
  X(EXT_F32_F64,        "ext.f32.f64",        F64,  0x6A, "f>F",   "widen f32 to f64") \
  X(TRUNC_F64_F32,      "trunc.f64.f32",      F64,  0x6B, "F>f",   "narrow f64 to f32 (round to nearest)")
// clang-format on

typedef enum grt_vm_op_e {
#define GRT_VM_OP_ENUM(name, mnemonic, prefix, byte, operands, meaning) \
  GRT_VM_OP_##name,
  GRT_VM_OP_TABLE(GRT_VM_OP_ENUM)
#undef GRT_VM_OP_ENUM
  GRT_VM_OP_COUNT
} grt_vm_op_t;

typedef struct grt_vm_op_info_t {
  const char* name;       // "ADD_I32"
  const char* mnemonic;   // "add.i32"
  grt_vm_prefix_t prefix;
  uint8_t byte;
  const char* operands;   // encoding string, see the top of this file
  const char* meaning;
} grt_vm_op_info_t;

typedef struct grt_vm_prefix_info_t {
  const char* name;  // "f32"
  uint8_t byte;      // the prefix byte in the core opcode space
  uint64_t feature;  // module feature bit required to use the extension
} grt_vm_prefix_info_t;

const grt_vm_op_info_t* grt_vm_op_info(grt_vm_op_t op);
const grt_vm_prefix_info_t* grt_vm_prefix_info(grt_vm_prefix_t prefix);

// What the interpreter and the verifier read of an op, from tables without
// a pointer per op, so that a runtime that never calls grt_vm_op_info links
// no grt_vm_op_info_t table: every op's operand string, each ending in its
// NUL, one after another (op_table.c); each op's offset into them; each
// op's prefix * 256 + opcode byte.
extern const char grt_vm_op_operand_text[];
extern const uint16_t grt_vm_op_operand_offsets[GRT_VM_OP_COUNT];
extern const uint16_t grt_vm_op_codes[GRT_VM_OP_COUNT];

// The op's operand string, prefix, opcode byte (as in grt_vm_op_info(op)),
// and prefix * 256 + opcode byte.
static inline const char* grt_vm_op_operands(grt_vm_op_t op) {
  return grt_vm_op_operand_text + grt_vm_op_operand_offsets[op];
}
static inline grt_vm_prefix_t grt_vm_op_prefix(grt_vm_op_t op) {
  return (grt_vm_prefix_t)(grt_vm_op_codes[op] >> 8);
}
static inline uint8_t grt_vm_op_byte(grt_vm_op_t op) {
  return (uint8_t)grt_vm_op_codes[op];
}
static inline uint16_t grt_vm_op_code(grt_vm_op_t op) {
  return grt_vm_op_codes[op];
}

// The op's encoding as text: "opcode 0x2A", or with a prefix "opcode 0xE0
// 0x66" (what names an op in a build without op names), written to
// |buffer|, which it returns.
#define GRT_VM_OP_MNEMONIC_BUFFER 24
const char* grt_vm_op_encoding_text(grt_vm_op_t op,
                                    char buffer[GRT_VM_OP_MNEMONIC_BUFFER]);

// The op's name in messages: grt_vm_op_info(op)->mnemonic ("add.i32"); in a
// build without op names (GRT_VM_OP_NAMES=0) grt_vm_op_encoding_text's
// text, written to |buffer|.
const char* grt_vm_op_mnemonic(grt_vm_op_t op,
                               char buffer[GRT_VM_OP_MNEMONIC_BUFFER]);

// Finds an op by its mnemonic ("add.i32"). Returns false if there is none.
bool grt_vm_op_lookup(grt_string_view_t mnemonic, grt_vm_op_t* out_op);

// Decodes the opcode at |code| (|available| bytes readable). On success
// stores the op and how many bytes its opcode took (1, or 2 with a prefix).
// Returns false for an unknown byte, an unknown byte after a prefix, or a
// prefix at the very end.
bool grt_vm_op_decode(const uint8_t* code, size_t available,
                      grt_vm_op_t* out_op, size_t* out_opcode_size);

// Size in bytes of the whole op at |code| (opcode and operands). Only for
// bytecode the verifier has accepted: nothing is bounds-checked.
size_t grt_vm_op_size_verified(const uint8_t* code);

// Size in bytes of one register of |type| in the primitive bank slots (1 or
// 2); refs use one ref slot.
static inline uint32_t grt_vm_type_slot_count(grt_vm_type_t type) {
  return (type == GRT_VM_TYPE_I64 || type == GRT_VM_TYPE_F64) ? 2u : 1u;
}

// "i32", "i64", "f32", "f64", "ref", "variant", "i8", "i16"; "?" past them.
const char* grt_vm_type_name(grt_vm_type_t type);

// Where a function's arguments land (the calling convention the verifier,
// the interpreter and the compiler's register allocator share): in
// signature order, 32-bit values take the next primitive slot, 64-bit
// values the next even pair, refs the next ref register. Advances the
// counters and returns the slot or ref ordinal.
static inline uint32_t grt_vm_bytecode_place_argument(char type_char,
                                                      uint32_t* inout_slots,
                                                      uint32_t* inout_refs) {
  if (type_char == 'r') return (*inout_refs)++;
  if (type_char == 'I' || type_char == 'F') {
    uint32_t slot = (*inout_slots + 1u) & ~1u;
    *inout_slots = slot + 2u;
    return slot;
  }
  return (*inout_slots)++;
}

// The type an operand character names (i I f F r), or GRT_VM_TYPE_COUNT
// for characters that are not single registers.
grt_vm_type_t grt_vm_type_from_operand_char(char c);

#ifdef __cplusplus
}
#endif

#endif  // GRT_VM_OP_TABLE_H_
