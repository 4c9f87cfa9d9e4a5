// Helpers shared by the vm/ cmocka tests: the one bytecode module builder
// below, plus base/status_matchers.h. Include after <cmocka.h>.
#ifndef GRT_VM_TEST_SUPPORT_H_
#define GRT_VM_TEST_SUPPORT_H_

#include <stdio.h>
#include <string.h>

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "base/status_matchers.h"

//===----------------------------------------------------------------------===//
// The one module builder every bytecode test uses
//===----------------------------------------------------------------------===//
//
//   grt_vm_test_module_t t;
//   grt_vm_test_module_begin(&t, "m");
//   grt_vm_test_function_begin(&t, "main", "0ii_i");   // entry block placed
//   GRT_VM_TEST_EMIT(&t, GRT_VM_OP_ADD_I32, TI(0), TI(1), TI(2));
//   GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST(TR_I(2)));
//   grt_vm_test_function_end(&t, 3, 0);
//   grt_vm_test_module_load(&t, NULL, 0);              // verify + link
//   grt_vm_variant_t r;
//   GRT_EXPECT_OK(grt_vm_test_call(&t, "main", args, 2, &r, 1));
//   grt_vm_test_module_end(&t);
// Emitter failures fail the test at once, naming the op.

#include "vm/bytecode_emitter.h"
#include "vm/bytecode_module.h"
#include "vm/context.h"
#include "vm/instance.h"
#include "vm/invoke.h"
#include "vm/list.h"

typedef struct grt_vm_test_module_t {
  grt_allocator_t allocator;
  grt_vm_bytecode_emitter_t* emitter;
  grt_module_writer_t* writer;
  const char* function_name;  // of the open function
  const char* function_cconv;
  bool function_exported;
  grt_const_byte_span_t bytecode;  // after finish
  void* file_data;
  size_t file_size;
  grt_module_file_t* file;
  size_t stack_limit;  // for the module's host-call stack (0: default)
  grt_vm_instance_t* instance;
  grt_vm_module_t* module;
  grt_vm_context_t* context;
} grt_vm_test_module_t;

// Registers and operands: TI/TL/TF/TD/TR (i32, i64 pair, f32, f64 pair,
// ref), TRM (ref with the move bit), TK (immediate), TO (ordinal).
#define TI(n) grt_vm_operand_reg(GRT_VM_TYPE_I32, (n))
#define TL(n) grt_vm_operand_reg(GRT_VM_TYPE_I64, (n))
#define TF(n) grt_vm_operand_reg(GRT_VM_TYPE_F32, (n))
#define TD(n) grt_vm_operand_reg(GRT_VM_TYPE_F64, (n))
#define TR(n) grt_vm_operand_reg(GRT_VM_TYPE_REF, (n))
#define TRM(n) grt_vm_operand_ref_move(n)
#define TK(v) grt_vm_operand_imm((uint64_t)(v))
#define TO(v) grt_vm_operand_ordinal(v)
#define TS(cstring) grt_vm_operand_string(grt_make_cstring_view(cstring))
// Register list elements (for TLIST): typed registers.
#define TR_I(n) ((grt_vm_register_t){GRT_VM_TYPE_I32, (n), false})
#define TR_L(n) ((grt_vm_register_t){GRT_VM_TYPE_I64, (n), false})
#define TR_F(n) ((grt_vm_register_t){GRT_VM_TYPE_F32, (n), false})
#define TR_D(n) ((grt_vm_register_t){GRT_VM_TYPE_F64, (n), false})
#define TR_R(n) ((grt_vm_register_t){GRT_VM_TYPE_REF, (n), false})
#define TR_RM(n) ((grt_vm_register_t){GRT_VM_TYPE_REF, (n), true})
#define GRT_VM_TEST_COUNT_(type, ...) \
  (sizeof((type[]){__VA_ARGS__}) / sizeof(type))
