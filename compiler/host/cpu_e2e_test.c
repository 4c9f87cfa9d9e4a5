// The host program with kernels built by the CPU target (grtc_cpu_build):
// a hand-made elementwise kernel (out = a * b + 1, tiled into several
// workgroups of workgroup size 1x1x1) dispatched twice per call, with a
// constant operand, run through the embedding API on local-sync and
// local-task, one-shot and replayed; and its shape-polymorphic form (the
// kernel's extent a push constant, run at several sizes).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "compiler/host/host.h"
#include "compiler/host/test_ir.h"
#include "compiler/target/cpu/cpu_target.h"
#include "hal/transfer.h"
#include "runtime/session.h"

#define N 1000

static float constant_values[N];

// k(x, y) = x * y + 1 over N elements, or (|symbol| >= 0) over the extent
// of tensor symbol |symbol|, in tiles of 256.
static void build_kernel(grtc_kernel_set_t* kernels, int64_t symbol) {
  grtc_kernel_t* k = NULL;
  GRT_EXPECT_OK(grtc_kernel_set_add(kernels, "mul_add", 3, &k, NULL));
  for (int b = 0; b < 3; ++b) {
    k->bindings[b].elem = GRTC_ELEM_F32;
    k->bindings[b].element_count = symbol >= 0 ? -1 : N;
    k->bindings[b].access = b == 2 ? GRTC_KACCESS_WRITE : GRTC_KACCESS_READ;
  }
  k->parallel_rank = 1;
  k->parallel_dims[0] = N;
  k->tile[0] = 256;
  if (symbol >= 0) {
    uint32_t extent = 0;
    GRT_EXPECT_OK(grtc_kernel_add_extent(kernels, k, (uint32_t)symbol, &extent));
    k->parallel_dims[0] = GRTC_KDIM_EXTENT(extent);
  }
  GRT_EXPECT_OK(grtc_kernel_finalize_workgroups(k));
  assert_int_equal(k->workgroup_count, symbol >= 0 ? 0 : 4);
  uint32_t i = 0, x = 0, y = 0, one = 0, product = 0, sum = 0;
  grtc_kinst_t inst = {.kind = GRTC_KINST_PINDEX, .type = GRTC_ELEM_I64, .dim = 0};
  GRT_EXPECT_OK(grtc_kernel_add_inst(kernels, k, &inst, &i));
  for (uint32_t b = 0; b < 2; ++b) {
    grtc_kinst_t load = {.kind = GRTC_KINST_LOAD, .type = GRTC_ELEM_F32, .binding = b,
                         .operand_count = 1, .operands = {i}};
    GRT_EXPECT_OK(grtc_kernel_add_inst(kernels, k, &load, b ? &y : &x));
  }
  grtc_kinst_t constant = {.kind = GRTC_KINST_CONST, .type = GRTC_ELEM_F32, .value.f = 1.0};
  GRT_EXPECT_OK(grtc_kernel_add_inst(kernels, k, &constant, &one));
  grtc_kinst_t mul = {.kind = GRTC_KINST_OP, .type = GRTC_ELEM_F32, .op = GRTC_SCALAR_MUL,
                      .operand_count = 2, .operands = {x, y}};
  GRT_EXPECT_OK(grtc_kernel_add_inst(kernels, k, &mul, &product));
  grtc_kinst_t add = {.kind = GRTC_KINST_OP, .type = GRTC_ELEM_F32, .op = GRTC_SCALAR_ADD,
                      .operand_count = 2, .operands = {product, one}};
  GRT_EXPECT_OK(grtc_kernel_add_inst(kernels, k, &add, &sum));
  grtc_kstore_t store = {2, i, sum, GRTC_KINST_NONE};
  GRT_EXPECT_OK(grtc_kernel_add_store(kernels, k, &store));
  GRT_EXPECT_OK(grtc_kernel_verify(k));
}

// main(a, b) = k(k(a, b), c) with k(x, y) = x * y + 1 and c[i] = i.
static void build(grtc_tmodule_t* module, grtc_kernel_set_t* kernels) {
  build_kernel(kernels, -1);

  grtc_ttype_t v = test_vector(GRTC_ELEM_F32, N);
  grtc_ttype_t two[2] = {v, v};
  grtc_tfunc_t* func = NULL;
  GRT_EXPECT_OK(grtc_tfunc_create(module, grt_make_cstring_view("main"), two, 2, &v, 1, &func));
  func->is_public = true;
  grtc_tblock_t* body = func->body;
  for (int e = 0; e < N; ++e) constant_values[e] = (float)e;
  grtc_top_t* c = test_op(module, body, GRTC_TOP_CONSTANT, NULL, 0, &v, 0);
  c->attrs.constant.data = (const uint8_t*)constant_values;
  c->attrs.constant.size = sizeof(constant_values);
  grtc_tvalue_t* first_operands[2] = {&body->args[0], &body->args[1]};
  grtc_tvalue_t* first = test_dispatch(module, body, 0, first_operands, 2, v);
  grtc_tvalue_t* second_operands[2] = {first, &c->results[0]};
  grtc_tvalue_t* second = test_dispatch(module, body, 0, second_operands, 2, v);
  test_return(module, body, &second, 1);
}

