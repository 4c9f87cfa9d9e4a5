// The host program: hand-built tensor IR (DISPATCH ops over the test kernel
// library's add_f32, constants, checks, calls, if/case/while) emitted,
// assembled and checked as a module file, then run end to end through the
// embedding API on local-sync and local-task with the real kernels of
// hal/local/testdata/test_kernels.c.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/endian.h"
#include "base/file.h"
#include "compiler/host/host.h"
#include "compiler/mlir/parser.h"
#include "compiler/vm_asm/assembler.h"
#include "compiler/vm_asm/vm_printer.h"
#include "compiler/vm_asm/vm_syntax.h"
#include "compiler/host/test_ir.h"
#include "hal/local/executable.h"
#include "hal/transfer.h"
#include "runtime/session.h"

#define N 100

typedef struct fixture_t {
  grtc_tmodule_t* module;
  grtc_kernel_set_t kernels;
  grt_module_writer_t* writer;
  grt_string_builder_t text;
  void* data;
  size_t size;
  grt_module_file_t* file;
  bool no_min_lengths;  // add_executable: bindings of any length (symbolic programs)
} fixture_t;

static fixture_t f;

// The test library's kernels in its order (the local HAL wants them all).
static const struct {
  const char* name;
  uint32_t bindings;
  uint32_t workgroup_x;
} kLibrary[] = {{"add_f32", 3, 64}, {"scale_f32", 2, 32}, {"fail", 0, 1}, {"workgroup_ids", 1, 1}};
#define ADD 0

static int setup(void** state) {
  (void)state;
  memset(&f, 0, sizeof(f));
  grt_allocator_t allocator = grt_allocator_system();
  GRT_EXPECT_OK(grtc_tmodule_create("m", "m.mlir", allocator, &f.module));
  grtc_kernel_set_init(allocator, &f.kernels);
  for (size_t i = 0; i < sizeof(kLibrary) / sizeof(kLibrary[0]); ++i) {
    grtc_kernel_t* kernel = NULL;
    uint32_t index = 0;
    GRT_EXPECT_OK(grtc_kernel_set_add(&f.kernels, kLibrary[i].name, kLibrary[i].bindings,
                                      &kernel, &index));
    kernel->workgroup_count = (N + 63) / 64;  // add_f32 covers 64 per group
    // Each test kernel reads its leading bindings and writes its last.
    for (uint32_t b = 0; b < kLibrary[i].bindings; ++b) {
      kernel->bindings[b].access =
          b + 1 == kLibrary[i].bindings ? GRTC_KACCESS_WRITE : GRTC_KACCESS_READ;
    }
    if (i == ADD) {  // tensor<Nxf32> in, in, out
      for (uint32_t b = 0; b < 3; ++b) {
        kernel->bindings[b].elem = GRTC_ELEM_F32;
        kernel->bindings[b].element_count = N;
      }
    }
  }
  GRT_EXPECT_OK(grt_module_writer_create(allocator, &f.writer));
  grt_string_builder_init(allocator, &f.text);
  return 0;
}

static int teardown(void** state) {
  (void)state;
  if (f.file) grt_module_file_release(f.file);
  grt_allocator_free(grt_allocator_system(), f.data);
  grt_string_builder_deinit(&f.text);
  grt_module_writer_destroy(f.writer);
  grtc_kernel_set_deinit(&f.kernels);
  grtc_tmodule_destroy(f.module);
  return 0;
}

static grtc_tfunc_t* new_func(const char* name, const grtc_ttype_t* args, uint32_t arg_count,
                              const grtc_ttype_t* results, uint32_t result_count, bool is_public) {
  grtc_tfunc_t* func = NULL;
  GRT_EXPECT_OK(grtc_tfunc_create(f.module, grt_make_cstring_view(name), args, arg_count, results,
                                  result_count, &func));
  func->is_public = is_public;
  return func;
}

static grtc_tvalue_t* add(grtc_tblock_t* block, grtc_tvalue_t* a, grtc_tvalue_t* b) {
  grtc_tvalue_t* operands[2] = {a, b};
  return test_dispatch(f.module, block, ADD, operands, 2, a->type);
}

static float constant_values[N];

static grtc_tvalue_t* constant(grtc_tblock_t* block, const void* data, size_t size,
                               grtc_ttype_t type, bool splat) {
  grtc_top_t* op = test_op(f.module, block, GRTC_TOP_CONSTANT, NULL, 0, &type, 0);
  op->attrs.constant.data = data;
  op->attrs.constant.size = size;
  op->attrs.constant.splat = splat;
  return &op->results[0];
}

static void yield(grtc_tblock_t* block, grtc_tvalue_t* const* values, uint32_t count) {
  test_op(f.module, block, GRTC_TOP_YIELD, values, count, NULL, 0);
}

static grtc_tblock_t* region(grtc_top_t* op, uint32_t index, const grtc_ttype_t* args,
                             uint32_t arg_count) {
  grtc_tblock_t* block = NULL;
  GRT_EXPECT_OK(grtc_tblock_create(f.module, args, arg_count, &block));
  grtc_top_set_region(op, index, block);
  return block;
}

// The program every test uses:
//   main(a, b) = ((a + c) + (a + c)) + b        c[i] = i / 2, in rodata
//   twice(x) = x + x (private); call_twice(a) = twice(a)
//   choose(p: i1, a) = if p { a + a } else { a }
//   pick(i: i32, a) = case i { a + a, a, default: a + a + a }
//   loop(p: i1, a) = while (flag = p, x = a) { flag } do { (false, x + x) } -> x
//   test_ok / test_fail: check.expect_eq / expect_almost_eq / expect_true
static const uint8_t kFalse = 0;
static const uint8_t kTrue = 1;
static const float kHalf = 0.5f;

static void build_program(void) {
  grtc_ttype_t v = test_vector(GRTC_ELEM_F32, N);
  grtc_ttype_t two[2] = {v, v};
  grtc_ttype_t i1 = test_scalar(GRTC_ELEM_I1);
  grtc_ttype_t i32 = test_scalar(GRTC_ELEM_I32);
  for (int i = 0; i < N; ++i) constant_values[i] = (float)i / 2;

  grtc_tfunc_t* main_fn = new_func("main", two, 2, &v, 1, true);
  grtc_tblock_t* body = main_fn->body;
  grtc_tvalue_t* c = constant(body, constant_values, sizeof(constant_values), v, false);
  grtc_tvalue_t* d1 = add(body, &body->args[0], c);
  grtc_tvalue_t* d2 = add(body, d1, d1);
  grtc_tvalue_t* d3 = add(body, d2, &body->args[1]);
  test_return(f.module, body, &d3, 1);

  grtc_tfunc_t* twice = new_func("twice", &v, 1, &v, 1, false);
  grtc_tvalue_t* t = add(twice->body, &twice->body->args[0], &twice->body->args[0]);
  test_return(f.module, twice->body, &t, 1);
  grtc_tfunc_t* call_twice = new_func("call_twice", &v, 1, &v, 1, true);
  grtc_tvalue_t* call_arg = &call_twice->body->args[0];
  grtc_top_t* call = test_op(f.module, call_twice->body, GRTC_TOP_CALL, &call_arg, 1, &v, 0);
  call->attrs.callee = twice;
  grtc_tvalue_t* called = &call->results[0];
  test_return(f.module, call_twice->body, &called, 1);

  grtc_ttype_t choose_args[2] = {i1, v};
  grtc_tfunc_t* choose = new_func("choose", choose_args, 2, &v, 1, true);
  grtc_tvalue_t* predicate = &choose->body->args[0];
  grtc_top_t* if_op = test_op(f.module, choose->body, GRTC_TOP_IF, &predicate, 1, &v, 2);
  grtc_tvalue_t* a = &choose->body->args[1];
  grtc_tblock_t* then_block = region(if_op, 0, NULL, 0);
  grtc_tvalue_t* doubled = add(then_block, a, a);
  yield(then_block, &doubled, 1);
  yield(region(if_op, 1, NULL, 0), &a, 1);
  grtc_tvalue_t* chosen = &if_op->results[0];
  test_return(f.module, choose->body, &chosen, 1);

  grtc_ttype_t pick_args[2] = {i32, v};
  grtc_tfunc_t* pick = new_func("pick", pick_args, 2, &v, 1, true);
  grtc_tvalue_t* index = &pick->body->args[0];
  grtc_top_t* case_op = test_op(f.module, pick->body, GRTC_TOP_CASE, &index, 1, &v, 3);
  a = &pick->body->args[1];
  grtc_tblock_t* first = region(case_op, 0, NULL, 0);
  doubled = add(first, a, a);
  yield(first, &doubled, 1);
  yield(region(case_op, 1, NULL, 0), &a, 1);
  grtc_tblock_t* fallback = region(case_op, 2, NULL, 0);
  grtc_tvalue_t* tripled = add(fallback, add(fallback, a, a), a);
  yield(fallback, &tripled, 1);
  grtc_tvalue_t* picked = &case_op->results[0];
  test_return(f.module, pick->body, &picked, 1);

  grtc_ttype_t carried[2] = {i1, v};
  grtc_tfunc_t* loop = new_func("loop", carried, 2, &v, 1, true);
  grtc_top_t* while_op = NULL;
  grtc_tvalue_t* init[2] = {&loop->body->args[0], &loop->body->args[1]};
  GRT_EXPECT_OK(grtc_top_create(f.module, GRTC_TOP_WHILE, init, 2, carried, 2, 2, &while_op));
  grtc_tblock_append(loop->body, while_op);
  grtc_tblock_t* cond = region(while_op, 0, carried, 2);
  grtc_tvalue_t* flag = &cond->args[0];
  yield(cond, &flag, 1);
  grtc_tblock_t* step = region(while_op, 1, carried, 2);
  grtc_tvalue_t* next[2] = {constant(step, &kFalse, 1, i1, false),
                            add(step, &step->args[1], &step->args[1])};
  yield(step, next, 2);
  grtc_tvalue_t* final_x = &while_op->results[1];
  test_return(f.module, loop->body, &final_x, 1);

  // pair(a) = (a + a, a); call_pair(a) = swap(pair(a)).
  grtc_tfunc_t* pair = new_func("pair", &v, 1, two, 2, true);
  grtc_tvalue_t* pair_results[2] = {add(pair->body, &pair->body->args[0], &pair->body->args[0]),
                                    &pair->body->args[0]};
  test_return(f.module, pair->body, pair_results, 2);
  grtc_tfunc_t* call_pair = new_func("call_pair", &v, 1, two, 2, true);
  grtc_top_t* pair_call = NULL;
  grtc_tvalue_t* pair_arg = &call_pair->body->args[0];
  GRT_EXPECT_OK(grtc_top_create(f.module, GRTC_TOP_CALL, &pair_arg, 1, two, 2, 0, &pair_call));
  pair_call->attrs.callee = pair;
  grtc_tblock_append(call_pair->body, pair_call);
  grtc_tvalue_t* swapped[2] = {&pair_call->results[1], &pair_call->results[0]};
  test_return(f.module, call_pair->body, swapped, 2);

  // test_ok: 2c == c + c; 2c almost equals c + c; true is true.
  // test_fail: c + c == c (element 1 differs).
  const char* names[2] = {"test_ok", "test_fail"};
  for (int i = 0; i < 2; ++i) {
    grtc_tfunc_t* test = new_func(names[i], NULL, 0, NULL, 0, true);
    body = test->body;
    grtc_tvalue_t* cc = constant(body, constant_values, sizeof(constant_values), v, false);
    grtc_tvalue_t* sum = add(body, cc, cc);
    if (i == 0) {
      grtc_tvalue_t* two_c = add(body, cc, cc);
      grtc_tvalue_t* eq[2] = {sum, two_c};
      test_op(f.module, body, GRTC_TOP_CHECK_EQ, eq, 2, NULL, 0);
      grtc_top_t* almost = test_op(f.module, body, GRTC_TOP_CHECK_ALMOST_EQ, eq, 2, NULL, 0);
      almost->attrs.atol = 1e-4;
      grtc_tvalue_t* yes = constant(body, &kTrue, 1, i1, false);
      test_op(f.module, body, GRTC_TOP_CHECK_TRUE, &yes, 1, NULL, 0);
      grtc_tvalue_t* splat = constant(body, &kHalf, sizeof(kHalf), v, true);
      grtc_tvalue_t* halves = add(body, splat, splat);
      grtc_tvalue_t* ones = add(body, halves, splat);
      grtc_tvalue_t* ones_eq[2] = {ones, add(body, splat, add(body, splat, splat))};
      test_op(f.module, body, GRTC_TOP_CHECK_EQ, ones_eq, 2, NULL, 0);
    } else {
      grtc_tvalue_t* eq[2] = {sum, cc};
      test_op(f.module, body, GRTC_TOP_CHECK_EQ, eq, 2, NULL, 0);
    }
    test_return(f.module, body, NULL, 0);
  }
}

