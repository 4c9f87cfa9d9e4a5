// bench_matmul: f32 1024x1024x1024 through the CPU target's MATMUL kernel
// (tiled as grt-compile tiles it, grtc_dispatch_choose_tile, unless
// TILE_M/TILE_N are given; built by grtc_cpu_build for the host, run by calling the kernel once per
// workgroup as local-sync does, then on two threads splitting the
// workgroups as local-task would) beside OpenBLAS cblas_sgemm on one and
// two threads in the same run (docs/architecture.md §8). Prints GFLOP/s, the
// best of several repetitions, and the ratio to the anchor. Then the same
// size as int8 (i8 x i8 -> i32 through the int8 GEMM, gemm_i8.c) on one and
// two threads with its ratio to grt's f32 kernel of the same run (issue 15
// asks for 2.5x where AVX-512 VNNI exists). Then f32 x int4 weights (the
// rhs i4 values packed two to a byte, grtc_cpu_prepack_rhs4, converted to
// f32 in registers by the int4-weight GEMM, w4.c) on one and two threads
// with its ratio to the f32 kernel of the same run, and its weight bytes
// against the f32 and i8 ones; and one row (1 x SIZE x SIZE, a batch-1
// layer, where reading the weights dominates) with f32 and with int4
// weights, their times and ratio.
//
//   bench_matmul [SIZE [REPEAT [TILE_M TILE_N [CPU_FEATURES]]]]
//
// CPU_FEATURES is grt-compile's --cpu-features (default host), say avx2,fma
// (with TILE_M TILE_N 0 0 for the compiler's tiles) to time the kernels a
// machine without AVX-512 would run.
//
// On a shared machine raise REPEAT: the best of more runs is less noisy.
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <unistd.h>

#include "base/time.h"
#include "compiler/dispatch/dispatch.h"
#include "compiler/kernel/ir.h"
#include "compiler/target/cpu/cpu_target.h"
#include "hal/local/kernel_abi.h"

#if defined(GRT_BENCH_OPENBLAS)
#include <cblas.h>
#endif

static int bench_repeat = 5;
static int64_t bench_tile_m = 0, bench_tile_n = 0;  // 0: the compiler's

static int64_t bench_n = 1024;

static grt_status_t bench_inst(grtc_kernel_set_t* set, grtc_kernel_t* k,
                               grtc_kinst_t inst, uint32_t* out) {
  return grtc_kernel_add_inst(set, k, &inst, out);
}

