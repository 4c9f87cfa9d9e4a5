// bench_cuda: grt on an NVIDIA GPU, each figure beside an anchor measured in
// the same run (docs/architecture.md §8, docs/cuda.md "GPU check").
//
//   bench_cuda matmul MODULE.vmfb f32|f16 [REPEAT]
//       @matmul of two 4096x4096 tensors compiled by grt-compile
//       --target=cuda (bench/gpu/matmul_*.mlir), called through the runtime
//       with device-resident inputs, against cuBLAS (cublasSgemm for f32,
//       cublasGemmEx f16 in / f32 compute for f16). With --tf32 after the
//       type, cuBLAS runs with CUBLAS_TF32_TENSOR_OP_MATH (compare with a
//       module compiled with --cuda-allow-tf32). Prints GFLOP/s and the
//       ratio grt / cuBLAS. The last call's result is checked at 64
//       sampled elements against a double-precision sum on the host.
//   bench_cuda elementwise MODULE.vmfb [REPEAT]
//       @fused (bench/gpu/elementwise.mlir: 256 MiB of f32 in, 256 MiB out)
//       against cuMemcpyDtoD of 256 MiB. Prints GB/s (read + written) and
//       the ratio of the times (grt / copy). Every element of the last
//       result is checked.
//   bench_cuda dispatch [DISPATCHES]
//       per-dispatch cost of an empty kernel through the HAL: a reusable
//       command buffer (replayed as a CUDA graph) against a one-shot command
//       buffer (cuLaunchKernel on the stream), and raw cuLaunchKernel in a
//       loop as the floor.
//
// libcuda and libcublas are dlopen()ed, never linked: libcuda.so.1 (or
// $GRT_CUDA_LIBRARY), libcublas beside NVRTC ($GRT_CUBLAS_LIBRARY,
// $CUDA_HOME/lib64, /usr/local/cuda/lib64, then the loader's path). Without a
// driver or a device it prints one "no CUDA driver: ..." / "no CUDA device:
// ..." line and exits 77 (the automake/ctest "skipped" status).
#include <cuda.h>
#include <dlfcn.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/time.h"
#include "hal/buffer_view.h"
#include "hal/command_buffer.h"
#include "hal/executable.h"
#include "hal/semaphore.h"
#include "hal/transfer.h"
#include "runtime/session.h"

#define BENCH_SKIP 77

//===----------------------------------------------------------------------===//
// libcuda and libcublas, loaded at run time
//===----------------------------------------------------------------------===//

typedef struct bench_cuda_t {
  void* library;
  CUresult (*cuInit)(unsigned int);
  CUresult (*cuDeviceGet)(CUdevice*, int);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)(void);
  CUresult (*cuMemAlloc)(CUdeviceptr*, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemsetD32)(CUdeviceptr, unsigned int, size_t);
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuEventCreate)(CUevent*, unsigned int);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float*, CUevent, CUevent);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuModuleLoadData)(CUmodule*, const void*);
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void**,
                             void**);
  CUresult (*cuGetErrorName)(CUresult, const char**);
  CUdevice device;
  CUcontext context;
} bench_cuda_t;

static bench_cuda_t cu;

// cuda.h maps the plain names to _v2 entry points with macros; resolve the
// names the header means.
#define BENCH_STR2(x) #x
#define BENCH_STR(x) BENCH_STR2(x)
#define BENCH_SYM(field, name)                                  \
  do {                                                          \
    *(void**)&cu.field = dlsym(cu.library, BENCH_STR(name));    \
    if (!cu.field) {                                            \
      printf("no CUDA driver: %s lacks %s\n", path, BENCH_STR(name)); \
      return BENCH_SKIP;                                        \
    }                                                           \
  } while (0)

static const char* bench_cu_name(CUresult result) {
  // The toolkit's stub answers every call, cuGetErrorName included, with 34.
  switch (result) {
    case CUDA_ERROR_STUB_LIBRARY: return "CUDA_ERROR_STUB_LIBRARY";
    case CUDA_ERROR_NO_DEVICE: return "CUDA_ERROR_NO_DEVICE";
    default: break;
  }
  const char* name = NULL;
  if (cu.cuGetErrorName && cu.cuGetErrorName(result, &name) == CUDA_SUCCESS &&
      name) {
    return name;
  }
  return "unknown CUresult";
}