// Emits into f.writer (with |executable| when non-NULL) and opens the file.
static void emit(const grtc_host_executable_t* executable, uint32_t flags) {
  grtc_host_options_t options = {flags};
  grt_status_t status = grtc_host_emit(f.module, &f.kernels, executable, executable ? 1 : 0,
                                       &options, grt_allocator_system(), f.writer, &f.text);
  if (!grt_status_is_ok(status)) {
    fprintf(stderr, "%s\n", grt_string_builder_cstring(&f.text));
    GRT_EXPECT_OK(status);
  }
  GRT_EXPECT_OK(grt_module_writer_finish(f.writer, &f.data, &f.size));
  GRT_EXPECT_OK(grt_module_file_open_memory(grt_make_const_byte_span(f.data, f.size),
                                            grt_allocator_system(), &f.file));
}

static int find_function(const char* name) {
  const grt_module_file_info_t* info = grt_module_file_info(f.file);
  for (uint32_t i = 0; i < info->function_count; ++i) {
    if (grt_string_view_equal_cstring(grt_module_file_function(f.file, i).name, name)) {
      return (int)i;
    }
  }
  fail_msg("no function '%s'", name);
  return -1;
}

static bool has_import(const char* name) {
  const grt_module_file_info_t* info = grt_module_file_info(f.file);
  for (uint32_t i = 0; i < info->import_count; ++i) {
    if (grt_string_view_equal_cstring(grt_module_file_import(f.file, i).full_name, name)) {
      return true;
    }
  }
  return false;
}

// Executables that record per-kernel workgroup sizes (CUDA's block sizes)
// get them in their entry points; the others keep 1.
static void test_workgroup_sizes_recorded(void** state) {
  (void)state;
  build_program();
  static const uint8_t binary[16] = {1, 2, 3};
  static const uint32_t sizes[4] = {256, 32, 1, 128};
  grtc_host_executable_t executables[2] = {{"cpu-test", binary, sizeof(binary), NULL, NULL},
                                           {"cuda-ptx", binary, sizeof(binary), sizes, NULL}};
  grtc_host_options_t options = {0};
  GRT_EXPECT_OK(grtc_host_emit(f.module, &f.kernels, executables, 2, &options,
                               grt_allocator_system(), f.writer, NULL));
  GRT_EXPECT_OK(grt_module_writer_finish(f.writer, &f.data, &f.size));
  GRT_EXPECT_OK(grt_module_file_open_memory(grt_make_const_byte_span(f.data, f.size),
                                            grt_allocator_system(), &f.file));
  assert_int_equal(grt_module_file_info(f.file)->executable_count, 2);
  // Every entry point records how each binding is used and, where the
  // kernel knows its extent (add_f32: N f32 each), the bytes it spans.
  for (uint32_t e = 0; e < 2; ++e) {
    grt_module_entry_point_t add = grt_module_file_entry_point(f.file, e, ADD);
    assert_non_null(add.binding_access);
    assert_non_null(add.binding_min_lengths);
    for (uint32_t b = 0; b < 3; ++b) {
      assert_int_equal(add.binding_access[b], b == 2 ? 2 : 1);
      assert_int_equal(grt_load_le_u64(add.binding_min_lengths + 8 * b), N * 4);
    }
    grt_module_entry_point_t scale = grt_module_file_entry_point(f.file, e, 1);
    assert_int_equal(scale.binding_access[0], 1);
    assert_int_equal(scale.binding_access[1], 2);
    assert_int_equal(grt_load_le_u64(scale.binding_min_lengths), 0);  // unknown
    // No bindings: no tables.
    assert_null(grt_module_file_entry_point(f.file, e, 2).binding_access);
  }
  for (uint32_t k = 0; k < 4; ++k) {
    assert_int_equal(grt_module_file_entry_point(f.file, 0, k).workgroup_size[0], 1);
    grt_module_entry_point_t entry = grt_module_file_entry_point(f.file, 1, k);
    assert_int_equal(entry.workgroup_size[0], sizes[k]);
    assert_int_equal(entry.workgroup_size[1], 1);
    assert_int_equal(entry.workgroup_size[2], 1);
  }
}

// The module file: exports, imports, the constant in 64-byte-aligned
// rodata, the arena size of main (d1 and d2 live at once: 2 x 448), the
// executable's entry points, and locations on the emitted ops.
static void test_module_file(void** state) {
  (void)state;
  build_program();
  static const uint8_t binary[16] = {1, 2, 3};
  grtc_host_executable_t executable = {"cpu-test", binary, sizeof(binary), NULL, NULL};
  emit(&executable, 0);
  const grt_module_file_info_t* info = grt_module_file_info(f.file);
  assert_true(grt_string_view_equal_cstring(info->name, "m"));
  const char* exports[] = {"main", "call_twice", "choose", "pick",     "loop",
                           "pair", "call_pair",  "test_ok", "test_fail"};
  assert_int_equal(info->export_count, sizeof(exports) / sizeof(exports[0]) + 1);  // + __init
  for (size_t i = 0; i < sizeof(exports) / sizeof(exports[0]); ++i) {
    bool found = false;
    for (uint32_t e = 0; e < info->export_count; ++e) {
      found |= grt_string_view_equal_cstring(grt_module_file_export(f.file, e).name, exports[i]);
    }
    if (!found) fail_msg("no export '%s'", exports[i]);
  }
  assert_true(grt_string_view_equal_cstring(
      grt_module_file_function(f.file, (uint32_t)find_function("main")).calling_convention,
      "0rr_r"));
  assert_true(has_import("hal.allocator.import"));
  assert_true(has_import("hal.command_buffer.dispatch"));
  assert_true(has_import("check.expect_eq"));
  // main, test_ok and test_fail each hold the same constant: one segment.
  int constant_segments = 0;
  for (uint32_t i = 0; i < info->rodata_count; ++i) {
    grt_module_rodata_t rodata = grt_module_file_rodata(f.file, i);
    if (rodata.data.size == sizeof(constant_values) &&
        memcmp(rodata.data.data, constant_values, sizeof(constant_values)) == 0) {
      assert_int_equal(rodata.alignment, 64);
      assert_int_equal((uintptr_t)rodata.data.data % 64, 0);
      ++constant_segments;
    }
  }
  assert_int_equal(constant_segments, 1);
  assert_int_equal(grt_module_file_function_transient_bytes(f.file, (uint32_t)find_function("main")),
                   2 * 448);
  assert_int_equal(
      grt_module_file_function_transient_bytes(f.file, (uint32_t)find_function("main$buffers")),
      2 * 448);
  assert_int_equal(
      grt_module_file_function_transient_bytes(f.file, (uint32_t)find_function("call_twice")), 0);
  assert_int_equal(info->executable_count, 1);
  grt_module_executable_t exe = grt_module_file_executable(f.file, 0);
  assert_true(grt_string_view_equal_cstring(exe.format, "cpu-test"));
  assert_int_equal(exe.entry_point_count, 4);
  grt_module_entry_point_t entry = grt_module_file_entry_point(f.file, 0, 0);
  assert_true(grt_string_view_equal_cstring(entry.name, "add_f32"));
  assert_int_equal(entry.binding_count, 3);
  assert_int_equal(entry.workgroup_size[0], 1);
  const char* text = grt_string_builder_cstring(&f.text);
  // One barrier between the two dispatches of main that depend on each
  // other, and the tensor ops' locations on the vm ops.
  assert_non_null(strstr(text, "vm.call @hal.command_buffer.execution_barrier"));
  assert_non_null(strstr(text, "loc(\"m.mlir\":1:1)"));
  // main, call_twice's callee and the tests' straight-line parts: main and
  // twice record once and replay; the functions with control flow, calls
  // or checks record each call.
  assert_non_null(strstr(text, "vm.global.ref private mutable @__cb_0 : !hal.command_buffer"));
  assert_non_null(strstr(text, "hal.device.queue.execute.indirect(%device, "));
  // No kernel has symbolic extents: no stand-in for empty operands.
  assert_null(strstr(text, "__empty_binding"));
  assert_true(info->debug_location_count > 0);
}