// out[m, n] = sum_k lhs[m, k] * rhs[k, n] with the MATMUL pattern, as
// kernel |name|: f32 throughout (|in| and |rhs_in| f32), i8 operands
// converted to an i32 accumulator and result (|in| i8, |acc| i32: the int8
// GEMM), or an f32 lhs and i8 rhs converted to f32 (the int4-weight GEMM
// once its rhs is packed).
static grt_status_t bench_build_kernel(grtc_kernel_set_t* set, const char* name,
                                       grtc_elem_t in, grtc_elem_t rhs_in,
                                       grtc_elem_t acc_elem, int64_t m) {
  int64_t n = bench_n;
  grtc_kernel_t* k = NULL;
  GRT_RETURN_IF_ERROR(grtc_kernel_set_add(set, name, 3, &k, NULL));
  k->bindings[0] = (grtc_kbinding_t){in, m * n, GRTC_KACCESS_READ};
  k->bindings[1] = (grtc_kbinding_t){rhs_in, n * n, GRTC_KACCESS_READ};
  k->bindings[2] = (grtc_kbinding_t){acc_elem, m * n, GRTC_KACCESS_WRITE};
  k->parallel_rank = 2;
  k->parallel_dims[0] = m;
  k->parallel_dims[1] = n;
  k->reduction_rank = 1;
  k->reduction_dims[0] = n;
  uint32_t pm, pn, zero, rk, cn, li, ri, t, x, y, prod, acc, a, oi, fin;
  GRT_RETURN_IF_ERROR(bench_inst(set, k, (grtc_kinst_t){.kind = GRTC_KINST_PINDEX, .type = GRTC_ELEM_I64, .dim = 0}, &pm));
  GRT_RETURN_IF_ERROR(bench_inst(set, k, (grtc_kinst_t){.kind = GRTC_KINST_PINDEX, .type = GRTC_ELEM_I64, .dim = 1}, &pn));
  GRT_RETURN_IF_ERROR(bench_inst(set, k, (grtc_kinst_t){.kind = GRTC_KINST_CONST, .type = acc_elem}, &zero));
  GRT_RETURN_IF_ERROR(grtc_kernel_add_acc(set, k, acc_elem, zero, &acc));
  GRT_RETURN_IF_ERROR(bench_inst(set, k, (grtc_kinst_t){.kind = GRTC_KINST_CONST, .type = GRTC_ELEM_I64, .value.i = n}, &cn));
  GRT_RETURN_IF_ERROR(bench_inst(set, k, (grtc_kinst_t){.kind = GRTC_KINST_RINDEX, .section = GRTC_KSECTION_LOOP, .type = GRTC_ELEM_I64}, &rk));
  GRT_RETURN_IF_ERROR(bench_inst(set, k, (grtc_kinst_t){.kind = GRTC_KINST_OP, .section = GRTC_KSECTION_LOOP, .type = GRTC_ELEM_I64, .op = GRTC_SCALAR_MUL, .operand_count = 2, .operands = {pm, cn}}, &t));
  GRT_RETURN_IF_ERROR(bench_inst(set, k, (grtc_kinst_t){.kind = GRTC_KINST_OP, .section = GRTC_KSECTION_LOOP, .type = GRTC_ELEM_I64, .op = GRTC_SCALAR_ADD, .operand_count = 2, .operands = {t, rk}}, &li));
  GRT_RETURN_IF_ERROR(bench_inst(set, k, (grtc_kinst_t){.kind = GRTC_KINST_OP, .section = GRTC_KSECTION_LOOP, .type = GRTC_ELEM_I64, .op = GRTC_SCALAR_MUL, .operand_count = 2, .operands = {rk, cn}}, &t));
  GRT_RETURN_IF_ERROR(bench_inst(set, k, (grtc_kinst_t){.kind = GRTC_KINST_OP, .section = GRTC_KSECTION_LOOP, .type = GRTC_ELEM_I64, .op = GRTC_SCALAR_ADD, .operand_count = 2, .operands = {t, pn}}, &ri));
  GRT_RETURN_IF_ERROR(bench_inst(set, k, (grtc_kinst_t){.kind = GRTC_KINST_LOAD, .section = GRTC_KSECTION_LOOP, .type = in, .binding = 0, .operand_count = 1, .operands = {li}}, &x));
  GRT_RETURN_IF_ERROR(bench_inst(set, k, (grtc_kinst_t){.kind = GRTC_KINST_LOAD, .section = GRTC_KSECTION_LOOP, .type = rhs_in, .binding = 1, .operand_count = 1, .operands = {ri}}, &y));
  if (in != acc_elem) {
    GRT_RETURN_IF_ERROR(bench_inst(set, k, (grtc_kinst_t){.kind = GRTC_KINST_CONVERT, .section = GRTC_KSECTION_LOOP, .type = acc_elem, .operand_count = 1, .operands = {x}}, &x));
  }
  if (rhs_in != acc_elem) {
    GRT_RETURN_IF_ERROR(bench_inst(set, k, (grtc_kinst_t){.kind = GRTC_KINST_CONVERT, .section = GRTC_KSECTION_LOOP, .type = acc_elem, .operand_count = 1, .operands = {y}}, &y));
  }
  GRT_RETURN_IF_ERROR(bench_inst(set, k, (grtc_kinst_t){.kind = GRTC_KINST_OP, .section = GRTC_KSECTION_LOOP, .type = acc_elem, .op = GRTC_SCALAR_MUL, .operand_count = 2, .operands = {x, y}}, &prod));
  GRT_RETURN_IF_ERROR(bench_inst(set, k, (grtc_kinst_t){.kind = GRTC_KINST_ACC, .section = GRTC_KSECTION_LOOP, .type = acc_elem}, &a));
  GRT_RETURN_IF_ERROR(bench_inst(set, k, (grtc_kinst_t){.kind = GRTC_KINST_OP, .section = GRTC_KSECTION_LOOP, .type = acc_elem, .op = GRTC_SCALAR_ADD, .operand_count = 2, .operands = {a, prod}}, &k->accs[acc].update));
  GRT_RETURN_IF_ERROR(bench_inst(set, k, (grtc_kinst_t){.kind = GRTC_KINST_ACC, .section = GRTC_KSECTION_POST, .type = acc_elem}, &fin));
  GRT_RETURN_IF_ERROR(bench_inst(set, k, (grtc_kinst_t){.kind = GRTC_KINST_OP, .section = GRTC_KSECTION_POST, .type = GRTC_ELEM_I64, .op = GRTC_SCALAR_MUL, .operand_count = 2, .operands = {pm, cn}}, &t));
  GRT_RETURN_IF_ERROR(bench_inst(set, k, (grtc_kinst_t){.kind = GRTC_KINST_OP, .section = GRTC_KSECTION_POST, .type = GRTC_ELEM_I64, .op = GRTC_SCALAR_ADD, .operand_count = 2, .operands = {t, pn}}, &oi));
  grtc_kstore_t store = {2, oi, fin, GRTC_KINST_NONE};
  GRT_RETURN_IF_ERROR(grtc_kernel_add_store(set, k, &store));
  k->pattern = GRTC_KPATTERN_MATMUL;
  k->matmul = (grtc_kmatmul_t){.lhs_binding = 0, .rhs_binding = 1,
                               .m = m, .n = n, .k = n,
                               .lhs_stride_m = n, .lhs_stride_k = 1,
                               .rhs_stride_k = n, .rhs_stride_n = 1,
                               .lhs_elem = in,
                               .rhs_elem = rhs_in,
                               .acc_elem = acc_elem};
  grtc_dispatch_choose_tile(k, 0);
  if (bench_tile_m > 0) {
    k->tile[0] = bench_tile_m;
    k->tile[1] = bench_tile_n;
  }
  return grtc_kernel_finalize_workgroups(k);
}

