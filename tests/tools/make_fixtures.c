// Writes the module files the tool tests run grt-run, grt-check and grt-dump
// on. They are built with the bytecode emitter and the module writer rather
// than assembled from text, so the tools' tests do not depend on the
// assembler (tests/vm covers the text path end to end).
//
//   make_fixtures OUT_DIR
//
// writes OUT_DIR/{scalars,checks,passing,no_tests,main_only,internal_only}.vmfb; every function of
// every fixture is described by one row in the tables below.
#include <stdio.h>
#include <string.h>

#include "schemas/module_file.h"
#include "vm/bytecode_emitter.h"
#include "vm/features.h"

#define I32(n) grt_vm_operand_reg(GRT_VM_TYPE_I32, (n))
#define I64(n) grt_vm_operand_reg(GRT_VM_TYPE_I64, (n))

typedef grt_status_t (*grt_fixture_body_fn)(grt_vm_bytecode_emitter_t* e);

typedef struct grt_fixture_function_t {
  const char* name;
  const char* calling_convention;
  uint32_t i32_slots;
  uint32_t ref_registers;
  grt_fixture_body_fn body;
} grt_fixture_function_t;

static grt_status_t emit(grt_vm_bytecode_emitter_t* e, grt_vm_op_t op,
                         const grt_vm_operand_t* operands, size_t count) {
  return grt_vm_bytecode_emitter_emit(e, op, operands, count);
}

static grt_status_t entry_block(grt_vm_bytecode_emitter_t* e) {
  grt_vm_label_t entry;
  GRT_RETURN_IF_ERROR(grt_vm_bytecode_emitter_create_label(e, &entry));
  return grt_vm_bytecode_emitter_place_label(e, entry);
}

// Returns the registers in |values| (none when count is 0).
static grt_status_t emit_return(grt_vm_bytecode_emitter_t* e,
                                const grt_vm_register_t* values,
                                uint16_t count) {
  grt_vm_operand_t ret[] = {grt_vm_operand_list(values, count)};
  return emit(e, GRT_VM_OP_RETURN, ret, 1);
}

// result = op(a, b) over one type. Arguments land in consecutive slots
// (i64/f64 pairs on even ones: 0 and 2), the result goes to slot 4.
static grt_status_t binary_body(grt_vm_bytecode_emitter_t* e, grt_vm_op_t op,
                                grt_vm_type_t type) {
  GRT_RETURN_IF_ERROR(entry_block(e));
  grt_vm_operand_t operands[] = {grt_vm_operand_reg(type, 0),
                                 grt_vm_operand_reg(
                                     type, (uint16_t)grt_vm_type_slot_count(type)),
                                 grt_vm_operand_reg(type, 4)};
  GRT_RETURN_IF_ERROR(emit(e, op, operands, 3));
  grt_vm_register_t result = {type, 4, false};
  return emit_return(e, &result, 1);
}

static grt_status_t body_add(grt_vm_bytecode_emitter_t* e) {
  return binary_body(e, GRT_VM_OP_ADD_I32, GRT_VM_TYPE_I32);
}
static grt_status_t body_div(grt_vm_bytecode_emitter_t* e) {
  return binary_body(e, GRT_VM_OP_DIV_I32_S, GRT_VM_TYPE_I32);
}
static grt_status_t body_mul_i64(grt_vm_bytecode_emitter_t* e) {
  return binary_body(e, GRT_VM_OP_MUL_I64, GRT_VM_TYPE_I64);
}
static grt_status_t body_div_f32(grt_vm_bytecode_emitter_t* e) {
  return binary_body(e, GRT_VM_OP_DIV_F32, GRT_VM_TYPE_F32);
}
static grt_status_t body_sub_f64(grt_vm_bytecode_emitter_t* e) {
  return binary_body(e, GRT_VM_OP_SUB_F64, GRT_VM_TYPE_F64);
}

static grt_status_t body_return_nothing(grt_vm_bytecode_emitter_t* e) {
  GRT_RETURN_IF_ERROR(entry_block(e));
  return emit_return(e, NULL, 0);
}

// Returns the i32 constant 42 (a test function with a result).
static grt_status_t body_return_42(grt_vm_bytecode_emitter_t* e) {
  GRT_RETURN_IF_ERROR(entry_block(e));
  grt_vm_operand_t c[] = {grt_vm_operand_imm(42), I32(0)};
  GRT_RETURN_IF_ERROR(emit(e, GRT_VM_OP_CONST_I32, c, 2));
  grt_vm_register_t result = {GRT_VM_TYPE_I32, 0, false};
  return emit_return(e, &result, 1);
}