// Assembles |vm_module| into a finished module file (freed by the caller).
static void assemble_to(grtc_operation_t* vm_module, void** out_data, size_t* out_size) {
  grt_module_writer_t* writer = NULL;
  GRT_EXPECT_OK(grt_module_writer_create(grt_allocator_system(), &writer));
  GRT_EXPECT_OK(grtc_vm_assemble(vm_module, "host.mlir", grt_allocator_system(), writer));
  GRT_EXPECT_OK(grt_module_writer_finish(writer, out_data, out_size));
  grt_module_writer_destroy(writer);
}

// The built host program and its printed text (parsed back with the vm
// syntax) assemble to the same bytes, with reusable and one-shot
// recording, and with executables that disagree on add_f32's workgroup
// count (the variant and its select chains): the builder, the printer and
// the parser agree.
static void test_built_and_printed_agree(void** state) {
  (void)state;
  build_program();
  static const grtc_dialect_syntax_t* const dialects[] = {&grtc_vm_dialect_syntax};
  static const grtc_parse_options_t parse_options = {dialects, 1};
  static const uint8_t binary[4] = {1};
  static const uint32_t counts[2][4] = {{2, 1, 1, 1}, {5, 1, 1, 1}};
  const grtc_host_executable_t executables[2] = {
      {"cpu-test", binary, sizeof(binary), NULL, counts[0]},
      {"cuda-ptx", binary, sizeof(binary), NULL, counts[1]}};
  for (uint32_t run = 0; run < 4; ++run) {
    grtc_host_options_t options = {run & 1 ? GRTC_HOST_FLAG_ONE_SHOT : 0};
    uint32_t executable_count = run & 2 ? 2 : 0;
    grtc_module_t* built = NULL;
    GRT_EXPECT_OK(grtc_host_build(f.module, &f.kernels, executables, executable_count, &options,
                                  grt_allocator_system(), &built));
    grt_string_builder_t text;
    grt_string_builder_init(grt_allocator_system(), &text);
    GRT_EXPECT_OK(grtc_vm_print_module(grtc_vm_find_module(built), grt_allocator_system(), &text));
    assert_true((strstr(grt_string_builder_cstring(&text), "vm.select.i32 ") != NULL) ==
                (executable_count > 0));
    grtc_module_t* parsed = NULL;
    GRT_EXPECT_OK(grtc_parse_source(grt_string_builder_view(&text), "host.mlir", &parse_options,
                                    grt_allocator_system(), &parsed));
    void* direct = NULL;
    void* reparsed = NULL;
    size_t direct_size = 0, reparsed_size = 0;
    assemble_to(grtc_vm_find_module(built), &direct, &direct_size);
    assemble_to(grtc_vm_find_module(parsed), &reparsed, &reparsed_size);
    assert_int_equal(direct_size, reparsed_size);
    assert_memory_equal(direct, reparsed, direct_size);
    grt_allocator_free(grt_allocator_system(), direct);
    grt_allocator_free(grt_allocator_system(), reparsed);
    grtc_module_destroy(parsed);
    grtc_module_destroy(built);
    grt_string_builder_deinit(&text);
  }
}

// An op the host program cannot run is a diagnostic at the op.
static void test_unsupported_op(void** state) {
  (void)state;
  grtc_ttype_t v = test_vector(GRTC_ELEM_F32, N);
  grtc_tfunc_t* func = new_func("bad", &v, 1, &v, 1, true);
  grtc_tvalue_t* a = &func->body->args[0];
  grtc_top_t* op = test_op(f.module, func->body, GRTC_TOP_ADD, (grtc_tvalue_t* [2]){a, a}, 2, &v, 0);
  op->line = 7;
  op->column = 3;
  grtc_tvalue_t* sum = &op->results[0];
  test_return(f.module, func->body, &sum, 1);
  grtc_host_options_t options = {0};
  grt_expect_error(grtc_host_emit(f.module, &f.kernels, NULL, 0, &options,
                                  grt_allocator_system(), f.writer, NULL),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "m.mlir:7:3: error: 'stablehlo.add' is not supported by the host program");
}

// The run-time module name keeps letters, digits and '_' only.
static void test_module_name(void** state) {
  (void)state;
  grtc_tmodule_t* module = NULL;
  GRT_EXPECT_OK(grtc_tmodule_create("2nd.model-x", "x.mlir", grt_allocator_system(), &module));
  grtc_tmodule_destroy(f.module);
  f.module = module;
  grtc_ttype_t v = test_vector(GRTC_ELEM_F32, N);
  grtc_tfunc_t* func = new_func("id", &v, 1, &v, 1, true);
  grtc_tvalue_t* a = &func->body->args[0];
  test_return(f.module, func->body, &a, 1);
  emit(NULL, 0);
  assert_true(grt_string_view_equal_cstring(grt_module_file_info(f.file)->name, "_2nd_model_x"));
}

// A dispatch whose operands do not match its kernel's bindings.
static void test_binding_count_mismatch(void** state) {
  (void)state;
  grtc_ttype_t v = test_vector(GRTC_ELEM_F32, N);
  grtc_tfunc_t* func = new_func("bad", &v, 1, &v, 1, true);
  grtc_tvalue_t* a = &func->body->args[0];
  grtc_tvalue_t* d = test_dispatch(f.module, func->body, ADD, &a, 1, v);
  test_return(f.module, func->body, &d, 1);
  grtc_host_options_t options = {0};
  grt_expect_error(grtc_host_emit(f.module, &f.kernels, NULL, 0, &options,
                                  grt_allocator_system(), f.writer, NULL),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "m.mlir:1:1: error: dispatch has 2 bindings but kernel 'add_f32' expects 3");
}

// End to end on a device: the module with the real test kernel library.
typedef struct session_t {
  grt_runtime_instance_t* instance;
  grt_hal_device_t* device;
  grt_runtime_session_t* session;
} session_t;

// Adds an executable of |format| to f.writer under the test kernel
// library's entry points: the library itself, or (|library| false) bytes
// no device runs, for a format the local devices do not prepare.
static void add_executable(const char* format, bool library) {
  grt_file_contents_t contents = {0};
  static const char kNotKernels[] = "not a kernel library";
  if (library) {
    GRT_EXPECT_OK(grt_file_read_contents(GRT_TEST_KERNELS_SO, grt_allocator_system(), &contents));
  }
  // The kernels read their leading bindings and write their last (the
  // module's constants are bound read-only); add_f32 spans N f32 each.
  static const uint8_t kAccess[4][3] = {{1, 1, 2}, {1, 2}, {0}, {2}};
  uint8_t add_lengths[3 * 8];
  for (int b = 0; b < 3; ++b) grt_store_le_u64(add_lengths + 8 * b, N * 4);
  grt_module_entry_point_t entries[4];
  for (int i = 0; i < 4; ++i) {
    grt_module_entry_point_t entry = {grt_make_cstring_view(kLibrary[i].name),
                                      kLibrary[i].bindings,
                                      i == 1 ? 1u : 0u,
                                      {kLibrary[i].workgroup_x, 1, 1},
                                      kLibrary[i].bindings ? kAccess[i] : NULL,
                                      i == ADD && !f.no_min_lengths ? add_lengths : NULL};
    entries[i] = entry;
  }
  grt_module_executable_t executable = {
      grt_make_cstring_view(format), 4,
      library ? grt_make_const_byte_span(contents.data, contents.size)
              : grt_make_const_byte_span(kNotKernels, sizeof(kNotKernels)),
      NULL};
  uint32_t ordinal = 0;
  GRT_EXPECT_OK(grt_module_writer_add_executable(f.writer, &executable, entries, 4, &ordinal));
  grt_file_contents_free(&contents);
}

// Finishes f.writer and loads the module into a session on |uri|.
static session_t open_session(const char* uri) {
  GRT_EXPECT_OK(grt_module_writer_finish(f.writer, &f.data, &f.size));
  session_t s = {NULL, NULL, NULL};
  GRT_EXPECT_OK(grt_runtime_instance_create(NULL, &s.instance));
  GRT_EXPECT_OK(grt_runtime_instance_create_device(s.instance, uri, NULL, &s.device));
  GRT_EXPECT_OK(grt_runtime_session_create(s.instance, s.device, &s.session));
  GRT_EXPECT_OK(grt_runtime_session_append_module_from_memory(
      s.session, grt_make_const_byte_span(f.data, f.size)));
  return s;
}