// 0 when the driver and device 0 are usable; BENCH_SKIP after printing the
// reason; 1 on a real failure.
static int bench_cuda_load(void) {
  const char* path = getenv("GRT_CUDA_LIBRARY");
  if (!path || !*path) path = "libcuda.so.1";
  cu.library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!cu.library) {
    printf("no CUDA driver: cannot load %s (%s)\n", path, dlerror());
    return BENCH_SKIP;
  }
  BENCH_SYM(cuGetErrorName, cuGetErrorName);
  BENCH_SYM(cuInit, cuInit);
  CUresult result = cu.cuInit(0);
  if (result == CUDA_ERROR_NO_DEVICE) {
    printf("no CUDA device: cuInit returned %d (%s)\n", (int)result,
           bench_cu_name(result));
    return BENCH_SKIP;
  }
  if (result != CUDA_SUCCESS) {
    printf("no CUDA driver: cuInit returned %d (%s)\n", (int)result,
           bench_cu_name(result));
    return BENCH_SKIP;
  }
  BENCH_SYM(cuDeviceGet, cuDeviceGet);
  BENCH_SYM(cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain);
  BENCH_SYM(cuDevicePrimaryCtxRelease, cuDevicePrimaryCtxRelease);
  BENCH_SYM(cuCtxSetCurrent, cuCtxSetCurrent);
  BENCH_SYM(cuCtxSynchronize, cuCtxSynchronize);
  BENCH_SYM(cuMemAlloc, cuMemAlloc);
  BENCH_SYM(cuMemFree, cuMemFree);
  BENCH_SYM(cuMemsetD32, cuMemsetD32);
  BENCH_SYM(cuMemcpyDtoDAsync, cuMemcpyDtoDAsync);
  BENCH_SYM(cuEventCreate, cuEventCreate);
  BENCH_SYM(cuEventRecord, cuEventRecord);
  BENCH_SYM(cuEventSynchronize, cuEventSynchronize);
  BENCH_SYM(cuEventElapsedTime, cuEventElapsedTime);
  BENCH_SYM(cuEventDestroy, cuEventDestroy);
  BENCH_SYM(cuModuleLoadData, cuModuleLoadData);
  BENCH_SYM(cuModuleGetFunction, cuModuleGetFunction);
  BENCH_SYM(cuModuleUnload, cuModuleUnload);
  BENCH_SYM(cuLaunchKernel, cuLaunchKernel);
  result = cu.cuDeviceGet(&cu.device, 0);
  if (result != CUDA_SUCCESS) {
    printf("no CUDA device: cuDeviceGet(0) returned %d (%s)\n", (int)result,
           bench_cu_name(result));
    return BENCH_SKIP;
  }
  // The primary context: the one grt's cuda driver and cuBLAS (through
  // the runtime API) use, so device pointers are shared.
  result = cu.cuDevicePrimaryCtxRetain(&cu.context, cu.device);
  if (result == CUDA_SUCCESS) result = cu.cuCtxSetCurrent(cu.context);
  if (result != CUDA_SUCCESS) {
    fprintf(stderr, "bench_cuda: expected the primary context of device 0, "
                    "got %s\n", bench_cu_name(result));
    return 1;
  }
  return 0;
}