// A register list operand of one or more registers; TLIST_EMPTY has none.
#define TLIST(...)                                                \
  grt_vm_operand_list((const grt_vm_register_t[]){__VA_ARGS__},   \
                      (uint16_t)GRT_VM_TEST_COUNT_(grt_vm_register_t, \
                                                   __VA_ARGS__))
#define TLIST_EMPTY grt_vm_operand_list(NULL, 0)

// Emits one op; fails the test with the emitter's message on error.
#define GRT_VM_TEST_EMIT(t, op, ...)                                         \
  grt_vm_test_emit((t), (op), (const grt_vm_operand_t[]){__VA_ARGS__},     \
                   GRT_VM_TEST_COUNT_(grt_vm_operand_t, __VA_ARGS__))

static inline void grt_vm_test_emit(grt_vm_test_module_t* t, grt_vm_op_t op,
                                    const grt_vm_operand_t* operands,
                                    size_t count) {
  GRT_EXPECT_OK(
      grt_vm_bytecode_emitter_emit(t->emitter, op, operands, count));
}

static inline void grt_vm_test_module_begin(grt_vm_test_module_t* t,
                                            const char* module_name) {
  memset(t, 0, sizeof(*t));
  t->allocator = grt_allocator_system();
  GRT_EXPECT_OK(grt_vm_bytecode_emitter_create(t->allocator, &t->emitter));
  GRT_EXPECT_OK(grt_module_writer_create(t->allocator, &t->writer));
  GRT_EXPECT_OK(grt_module_writer_set_name(
      t->writer, grt_make_cstring_view(module_name), 1));
  grt_module_writer_set_features(t->writer, GRT_VM_FEATURE_EXT_F32 |
                                                GRT_VM_FEATURE_EXT_F64);
}

static inline grt_vm_label_t grt_vm_test_label(grt_vm_test_module_t* t) {
  grt_vm_label_t label = 0;
  GRT_EXPECT_OK(grt_vm_bytecode_emitter_create_label(t->emitter, &label));
  return label;
}

static inline void grt_vm_test_place(grt_vm_test_module_t* t,
                                     grt_vm_label_t label) {
  GRT_EXPECT_OK(grt_vm_bytecode_emitter_place_label(t->emitter, label));
}

// Starts function |name| (exported under that name unless |exported| is
// false) and places its entry block.
static inline void grt_vm_test_function_begin_ex(grt_vm_test_module_t* t,
                                                 const char* name,
                                                 const char* cconv,
                                                 bool exported) {
  t->function_name = name;
  t->function_cconv = cconv;
  t->function_exported = exported;
  GRT_EXPECT_OK(grt_vm_bytecode_emitter_begin_function(t->emitter));
  grt_vm_test_place(t, grt_vm_test_label(t));
}
static inline void grt_vm_test_function_begin(grt_vm_test_module_t* t,
                                              const char* name,
                                              const char* cconv) {
  grt_vm_test_function_begin_ex(t, name, cconv, true);
}

// Ends the open function with its register counts; returns its ordinal.
static inline uint32_t grt_vm_test_function_end(grt_vm_test_module_t* t,
                                                uint32_t i32_count,
                                                uint32_t ref_count) {
  uint32_t index = 0;
  GRT_EXPECT_OK(grt_vm_bytecode_emitter_end_function(t->emitter, i32_count,
                                                        ref_count, &index));
  grt_vm_bytecode_function_t f =
      grt_vm_bytecode_emitter_function(t->emitter, index);
  grt_module_function_t def = {grt_make_cstring_view(t->function_name),
                               grt_make_cstring_view(t->function_cconv),
                               f.bytecode_offset,
                               f.bytecode_length,
                               f.i32_register_count,
                               f.ref_register_count};
  uint32_t ordinal = 0;
  GRT_EXPECT_OK(grt_module_writer_add_function(t->writer, &def, &ordinal));
  assert_int_equal(ordinal, index);
  if (t->function_exported) {
    grt_module_export_t export_def = {def.name, ordinal};
    GRT_EXPECT_OK(grt_module_writer_add_export(t->writer, &export_def));
  }
  return ordinal;
}