// After emit(): attaches the test kernel library under the entry points
// it declares and loads the module into a session on |uri|.
static session_t start_session(const char* uri) {
  grt_module_file_release(f.file);
  f.file = NULL;
  grt_allocator_free(grt_allocator_system(), f.data);
  f.data = NULL;
  add_executable(grt_hal_local_host_executable_format(), true);
  return open_session(uri);
}

static void end_session(session_t* s) {
  grt_runtime_session_release(s->session);
  grt_hal_device_release(s->device);
  grt_runtime_instance_release(s->instance);
}

static void run_on(const char* uri, uint32_t flags) {
  build_program();
  emit(NULL, flags);
  session_t s = start_session(uri);
  grt_runtime_session_t* session = s.session;
  grt_hal_device_t* device = s.device;

  float a[N], b[N];
  for (int i = 0; i < N; ++i) {
    a[i] = (float)i;
    b[i] = 1000.0f + (float)i;
  }
  const grt_hal_dim_t shape[1] = {N};
  grt_hal_buffer_view_t* inputs[2] = {NULL, NULL};
  GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(device, shape, 1,
                                                       GRT_HAL_ELEMENT_TYPE_FLOAT_32, a,
                                                       sizeof(a), &inputs[0]));
  GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(device, shape, 1,
                                                       GRT_HAL_ELEMENT_TYPE_FLOAT_32, b,
                                                       sizeof(b), &inputs[1]));
  float out[N];
  // Twice, so the second call runs with the constants already imported.
  for (int call = 0; call < 2; ++call) {
    grt_hal_buffer_view_t* output = NULL;
    size_t output_count = 0;
    GRT_EXPECT_OK(grt_runtime_call_buffer_views(session, "m.main", 2, inputs, 1, &output,
                                                &output_count));
    assert_int_equal(output_count, 1);
    GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(device, output, out, sizeof(out)));
    grt_hal_buffer_view_release(output);
    for (int i = 0; i < N; ++i) assert_true(out[i] == 2 * (a[i] + (float)i / 2) + b[i]);
  }

  // One argument's shape wrong: the assert names it.
  const grt_hal_dim_t short_shape[1] = {N - 1};
  grt_hal_buffer_view_t* wrong = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
      device, short_shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, a, sizeof(float) * (N - 1), &wrong));
  grt_hal_buffer_view_t* bad_inputs[2] = {inputs[0], wrong};
  grt_hal_buffer_view_t* output = NULL;
  size_t output_count = 0;
  grt_expect_error(grt_runtime_call_buffer_views(session, "m.main", 2, bad_inputs, 1, &output,
                                                 &output_count),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "argument 1: expected tensor<100xf32>, got tensor<99xf32>");
  grt_hal_buffer_view_release(wrong);

  GRT_EXPECT_OK(grt_runtime_call_buffer_views(session, "m.call_twice", 1, inputs, 1, &output,
                                              &output_count));
  GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(device, output, out, sizeof(out)));
  grt_hal_buffer_view_release(output);
  for (int i = 0; i < N; ++i) assert_true(out[i] == 2 * a[i]);

  // Two results, through an export and a call.
  const char* pair_functions[2] = {"m.pair", "m.call_pair"};
  for (int fn = 0; fn < 2; ++fn) {
    grt_hal_buffer_view_t* outputs[2] = {NULL, NULL};
    GRT_EXPECT_OK(grt_runtime_call_buffer_views(session, pair_functions[fn], 1, inputs, 2,
                                                outputs, &output_count));
    assert_int_equal(output_count, 2);
    float second[N];
    GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(device, outputs[0], out, sizeof(out)));
    GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(device, outputs[1], second, sizeof(second)));
    for (int i = 0; i < N; ++i) {
      assert_true(out[i] == (fn ? 1 : 2) * a[i]);
      assert_true(second[i] == (fn ? 2 : 1) * a[i]);
    }
    grt_hal_buffer_view_release(outputs[1]);
    grt_hal_buffer_view_release(outputs[0]);
  }

  // if / case / while with the selector read back from a device buffer.
  for (int p = 0; p < 2; ++p) {
    grt_hal_buffer_view_t* flag = NULL;
    uint8_t byte = (uint8_t)p;
    GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(device, NULL, 0,
                                                         GRT_HAL_ELEMENT_TYPE_BOOL, &byte, 1,
                                                         &flag));
    grt_hal_buffer_view_t* args[2] = {flag, inputs[0]};
    const char* functions[2] = {"m.choose", "m.loop"};
    for (int fn = 0; fn < 2; ++fn) {
      GRT_EXPECT_OK(grt_runtime_call_buffer_views(session, functions[fn], 2, args, 1, &output,
                                                  &output_count));
      GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(device, output, out, sizeof(out)));
      grt_hal_buffer_view_release(output);
      for (int i = 0; i < N; ++i) assert_true(out[i] == (p ? 2 : 1) * a[i]);
    }
    grt_hal_buffer_view_release(flag);
  }
  const int32_t indices[4] = {0, 1, 2, -5};
  const float factors[4] = {2, 1, 3, 3};
  for (int k = 0; k < 4; ++k) {
    grt_hal_buffer_view_t* index = NULL;
    GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
        device, NULL, 0, GRT_HAL_ELEMENT_TYPE_INT_32, &indices[k], 4, &index));
    grt_hal_buffer_view_t* args[2] = {index, inputs[0]};
    GRT_EXPECT_OK(
        grt_runtime_call_buffer_views(session, "m.pick", 2, args, 1, &output, &output_count));
    GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(device, output, out, sizeof(out)));
    grt_hal_buffer_view_release(output);
    for (int i = 0; i < N; ++i) assert_true(out[i] == factors[k] * a[i]);
    grt_hal_buffer_view_release(index);
  }

  GRT_EXPECT_OK(grt_runtime_call_buffer_views(session, "m.test_ok", 0, NULL, 0, NULL,
                                              &output_count));
  grt_expect_error(grt_runtime_call_buffer_views(session, "m.test_fail", 0, NULL, 0, NULL,
                                                 &output_count),
                   GRT_STATUS_FAILED_PRECONDITION,
                   "check.expect_eq failed: first mismatch at element 1");

  grt_hal_buffer_view_release(inputs[1]);
  grt_hal_buffer_view_release(inputs[0]);
  end_session(&s);
}

static void test_run_local_sync(void** state) {
  (void)state;
  run_on("local-sync", 0);
}

static void test_run_local_task(void** state) {
  (void)state;
  run_on("local-task", 0);
}

// 300 values live at once: 300 arena offsets (and more distinct constants
// than any fixed cache would hold), summed back in reverse order.
static void test_many_live_values(void** state) {
  (void)state;
  grtc_ttype_t v = test_vector(GRTC_ELEM_F32, N);
  grtc_tfunc_t* func = new_func("many", &v, 1, &v, 1, true);
  grtc_tblock_t* body = func->body;
  grtc_tvalue_t* a = &body->args[0];
  enum { kCount = 300 };
  grtc_tvalue_t* live[kCount];
  for (int i = 0; i < kCount; ++i) live[i] = add(body, a, a);
  grtc_tvalue_t* sum = live[kCount - 1];
  for (int i = kCount - 2; i >= 0; --i) sum = add(body, sum, live[i]);
  test_return(f.module, body, &sum, 1);
  emit(NULL, 0);
  assert_true(grt_module_file_function_transient_bytes(f.file, (uint32_t)find_function("many")) >=
              kCount * 448);
  session_t s = start_session("local-sync");
  float input[N], out[N];
  for (int i = 0; i < N; ++i) input[i] = (float)i;
  const grt_hal_dim_t shape[1] = {N};
  grt_hal_buffer_view_t* view = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(s.device, shape, 1,
                                                       GRT_HAL_ELEMENT_TYPE_FLOAT_32, input,
                                                       sizeof(input), &view));
  grt_hal_buffer_view_t* output = NULL;
  size_t output_count = 0;
  GRT_EXPECT_OK(
      grt_runtime_call_buffer_views(s.session, "m.many", 1, &view, 1, &output, &output_count));
  GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(s.device, output, out, sizeof(out)));
  for (int i = 0; i < N; ++i) assert_true(out[i] == 2.0f * kCount * input[i]);
  grt_hal_buffer_view_release(output);
  grt_hal_buffer_view_release(view);
  end_session(&s);
}

// Zero-sized tensors: the kernel has no workgroups, so nothing is
// dispatched, and the result is an empty buffer.
static void test_empty_tensor(void** state) {
  (void)state;
  grtc_ttype_t empty = test_vector(GRTC_ELEM_F32, 0);
  grtc_tfunc_t* func = new_func("empty", &empty, 1, &empty, 1, true);
  grtc_tvalue_t* a = &func->body->args[0];
  grtc_kernel_t* kernel = NULL;
  uint32_t index = 0;
  GRT_EXPECT_OK(grtc_kernel_set_add(&f.kernels, "nothing", 2, &kernel, &index));
  kernel->workgroup_count = 0;
  grtc_tvalue_t* d = test_dispatch(f.module, func->body, index, &a, 1, empty);
  test_return(f.module, func->body, &d, 1);
  emit(NULL, GRTC_HOST_FLAG_ONE_SHOT);
  assert_null(strstr(grt_string_builder_cstring(&f.text),
                     "vm.call.variadic @hal.command_buffer.dispatch("));
}

// Every call recorded one-shot (no reusable command buffers).
static void test_run_one_shot(void** state) {
  (void)state;
  run_on("local-sync", GRTC_HOST_FLAG_ONE_SHOT);
  assert_null(strstr(grt_string_builder_cstring(&f.text), "execute.indirect(%device, "));
}