#define BENCH_CU(call)                                                      \
  do {                                                                      \
    CUresult bench_result_ = (call);                                        \
    if (bench_result_ != CUDA_SUCCESS) {                                    \
      fprintf(stderr, "bench_cuda: %s: expected CUDA_SUCCESS, got %s\n",    \
              #call, bench_cu_name(bench_result_));                         \
      return -1.0;                                                          \
    }                                                                       \
  } while (0)

// cuBLAS, by the values of cublas_api.h and library_types.h.
typedef void* bench_cublas_handle_t;
enum {
  BENCH_CUBLAS_OP_N = 0,
  BENCH_CUBLAS_DEFAULT_MATH = 0,
  BENCH_CUBLAS_TF32_TENSOR_OP_MATH = 3,
  BENCH_CUDA_R_16F = 2,
  BENCH_CUBLAS_COMPUTE_32F = 68,
  BENCH_CUBLAS_GEMM_DEFAULT = -1,
};

typedef struct bench_cublas_t {
  void* library;
  int (*create)(bench_cublas_handle_t*);
  int (*destroy)(bench_cublas_handle_t);
  int (*set_math_mode)(bench_cublas_handle_t, int);
  int (*sgemm)(bench_cublas_handle_t, int, int, int, int, int, const float*,
               const float*, int, const float*, int, const float*, float*,
               int);
  int (*gemm_ex)(bench_cublas_handle_t, int, int, int, int, int, const void*,
                 const void*, int, int, const void*, int, int, const void*,
                 void*, int, int, int, int);
} bench_cublas_t;

static int bench_join(char* out, size_t capacity, const char* a,
                      const char* b) {
  int n = snprintf(out, capacity, "%s%s", a, b);
  return n > 0 && (size_t)n < capacity;
}

// libcublas from the toolkit NVRTC comes from. 0, or 1 after printing why.
static int bench_cublas_load(bench_cublas_t* blas) {
  char candidates[8][PATH_MAX];
  int count = 0;
  const char* forced = getenv("GRT_CUBLAS_LIBRARY");
  if (forced && *forced) {
    count += bench_join(candidates[count], PATH_MAX, forced, "");
  } else {
    const char* home = getenv("CUDA_HOME");
    if (home && *home) {
      count += bench_join(candidates[count], PATH_MAX, home, "/lib64/libcublas.so.13");
      count += bench_join(candidates[count], PATH_MAX, home, "/lib64/libcublas.so");
    }
    count += bench_join(candidates[count], PATH_MAX, "/usr/local/cuda/lib64/libcublas.so.13", "");
    count += bench_join(candidates[count], PATH_MAX, "/usr/local/cuda/lib64/libcublas.so", "");
    count += bench_join(candidates[count], PATH_MAX, "libcublas.so.13", "");
    count += bench_join(candidates[count], PATH_MAX, "libcublas.so", "");
  }
  const char* error = "no candidate";
  for (int i = 0; i < count && !blas->library; ++i) {
    blas->library = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
    if (!blas->library) error = dlerror();
  }
  if (!blas->library) {
    fprintf(stderr, "bench_cuda: expected libcublas beside NVRTC "
                    "(or $GRT_CUBLAS_LIBRARY), got: %s\n", error);
    return 1;
  }
  *(void**)&blas->create = dlsym(blas->library, "cublasCreate_v2");
  *(void**)&blas->destroy = dlsym(blas->library, "cublasDestroy_v2");
  *(void**)&blas->set_math_mode = dlsym(blas->library, "cublasSetMathMode");
  *(void**)&blas->sgemm = dlsym(blas->library, "cublasSgemm_v2");
  *(void**)&blas->gemm_ex = dlsym(blas->library, "cublasGemmEx");
  if (!blas->create || !blas->destroy || !blas->set_math_mode ||
      !blas->sgemm || !blas->gemm_ex) {
    fprintf(stderr, "bench_cuda: expected cublasCreate_v2, cublasDestroy_v2, "
                    "cublasSetMathMode, cublasSgemm_v2 and cublasGemmEx in "
                    "libcublas, got a library without some of them\n");
    return 1;
  }
  return 0;
}

static double bench_min(double a, double b) { return a < b ? a : b; }

// The device the grt side runs on (a variable so the harness can be tried
// on a CPU device).
static const char* bench_device = "cuda";

//===----------------------------------------------------------------------===//
// grt side: a compiled module's function on device-resident inputs
//===----------------------------------------------------------------------===//

// Calls |function| of |module_path| on the cuda device with |input_count|
// inputs of |shape| and |type| (filled with small values), |repeat| timed
// times after one warm-up call; each call ends with a 4-byte read of its
// output, so the time covers the GPU work. Best seconds per call, or < 0.
// Checks the last call's output (|bytes| of it, on the host) against the
// inputs' values (bench_input_value); OK or a status naming the first
// element that is wrong, expected and got.
typedef grt_status_t (*bench_check_fn_t)(const void* output, size_t bytes);

// Input element i of every bench input: exact in f16 and f32.
static float bench_input_value(size_t i) { return (float)(i % 64) / 64.0f; }

static float bench_f16_to_f32(uint16_t h) {
  unsigned exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
  float sign = (h & 0x8000) ? -1.0f : 1.0f;
  if (exponent == 0) return sign * ldexpf((float)mantissa, -24);
  if (exponent == 31) return mantissa ? NAN : sign * INFINITY;
  return sign * ldexpf((float)(mantissa | 0x400), (int)exponent - 25);
}

static double bench_grt_call(const char* module_path, const char* function,
                             size_t input_count, const grt_hal_dim_t* shape,
                             size_t rank, grt_hal_element_type_t type,
                             int repeat, bench_check_fn_t check) {
  size_t elements = 1;
  for (size_t i = 0; i < rank; ++i) elements *= (size_t)shape[i];
  size_t bytes = elements * (grt_hal_element_type_bits(type) / 8);
  void* host = malloc(bytes);
  if (!host) {
    fprintf(stderr, "bench_cuda: expected %zu bytes of host memory, got none\n",
            bytes);
    return -1.0;
  }
  // Small exact values: 0, 1/64, ... 63/64 (f32 bits or f16 bits).
  if (grt_hal_element_type_bits(type) == 32) {
    float* f = host;
    for (size_t i = 0; i < elements; ++i) f[i] = bench_input_value(i);
  } else {
    uint16_t* h = host;
    for (size_t i = 0; i < elements; ++i) {
      // 1.0 in f16 is 0x3C00; i/64 for i < 64 as exact f16: 0 or
      // 2^e * (1 + m/1024).
      unsigned v = (unsigned)(i % 64);
      uint16_t bits = 0;
      if (v) {
        int e = 0;
        while ((v >> e) > 1) ++e;  // v = 2^e + r
        unsigned mantissa = (unsigned)((v << (10 - e)) & 0x3FF);
        bits = (uint16_t)(((unsigned)(15 + e - 6) << 10) | mantissa);
      }
      h[i] = bits;
    }
  }
  grt_runtime_instance_t* instance = NULL;
  grt_hal_device_t* device = NULL;
  grt_runtime_session_t* session = NULL;
  grt_hal_buffer_view_t* inputs[4] = {NULL, NULL, NULL, NULL};
  grt_status_t status = grt_runtime_instance_create(NULL, &instance);
  if (grt_status_is_ok(status)) {
    status = grt_runtime_instance_create_device(instance, bench_device, NULL,
                                                &device);
  }
  if (grt_status_is_ok(status)) {
    status = grt_runtime_session_create(instance, device, &session);
  }
  if (grt_status_is_ok(status)) {
    status = grt_runtime_session_append_module_from_file(session, module_path);
  }
  for (size_t i = 0; grt_status_is_ok(status) && i < input_count; ++i) {
    status = grt_hal_buffer_view_allocate_from_host(device, shape, rank, type,
                                                    host, bytes, &inputs[i]);
  }
  char name[128];
  snprintf(name, sizeof(name), "%s", function);
  double best = 1e30;
  for (int r = -1; grt_status_is_ok(status) && r < repeat; ++r) {
    grt_hal_buffer_view_t* output = NULL;
    size_t output_count = 0;
    grt_time_t start = grt_time_now_ns();
    status = grt_runtime_call_buffer_views(session, name, input_count, inputs,
                                           1, &output, &output_count);
    uint32_t word = 0;
    if (grt_status_is_ok(status) && output_count != 1) {
      status = grt_make_status(GRT_STATUS_INTERNAL,
                               "expected 1 output from %s, got %zu", name,
                               output_count);
    }
    if (grt_status_is_ok(status)) {
      status = grt_hal_device_transfer_d2h(
          device, grt_hal_buffer_view_buffer(output), 0, &word, sizeof(word));
    }
    grt_time_t end = grt_time_now_ns();
    if (r >= 0) best = bench_min(best, (double)(end - start) * 1e-9);
    // The last call's result, read back and checked (outside the time).
    if (grt_status_is_ok(status) && r == repeat - 1 && check) {
      size_t out_bytes = grt_hal_buffer_view_byte_length(output);
      void* result = malloc(out_bytes);
      status = result ? grt_hal_buffer_view_read_to_host(device, output, result,
                                                         out_bytes)
                      : grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                                        "expected %zu bytes of host memory "
                                        "for the result, got none", out_bytes);
      if (grt_status_is_ok(status)) status = check(result, out_bytes);
      free(result);
    }
    if (output) grt_hal_buffer_view_release(output);
  }
  for (size_t i = 0; i < input_count; ++i) {
    if (inputs[i]) grt_hal_buffer_view_release(inputs[i]);
  }
  if (session) grt_runtime_session_release(session);
  if (device) grt_hal_device_release(device);
  if (instance) grt_runtime_instance_release(instance);
  free(host);
  if (!grt_status_is_ok(status)) {
    fprintf(stderr, "bench_cuda: %s %s on %s: ", module_path, function,
            bench_device);
    grt_status_fprint(stderr, status);
    fprintf(stderr, "\n");
    grt_status_free(status);
    return -1.0;
  }
  return best;
}