typedef struct bench_worker_t {
  const grt_kernel_entry_t* entry;
  const grt_kernel_dispatch_state_t* dispatch;
  uint32_t first, step;
  int code;
} bench_worker_t;

static void* bench_worker_main(void* arg) {
  bench_worker_t* w = arg;
  size_t scratch_size = (w->entry->local_memory_size + 63) / 64 * 64;
  void* scratch = scratch_size ? aligned_alloc(64, scratch_size) : NULL;
  grt_kernel_workgroup_state_t wg = {.local_memory = scratch,
                                     .local_memory_size = scratch_size};
  for (uint32_t i = w->first; i < w->dispatch->workgroup_count[0] && !w->code;
       i += w->step) {
    wg.workgroup_id[0] = i;
    wg.worker_id = w->first;
    w->code = w->entry->fn(w->dispatch, &wg);
  }
  free(scratch);
  return NULL;
}

// Seconds for one matmul through the kernel on |threads| threads.
static double bench_grt(const grt_kernel_entry_t* entry, uint32_t workgroups,
                        void* a, void* b, void* c, uint32_t threads) {
  void* bindings[] = {a, b, c};
  size_t lengths[3] = {0};
  grt_kernel_dispatch_state_t dispatch = {
      .workgroup_count = {workgroups, 1, 1}, .workgroup_size = {1, 1, 1},
      .binding_count = 3, .bindings = bindings, .binding_lengths = lengths};
  bench_worker_t workers[2];
  pthread_t ids[2];
  grt_time_t start = grt_time_now_ns();
  for (uint32_t t = 0; t < threads; ++t) {
    workers[t] = (bench_worker_t){entry, &dispatch, t, threads, 0};
    if (threads == 1) {
      bench_worker_main(&workers[0]);
    } else {
      pthread_create(&ids[t], NULL, bench_worker_main, &workers[t]);
    }
  }
  for (uint32_t t = 0; threads > 1 && t < threads; ++t) pthread_join(ids[t], NULL);
  double seconds = (double)(grt_time_now_ns() - start) * 1e-9;
  for (uint32_t t = 0; t < threads; ++t) {
    if (workers[t].code) {
      fprintf(stderr, "kernel failed with code %d\n", workers[t].code);
      exit(1);
    }
  }
  return seconds;
}

#if defined(GRT_BENCH_OPENBLAS)
static double bench_openblas(float* a, float* b, float* c, int threads) {
  openblas_set_num_threads(threads);
  int n = (int)bench_n;
  grt_time_t start = grt_time_now_ns();
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n,
              b, n, 0.0f, c, n);
  return (double)(grt_time_now_ns() - start) * 1e-9;
}
#endif