// Barriers only where a dispatch depends on an earlier one: two
// independent dispatches share a region, their consumer waits for both.
static void test_barriers_only_for_hazards(void** state) {
  (void)state;
  grtc_ttype_t v = test_vector(GRTC_ELEM_F32, N);
  grtc_tfunc_t* func = new_func("f", &v, 1, &v, 1, true);
  grtc_tblock_t* body = func->body;
  grtc_tvalue_t* a = &body->args[0];
  grtc_tvalue_t* x = add(body, a, a);
  grtc_tvalue_t* y = add(body, a, a);
  grtc_tvalue_t* z = add(body, x, y);
  test_return(f.module, body, &z, 1);
  emit(NULL, 0);
  const char* text = grt_string_builder_cstring(&f.text);
  const char* first = strstr(text, "vm.call @hal.command_buffer.execution_barrier");
  assert_non_null(first);
  assert_null(strstr(first + 1, "vm.call @hal.command_buffer.execution_barrier"));
  // The barrier sits between the second and third dispatch.
  const char* second = strstr(strstr(text, "vm.call.variadic @hal.command_buffer.dispatch(") + 1, "vm.call.variadic @hal.command_buffer.dispatch(");
  assert_true(second < first);
  assert_non_null(strstr(first, "vm.call.variadic @hal.command_buffer.dispatch("));
}

// ids(x: tensor<16xi32>) -> x with workgroup_ids run on it in place:
// element i becomes i + 1 for each of the dispatch's workgroups, so the
// result shows how many ran.
#define WORKGROUP_IDS 3
#define IDS 16
static void build_ids_program(void) {
  grtc_ttype_t v = test_vector(GRTC_ELEM_I32, IDS);
  grtc_tfunc_t* func = new_func("ids", &v, 1, &v, 1, true);
  grtc_tvalue_t* x = &func->body->args[0];
  grtc_tvalue_t* out = test_dispatch(f.module, func->body, WORKGROUP_IDS, &x, 1, v);
  out->def->attrs.tied = true;
  out->def->attrs.tied_operand = 0;
  test_return(f.module, func->body, &out, 1);
}

// Executables that disagree on a kernel's workgroup count: the program
// reads hal.executable.variant once, in the initializer, and picks the
// count with a select chain, testing only the executables whose count is
// not the last one's; kernels they agree on keep a constant.
static void test_workgroup_counts_per_executable(void** state) {
  (void)state;
  build_ids_program();
  static const uint8_t binary[4] = {1};
  static const uint32_t counts[3][4] = {{2, 2, 2, 3}, {2, 2, 2, 7}, {2, 2, 2, 7}};
  grtc_host_executable_t executables[3] = {
      {"cpu-test", binary, sizeof(binary), NULL, counts[0]},
      {"cuda-ptx", binary, sizeof(binary), NULL, counts[1]},
      {"vulkan-spirv", binary, sizeof(binary), NULL, counts[2]}};
  grtc_host_options_t options = {0};
  GRT_EXPECT_OK(grtc_host_emit_text(f.module, &f.kernels, executables, 3, &options,
                                    grt_allocator_system(), &f.text));
  const char* text = grt_string_builder_cstring(&f.text);
  const char* call = strstr(text, "= vm.call @hal.executable.variant(%device, %name)");
  assert_non_null(call);
  assert_null(strstr(call + 1, "= vm.call @hal.executable.variant("));
  assert_true(call < strstr(text, "vm.func private @ids$buffers"));
  assert_non_null(strstr(text, "vm.global.store.i32 %variant, @__variant"));
  assert_non_null(strstr(text, "%variant = vm.global.load.i32 @__variant"));
  // One test (variant == 0): executables 1 and 2 share the last count.
  const char* test = strstr(text, "vm.cmp.eq.i32 %variant, ");
  assert_non_null(test);
  assert_null(strstr(test + 1, "vm.cmp.eq.i32 %variant, "));
  assert_non_null(strstr(test, "vm.select.i32 "));

  // Every executable agreeing: constants, and no variant at all.
  grt_string_builder_clear(&f.text);
  for (uint32_t i = 0; i < 3; ++i) executables[i].workgroup_counts = counts[1];
  GRT_EXPECT_OK(grtc_host_emit_text(f.module, &f.kernels, executables, 3, &options,
                                    grt_allocator_system(), &f.text));
  assert_null(strstr(grt_string_builder_cstring(&f.text), "variant"));
  assert_null(strstr(grt_string_builder_cstring(&f.text), "vm.select"));
}

// End to end: three executables with 3, 5 and 7 workgroups for
// workgroup_ids, the host's library at each position in turn (the others a
// format local-sync does not run): the runtime chooses the library, and the
// dispatch runs that executable's count, the last position included (the
// chain's fallback).
static void test_run_workgroup_counts_per_executable(void** state) {
  (void)state;
  build_ids_program();
  static const uint32_t counts[3][4] = {{2, 2, 2, 3}, {2, 2, 2, 5}, {2, 2, 2, 7}};
  static const char* const others[2] = {"cuda-ptx", "vulkan-spirv"};
  for (uint32_t host = 0; host < 3; ++host) {
    grtc_host_executable_t executables[3];
    for (uint32_t i = 0, other = 0; i < 3; ++i) {
      executables[i] = (grtc_host_executable_t){
          i == host ? grt_hal_local_host_executable_format() : others[other++], NULL, 0, NULL,
          counts[i]};
    }
    grtc_host_options_t options = {0};
    grtc_module_t* built = NULL;
    GRT_EXPECT_OK(grtc_host_build(f.module, &f.kernels, executables, 3, &options,
                                  grt_allocator_system(), &built));
    grt_module_writer_destroy(f.writer);
    GRT_EXPECT_OK(grt_module_writer_create(grt_allocator_system(), &f.writer));
    GRT_EXPECT_OK(
        grtc_vm_assemble(grtc_vm_find_module(built), "m.mlir", grt_allocator_system(), f.writer));
    grtc_module_destroy(built);
    for (uint32_t i = 0; i < 3; ++i) add_executable(executables[i].format, i == host);
    grt_allocator_free(grt_allocator_system(), f.data);
    f.data = NULL;
    session_t s = open_session("local-sync");
    int32_t zeros[IDS] = {0};
    const grt_hal_dim_t shape[1] = {IDS};
    grt_hal_buffer_view_t* input = NULL;
    GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
        s.device, shape, 1, GRT_HAL_ELEMENT_TYPE_INT_32, zeros, sizeof(zeros), &input));
    grt_hal_buffer_view_t* output = NULL;
    size_t output_count = 0;
    GRT_EXPECT_OK(grt_runtime_call_buffer_views(s.session, "m.ids", 1, &input, 1, &output,
                                                &output_count));
    int32_t ids[IDS];
    GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(s.device, output, ids, sizeof(ids)));
    for (uint32_t i = 0; i < IDS; ++i) {
      assert_int_equal(ids[i], i < counts[host][WORKGROUP_IDS] ? (int32_t)i + 1 : 0);
    }
    grt_hal_buffer_view_release(output);
    grt_hal_buffer_view_release(input);
    end_session(&s);
  }
}

//===----------------------------------------------------------------------===//
// Symbolic shapes
//===----------------------------------------------------------------------===//

#define SCALE 1  // scale_f32: out[i] = in[i] * bits_as_float(constant 0), 32 per group

// scale_f32 as a symbolic kernel: one extent, symbol |symbol| (its only
// push constant, which the library reads as the scale's bits), over a
// parallel dim of that extent in tiles of 32.
static void make_scale_symbolic(uint32_t symbol) {
  grtc_kernel_t* kernel = f.kernels.kernels[SCALE];
  uint32_t extent = 0;
  GRT_EXPECT_OK(grtc_kernel_add_extent(&f.kernels, kernel, symbol, &extent));
  kernel->parallel_rank = 1;
  kernel->parallel_dims[0] = GRTC_KDIM_EXTENT(extent);
  kernel->tile[0] = 32;
  kernel->workgroup_count = 0;
  for (uint32_t b = 0; b < 2; ++b) {
    kernel->bindings[b].elem = GRTC_ELEM_F32;
    kernel->bindings[b].element_count = -1;
  }
}

static grtc_tvalue_t* scale(grtc_tblock_t* block, grtc_tvalue_t* a) {
  return test_dispatch(f.module, block, SCALE, &a, 1, a->type);
}

static grtc_top_t* last_op(grtc_tblock_t* block) { return block->last; }

static void relate(const grtc_tfunc_t* func, grtc_trel_kind_t kind, int64_t a, int64_t b,
                   const grtc_top_t* op, const char* what) {
  bool conflict = true;
  GRT_EXPECT_OK(grtc_tmodule_relate(f.module, func, kind, a, b, op, what, &conflict));
  assert_false(conflict);
}