static inline uint32_t grt_vm_test_import(grt_vm_test_module_t* t,
                                          const char* full_name,
                                          const char* cconv, bool optional) {
  grt_module_import_t import = {grt_make_cstring_view(full_name),
                                grt_make_cstring_view(cconv), optional};
  uint32_t ordinal = 0;
  GRT_EXPECT_OK(grt_module_writer_add_import(t->writer, &import, &ordinal));
  return ordinal;
}

// Serializes the module (with the emitter's debug locations) and opens the
// file; the module is not created yet, so tests of load errors stop here.
static inline void grt_vm_test_module_finish(grt_vm_test_module_t* t) {
  GRT_EXPECT_OK(grt_vm_bytecode_emitter_finish(t->emitter, &t->bytecode));
  GRT_EXPECT_OK(grt_module_writer_set_bytecode(t->writer, t->bytecode));
  uint32_t n = grt_vm_bytecode_emitter_location_count(t->emitter);
  for (uint32_t i = 0; i < n; ++i) {
    grt_vm_bytecode_location_t l =
        grt_vm_bytecode_emitter_location(t->emitter, i);
    grt_module_debug_location_t def = {l.function_index, l.bytecode_offset,
                                       l.location};
    GRT_EXPECT_OK(grt_module_writer_add_debug_location(t->writer, &def));
  }
  GRT_EXPECT_OK(
      grt_module_writer_finish(t->writer, &t->file_data, &t->file_size));
  GRT_EXPECT_OK(grt_module_file_open_memory(
      grt_make_const_byte_span(t->file_data, t->file_size), t->allocator,
      &t->file));
}

// Creates the bytecode module and a context of |natives| (dependencies)
// followed by it. Returns the module creation or linking status.
static inline grt_status_t grt_vm_test_module_link(
    grt_vm_test_module_t* t, grt_vm_module_t* const* natives,
    size_t native_count) {
  GRT_RETURN_IF_ERROR(grt_vm_instance_create(t->allocator, &t->instance));
  GRT_RETURN_IF_ERROR(
      grt_vm_bytecode_module_create(t->file, t->stack_limit, t->allocator,
                                    &t->module));
  grt_vm_module_t* modules[8];
  assert_true(native_count < 8);
  for (size_t i = 0; i < native_count; ++i) modules[i] = natives[i];
  modules[native_count] = t->module;
  return grt_vm_context_create(t->instance, modules, native_count + 1,
                               t->allocator, &t->context);
}

// finish + link, both expected to succeed.
static inline void grt_vm_test_module_load(grt_vm_test_module_t* t,
                                           grt_vm_module_t* const* natives,
                                           size_t native_count) {
  grt_vm_test_module_finish(t);
  GRT_EXPECT_OK(grt_vm_test_module_link(t, natives, native_count));
}

// Invokes exported |name| with |args|; on success stores the results (refs
// owned by the caller: reset them).
static inline grt_status_t grt_vm_test_call(grt_vm_test_module_t* t,
                                            const char* name,
                                            const grt_vm_variant_t* args,
                                            size_t arg_count,
                                            grt_vm_variant_t* results,
                                            size_t result_count) {
  grt_vm_function_t function;
  GRT_RETURN_IF_ERROR(grt_vm_module_lookup_function(
      t->module, grt_make_cstring_view(name), &function));
  grt_vm_list_t* inputs = NULL;
  grt_vm_list_t* outputs = NULL;
  GRT_EXPECT_OK(grt_vm_list_create(grt_vm_type_def_variant(), arg_count,
                                      t->allocator, &inputs));
  GRT_EXPECT_OK(grt_vm_list_create(grt_vm_type_def_variant(), result_count,
                                      t->allocator, &outputs));
  for (size_t i = 0; i < arg_count; ++i) {
    GRT_EXPECT_OK(grt_vm_list_push_variant(inputs, &args[i]));
  }
  grt_status_t status =
      grt_vm_invoke(t->context, &function, inputs, outputs, t->allocator);
  if (!status) {
    assert_int_equal(grt_vm_list_size(outputs), result_count);
    for (size_t i = 0; i < result_count; ++i) {
      results[i] = grt_vm_variant_empty();
      GRT_EXPECT_OK(grt_vm_list_get_variant_assign(outputs, i, &results[i]));
    }
  }
  grt_vm_list_release(inputs);
  grt_vm_list_release(outputs);
  return status;
}