static double bench_gflops(double seconds) {
  return 2.0 * (double)bench_n * (double)bench_n * (double)bench_n / seconds *
         1e-9;
}

// The int8 kernel's operands and result (i8 x i8 -> i32, the int8 GEMM).
typedef struct bench_int8_t {
  const grt_kernel_entry_t* entry;
  const grtc_kernel_t* kernel;
  int8_t *a, *b;
  int32_t* c;
  double best[3];  // seconds by thread count
} bench_int8_t;

static void bench_int8_init(bench_int8_t* q, const grt_kernel_entry_t* entry,
                            const grtc_kernel_t* kernel) {
  size_t count = (size_t)(bench_n * bench_n);
  *q = (bench_int8_t){entry, kernel, malloc(count), malloc(count),
                      malloc(count * sizeof(int32_t)), {0, 1e30, 1e30}};
  if (!q->a || !q->b || !q->c) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  for (size_t i = 0; i < count; ++i) {
    q->a[i] = (int8_t)((int)(i * 7 % 251) - 125);
    q->b[i] = (int8_t)((int)(i * 5 % 241) - 120);
  }
}

static void bench_int8_run(bench_int8_t* q, uint32_t threads) {
  double s = bench_grt(q->entry, q->kernel->workgroup_count, q->a, q->b, q->c, threads);
  if (s < q->best[threads]) q->best[threads] = s;
}

// Its rows: GOP/s (a multiply and an add per product, as the f32 GFLOP/s
// count), grt's f32 of the same repetitions (|f32_best|) and the ratio; a
// sample of results is checked exactly.
static void bench_int8_report(bench_int8_t* q, const double* f32_best) {
  printf("int8 %" PRId64 "x%" PRId64 "x%" PRId64 " (i8 x i8 -> i32), grt kernel "
         "(%u workgroups of %" PRId64 "x%" PRId64 "), best of %d, against grt f32\n",
         bench_n, bench_n, bench_n, q->kernel->workgroup_count, q->kernel->tile[0],
         q->kernel->tile[1], bench_repeat);
  int64_t wrong = 0;
  for (int64_t i = 0; i < bench_n; i += 37) {
    for (int64_t j = 0; j < bench_n; j += 41) {
      int64_t want = 0;
      for (int64_t k = 0; k < bench_n; ++k) {
        want += (int64_t)q->a[i * bench_n + k] * q->b[k * bench_n + j];
      }
      wrong += q->c[i * bench_n + j] != (int32_t)want;
    }
  }
  for (uint32_t threads = 1; threads <= 2; ++threads) {
    printf("  %u thread%s: grt int8 %7.1f GOP/s   grt f32 %7.1f GFLOP/s   ratio "
           "%.2fx   (%s)\n", threads, threads > 1 ? "s" : " ",
           bench_gflops(q->best[threads]), bench_gflops(f32_best[threads]),
           f32_best[threads] / q->best[threads],
           wrong ? "WRONG results" : "sampled results exact");
  }
  free(q->a);
  free(q->b);
  free(q->c);
}