// The symbolic program:
//   sym(x: ?s0 x f32, y: ?s1 x f32) -> ?s0 x f32     (s1 == s0 by the add, s0 >= 8)
//     t = scale(x); u = add(t, y); r = scale(u); return r
//   call_sym(z: ?s2 x f32) -> ?s2 x f32 = sym(z, z)
static grtc_tfunc_t* build_symbolic_program(void) {
  grtc_ttype_t x = test_vector(GRTC_ELEM_F32, GRTC_DIM_SYMBOL(0));
  grtc_ttype_t y = test_vector(GRTC_ELEM_F32, GRTC_DIM_SYMBOL(1));
  grtc_ttype_t args[2] = {x, y};
  grtc_tfunc_t* sym = new_func("sym", args, 2, &x, 1, true);
  int64_t dim = 0;
  GRT_EXPECT_OK(grtc_tmodule_new_symbol(f.module, sym, GRTC_SYM_ARGUMENT, NULL, 0, 0, &dim));
  assert_int_equal(dim, GRTC_DIM_SYMBOL(0));
  GRT_EXPECT_OK(grtc_tmodule_new_symbol(f.module, sym, GRTC_SYM_ARGUMENT, NULL, 1, 0, &dim));
  assert_int_equal(dim, GRTC_DIM_SYMBOL(1));
  grtc_tblock_t* body = sym->body;
  grtc_tvalue_t* t = scale(body, &body->args[0]);
  relate(sym, GRTC_REL_GE, GRTC_DIM_SYMBOL(0), 8, last_op(body), "limit");
  grtc_tvalue_t* u = add(body, t, &body->args[1]);
  relate(sym, GRTC_REL_EQ, GRTC_DIM_SYMBOL(1), GRTC_DIM_SYMBOL(0), last_op(body),
         "operand 1 dimension 0");
  grtc_tvalue_t* r = scale(body, u);
  test_return(f.module, body, &r, 1);
  grtc_tfunc_resolve_shapes(f.module, sym);

  grtc_ttype_t z = test_vector(GRTC_ELEM_F32, GRTC_DIM_SYMBOL(2));
  grtc_tfunc_t* caller = new_func("call_sym", &z, 1, &z, 1, true);
  GRT_EXPECT_OK(grtc_tmodule_new_symbol(f.module, caller, GRTC_SYM_ARGUMENT, NULL, 0, 0, &dim));
  assert_int_equal(dim, GRTC_DIM_SYMBOL(2));
  grtc_tvalue_t* operands[2] = {&caller->body->args[0], &caller->body->args[0]};
  grtc_top_t* call = test_op(f.module, caller->body, GRTC_TOP_CALL, operands, 2, &z, 0);
  call->attrs.callee = sym;
  grtc_tvalue_t* result = &call->results[0];
  test_return(f.module, caller->body, &result, 1);

  // call_sym2(z: ?s3, w: ?s4) = sym(z, w): nothing in the caller proves
  // w's size equal to z's, as sym assumes, so the call checks it.
  grtc_ttype_t zw[2] = {test_vector(GRTC_ELEM_F32, GRTC_DIM_SYMBOL(3)),
                        test_vector(GRTC_ELEM_F32, GRTC_DIM_SYMBOL(4))};
  grtc_tfunc_t* caller2 = new_func("call_sym2", zw, 2, &zw[0], 1, true);
  for (uint32_t i = 0; i < 2; ++i) {
    GRT_EXPECT_OK(grtc_tmodule_new_symbol(f.module, caller2, GRTC_SYM_ARGUMENT, NULL, i, 0, &dim));
    assert_int_equal(dim, GRTC_DIM_SYMBOL(3 + i));
  }
  grtc_tvalue_t* operands2[2] = {&caller2->body->args[0], &caller2->body->args[1]};
  grtc_top_t* call2 = test_op(f.module, caller2->body, GRTC_TOP_CALL, operands2, 2, &zw[0], 0);
  call2->attrs.callee = sym;
  result = &call2->results[0];
  test_return(f.module, caller2->body, &result, 1);
  make_scale_symbolic(0);
  return sym;
}

// The program's text: the export reads and checks the symbols, the
// buffer function takes them as i64 after its buffers, sizes and the
// workgroup count are computed, and the recording is keyed on them.
static void test_symbolic_text(void** state) {
  (void)state;
  build_symbolic_program();
  emit(NULL, 0);
  const char* text = grt_string_builder_cstring(&f.text);
  static const char* const kExpected[] = {
      "vm.import private @hal.buffer_view.dim(",
      "vm.import private @hal.buffer_view.assert_dim(",
      "vm.func private @sym$buffers(%v0 : !hal.buffer, %v1 : !hal.buffer, %s0 : i64)",
      "vm.global.load.i64 @__cb_0_key_0",
      "vm.global.store.i64 %s0, @__cb_0_key_0",
      "%s0 = vm.call @hal.buffer_view.dim(%arg0, ",
      "vm.call @sym$buffers(",
      "vm.mul.i64",
      "vm.div.i64.s",
      ("\"@sym: argument 1 dimension 0 must equal argument 0 dimension 0 ('dispatch' at 1:1, "
       "operand 1 dimension 0)\""),
      "\"@sym: argument 0 dimension 0 must be at least 8 ('dispatch' at 1:1, limit)\"",
      // An operand of symbolic size is bound to the 64 bytes of
      // __empty_binding when it is empty at the call.
      "vm.global.ref private mutable @__empty_binding : !hal.buffer",
      "vm.global.load.ref @__empty_binding : !hal.buffer",
      "vm.select.ref ",
  };
  for (size_t i = 0; i < sizeof(kExpected) / sizeof(kExpected[0]); ++i) {
    if (!strstr(text, kExpected[i])) {
      fprintf(stderr, "%s", text);
      fail_msg("missing '%s'", kExpected[i]);
    }
  }
  // The callee's symbol comes from the caller's operand; sym(z, z) needs
  // no check (both operands have the caller's symbol), sym(z, w) does.
  assert_non_null(strstr(text, "vm.call @sym$buffers(%v"));
  static const char kEqual[] =
      "\"call of @sym: operand 1 dimension 0 must equal operand 0 dimension 0\"";
  const char* check = strstr(text, kEqual);
  assert_non_null(check);
  assert_null(strstr(check + sizeof(kEqual) - 1, "must equal operand 0 dimension 0\""));
  // The callee's bound on its argument, checked at each call (a call
  // reaches sym$buffers, not the export that checks it).
  assert_non_null(strstr(text, "\"call of @sym: operand 0 dimension 0 must be at least 8 "
                               "('dispatch' at 1:1, limit)\""));
  // The tensor signature and the symbolic plan grt-dump prints, on the
  // export and its buffer function; static functions have none.
  static const char* const kFunctions[2] = {"sym", "sym$buffers"};
  for (int i = 0; i < 2; ++i) {
    uint32_t ordinal = (uint32_t)find_function(kFunctions[i]);
    assert_true(grt_string_view_equal_cstring(
        grt_module_file_function_tensor_signature(f.file, ordinal), "(?xf32, ?xf32) -> ?xf32"));
    assert_true(grt_string_view_equal_cstring(
        grt_module_file_function_transient_plan(f.file, ordinal),
        "0 + [4*s0] + [4*s0]; s0: argument 0 dimension 0"));
  }
  assert_true(grt_string_view_equal_cstring(
      grt_module_file_function_transient_plan(f.file, (uint32_t)find_function("call_sym2")),
      "0; s3: argument 0 dimension 0, s4: argument 1 dimension 0"));
}

static void symbolic_input(grt_hal_device_t* device, const float* data, grt_hal_dim_t n,
                           grt_hal_buffer_view_t** out) {
  GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
      device, &n, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, data, (size_t)n * sizeof(float), out));
}

static float bits_as_float(uint32_t bits) {
  float value;
  memcpy(&value, &bits, sizeof(value));
  return value;
}

// Runs sym and call_sym at several sizes (the second call at a size
// replays the recording; a new size records again) and every check's
// failure message.
static void run_symbolic(const char* uri, uint32_t flags) {
  build_symbolic_program();
  f.no_min_lengths = true;
  emit(NULL, flags);
  session_t s = start_session(uri);
  enum { kMax = 128 };
  float x[kMax], y[kMax], out[kMax];
  for (int i = 0; i < kMax; ++i) {
    x[i] = 1e30f + (float)i * 1e24f;
    y[i] = (float)i * 1e-14f;
  }
  static const grt_hal_dim_t kSizes[] = {100, 100, 40, 40, 100, 8};
  for (size_t k = 0; k < sizeof(kSizes) / sizeof(kSizes[0]); ++k) {
    grt_hal_dim_t n = kSizes[k];
    float c = bits_as_float((uint32_t)n);  // the scale the kernel reads
    grt_hal_buffer_view_t* inputs[2] = {NULL, NULL};
    symbolic_input(s.device, x, n, &inputs[0]);
    symbolic_input(s.device, y, n, &inputs[1]);
    grt_hal_buffer_view_t* output = NULL;
    size_t output_count = 0;
    GRT_EXPECT_OK(grt_runtime_call_buffer_views(s.session, "m.sym", 2, inputs, 1, &output,
                                                &output_count));
    assert_int_equal(grt_hal_buffer_view_rank(output), 1);
    assert_int_equal(grt_hal_buffer_view_dim(output, 0), n);
    GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(s.device, output, out,
                                                   (size_t)n * sizeof(float)));
    for (grt_hal_dim_t i = 0; i < n; ++i) {
      float expected = (x[i] * c + y[i]) * c;
      if (out[i] != expected) fail_msg("n=%d out[%d] = %g, expected %g", (int)n, (int)i, out[i], expected);
    }
    grt_hal_buffer_view_release(output);
    GRT_EXPECT_OK(grt_runtime_call_buffer_views(s.session, "m.call_sym", 1, inputs, 1, &output,
                                                &output_count));
    assert_int_equal(grt_hal_buffer_view_dim(output, 0), n);
    GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(s.device, output, out,
                                                   (size_t)n * sizeof(float)));
    for (grt_hal_dim_t i = 0; i < n; ++i) assert_true(out[i] == (x[i] * c + x[i]) * c);
    grt_hal_buffer_view_release(output);
    GRT_EXPECT_OK(grt_runtime_call_buffer_views(s.session, "m.call_sym2", 2, inputs, 1, &output,
                                                &output_count));
    GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(s.device, output, out,
                                                   (size_t)n * sizeof(float)));
    for (grt_hal_dim_t i = 0; i < n; ++i) assert_true(out[i] == (x[i] * c + y[i]) * c);
    grt_hal_buffer_view_release(output);
    grt_hal_buffer_view_release(inputs[1]);
    grt_hal_buffer_view_release(inputs[0]);
  }

  // Each check's failure.
  grt_hal_buffer_view_t* views[4] = {NULL, NULL, NULL, NULL};
  symbolic_input(s.device, x, 40, &views[0]);
  symbolic_input(s.device, y, 39, &views[1]);
  symbolic_input(s.device, x, 4, &views[2]);
  const grt_hal_dim_t matrix[2] = {4, 10};
  GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
      s.device, matrix, 2, GRT_HAL_ELEMENT_TYPE_FLOAT_32, x, 40 * sizeof(float), &views[3]));
  grt_hal_buffer_view_t* output = NULL;
  size_t output_count = 0;
  grt_hal_buffer_view_t* unequal[2] = {views[0], views[1]};
  grt_expect_error(grt_runtime_call_buffer_views(s.session, "m.sym", 2, unequal, 1, &output,
                                                 &output_count),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "@sym: argument 1 dimension 0 must equal argument 0 dimension 0 ('dispatch' "
                   "at 1:1, operand 1 dimension 0): expected 40, got 39");
  grt_expect_error(grt_runtime_call_buffer_views(s.session, "m.call_sym2", 2, unequal, 1,
                                                 &output, &output_count),
                   GRT_STATUS_FAILED_PRECONDITION,
                   "call of @sym: operand 1 dimension 0 must equal operand 0 dimension 0");
  grt_hal_buffer_view_t* small[2] = {views[2], views[2]};
  grt_expect_error(grt_runtime_call_buffer_views(s.session, "m.sym", 2, small, 1, &output,
                                                 &output_count),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "@sym: argument 0 dimension 0 must be at least 8 ('dispatch' at 1:1, limit): "
                   "expected at least 8, got 4");
  grt_hal_buffer_view_t* rank2[2] = {views[3], views[0]};
  grt_expect_error(grt_runtime_call_buffer_views(s.session, "m.sym", 2, rank2, 1, &output,
                                                 &output_count),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "argument 0: expected tensor<?xf32>, got tensor<4x10xf32>");
  for (int i = 0; i < 4; ++i) grt_hal_buffer_view_release(views[i]);
  end_session(&s);
}