// vm.fail with status code 9 (FAILED_PRECONDITION) and a message.
static grt_status_t body_fail(grt_vm_bytecode_emitter_t* e) {
  GRT_RETURN_IF_ERROR(entry_block(e));
  grt_vm_operand_t c[] = {grt_vm_operand_imm(9), I32(0)};
  GRT_RETURN_IF_ERROR(emit(e, GRT_VM_OP_CONST_I32, c, 2));
  grt_vm_operand_t fail[] = {
      I32(0), grt_vm_operand_string(grt_make_cstring_view("fixture failure"))};
  return emit(e, GRT_VM_OP_FAIL, fail, 2);
}

// Divides 1 by 0: a trap inside the VM.
static grt_status_t body_divide_by_zero(grt_vm_bytecode_emitter_t* e) {
  GRT_RETURN_IF_ERROR(entry_block(e));
  grt_vm_operand_t one[] = {grt_vm_operand_imm(1), I32(0)};
  GRT_RETURN_IF_ERROR(emit(e, GRT_VM_OP_CONST_I32, one, 2));
  grt_vm_operand_t zero[] = {grt_vm_operand_imm(0), I32(1)};
  GRT_RETURN_IF_ERROR(emit(e, GRT_VM_OP_CONST_I32, zero, 2));
  grt_vm_operand_t div[] = {I32(0), I32(1), I32(2)};
  GRT_RETURN_IF_ERROR(emit(e, GRT_VM_OP_DIV_I32_S, div, 3));
  return emit_return(e, NULL, 0);
}

// Returns its ref argument (null or not) unchanged.
static grt_status_t body_pass_ref(grt_vm_bytecode_emitter_t* e) {
  GRT_RETURN_IF_ERROR(entry_block(e));
  grt_vm_register_t result = {GRT_VM_TYPE_REF, 0, true};
  return emit_return(e, &result, 1);
}

// Returns its two ref arguments in swapped order.
static grt_status_t body_swap_refs(grt_vm_bytecode_emitter_t* e) {
  GRT_RETURN_IF_ERROR(entry_block(e));
  grt_vm_register_t results[] = {{GRT_VM_TYPE_REF, 1, true},
                                 {GRT_VM_TYPE_REF, 0, true}};
  return emit_return(e, results, 2);
}

// Returns a new 16-byte buffer.
static grt_status_t body_make_buffer(grt_vm_bytecode_emitter_t* e) {
  GRT_RETURN_IF_ERROR(entry_block(e));
  grt_vm_operand_t length[] = {grt_vm_operand_imm(16), I64(0)};
  GRT_RETURN_IF_ERROR(emit(e, GRT_VM_OP_CONST_I64, length, 2));
  grt_vm_operand_t alignment[] = {grt_vm_operand_imm(8), I32(2)};
  GRT_RETURN_IF_ERROR(emit(e, GRT_VM_OP_CONST_I32, alignment, 2));
  grt_vm_operand_t alloc[] = {I64(0), I32(2),
                              grt_vm_operand_reg(GRT_VM_TYPE_REF, 0)};
  GRT_RETURN_IF_ERROR(emit(e, GRT_VM_OP_BUFFER_ALLOC, alloc, 3));
  grt_vm_register_t result = {GRT_VM_TYPE_REF, 0, true};
  return emit_return(e, &result, 1);
}

// A module: its functions (all exported) and whether it carries the
// executables, rodata, globals and optional import grt-dump shows.
typedef struct grt_fixture_module_t {
  const char* file_name;
  const char* module_name;
  const grt_fixture_function_t* functions;
  size_t function_count;
  bool with_data;
} grt_fixture_module_t;

static const grt_fixture_function_t scalars_functions[] = {
    {"add", "0ii_i", 6, 0, body_add},
    {"div", "0ii_i", 6, 0, body_div},
    {"mul_i64", "0II_I", 6, 0, body_mul_i64},
    {"div_f32", "0ff_f", 6, 0, body_div_f32},
    {"sub_f64", "0FF_F", 6, 0, body_sub_f64},
    {"nothing", "0v_v", 0, 0, body_return_nothing},
    {"pass_ref", "0r_r", 0, 1, body_pass_ref},
    {"make_buffer", "0v_r", 3, 1, body_make_buffer},
    {"swap_refs", "0rr_rr", 0, 2, body_swap_refs},
};

static const grt_fixture_function_t checks_functions[] = {
    {"test_passes", "0v_v", 0, 0, body_return_nothing},
    {"test_with_result", "0v_i", 1, 0, body_return_42},
    {"fail_as_expected", "0v_v", 1, 0, body_fail},
    {"fail_by_trap", "0v_v", 3, 0, body_divide_by_zero},
    {"test_traps", "0v_v", 3, 0, body_divide_by_zero},
    {"fail_but_succeeds", "0v_v", 0, 0, body_return_nothing},
    {"test_takes_arguments", "0ii_i", 6, 0, body_add},
    {"helper", "0v_v", 0, 0, body_return_nothing},
};