// The shape-polymorphic form (docs/compiler.md "Symbolic shapes"):
// sym(a: ?s0 x f32, b: ?s1 x f32) = k(k(a, b), a), s1 == s0 by the first
// dispatch.
static void build_symbolic(grtc_tmodule_t* module, grtc_kernel_set_t* kernels) {
  build_kernel(kernels, 0);
  grtc_ttype_t types[2] = {test_vector(GRTC_ELEM_F32, GRTC_DIM_SYMBOL(0)),
                           test_vector(GRTC_ELEM_F32, GRTC_DIM_SYMBOL(1))};
  grtc_tfunc_t* func = NULL;
  GRT_EXPECT_OK(
      grtc_tfunc_create(module, grt_make_cstring_view("sym"), types, 2, &types[0], 1, &func));
  func->is_public = true;
  int64_t dim = 0;
  for (uint32_t i = 0; i < 2; ++i) {
    GRT_EXPECT_OK(grtc_tmodule_new_symbol(module, func, GRTC_SYM_ARGUMENT, NULL, i, 0, &dim));
    assert_int_equal(dim, GRTC_DIM_SYMBOL(i));
  }
  grtc_tblock_t* body = func->body;
  grtc_tvalue_t* first_operands[2] = {&body->args[0], &body->args[1]};
  grtc_tvalue_t* first = test_dispatch(module, body, 0, first_operands, 2, types[0]);
  bool conflict = true;
  GRT_EXPECT_OK(grtc_tmodule_relate(module, func, GRTC_REL_EQ, GRTC_DIM_SYMBOL(1),
                                    GRTC_DIM_SYMBOL(0), first->def, "operand 1 dimension 0",
                                    &conflict));
  assert_false(conflict);
  grtc_tvalue_t* second_operands[2] = {first, &body->args[0]};
  grtc_tvalue_t* second = test_dispatch(module, body, 0, second_operands, 2, types[0]);
  test_return(module, body, &second, 1);
  grtc_tfunc_resolve_shapes(module, func);
}

// Builds the kernels with the CPU target and the host program into a
// module file (*out_data, freed by the caller) and opens a session on it.
typedef struct session_t {
  grt_runtime_instance_t* instance;
  grt_hal_device_t* device;
  grt_runtime_session_t* session;
  void* data;
} session_t;

static session_t compile_and_open_text(grtc_tmodule_t* module, grtc_kernel_set_t* kernels,
                                       const char* uri, uint32_t flags,
                                       grt_string_builder_t* text) {
  grt_allocator_t allocator = grt_allocator_system();
  grtc_cpu_options_t cpu_options = {.features = "generic", .optimization_level = 1};
  uint8_t* binary = NULL;
  size_t binary_size = 0;
  char format[32];
  GRT_EXPECT_OK(grtc_cpu_build(kernels, &cpu_options, allocator, &binary, &binary_size, format));
  grt_module_writer_t* writer = NULL;
  GRT_EXPECT_OK(grt_module_writer_create(allocator, &writer));
  grtc_host_executable_t executable = {format, binary, binary_size, NULL, NULL};
  grtc_host_options_t options = {flags};
  GRT_EXPECT_OK(grtc_host_emit(module, kernels, &executable, 1, &options, allocator, writer, text));
  session_t s = {NULL, NULL, NULL, NULL};
  size_t size = 0;
  GRT_EXPECT_OK(grt_module_writer_finish(writer, &s.data, &size));
  grt_module_writer_destroy(writer);
  grt_allocator_free(allocator, binary);
  GRT_EXPECT_OK(grt_runtime_instance_create(NULL, &s.instance));
  GRT_EXPECT_OK(grt_runtime_instance_create_device(s.instance, uri, NULL, &s.device));
  GRT_EXPECT_OK(grt_runtime_session_create(s.instance, s.device, &s.session));
  GRT_EXPECT_OK(grt_runtime_session_append_module_from_memory(
      s.session, grt_make_const_byte_span(s.data, size)));
  return s;
}

static session_t compile_and_open(grtc_tmodule_t* module, grtc_kernel_set_t* kernels,
                                  const char* uri, uint32_t flags) {
  return compile_and_open_text(module, kernels, uri, flags, NULL);
}