//===----------------------------------------------------------------------===//
// matmul against cuBLAS
//===----------------------------------------------------------------------===//

#define BENCH_N 4096

static double bench_cublas_matmul(bench_cublas_t* blas, int f16, int tf32,
                                  int repeat) {
  size_t elem = f16 ? 2 : 4;
  size_t bytes = (size_t)BENCH_N * BENCH_N * elem;
  CUdeviceptr a = 0, b = 0, c = 0;
  BENCH_CU(cu.cuMemAlloc(&a, bytes));
  BENCH_CU(cu.cuMemAlloc(&b, bytes));
  BENCH_CU(cu.cuMemAlloc(&c, bytes));
  // 0x3C003C00: f16 1.0 pairs; as f32 bits a value near 0.0078.
  BENCH_CU(cu.cuMemsetD32(a, 0x3C003C00u, bytes / 4));
  BENCH_CU(cu.cuMemsetD32(b, 0x3C003C00u, bytes / 4));
  bench_cublas_handle_t handle = NULL;
  if (blas->create(&handle) != 0) {
    fprintf(stderr, "bench_cuda: cublasCreate_v2: expected status 0, got "
                    "a failure\n");
    return -1.0;
  }
  int math = tf32 ? BENCH_CUBLAS_TF32_TENSOR_OP_MATH : BENCH_CUBLAS_DEFAULT_MATH;
  int blas_status = blas->set_math_mode(handle, math);
  CUevent start = NULL, stop = NULL;
  BENCH_CU(cu.cuEventCreate(&start, CU_EVENT_DEFAULT));
  BENCH_CU(cu.cuEventCreate(&stop, CU_EVENT_DEFAULT));
  float alpha = 1.0f, beta = 0.0f;
  double best = 1e30;
  for (int r = -1; blas_status == 0 && r < repeat; ++r) {
    BENCH_CU(cu.cuEventRecord(start, NULL));
    if (f16) {
      blas_status = blas->gemm_ex(
          handle, BENCH_CUBLAS_OP_N, BENCH_CUBLAS_OP_N, BENCH_N, BENCH_N,
          BENCH_N, &alpha, (const void*)(uintptr_t)b, BENCH_CUDA_R_16F,
          BENCH_N, (const void*)(uintptr_t)a, BENCH_CUDA_R_16F, BENCH_N, &beta,
          (void*)(uintptr_t)c, BENCH_CUDA_R_16F, BENCH_N,
          BENCH_CUBLAS_COMPUTE_32F, BENCH_CUBLAS_GEMM_DEFAULT);
    } else {
      // Row-major C = A B is column-major C^T = B^T A^T.
      blas_status = blas->sgemm(
          handle, BENCH_CUBLAS_OP_N, BENCH_CUBLAS_OP_N, BENCH_N, BENCH_N,
          BENCH_N, &alpha, (const float*)(uintptr_t)b, BENCH_N,
          (const float*)(uintptr_t)a, BENCH_N, &beta, (float*)(uintptr_t)c,
          BENCH_N);
    }
    BENCH_CU(cu.cuEventRecord(stop, NULL));
    BENCH_CU(cu.cuEventSynchronize(stop));
    float ms = 0;
    BENCH_CU(cu.cuEventElapsedTime(&ms, start, stop));
    if (r >= 0) best = bench_min(best, ms * 1e-3);
  }
  blas->destroy(handle);
  cu.cuEventDestroy(start);
  cu.cuEventDestroy(stop);
  cu.cuMemFree(a);
  cu.cuMemFree(b);
  cu.cuMemFree(c);
  if (blas_status != 0) {
    fprintf(stderr, "bench_cuda: cuBLAS %s: expected status 0, got %d\n",
            f16 ? "cublasGemmEx" : "cublasSgemm_v2", blas_status);
    return -1.0;
  }
  return best;
}