static void test_symbolic_run_local_sync(void** state) {
  (void)state;
  run_symbolic("local-sync", 0);
}

// Host allocations counted: a recording allocates its command buffer and
// its command arena, a replayed call neither.
typedef struct counting_allocator_t {
  uint64_t allocations;
} counting_allocator_t;

static void* counting_allocate(void* self, size_t size, size_t alignment) {
  ++((counting_allocator_t*)self)->allocations;
  grt_allocator_t system = grt_allocator_system();
  return system.vtable->allocate(system.self, size, alignment);
}

static void* counting_reallocate(void* self, void* ptr, size_t old_size, size_t new_size,
                                 size_t alignment) {
  ++((counting_allocator_t*)self)->allocations;
  grt_allocator_t system = grt_allocator_system();
  return system.vtable->reallocate(system.self, ptr, old_size, new_size, alignment);
}

static void counting_free(void* self, void* ptr) {
  (void)self;
  grt_allocator_t system = grt_allocator_system();
  system.vtable->free(system.self, ptr);
}

// The host allocations of one call of m.sym at size |n|.
static uint64_t sym_call_allocations(session_t* s, counting_allocator_t* counter,
                                     const float* x, grt_hal_dim_t n) {
  grt_hal_buffer_view_t* inputs[2] = {NULL, NULL};
  symbolic_input(s->device, x, n, &inputs[0]);
  symbolic_input(s->device, x, n, &inputs[1]);
  grt_hal_buffer_view_t* output = NULL;
  size_t output_count = 0;
  uint64_t before = counter->allocations;
  GRT_EXPECT_OK(grt_runtime_call_buffer_views(s->session, "m.sym", 2, inputs, 1, &output,
                                              &output_count));
  uint64_t count = counter->allocations - before;
  float out[64];
  float c = bits_as_float((uint32_t)n);
  GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(s->device, output, out,
                                                 (size_t)n * sizeof(float)));
  for (grt_hal_dim_t i = 0; i < n; ++i) assert_true(out[i] == (x[i] * c + x[i]) * c);
  grt_hal_buffer_view_release(output);
  grt_hal_buffer_view_release(inputs[1]);
  grt_hal_buffer_view_release(inputs[0]);
  return count;
}

// The recording cache keeps 4 sizes, least recently used replaced: calls
// alternating between two sizes replay after the first of each, and a
// fifth size evicts the size used longest ago (which records again) but
// keeps the others.
static void test_symbolic_recording_cache(void** state) {
  (void)state;
  build_symbolic_program();
  f.no_min_lengths = true;
  emit(NULL, 0);
  grt_module_file_release(f.file);
  f.file = NULL;
  grt_allocator_free(grt_allocator_system(), f.data);
  f.data = NULL;
  add_executable(grt_hal_local_host_executable_format(), true);
  GRT_EXPECT_OK(grt_module_writer_finish(f.writer, &f.data, &f.size));
  static const grt_allocator_vtable_t vtable = {counting_allocate, counting_reallocate,
                                                counting_free};
  counting_allocator_t counter = {0};
  grt_runtime_instance_options_t options = {{&vtable, &counter}};
  session_t s = {NULL, NULL, NULL};
  GRT_EXPECT_OK(grt_runtime_instance_create(&options, &s.instance));
  GRT_EXPECT_OK(grt_runtime_instance_create_device(s.instance, "local-sync", NULL, &s.device));
  GRT_EXPECT_OK(grt_runtime_session_create(s.instance, s.device, &s.session));
  GRT_EXPECT_OK(grt_runtime_session_append_module_from_memory(
      s.session, grt_make_const_byte_span(f.data, f.size)));
  float x[64];
  for (int i = 0; i < 64; ++i) x[i] = (float)i * 0.5f + 1.0f;
  // Sizes at least 8 (the program's bound).
  uint64_t record_8 = sym_call_allocations(&s, &counter, x, 8);
  uint64_t record_16 = sym_call_allocations(&s, &counter, x, 16);
  uint64_t replay_8 = sym_call_allocations(&s, &counter, x, 8);
  uint64_t replay_16 = sym_call_allocations(&s, &counter, x, 16);
  assert_true(replay_8 < record_16);
  assert_int_equal(replay_16, replay_8);
  assert_int_equal(sym_call_allocations(&s, &counter, x, 8), replay_8);
  // Two more sizes fill the cache; a fifth evicts 16 (8 was used later).
  assert_true(sym_call_allocations(&s, &counter, x, 9) > replay_8);
  assert_true(sym_call_allocations(&s, &counter, x, 10) > replay_8);
  assert_int_equal(sym_call_allocations(&s, &counter, x, 8), replay_8);
  assert_true(sym_call_allocations(&s, &counter, x, 11) > replay_8);
  assert_int_equal(sym_call_allocations(&s, &counter, x, 8), replay_8);
  assert_int_equal(sym_call_allocations(&s, &counter, x, 9), replay_8);
  assert_int_equal(sym_call_allocations(&s, &counter, x, 10), replay_8);
  assert_int_equal(sym_call_allocations(&s, &counter, x, 11), replay_8);
  assert_true(sym_call_allocations(&s, &counter, x, 16) > replay_8);
  (void)record_8;
  end_session(&s);
}

static void test_symbolic_run_local_task(void** state) {
  (void)state;
  run_symbolic("local-task", 0);
}

static void test_symbolic_run_one_shot(void** state) {
  (void)state;
  run_symbolic("local-sync", GRTC_HOST_FLAG_ONE_SHOT);
  assert_null(strstr(grt_string_builder_cstring(&f.text), "execute.indirect(%device, "));
}

// A size two symbols multiply (an outer product) could pass 2^48 bytes at
// sizes each within INT32_MAX: the program checks it before multiplying,
// and sizes within it run.
//   outer(x: ?s0 x 65536 x f32, y: ?s1 x f32) -> ?s0 x ?s1 x 65536 x f32
static void test_symbolic_size_limit(void** state) {
  (void)state;
  grtc_ttype_t x = {GRTC_ELEM_F32, 2, {GRTC_DIM_SYMBOL(0), 65536}};
  grtc_ttype_t y = test_vector(GRTC_ELEM_F32, GRTC_DIM_SYMBOL(1));
  grtc_ttype_t out = {GRTC_ELEM_F32, 3, {GRTC_DIM_SYMBOL(0), GRTC_DIM_SYMBOL(1), 65536}};
  grtc_ttype_t args[2] = {x, y};
  grtc_tfunc_t* func = new_func("outer", args, 2, &out, 1, true);
  int64_t dim = 0;
  for (uint32_t i = 0; i < 2; ++i) {
    GRT_EXPECT_OK(grtc_tmodule_new_symbol(f.module, func, GRTC_SYM_ARGUMENT, NULL, i, 0, &dim));
  }
  grtc_tvalue_t* operands[2] = {&func->body->args[0], &func->body->args[1]};
  grtc_tvalue_t* r = test_dispatch(f.module, func->body, ADD, operands, 2, out);
  test_return(f.module, func->body, &r, 1);
  f.no_min_lengths = true;
  emit(NULL, 0);
  const char* text = grt_string_builder_cstring(&f.text);
  assert_non_null(strstr(text, "\"@outer: a tensor of 262144*s0*s1 bytes would exceed 2^48 bytes "
                               "at these argument sizes\""));
  assert_non_null(strstr(text, "vm.div.i64.s"));
  session_t s = start_session("local-sync");
  static float zeros[2 * 65536];
  grt_hal_buffer_view_t* inputs[2] = {NULL, NULL};
  const grt_hal_dim_t x_shape[2] = {2, 65536};
  const grt_hal_dim_t y_shape[1] = {3};
  GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
      s.device, x_shape, 2, GRT_HAL_ELEMENT_TYPE_FLOAT_32, zeros, sizeof(zeros), &inputs[0]));
  GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
      s.device, y_shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, zeros, 3 * sizeof(float), &inputs[1]));
  grt_hal_buffer_view_t* output = NULL;
  size_t output_count = 0;
  GRT_EXPECT_OK(grt_runtime_call_buffer_views(s.session, "m.outer", 2, inputs, 1, &output,
                                              &output_count));
  assert_int_equal(grt_hal_buffer_view_byte_length(output), 2 * 3 * 65536 * 4);
  grt_hal_buffer_view_release(output);
  grt_hal_buffer_view_release(inputs[1]);
  grt_hal_buffer_view_release(inputs[0]);
  end_session(&s);
}