static void close_session(session_t* s) {
  grt_runtime_session_release(s->session);
  grt_hal_device_release(s->device);
  grt_runtime_instance_release(s->instance);
  grt_allocator_free(grt_allocator_system(), s->data);
}

// sym at sizes that need 4, 2, 1 and 0 workgroups, each twice (the second
// call replays the recording made for its size), then mismatched sizes.
static void run_symbolic(const char* uri, uint32_t flags) {
  grt_allocator_t allocator = grt_allocator_system();
  grtc_tmodule_t* module = NULL;
  GRT_EXPECT_OK(grtc_tmodule_create("cpu", "cpu.mlir", allocator, &module));
  grtc_kernel_set_t kernels;
  grtc_kernel_set_init(allocator, &kernels);
  build_symbolic(module, &kernels);
  session_t s = compile_and_open(module, &kernels, uri, flags);
  static float a[N], b[N], out[N];
  static const grt_hal_dim_t kSizes[] = {N, N, 300, 300, 1, 0, N};
  for (size_t call = 0; call < sizeof(kSizes) / sizeof(kSizes[0]); ++call) {
    grt_hal_dim_t n = kSizes[call];
    for (int e = 0; e < N; ++e) {
      a[e] = (float)(e % 7) + (float)call;
      b[e] = 0.5f * (float)(e % 5);
    }
    grt_hal_buffer_view_t* inputs[2] = {NULL, NULL};
    GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
        s.device, &n, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, a, (size_t)n * 4, &inputs[0]));
    GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
        s.device, &n, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, b, (size_t)n * 4, &inputs[1]));
    grt_hal_buffer_view_t* output = NULL;
    size_t output_count = 0;
    GRT_EXPECT_OK(
        grt_runtime_call_buffer_views(s.session, "cpu.sym", 2, inputs, 1, &output, &output_count));
    assert_int_equal(grt_hal_buffer_view_dim(output, 0), n);
    GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(s.device, output, out, (size_t)n * 4));
    for (grt_hal_dim_t e = 0; e < n; ++e) {
      float expected = (a[e] * b[e] + 1.0f) * a[e] + 1.0f;
      if (out[e] != expected) {
        fail_msg("size %d element %d: %g, expected %g", (int)n, (int)e, out[e], expected);
      }
    }
    grt_hal_buffer_view_release(output);
    grt_hal_buffer_view_release(inputs[1]);
    grt_hal_buffer_view_release(inputs[0]);
  }
  grt_hal_dim_t sizes[2] = {10, 11};
  grt_hal_buffer_view_t* inputs[2] = {NULL, NULL};
  for (int i = 0; i < 2; ++i) {
    GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
        s.device, &sizes[i], 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, a, (size_t)sizes[i] * 4,
        &inputs[i]));
  }
  grt_hal_buffer_view_t* output = NULL;
  size_t output_count = 0;
  grt_expect_error(
      grt_runtime_call_buffer_views(s.session, "cpu.sym", 2, inputs, 1, &output, &output_count),
      GRT_STATUS_INVALID_ARGUMENT,
      "@sym: argument 1 dimension 0 must equal argument 0 dimension 0 ('dispatch' at 1:1, "
      "operand 1 dimension 0): expected 10, got 11");
  grt_hal_buffer_view_release(inputs[1]);
  grt_hal_buffer_view_release(inputs[0]);
  close_session(&s);
  grtc_kernel_set_deinit(&kernels);
  grtc_tmodule_destroy(module);
}

static void test_symbolic_local_sync_replayed(void** state) {
  (void)state;
  run_symbolic("local-sync", 0);
}

static void test_symbolic_local_task_replayed(void** state) {
  (void)state;
  run_symbolic("local-task", 0);
}

static void test_symbolic_local_task_one_shot(void** state) {
  (void)state;
  run_symbolic("local-task", GRTC_HOST_FLAG_ONE_SHOT);
}