// Frees everything begin..load created (safe after a failed link).
static inline void grt_vm_test_module_end(grt_vm_test_module_t* t) {
  if (t->context) grt_vm_context_release(t->context);
  if (t->module) grt_vm_module_release(t->module);
  if (t->instance) grt_vm_instance_release(t->instance);
  if (t->file) grt_module_file_release(t->file);
  grt_allocator_free(t->allocator, t->file_data);
  grt_module_writer_destroy(t->writer);
  grt_vm_bytecode_emitter_destroy(t->emitter);
  memset(t, 0, sizeof(*t));
}

// Runs |op| alone: a module whose "main" takes the op's register inputs as
// arguments (placed as the calling convention places them), applies the op
// and returns its register results. Only for ops whose operand string is
// registers (i I f F r) and at most one string (S, given as |string|), which
// is most of the arithmetic, comparison, conversion and select ops. Stores
// the results on success.
static inline grt_status_t grt_vm_test_run_op_with_string(
    grt_vm_op_t op, const char* string, const grt_vm_variant_t* args,
    grt_vm_variant_t* results) {
  const grt_vm_op_info_t* info = grt_vm_op_info(op);
  char cconv[32] = "0";
  grt_vm_operand_t operands[8];
  grt_vm_register_t returned[4];
  size_t n = 0, arg_count = 0, result_count = 0;
  uint32_t slots = 0, refs = 0;
  bool is_result = false;
  for (const char* p = info->operands; *p; ++p) {
    if (*p == '>') {
      is_result = true;
      strcat(cconv, "_");
      continue;
    }
    if (*p == 'S') {
      assert_non_null(string);
      operands[n++] = grt_vm_operand_string(grt_make_cstring_view(string));
      continue;
    }
    grt_vm_type_t type = grt_vm_type_from_operand_char(*p);
    assert_true(type != GRT_VM_TYPE_COUNT);
    uint32_t reg = grt_vm_bytecode_place_argument(*p, &slots, &refs);
    operands[n++] = grt_vm_operand_reg(type, (uint16_t)reg);
    strncat(cconv, p, 1);
    if (is_result) {
      returned[result_count++] = operands[n - 1].reg;
    } else {
      ++arg_count;
    }
  }
  if (!is_result) strcat(cconv, "_v");
  grt_vm_test_module_t t;
  grt_vm_test_module_begin(&t, "m");
  grt_vm_test_function_begin(&t, "main", cconv);
  grt_vm_test_emit(&t, op, operands, n);
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN,
                   grt_vm_operand_list(returned, (uint16_t)result_count));
  grt_vm_test_function_end(&t, slots, refs);
  grt_vm_test_module_load(&t, NULL, 0);
  grt_status_t status =
      grt_vm_test_call(&t, "main", args, arg_count, results, result_count);
  grt_vm_test_module_end(&t);
  return status;
}

static inline grt_status_t grt_vm_test_run_op(grt_vm_op_t op,
                                              const grt_vm_variant_t* args,
                                              grt_vm_variant_t* results) {
  return grt_vm_test_run_op_with_string(op, NULL, args, results);
}

#endif  // GRT_VM_TEST_SUPPORT_H_