static const grt_fixture_function_t passing_functions[] = {
    {"test_passes", "0v_v", 0, 0, body_return_nothing},
    {"fail_as_expected", "0v_v", 1, 0, body_fail},
};

static const grt_fixture_function_t no_tests_functions[] = {
    {"run", "0v_v", 0, 0, body_return_nothing},
};

// internal_only.vmfb: only a "__"-prefixed export, which grt-check never
// runs as a test, so it finds none.
static const grt_fixture_function_t internal_only_functions[] = {
    {"__internal", "0v_v", 0, 0, body_return_nothing},
};

// main_only.vmfb: no test_*/fail_* exports, so grt-check runs 'main'.
static const grt_fixture_function_t main_only_functions[] = {
    {"main", "0v_v", 0, 0, body_return_nothing},
    {"helper", "0v_v", 0, 0, body_return_nothing},
};

#define GRT_FIXTURE_COUNT(a) (sizeof(a) / sizeof((a)[0]))

// wide.vmfb: "wide" takes GRT_WIDE_ARGUMENTS i32s and the module exports
// GRT_WIDE_FUNCTIONS functions in all, so messages listing its argument
// types or its exports must be cut (at a boundary, with a count). Filled
// in by fill_wide_functions.
#define GRT_WIDE_ARGUMENTS 200
#define GRT_WIDE_FUNCTIONS 100
static char wide_calling_convention[GRT_WIDE_ARGUMENTS + 4];
static char wide_names[GRT_WIDE_FUNCTIONS][16];
static grt_fixture_function_t wide_functions[GRT_WIDE_FUNCTIONS];

static void fill_wide_functions(void) {
  wide_calling_convention[0] = '0';
  memset(wide_calling_convention + 1, 'i', GRT_WIDE_ARGUMENTS);
  memcpy(wide_calling_convention + 1 + GRT_WIDE_ARGUMENTS, "_v", 3);
  for (int i = 0; i < GRT_WIDE_FUNCTIONS; ++i) {
    grt_fixture_function_t* f = &wide_functions[i];
    if (i == 0) {
      snprintf(wide_names[i], sizeof(wide_names[i]), "wide");
      f->calling_convention = wide_calling_convention;
      f->i32_slots = GRT_WIDE_ARGUMENTS;
    } else {
      snprintf(wide_names[i], sizeof(wide_names[i]), "function_%03d", i);
      f->calling_convention = "0v_v";
    }
    f->name = wide_names[i];
    f->body = body_return_nothing;
  }
}

// scalars.vmfb is what grt-run runs; with_data.vmfb is the same module
// plus the executables (placeholder bytes no device could load), rodata,
// globals and import that grt-dump shows.
static const grt_fixture_module_t fixtures[] = {
    {"scalars.vmfb", "scalars", scalars_functions,
     GRT_FIXTURE_COUNT(scalars_functions), false},
    {"with_data.vmfb", "scalars", scalars_functions,
     GRT_FIXTURE_COUNT(scalars_functions), true},
    {"checks.vmfb", "checks", checks_functions,
     GRT_FIXTURE_COUNT(checks_functions), false},
    {"passing.vmfb", "passing", passing_functions,
     GRT_FIXTURE_COUNT(passing_functions), false},
    {"no_tests.vmfb", "no_tests", no_tests_functions,
     GRT_FIXTURE_COUNT(no_tests_functions), false},
    {"main_only.vmfb", "main_only", main_only_functions,
     GRT_FIXTURE_COUNT(main_only_functions), false},
    {"internal_only.vmfb", "internal_only", internal_only_functions,
     GRT_FIXTURE_COUNT(internal_only_functions), false},
    {"wide.vmfb", "wide", wide_functions, GRT_WIDE_FUNCTIONS, false},
    // Names grt-dump --extract must refuse to turn into paths.
    {"escaping_name.vmfb", "../../escaped", no_tests_functions,
     GRT_FIXTURE_COUNT(no_tests_functions), true},
    {"dotdot_name.vmfb", "..", no_tests_functions,
     GRT_FIXTURE_COUNT(no_tests_functions), true},
};