// C[m][n] = sum_k A[m][k] B[k][n] with A and B of bench_input_value, at
// 64 sampled elements, within |tolerance| relative to sum_k |A B|.
static grt_status_t bench_check_matmul(const void* output, size_t bytes,
                                       int f16, double tolerance) {
  size_t n = BENCH_N, elem = f16 ? 2 : 4;
  if (bytes != n * n * elem) {
    return grt_make_status(GRT_STATUS_INTERNAL,
                           "matmul result: expected %zu bytes, got %zu",
                           n * n * elem, bytes);
  }
  for (size_t s = 0; s < 64; ++s) {
    size_t m = (s * 977 + 13) % n, col = (s * 1543 + 7) % n;
    double sum = 0, magnitude = 0;
    for (size_t k = 0; k < n; ++k) {
      double p = (double)bench_input_value(m * n + k) *
                 (double)bench_input_value(k * n + col);
      sum += p;
      magnitude += fabs(p);
    }
    double got = f16 ? (double)bench_f16_to_f32(((const uint16_t*)output)[m * n + col])
                     : (double)((const float*)output)[m * n + col];
    if (!(fabs(got - sum) <= tolerance * (magnitude > 1 ? magnitude : 1))) {
      return grt_make_status(GRT_STATUS_INTERNAL,
                             "matmul result [%zu][%zu]: expected %.6g (within "
                             "%.0e relative), got %.6g",
                             m, col, sum, tolerance, got);
    }
  }
  return grt_ok_status();
}
static grt_status_t bench_check_f32(const void* output, size_t bytes) {
  return bench_check_matmul(output, bytes, 0, 1e-4);
}
// TF32 keeps 10 mantissa bits of each input; f16 results round to 11 bits.
static grt_status_t bench_check_tf32(const void* output, size_t bytes) {
  return bench_check_matmul(output, bytes, 0, 5e-3);
}
static grt_status_t bench_check_f16(const void* output, size_t bytes) {
  return bench_check_matmul(output, bytes, 1, 5e-3);
}