int main(int argc, char** argv) {
  if (argc > 1) bench_n = atoll(argv[1]);
  if (argc > 2) bench_repeat = atoi(argv[2]);
  if (argc > 4) {
    bench_tile_m = atoll(argv[3]);
    bench_tile_n = atoll(argv[4]);
  }
  if (bench_n < 16 || bench_n > 8192 || bench_repeat < 1 ||
      bench_repeat > 1000 || argc == 4 || argc > 6 ||
      (argc > 4 && (bench_tile_m < 0 || bench_tile_n < 0 ||
                    (bench_tile_m == 0) != (bench_tile_n == 0)))) {
    fprintf(stderr,
            "usage: bench_matmul [SIZE in 16..8192 [REPEAT in 1..1000 "
            "[TILE_M TILE_N >= 1, or 0 0: the compiler's [CPU_FEATURES]]]]\n");
    return 2;
  }
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  grt_status_t status =
      bench_build_kernel(&set, "matmul", GRTC_ELEM_F32, GRTC_ELEM_F32, GRTC_ELEM_F32, bench_n);
  if (grt_status_is_ok(status)) {
    status = bench_build_kernel(&set, "matmul_i8", GRTC_ELEM_I8, GRTC_ELEM_I8, GRTC_ELEM_I32,
                                bench_n);
  }
  // The int4 weights: values in [-8, 7], packed into the kernel's rhs.
  size_t count = (size_t)(bench_n * bench_n);
  uint8_t* w4 = malloc(count);
  uint8_t* w4_packed = malloc(count / 2 + 1);
  if (!w4 || !w4_packed) return 1;
  for (size_t i = 0; i < count; ++i) w4[i] = (uint8_t)(int8_t)((int)(i * 5 % 13) - 8);
  if (grt_status_is_ok(status)) {
    status = bench_build_kernel(&set, "matmul_w4", GRTC_ELEM_F32, GRTC_ELEM_I8, GRTC_ELEM_F32,
                                bench_n);
  }
  if (grt_status_is_ok(status)) {
    status = grtc_cpu_prepack_rhs4(&set, set.kernels[2], w4, (int64_t)count, w4_packed);
  }
  // One row (a batch-1 layer: the weights' bytes dominate), f32 and int4.
  if (grt_status_is_ok(status)) {
    status = bench_build_kernel(&set, "row_f32", GRTC_ELEM_F32, GRTC_ELEM_F32, GRTC_ELEM_F32, 1);
  }
  if (grt_status_is_ok(status)) {
    status = bench_build_kernel(&set, "row_w4", GRTC_ELEM_F32, GRTC_ELEM_I8, GRTC_ELEM_F32, 1);
  }
  if (grt_status_is_ok(status)) {
    status = grtc_cpu_prepack_rhs4(&set, set.kernels[4], w4, (int64_t)count, w4_packed);
  }
  uint8_t* binary = NULL;
  size_t size = 0;
  char format[32];
  grtc_cpu_options_t options = {.features = argc > 5 ? argv[5] : "host",
                                .optimization_level = 3};
  if (grt_status_is_ok(status)) {
    status = grtc_cpu_build(&set, &options, grt_allocator_system(), &binary,
                            &size, format);
  }
  if (!grt_status_is_ok(status)) {
    grt_status_fprint(stderr, status);
    grt_status_free(status);
    return 1;
  }
  uint32_t workgroups = set.kernels[0]->workgroup_count;
  int64_t tile_m = set.kernels[0]->tile[0], tile_n = set.kernels[0]->tile[1];
  char path[] = "/tmp/bench-matmul-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0 || write(fd, binary, size) != (ssize_t)size) return 1;
  close(fd);
  void* handle = dlopen(path, RTLD_NOW);
  unlink(path);
  grt_allocator_free(grt_allocator_system(), binary);
  if (!handle) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  grt_kernel_library_query_fn_t query = (grt_kernel_library_query_fn_t)dlsym(
      handle, GRT_KERNEL_LIBRARY_QUERY_SYMBOL);
  const grt_kernel_library_t* library = query ? query(GRT_KERNEL_ABI_VERSION) : NULL;
  if (!library) return 1;
  const grt_kernel_entry_t* entry = &library->entries[0];

  float* a = malloc(count * sizeof(float));
  float* b = malloc(count * sizeof(float));
  float* c = malloc(count * sizeof(float));
  float* c_ref = malloc(count * sizeof(float));
  for (size_t i = 0; i < count; ++i) {
    a[i] = (float)((int)(i * 7 % 13) - 6) / 8;
    b[i] = (float)((int)(i * 5 % 11) - 5) / 4;
  }
  printf("f32 %" PRId64 "x%" PRId64 "x%" PRId64
         ", grt kernel %s (%u workgroups of %" PRId64 "x%" PRId64
         "), best of %d\n",
         bench_n, bench_n, bench_n, format, workgroups, tile_m, tile_n,
         bench_repeat);
  // The int8 kernel runs in the same repetitions as the f32 one, so a
  // shared machine's load falls on both alike.
  double f32_best[3] = {0, 1e30, 1e30};  // by thread count
  bench_int8_t int8;
  bench_int8_init(&int8, &library->entries[1], set.kernels[1]);
  double w4_best[3] = {0, 1e30, 1e30};
  double row_best[2][3] = {{0, 1e30, 1e30}, {0, 1e30, 1e30}};  // f32, w4
  float* c_w4 = malloc(count * sizeof(float));
  if (!c_w4) return 1;
  for (uint32_t threads = 1; threads <= 2; ++threads) {
    double grt_best = 1e30, anchor_best = 1e30;
    for (int r = 0; r < bench_repeat; ++r) {
      double s = bench_grt(entry, workgroups, a, b, c, threads);
      if (s < grt_best) grt_best = s;
      f32_best[threads] = grt_best;
      bench_int8_run(&int8, threads);
      s = bench_grt(&library->entries[2], set.kernels[2]->workgroup_count, a, w4_packed, c_w4,
                    threads);
      if (s < w4_best[threads]) w4_best[threads] = s;
      for (uint32_t v = 0; v < 2; ++v) {
        s = bench_grt(&library->entries[3 + v], set.kernels[3 + v]->workgroup_count, a,
                      v ? (void*)w4_packed : (void*)b, c_ref, threads);
        if (s < row_best[v][threads]) row_best[v][threads] = s;
      }
#if defined(GRT_BENCH_OPENBLAS)
      s = bench_openblas(a, b, c_ref, (int)threads);
      if (s < anchor_best) anchor_best = s;
#endif
    }
    printf("  %u thread%s: grt %7.1f GFLOP/s", threads, threads > 1 ? "s" : " ",
           bench_gflops(grt_best));
#if defined(GRT_BENCH_OPENBLAS)
    double max_diff = 0;
    for (size_t i = 0; i < count; ++i) {
      double d = fabs((double)c[i] - c_ref[i]);
      if (d > max_diff) max_diff = d;
    }
    printf("   OpenBLAS sgemm %7.1f GFLOP/s   ratio %.2fx   (max |diff| %.2g)\n",
           bench_gflops(anchor_best), anchor_best / grt_best, max_diff);
#else
    (void)anchor_best;
    printf("   (anchor OpenBLAS not built in: install libopenblas-dev, "
           "scripts/install-deps.sh)\n");
#endif
  }
  bench_int8_report(&int8, f32_best);
  // Sampled results against a double reference (the sums of products of
  // multiples of 1/8 by integers are exact in f32 up to 2^21 / 8).
  int64_t wrong = 0;
  for (int64_t i = 0; i < bench_n; i += 37) {
    for (int64_t j = 0; j < bench_n; j += 41) {
      double want = 0;
      for (int64_t k = 0; k < bench_n; ++k) {
        want += (double)a[i * bench_n + k] * (int8_t)w4[k * bench_n + j];
      }
      wrong += c_w4[i * bench_n + j] != (float)want;
    }
  }
  printf("int4 weights %" PRId64 "x%" PRId64 "x%" PRId64 " (f32 x i4 -> f32, weights %zu "
         "bytes packed against %zu as i8 and %zu as f32), grt kernel (%u workgroups of "
         "%" PRId64 "x%" PRId64 "), best of %d, against grt f32\n",
         bench_n, bench_n, bench_n, (count + 1) / 2, count, count * sizeof(float),
         set.kernels[2]->workgroup_count, set.kernels[2]->tile[0], set.kernels[2]->tile[1],
         bench_repeat);
  for (uint32_t threads = 1; threads <= 2; ++threads) {
    printf("  %u thread%s: grt w4 %7.1f GFLOP/s   grt f32 %7.1f GFLOP/s   ratio %.2fx   "
           "(%s)\n", threads, threads > 1 ? "s" : " ", bench_gflops(w4_best[threads]),
           bench_gflops(f32_best[threads]), f32_best[threads] / w4_best[threads],
           wrong ? "WRONG results" : "sampled results exact");
  }
  printf("one row 1x%" PRId64 "x%" PRId64 " (a batch-1 layer; %u workgroups of 1x%" PRId64
         "), f32 weights against int4, best of %d\n", bench_n, bench_n,
         set.kernels[4]->workgroup_count, set.kernels[4]->tile[1], bench_repeat);
  for (uint32_t threads = 1; threads <= 2; ++threads) {
    printf("  %u thread%s: f32 %8.1f us   w4 %8.1f us   ratio %.2fx\n", threads,
           threads > 1 ? "s" : " ", row_best[0][threads] * 1e6, row_best[1][threads] * 1e6,
           row_best[0][threads] / row_best[1][threads]);
  }
  free(c_w4);
  free(w4);
  free(w4_packed);
  free(a);
  free(b);
  free(c);
  free(c_ref);
  dlclose(handle);
  grtc_kernel_set_deinit(&set);
  return 0;
}