// With |split_max| > 0 the kernel's tile is a run-time split
// (grtc_kernel_t.split_max): the program reads the device's concurrency
// once, in its initializer, and each dispatch passes the split as its push
// constant with the workgroup count it gives (local-sync: split 1, one
// workgroup; local-task: one tile per worker up to split_max).
static void run_split(const char* uri, uint32_t flags, uint32_t split_max) {
  grt_allocator_t allocator = grt_allocator_system();
  grtc_tmodule_t* module = NULL;
  GRT_EXPECT_OK(grtc_tmodule_create("cpu", "cpu.mlir", allocator, &module));
  grtc_kernel_set_t kernels;
  grtc_kernel_set_init(allocator, &kernels);
  build(module, &kernels);
  kernels.kernels[0]->split_max = split_max;
  GRT_EXPECT_OK(grtc_kernel_verify(kernels.kernels[0]));
  grt_string_builder_t text;
  grt_string_builder_init(allocator, &text);
  session_t s = compile_and_open_text(module, &kernels, uri, flags, &text);
  const char* program = grt_string_builder_cstring(&text);
  const char* query = strstr(program, "hal.device.query.i64");
  if (split_max > 0) {
    // Declared, called once (in the initializer), and the dispatches read
    // the global it fills.
    assert_non_null(query);
    query = strstr(query + 1, "hal.device.query.i64");
    assert_non_null(query);
    assert_null(strstr(query + 1, "hal.device.query.i64"));
    assert_non_null(strstr(program, "@__concurrency"));
    assert_non_null(strstr(program, "vm.min.i64.s"));
  } else {
    assert_null(query);
    assert_null(strstr(program, "@__concurrency"));
  }
  grt_string_builder_deinit(&text);
  grt_hal_device_t* device = s.device;
  grt_runtime_session_t* session = s.session;
  static float a[N], b[N], out[N];
  const grt_hal_dim_t shape[1] = {N};
  for (int call = 0; call < 3; ++call) {
    for (int e = 0; e < N; ++e) {
      a[e] = (float)(e % 7) + (float)call;
      b[e] = 0.5f * (float)(e % 5);
    }
    grt_hal_buffer_view_t* inputs[2] = {NULL, NULL};
    GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
        device, shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, a, sizeof(a), &inputs[0]));
    GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
        device, shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, b, sizeof(b), &inputs[1]));
    grt_hal_buffer_view_t* output = NULL;
    size_t output_count = 0;
    GRT_EXPECT_OK(
        grt_runtime_call_buffer_views(session, "cpu.main", 2, inputs, 1, &output, &output_count));
    GRT_EXPECT_OK(grt_hal_buffer_view_read_to_host(device, output, out, sizeof(out)));
    for (int e = 0; e < N; ++e) {
      float expected = (a[e] * b[e] + 1.0f) * (float)e + 1.0f;
      if (out[e] != expected) fail_msg("call %d element %d: %g, expected %g", call, e, out[e], expected);
    }
    grt_hal_buffer_view_release(output);
    grt_hal_buffer_view_release(inputs[1]);
    grt_hal_buffer_view_release(inputs[0]);
  }
  close_session(&s);
  grtc_kernel_set_deinit(&kernels);
  grtc_tmodule_destroy(module);
}

static void run(const char* uri, uint32_t flags) { run_split(uri, flags, 0); }

static void test_split_local_sync(void** state) {
  (void)state;
  run_split("local-sync", 0, 8);
}

static void test_split_local_task(void** state) {
  (void)state;
  run_split("local-task", 0, 8);
  run_split("local-task", GRTC_HOST_FLAG_ONE_SHOT, 3);
}

// A symbolic kernel cannot take a run-time split (the kernel verifier
// refuses it too): the host program says so instead of guessing a count.
static void test_split_symbolic_refused(void** state) {
  (void)state;
  grt_allocator_t allocator = grt_allocator_system();
  grtc_tmodule_t* module = NULL;
  GRT_EXPECT_OK(grtc_tmodule_create("cpu", "cpu.mlir", allocator, &module));
  grtc_kernel_set_t kernels;
  grtc_kernel_set_init(allocator, &kernels);
  build_symbolic(module, &kernels);
  kernels.kernels[0]->split_max = 2;
  grt_module_writer_t* writer = NULL;
  GRT_EXPECT_OK(grt_module_writer_create(allocator, &writer));
  grtc_host_executable_t executable = {"cpu-x86_64", (const uint8_t*)"", 0, NULL, NULL};
  grtc_host_options_t options = {0};
  grt_expect_error(
      grtc_host_emit(module, &kernels, &executable, 1, &options, allocator, writer, NULL),
      GRT_STATUS_INVALID_ARGUMENT, "kernel 'mul_add' has a run-time split but symbolic extents");
  grt_module_writer_destroy(writer);
  grtc_kernel_set_deinit(&kernels);
  grtc_tmodule_destroy(module);
}

static void test_local_sync_replayed(void** state) {
  (void)state;
  run("local-sync", 0);
}

static void test_local_task_replayed(void** state) {
  (void)state;
  run("local-task", 0);
}

static void test_local_task_one_shot(void** state) {
  (void)state;
  run("local-task", GRTC_HOST_FLAG_ONE_SHOT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_local_sync_replayed),
      cmocka_unit_test(test_local_task_replayed),
      cmocka_unit_test(test_local_task_one_shot),
      cmocka_unit_test(test_split_local_sync),
      cmocka_unit_test(test_split_local_task),
      cmocka_unit_test(test_split_symbolic_refused),
      cmocka_unit_test(test_symbolic_local_sync_replayed),
      cmocka_unit_test(test_symbolic_local_task_replayed),
      cmocka_unit_test(test_symbolic_local_task_one_shot),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