static int bench_matmul(const char* module, const char* type, int tf32,
                        int repeat) {
  int f16 = strcmp(type, "f16") == 0;
  if (!f16 && strcmp(type, "f32") != 0) {
    fprintf(stderr, "bench_cuda matmul: expected f32 or f16, got '%s'\n", type);
    return 2;
  }
  bench_cublas_t blas;
  memset(&blas, 0, sizeof(blas));
  if (bench_cublas_load(&blas)) return 1;
  double anchor = bench_cublas_matmul(&blas, f16, tf32, repeat);
  if (anchor < 0) return 1;
  grt_hal_dim_t shape[2] = {BENCH_N, BENCH_N};
  double grt = bench_grt_call(
      module, "matmul", 2, shape, 2,
      f16 ? GRT_HAL_ELEMENT_TYPE_FLOAT_16 : GRT_HAL_ELEMENT_TYPE_FLOAT_32,
      repeat, f16 ? bench_check_f16 : tf32 ? bench_check_tf32 : bench_check_f32);
  if (grt < 0) return 1;
  double flops = 2.0 * BENCH_N * (double)BENCH_N * BENCH_N;
  const char* label = f16 ? "f16" : tf32 ? "f32 tf32" : "f32";
  printf("matmul %s %dx%dx%d: grt %.1f GFLOP/s, cuBLAS %.1f GFLOP/s, "
         "ratio %.3f\n",
         label, BENCH_N, BENCH_N, BENCH_N, flops / grt * 1e-9,
         flops / anchor * 1e-9, anchor / grt);
  printf("RESULT matmul_%s ratio=%.3f grt_gflops=%.1f anchor_gflops=%.1f\n",
         f16 ? "f16" : tf32 ? "f32_tf32" : "f32", anchor / grt,
         flops / grt * 1e-9, flops / anchor * 1e-9);
  return 0;
}

//===----------------------------------------------------------------------===//
// fused elementwise against a device-to-device copy
//===----------------------------------------------------------------------===//

#define BENCH_EW_ELEMENTS ((size_t)64 * 1024 * 1024)  // 256 MiB of f32

static double bench_copy(int repeat) {
  size_t bytes = BENCH_EW_ELEMENTS * 4;
  CUdeviceptr a = 0, b = 0;
  BENCH_CU(cu.cuMemAlloc(&a, bytes));
  BENCH_CU(cu.cuMemAlloc(&b, bytes));
  BENCH_CU(cu.cuMemsetD32(a, 0x3F800000u, bytes / 4));
  CUevent start = NULL, stop = NULL;
  BENCH_CU(cu.cuEventCreate(&start, CU_EVENT_DEFAULT));
  BENCH_CU(cu.cuEventCreate(&stop, CU_EVENT_DEFAULT));
  double best = 1e30;
  for (int r = -1; r < repeat; ++r) {
    BENCH_CU(cu.cuEventRecord(start, NULL));
    BENCH_CU(cu.cuMemcpyDtoDAsync(b, a, bytes, NULL));
    BENCH_CU(cu.cuEventRecord(stop, NULL));
    BENCH_CU(cu.cuEventSynchronize(stop));
    float ms = 0;
    BENCH_CU(cu.cuEventElapsedTime(&ms, start, stop));
    if (r >= 0) best = bench_min(best, ms * 1e-3);
  }
  cu.cuEventDestroy(start);
  cu.cuEventDestroy(stop);
  cu.cuMemFree(a);
  cu.cuMemFree(b);
  return best;
}

// max((2x + 1) x, 1) for every element: exact in f32 for these inputs.
static grt_status_t bench_check_elementwise(const void* output, size_t bytes) {
  if (bytes != BENCH_EW_ELEMENTS * 4) {
    return grt_make_status(GRT_STATUS_INTERNAL,
                           "elementwise result: expected %zu bytes, got %zu",
                           BENCH_EW_ELEMENTS * 4, bytes);
  }
  const float* y = output;
  for (size_t i = 0; i < BENCH_EW_ELEMENTS; ++i) {
    float x = bench_input_value(i);
    float expected = (x * 2.0f + 1.0f) * x;
    if (expected < 1.0f) expected = 1.0f;
    if (y[i] != expected) {
      return grt_make_status(GRT_STATUS_INTERNAL,
                             "elementwise result [%zu]: expected %.9g, got "
                             "%.9g", i, expected, y[i]);
    }
  }
  return grt_ok_status();
}

static int bench_elementwise(const char* module, int repeat) {
  double anchor = bench_copy(repeat);
  if (anchor < 0) return 1;
  grt_hal_dim_t shape[1] = {(grt_hal_dim_t)BENCH_EW_ELEMENTS};
  double grt = bench_grt_call(module, "fused", 1, shape, 1,
                              GRT_HAL_ELEMENT_TYPE_FLOAT_32, repeat,
                              bench_check_elementwise);
  if (grt < 0) return 1;
  double moved = 2.0 * (double)BENCH_EW_ELEMENTS * 4;  // read + written
  printf("elementwise 256 MiB f32: grt fused %.1f GB/s, cuMemcpyDtoD %.1f "
         "GB/s, time ratio grt/copy %.3f\n",
         moved / grt * 1e-9, moved / anchor * 1e-9, grt / anchor);
  printf("RESULT elementwise ratio=%.3f grt_gbps=%.1f anchor_gbps=%.1f\n",
         grt / anchor, moved / grt * 1e-9, moved / anchor * 1e-9);
  return 0;
}