// A symbol an op's shape rule computes is a diagnostic at the op.
static void test_symbolic_result_symbol(void** state) {
  (void)state;
  grtc_ttype_t x = test_vector(GRTC_ELEM_F32, GRTC_DIM_SYMBOL(0));
  grtc_ttype_t computed = test_vector(GRTC_ELEM_F32, GRTC_DIM_SYMBOL(1));
  grtc_tfunc_t* func = new_func("g", &x, 1, &computed, 1, true);
  int64_t dim = 0;
  GRT_EXPECT_OK(grtc_tmodule_new_symbol(f.module, func, GRTC_SYM_ARGUMENT, NULL, 0, 0, &dim));
  grtc_tvalue_t* r = test_dispatch(f.module, func->body, ADD,
                                   (grtc_tvalue_t* const[]){&func->body->args[0],
                                                            &func->body->args[0]},
                                   2, computed);
  GRT_EXPECT_OK(grtc_tmodule_new_symbol(f.module, func, GRTC_SYM_RESULT, r->def, 0, 0, &dim));
  test_return(f.module, func->body, &r, 1);
  grtc_host_options_t options = {0};
  grt_expect_error(grtc_host_emit_text(f.module, &f.kernels, NULL, 0, &options,
                                       grt_allocator_system(), &f.text),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "m.mlir:1:1: error: 'dispatch' result 0 dimension 0 is s1: result 0 "
                   "dimension 0 of 'dispatch' at 1:1; the host program reads only argument "
                   "dimensions at the call");
}

// (s0 * s0 + 7) as new nodes (structurally equal to earlier ones, not the
// same pointers).
static const grtc_sexpr_t* square_plus_7(void) {
  const grtc_sexpr_t* s0 = grtc_tmodule_sexpr(f.module, GRTC_SEXPR_DIM, GRTC_DIM_SYMBOL(0), NULL,
                                              NULL);
  return grtc_tmodule_sexpr(f.module, GRTC_SEXPR_ADD, 0,
                            grtc_tmodule_sexpr(f.module, GRTC_SEXPR_MUL, 0, s0, s0),
                            grtc_tmodule_sexpr(f.module, GRTC_SEXPR_CONST, 7, NULL, NULL));
}

// Two computed extents of a reshape, (s0 * s0 + 7) / 3 and
// (s0 * s0 + 7) % 5, share a subexpression whose arithmetic needs overflow
// checks: the host program computes it once (s1's computation, whose
// checks name s1), and s2 reuses it (only its own remainder's check).
static void test_symbolic_shared_subexpression(void** state) {
  (void)state;
  grtc_ttype_t x = test_vector(GRTC_ELEM_F32, GRTC_DIM_SYMBOL(0));
  grtc_ttype_t shaped = {GRTC_ELEM_F32, 2, {GRTC_DIM_SYMBOL(1), GRTC_DIM_SYMBOL(2)}};
  grtc_tfunc_t* func = new_func("g", &x, 1, &shaped, 1, true);
  int64_t dim = 0;
  GRT_EXPECT_OK(grtc_tmodule_new_symbol(f.module, func, GRTC_SYM_ARGUMENT, NULL, 0, 0, &dim));
  grtc_tvalue_t* operand = &func->body->args[0];
  grtc_top_t* reshape = test_op(f.module, func->body, GRTC_TOP_RESHAPE, &operand, 1, &shaped, 0);
  for (uint32_t axis = 0; axis < 2; ++axis) {
    GRT_EXPECT_OK(
        grtc_tmodule_new_symbol(f.module, func, GRTC_SYM_RESULT, reshape, 0, axis, &dim));
    assert_int_equal(dim, GRTC_DIM_SYMBOL(1 + axis));
    grtc_tsym_t* sym = &f.module->shapes->syms[1 + axis];
    sym->expr = grtc_tmodule_sexpr(
        f.module, axis == 0 ? GRTC_SEXPR_DIV : GRTC_SEXPR_REM, 0, square_plus_7(),
        grtc_tmodule_sexpr(f.module, GRTC_SEXPR_CONST, axis == 0 ? 3 : 5, NULL, NULL));
    sym->expr_op_kind = GRTC_TOP_DYNAMIC_RESHAPE;
  }
  grtc_tvalue_t* result = &reshape->results[0];
  test_return(f.module, func->body, &result, 1);
  grtc_host_options_t options = {0};
  GRT_EXPECT_OK(grtc_host_emit_text(f.module, &f.kernels, NULL, 0, &options,
                                    grt_allocator_system(), &f.text));
  const char* text = grt_string_builder_cstring(&f.text);
  static const char kOverflows[] =
      " computed from its shape operand): its shape operand's arithmetic overflows";
  static const char* const kPresent[] = {
      "(s1, computed from its shape operand): its shape operand divides by zero",
      "(s2, computed from its shape operand): its shape operand divides by zero",
  };
  for (size_t i = 0; i < sizeof(kPresent) / sizeof(kPresent[0]); ++i) {
    if (!strstr(text, kPresent[i])) {
      fprintf(stderr, "%s", text);
      fail_msg("missing '%s'", kPresent[i]);
    }
  }
  // Both functions (g and g$buffers) check s0 * s0 and its sum with 7
  // once each, naming s1; none names s2.
  char s1[128], s2[128];
  snprintf(s1, sizeof(s1), "(s1,%s", kOverflows);
  snprintf(s2, sizeof(s2), "(s2,%s", kOverflows);
  int s1_checks = 0;
  for (const char* at = strstr(text, s1); at; at = strstr(at + 1, s1)) ++s1_checks;
  if (s1_checks == 0 || strstr(text, s2)) {
    fprintf(stderr, "%s", text);
    fail_msg("expected the shared subexpression's checks to name s1 only (%d named s1)",
             s1_checks);
  }
}

// A kernel extent the function does not read from its arguments.
static void test_symbolic_unknown_extent(void** state) {
  (void)state;
  grtc_ttype_t x = test_vector(GRTC_ELEM_F32, GRTC_DIM_SYMBOL(0));
  grtc_tfunc_t* func = new_func("h", &x, 1, &x, 1, true);
  grtc_tfunc_t* other = new_func("other", &x, 1, &x, 1, false);
  int64_t dim = 0;
  GRT_EXPECT_OK(grtc_tmodule_new_symbol(f.module, func, GRTC_SYM_ARGUMENT, NULL, 0, 0, &dim));
  GRT_EXPECT_OK(grtc_tmodule_new_symbol(f.module, other, GRTC_SYM_ARGUMENT, NULL, 0, 0, &dim));
  grtc_tvalue_t* r = scale(func->body, &func->body->args[0]);
  test_return(f.module, func->body, &r, 1);
  grtc_tvalue_t* other_arg = &other->body->args[0];
  test_return(f.module, other->body, &other_arg, 1);
  make_scale_symbolic(1);  // other's symbol
  grtc_host_options_t options = {0};
  grt_expect_error(grtc_host_emit_text(f.module, &f.kernels, NULL, 0, &options,
                                       grt_allocator_system(), &f.text),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "kernel 'scale_f32' extent 0 is s1: argument 0 dimension 0 of @other, which "
                   "@h does not read from its arguments");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_module_file, setup, teardown),
      cmocka_unit_test_setup_teardown(test_workgroup_sizes_recorded, setup, teardown),
      cmocka_unit_test_setup_teardown(test_built_and_printed_agree, setup, teardown),
      cmocka_unit_test_setup_teardown(test_unsupported_op, setup, teardown),
      cmocka_unit_test_setup_teardown(test_binding_count_mismatch, setup, teardown),
      cmocka_unit_test_setup_teardown(test_module_name, setup, teardown),
      cmocka_unit_test_setup_teardown(test_run_local_sync, setup, teardown),
      cmocka_unit_test_setup_teardown(test_run_local_task, setup, teardown),
      cmocka_unit_test_setup_teardown(test_run_one_shot, setup, teardown),
      cmocka_unit_test_setup_teardown(test_many_live_values, setup, teardown),
      cmocka_unit_test_setup_teardown(test_empty_tensor, setup, teardown),
      cmocka_unit_test_setup_teardown(test_barriers_only_for_hazards, setup, teardown),
      cmocka_unit_test_setup_teardown(test_workgroup_counts_per_executable, setup, teardown),
      cmocka_unit_test_setup_teardown(test_run_workgroup_counts_per_executable, setup, teardown),
      cmocka_unit_test_setup_teardown(test_symbolic_text, setup, teardown),
      cmocka_unit_test_setup_teardown(test_symbolic_run_local_sync, setup, teardown),
      cmocka_unit_test_setup_teardown(test_symbolic_run_local_task, setup, teardown),
      cmocka_unit_test_setup_teardown(test_symbolic_recording_cache, setup, teardown),
      cmocka_unit_test_setup_teardown(test_symbolic_run_one_shot, setup, teardown),
      cmocka_unit_test_setup_teardown(test_symbolic_size_limit, setup, teardown),
      cmocka_unit_test_setup_teardown(test_symbolic_result_symbol, setup, teardown),
      cmocka_unit_test_setup_teardown(test_symbolic_unknown_extent, setup, teardown),
      cmocka_unit_test_setup_teardown(test_symbolic_shared_subexpression, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