// The executables, rodata, globals and import of a module with_data: one
// executable per --extract extension rule.
static grt_status_t add_data(grt_module_writer_t* w) {
  static const unsigned char binary[] = "fixture kernel bytes";
  static const char* const formats[] = {"cpu-x86_64", "cuda-ptx",
                                        "vulkan-spirv", "webgpu-wgsl"};
  for (size_t i = 0; i < GRT_FIXTURE_COUNT(formats); ++i) {
    grt_module_executable_t executable;
    memset(&executable, 0, sizeof(executable));
    executable.format = grt_make_cstring_view(formats[i]);
    executable.binary = grt_make_const_byte_span(binary, sizeof(binary) - 1);
    grt_module_entry_point_t entry = {grt_make_cstring_view("dispatch_0"),
                                      3, 2, {64, 1, 1}, NULL, NULL};
    uint32_t ordinal = 0;
    GRT_RETURN_IF_ERROR(
        grt_module_writer_add_executable(w, &executable, &entry, 1, &ordinal));
  }
  static const unsigned char bytes[16] = {1, 2, 3, 4};
  grt_module_rodata_t rodata = {grt_make_const_byte_span(bytes, sizeof(bytes)),
                                16, false};
  uint32_t ordinal = 0;
  GRT_RETURN_IF_ERROR(grt_module_writer_add_rodata(w, &rodata, &ordinal));
  grt_module_import_t import = {grt_make_cstring_view("env.optional_hook"),
                                grt_make_cstring_view("0i_i"), true};
  GRT_RETURN_IF_ERROR(grt_module_writer_add_import(w, &import, &ordinal));
  grt_module_writer_set_globals(w, 8, 1);
  return grt_ok_status();
}

static grt_status_t write_fixture(const grt_fixture_module_t* fixture,
                                  const char* dir, grt_allocator_t allocator) {
  grt_vm_bytecode_emitter_t* e = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_bytecode_emitter_create(allocator, &e));
  grt_module_writer_t* w = NULL;
  grt_status_t status = grt_module_writer_create(allocator, &w);
  for (size_t i = 0; grt_status_is_ok(status) && i < fixture->function_count;
       ++i) {
    uint32_t index = 0;
    status = grt_vm_bytecode_emitter_begin_function(e);
    if (grt_status_is_ok(status)) status = fixture->functions[i].body(e);
    if (grt_status_is_ok(status)) {
      status = grt_vm_bytecode_emitter_end_function(
          e, fixture->functions[i].i32_slots,
          fixture->functions[i].ref_registers, &index);
    }
    status = grt_status_annotate(status, "fixture function '%s'",
                                 fixture->functions[i].name);
  }
  grt_const_byte_span_t bytecode;
  if (grt_status_is_ok(status)) {
    status = grt_vm_bytecode_emitter_finish(e, &bytecode);
  }
  if (grt_status_is_ok(status)) {
    status = grt_module_writer_set_name(
        w, grt_make_cstring_view(fixture->module_name), 1);
  }
  if (grt_status_is_ok(status)) {
    grt_module_writer_set_features(
        w, GRT_VM_FEATURE_EXT_F32 | GRT_VM_FEATURE_EXT_F64);
    status = grt_module_writer_set_bytecode(w, bytecode);
  }
  for (uint32_t i = 0; grt_status_is_ok(status) && i < fixture->function_count;
       ++i) {
    const grt_fixture_function_t* f = &fixture->functions[i];
    grt_vm_bytecode_function_t placed = grt_vm_bytecode_emitter_function(e, i);
    grt_module_function_t def = {grt_make_cstring_view(f->name),
                                 grt_make_cstring_view(f->calling_convention),
                                 placed.bytecode_offset, placed.bytecode_length,
                                 placed.i32_register_count,
                                 placed.ref_register_count};
    uint32_t ordinal = 0;
    status = grt_module_writer_add_function(w, &def, &ordinal);
    grt_module_export_t export_def = {grt_make_cstring_view(f->name), ordinal};
    if (grt_status_is_ok(status)) {
      status = grt_module_writer_add_export(w, &export_def);
    }
  }
  if (grt_status_is_ok(status) && fixture->with_data) status = add_data(w);
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s", dir, fixture->file_name);
  if (grt_status_is_ok(status)) status = grt_module_writer_write_file(w, path);
  if (w) grt_module_writer_destroy(w);
  grt_vm_bytecode_emitter_destroy(e);
  return status;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
    return 2;
  }
  fill_wide_functions();
  for (size_t i = 0; i < GRT_FIXTURE_COUNT(fixtures); ++i) {
    grt_status_t status =
        write_fixture(&fixtures[i], argv[1], grt_allocator_system());
    if (!grt_status_is_ok(status)) {
      fprintf(stderr, "make_fixtures: %s: ", fixtures[i].file_name);
      grt_status_fprint(stderr, status);
      grt_status_free(status);
      return 1;
    }
  }
  return 0;
}