//===----------------------------------------------------------------------===//
// per-dispatch cost: graph replay against stream launches
//===----------------------------------------------------------------------===//

static const char bench_noop_ptx[] =
    ".version 7.0\n"
    ".target sm_50\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry noop()\n"
    "{\n"
    "\tret;\n"
    "}\n";

// |submits| submissions of one command buffer of |count| empty dispatches;
// best nanoseconds per dispatch over the submissions after the first (a
// reusable buffer's first submit captures and instantiates the graph).
static grt_status_t bench_hal_dispatch(grt_hal_device_t* device,
                                       grt_hal_executable_t* executable,
                                       grt_hal_command_buffer_mode_t mode,
                                       int64_t count, int submits,
                                       double* out_ns) {
  grt_hal_semaphore_t* semaphore = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_device_create_semaphore(device, 0, &semaphore));
  grt_hal_dispatch_params_t params;
  memset(&params, 0, sizeof(params));
  params.executable = executable;
  params.workgroup_count[0] = params.workgroup_count[1] =
      params.workgroup_count[2] = 1;
  grt_status_t status = grt_ok_status();
  grt_hal_command_buffer_t* reusable = NULL;
  *out_ns = 1e30;
  uint64_t value = 0;
  for (int s = 0; grt_status_is_ok(status) && s <= submits; ++s) {
    grt_time_t start = grt_time_now_ns();
    grt_hal_command_buffer_t* command_buffer = reusable;
    if (!command_buffer) {
      status = grt_hal_device_create_command_buffer(device, mode, 0,
                                                    &command_buffer);
      if (grt_status_is_ok(status)) {
        status = grt_hal_command_buffer_begin(command_buffer);
      }
      for (int64_t i = 0; grt_status_is_ok(status) && i < count; ++i) {
        status = grt_hal_command_buffer_dispatch(command_buffer, &params);
      }
      if (grt_status_is_ok(status)) {
        status = grt_hal_command_buffer_end(command_buffer);
      }
    }
    ++value;
    if (grt_status_is_ok(status)) {
      grt_hal_semaphore_list_t signal = {1, &semaphore, &value};
      status = grt_hal_device_queue_execute(
          device, grt_hal_semaphore_list_empty(), signal, 1, &command_buffer,
          NULL);
    }
    if (grt_status_is_ok(status)) {
      status = grt_hal_semaphore_wait(semaphore, value, GRT_HAL_TIMEOUT_INFINITE);
    }
    grt_time_t end = grt_time_now_ns();
    if (s > 0) *out_ns = bench_min(*out_ns, (double)(end - start) / (double)count);
    if (mode == GRT_HAL_COMMAND_BUFFER_MODE_REUSABLE) {
      reusable = command_buffer;
    } else if (command_buffer) {
      grt_hal_command_buffer_release(command_buffer);
    }
  }
  if (reusable) grt_hal_command_buffer_release(reusable);
  grt_hal_semaphore_release(semaphore);
  return status;
}

// Raw cuLaunchKernel of the same kernel |count| times on the null stream.
static double bench_raw_launch(int64_t count, int submits) {
  CUmodule module = NULL;
  CUfunction function = NULL;
  BENCH_CU(cu.cuModuleLoadData(&module, bench_noop_ptx));
  BENCH_CU(cu.cuModuleGetFunction(&function, module, "noop"));
  double best = 1e30;
  for (int s = 0; s <= submits; ++s) {
    grt_time_t start = grt_time_now_ns();
    for (int64_t i = 0; i < count; ++i) {
      BENCH_CU(cu.cuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, NULL, NULL,
                                 NULL));
    }
    BENCH_CU(cu.cuCtxSynchronize());
    grt_time_t end = grt_time_now_ns();
    if (s > 0) best = bench_min(best, (double)(end - start) / (double)count);
  }
  cu.cuModuleUnload(module);
  return best;
}

static int bench_dispatch(int64_t count) {
  const int submits = 5;
  double raw_ns = bench_raw_launch(count, submits);
  if (raw_ns < 0) return 1;
  grt_runtime_instance_t* instance = NULL;
  grt_hal_device_t* device = NULL;
  grt_hal_executable_t* executable = NULL;
  double graph_ns = 0, stream_ns = 0;
  grt_status_t status = grt_runtime_instance_create(NULL, &instance);
  if (grt_status_is_ok(status)) {
    status = grt_runtime_instance_create_device(instance, "cuda", NULL, &device);
  }
  if (grt_status_is_ok(status)) {
    static const uint8_t digest[GRT_HAL_EXECUTABLE_DIGEST_SIZE] = {0xbe, 0x7c};
    grt_hal_entry_point_info_t entry = {grt_make_cstring_view("noop"), 0, 0,
                                        {1, 1, 1}, NULL, NULL};
    grt_hal_executable_params_t params = {
        grt_make_cstring_view("cuda-ptx"), (const uint8_t*)bench_noop_ptx,
        strlen(bench_noop_ptx), digest, &entry, 1};
    status = grt_hal_executable_cache_prepare(
        grt_hal_device_executable_cache(device), &params, &executable);
  }
  if (grt_status_is_ok(status)) {
    status = bench_hal_dispatch(device, executable,
                                GRT_HAL_COMMAND_BUFFER_MODE_REUSABLE, count,
                                submits, &graph_ns);
  }
  if (grt_status_is_ok(status)) {
    status = bench_hal_dispatch(device, executable,
                                GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, count,
                                submits, &stream_ns);
  }
  if (executable) grt_hal_executable_release(executable);
  if (device) grt_hal_device_release(device);
  if (instance) grt_runtime_instance_release(instance);
  if (!grt_status_is_ok(status)) {
    fprintf(stderr, "bench_cuda dispatch: ");
    grt_status_fprint(stderr, status);
    fprintf(stderr, "\n");
    grt_status_free(status);
    return 1;
  }
  printf("dispatch empty kernel x%" PRId64 ": graph replay (reusable) %.0f "
         "ns, stream launches (one-shot) %.0f ns, raw cuLaunchKernel %.0f ns; "
         "ratio graph/stream %.3f\n",
         count, graph_ns, stream_ns, raw_ns, graph_ns / stream_ns);
  printf("RESULT dispatch ratio=%.3f graph_ns=%.0f stream_ns=%.0f "
         "raw_launch_ns=%.0f\n",
         graph_ns / stream_ns, graph_ns, stream_ns, raw_ns);
  return 0;
}

//===----------------------------------------------------------------------===//

static int bench_usage(const char* argv0) {
  fprintf(stderr,
          "usage: %s matmul MODULE.vmfb f32|f16 [--tf32] [REPEAT]\n"
          "       %s elementwise MODULE.vmfb [REPEAT]\n"
          "       %s dispatch [DISPATCHES]\n",
          argv0, argv0, argv0);
  return 2;
}

static int bench_count(const char* text, long long fallback, long long* out) {
  if (!text) {
    *out = fallback;
    return 1;
  }
  char* end = NULL;
  long long v = strtoll(text, &end, 10);
  if (!*text || *end || v <= 0) {
    fprintf(stderr, "bench_cuda: expected a positive count, got '%s'\n", text);
    return 0;
  }
  *out = v;
  return 1;
}

int main(int argc, char** argv) {
  if (argc < 2) return bench_usage(argv[0]);
  const char* what = argv[1];
  int known = strcmp(what, "matmul") == 0 || strcmp(what, "elementwise") == 0 ||
              strcmp(what, "dispatch") == 0;
  if (!known) {
    fprintf(stderr, "bench_cuda: expected matmul, elementwise or dispatch, "
                    "got '%s'\n", what);
    return bench_usage(argv[0]);
  }
  // Arguments first, so a bad command line fails the same with or without
  // a GPU.
  long long n = 0;
  int tf32 = 0;
  const char* module = NULL;
  const char* type = NULL;
  if (strcmp(what, "matmul") == 0) {
    if (argc < 4 || argc > 6) return bench_usage(argv[0]);
    module = argv[2];
    type = argv[3];
    if (strcmp(type, "f32") != 0 && strcmp(type, "f16") != 0) {
      fprintf(stderr, "bench_cuda matmul: expected f32 or f16, got '%s'\n",
              type);
      return 2;
    }
    int next = 4;
    if (next < argc && strcmp(argv[next], "--tf32") == 0) {
      tf32 = 1;
      ++next;
    }
    if (next < argc - 1) return bench_usage(argv[0]);
    if (!bench_count(next < argc ? argv[next] : NULL, 10, &n)) return 2;
  } else if (strcmp(what, "elementwise") == 0) {
    if (argc < 3 || argc > 4) return bench_usage(argv[0]);
    module = argv[2];
    if (!bench_count(argc > 3 ? argv[3] : NULL, 10, &n)) return 2;
  } else {
    if (argc > 3) return bench_usage(argv[0]);
    if (!bench_count(argc > 2 ? argv[2] : NULL, 10000, &n)) return 2;
  }
  int loaded = bench_cuda_load();
  if (loaded) return loaded;
  int rc;
  if (strcmp(what, "matmul") == 0) {
    rc = bench_matmul(module, type, tf32, (int)(n > 1000 ? 1000 : n));
  } else if (strcmp(what, "elementwise") == 0) {
    rc = bench_elementwise(module, (int)(n > 1000 ? 1000 : n));
  } else {
    rc = bench_dispatch((int64_t)n);
  }
  cu.cuDevicePrimaryCtxRelease(cu.device);
  return rc;
}
