// The generated CUDA C run on the CPU and held against the CPU target:
// the source is compiled as host C++ with the CUDA builtins it uses
// defined here (a block's threads are real threads, __syncthreads a
// barrier, __shared__ a static, blocks one after another), so the
// emitter's indexing, tiling, sort network, shared-memory SIMT matmul and
// the prelude's scalar semantics are checked bit for bit without a GPU.
// Tensor-core (WMMA) kernels and the f16 PTX conversions need a GPU; the
// assembler tests cover those. Needs a C++ compiler (g++; fails without).
#define _GNU_SOURCE  // mkstemps
#include <dlfcn.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "compiler/target/c_family/c_family.h"
#include "compiler/target/cpu/guarded_test_util.h"
#include "compiler/target/cpu/symbolic_test_util.h"
#include "compiler/target/cuda/cuda_test_util.h"

static const char kHarnessHead[] =
    "#include <math.h>\n#include <stdint.h>\n#include <string.h>\n#include <pthread.h>\n"
    "#include <thread>\n#include <vector>\n"
    "struct grt_dim3 { unsigned x, y, z; };\n"
    "static thread_local grt_dim3 threadIdx, blockIdx;\n"
    "static grt_dim3 blockDim, gridDim;\n"
    "static pthread_barrier_t grt_barrier;\n"
    "#define __global__\n#define __device__\n#define __forceinline__ inline\n"
    "#define __launch_bounds__(n)\n#define __shared__ static\n"
    "#define __align__(n) __attribute__((aligned(n)))\n"
    "struct float4 { float x, y, z, w; };\n"
    "static inline void __syncthreads() { pthread_barrier_wait(&grt_barrier); }\n"
    "static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }\n"
    "static inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }\n"
    "template <class T, class F> static inline T grt_bits(F f) { T t; memcpy(&t, &f, sizeof t); return t; }\n"
    "static inline int __float_as_int(float f) { return grt_bits<int>(f); }\n"
    "static inline unsigned __float_as_uint(float f) { return grt_bits<unsigned>(f); }\n"
    "static inline float __int_as_float(int i) { return grt_bits<float>(i); }\n"
    "static inline float __uint_as_float(unsigned i) { return grt_bits<float>(i); }\n"
    "static inline long long __double_as_longlong(double d) { return grt_bits<long long>(d); }\n"
    "static inline double __longlong_as_double(long long i) { return grt_bits<double>(i); }\n"
    "struct grt_arg { void* p; template <class T> operator T*() const { return (T*)p; } };\n"
    "namespace grt_k {\n";

static const char kHarnessTail[] =
    "}\n"
    "extern \"C\" void grt_emu_run(void (*kernel)(void**, const unsigned*, const uint64_t*),\n"
    "                              void** b, const unsigned* c, const uint64_t* l,\n"
    "                              unsigned grid, unsigned block) {\n"
    "  gridDim = {grid, 1, 1}; blockDim = {block, 1, 1};\n"
    "  pthread_barrier_init(&grt_barrier, nullptr, block);\n"
    "  for (unsigned g = 0; g < grid; ++g) {\n"
    "    std::vector<std::thread> threads;\n"
    "    for (unsigned t = 0; t < block; ++t) {\n"
    "      threads.emplace_back([=] { blockIdx = {g, 0, 0}; threadIdx = {t, 0, 0}; kernel(b, c, l); });\n"
    "    }\n"
    "    for (auto& thread : threads) thread.join();\n"
    "  }\n"
    "  pthread_barrier_destroy(&grt_barrier);\n"
    "}\n";

typedef void (*emu_kernel_fn_t)(void**, const unsigned*, const uint64_t*);
typedef void (*emu_run_fn_t)(emu_kernel_fn_t, void**, const unsigned*,
                             const uint64_t*, unsigned, unsigned);

typedef struct emu_library_t {
  void* handle;
  emu_run_fn_t run;
} emu_library_t;

static bool have_cxx(void) {
  return system("c++ --version > /dev/null 2>&1") == 0;
}

// Emits |set| for |options|, wraps it in the harness and loads it.
static emu_library_t emu_build(const grtc_kernel_set_t* set,
                               const grtc_cuda_options_t* options) {
  grt_string_builder_t text;
  grt_string_builder_init(grt_allocator_system(), &text);
  grt_string_builder_append_cstring(&text, kHarnessHead);
  GRT_EXPECT_OK(grtc_cuda_emit(set, options, &text));
  grt_string_builder_append_cstring(&text, kHarnessTail);
  for (uint32_t k = 0; k < set->count; ++k) {
    const grtc_kernel_t* kernel = set->kernels[k];
    grt_string_builder_appendf(&text,
                               "extern \"C\" void grt_emu_%.*s(void** b, const unsigned* c, "
                               "const uint64_t* l) { (void)c; (void)l; grt_k::%.*s(",
                               (int)kernel->name.size, kernel->name.data,
                               (int)kernel->name.size, kernel->name.data);
    for (uint32_t i = 0; i < kernel->binding_count; ++i) {
      grt_string_builder_appendf(&text, "%sgrt_arg{b[%u]}", i ? ", " : "", i);
    }
    // The push constants after the bindings, as hal/drivers/cuda passes them.
    for (uint32_t x = 0; x < kernel->extent_count; ++x) {
      grt_string_builder_appendf(&text, "%sc[%u]", kernel->binding_count || x ? ", " : "", x);
    }
    // Then the bindings' byte lengths, which bounds-checked kernels read.
    for (uint32_t i = 0; grtc_c_family_bounds_checked(kernel) && i < kernel->binding_count;
         ++i) {
      grt_string_builder_appendf(&text, ", l[%u]", i);
    }
    grt_string_builder_append_cstring(&text, "); }\n");
  }
  GRT_EXPECT_OK(grt_string_builder_status(&text));
  char source[] = "/tmp/grtc-cuda-emu-XXXXXX.cc";
  int fd = mkstemps(source, 3);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, text.data, text.size), (ssize_t)text.size);
  close(fd);
  grt_string_builder_deinit(&text);
  char library[64];
  snprintf(library, sizeof(library), "%s.so", source);
  char command[512];
  snprintf(command, sizeof(command),
           "c++ -std=c++17 -O1 -w -fPIC -shared -pthread -o %s %s 2>&1", library, source);
  FILE* pipe = popen(command, "r");
  assert_non_null(pipe);
  char output[16384];
  size_t n = fread(output, 1, sizeof(output) - 1, pipe);
  output[n] = '\0';
  int rc = pclose(pipe);
  if (rc != 0) fail_msg("%s failed (kept %s):\n%s", command, source, output);
  unlink(source);
  emu_library_t lib = {dlopen(library, RTLD_NOW | RTLD_LOCAL), NULL};
  unlink(library);
  if (!lib.handle) fail_msg("dlopen: %s", dlerror());
  *(void**)&lib.run = dlsym(lib.handle, "grt_emu_run");
  assert_non_null(lib.run);
  return lib;
}

// The emulated entry of |kernel|.
static emu_kernel_fn_t emu_entry(const emu_library_t* emu, const grtc_kernel_t* kernel) {
  char symbol[128];
  snprintf(symbol, sizeof(symbol), "grt_emu_%.*s", (int)kernel->name.size, kernel->name.data);
  emu_kernel_fn_t entry = NULL;
  *(void**)&entry = dlsym(emu->handle, symbol);
  assert_non_null(entry);
  return entry;
}

// Runs kernel |index| of |set| emulated with extent values |extents| (push
// constants) over the workgroups they give it, on bindings of |sizes|
// bytes.
static void emu_run_extents(const emu_library_t* emu, const grtc_kernel_set_t* set,
                            uint32_t index, void** bindings, const size_t* sizes,
                            const int64_t* extents, const grtc_cuda_options_t* options) {
  const grtc_kernel_t* kernel = set->kernels[index];
  unsigned constants[8] = {0};
  assert_true(kernel->extent_count <= 8);
  for (uint32_t x = 0; x < kernel->extent_count; ++x) constants[x] = (unsigned)extents[x];
  uint32_t workgroups = 0;
  GRT_EXPECT_OK(grtc_kernel_workgroups_for(kernel, extents, &workgroups));
  uint64_t lengths[8] = {0};
  assert_true(kernel->binding_count <= 8);
  for (uint32_t b = 0; b < kernel->binding_count; ++b) lengths[b] = sizes[b];
  emu->run(emu_entry(emu, kernel), bindings, constants, lengths, workgroups,
           grtc_cuda_block_size(kernel, options));
}

// Deterministic input bytes: every fourth element a corner value of its
// type (zero, -1, the minimum, one, NaN, inf, -0), the rest random bits;
// i1 elements 0 or 1.
static void fill(grtc_elem_t elem, uint8_t* data, int64_t count, uint32_t* seed) {
  size_t size = grtc_elem_byte_size(elem);
  for (int64_t i = 0; i < count; ++i) {
    uint8_t* e = data + (size_t)i * size;
    for (size_t b = 0; b < size; ++b) {
      *seed = *seed * 1664525u + 1013904223u;
      e[b] = (uint8_t)(*seed >> 24);
    }
    if (elem == GRTC_ELEM_I1) {
      e[0] &= 1;
      continue;
    }
    if (i % 4 != 0) {
      // Keep floats finite and moderate most of the time so arithmetic is
      // exercised, not just NaN propagation.
      if (elem == GRTC_ELEM_F32) {
        float f = (float)((int32_t)(*seed >> 8) % 2000) / 16.0f;
        memcpy(e, &f, 4);
      } else if (elem == GRTC_ELEM_F64) {
        double d = (double)((int32_t)(*seed >> 8) % 2000) / 16.0;
        memcpy(e, &d, 8);
      } else if (elem == GRTC_ELEM_F16 || elem == GRTC_ELEM_BF16) {
        e[1] = (uint8_t)((e[1] & 0x83) | (elem == GRTC_ELEM_F16 ? 0x38 : 0x3c));
      } else if (grtc_elem_is_integer(elem) && (i % 4) == 1) {
        memset(e, 0, size);  // small values: shift amounts, exponents
        e[0] = (uint8_t)(*seed >> 27);
      }
      continue;
    }
    memset(e, 0, size);
    uint32_t which = (uint32_t)(i / 4) % 5;
    if (grtc_elem_is_float(elem)) {
      double values[5] = {0.0, -1.0, NAN, INFINITY, -0.0};
      double v = values[which];
      if (elem == GRTC_ELEM_F32) {
        float f = (float)v;
        memcpy(e, &f, 4);
      } else if (elem == GRTC_ELEM_F64) {
        memcpy(e, &v, 8);
      } else {
        static const uint16_t f16[5] = {0, 0xbc00, 0x7e00, 0x7c00, 0x8000};
        static const uint16_t bf16[5] = {0, 0xbf80, 0x7fc0, 0x7f80, 0x8000};
        uint16_t bits = elem == GRTC_ELEM_F16 ? f16[which] : bf16[which];
        memcpy(e, &bits, 2);
      }
    } else if (which == 1) {
      memset(e, 0xff, size);  // -1 / max
    } else if (which == 2) {
      e[size - 1] = 0x80;  // INT_MIN
    } else if (which == 3) {
      e[0] = 1;
    }
  }
}

// Runs every kernel of |set| on the CPU target and emulated, from the same
// inputs, and compares every written binding (bit for bit, or within
// |tolerance| relative for f32 where the matmul's summation order
// differs).
static void compare_with_cpu(const grtc_kernel_set_t* set, const grtc_cuda_options_t* options,
                             double tolerance) {
  cpu_library_t cpu = cpu_build_and_load(set, NULL);
  emu_library_t emu = emu_build(set, options);
  uint32_t seed = 12345;
  for (uint32_t k = 0; k < set->count; ++k) {
    const grtc_kernel_t* kernel = set->kernels[k];
    void* a[32];
    void* b[32];
    assert_true(kernel->binding_count <= 32);
    for (uint32_t i = 0; i < kernel->binding_count; ++i) {
      const grtc_kbinding_t* binding = &kernel->bindings[i];
      size_t bytes = (size_t)binding->element_count * grtc_elem_byte_size(binding->elem);
      a[i] = calloc(bytes + 1, 1);
      b[i] = calloc(bytes + 1, 1);
      if (binding->access & GRTC_KACCESS_READ) {
        fill(binding->elem, a[i], binding->element_count, &seed);
        memcpy(b[i], a[i], bytes);
      }
    }
    assert_int_equal(cpu_run(&cpu, k, a, kernel->binding_count, kernel->workgroup_count), 0);
    emu_kernel_fn_t entry = emu_entry(&emu, kernel);
    emu.run(entry, b, NULL, NULL, kernel->workgroup_count,
            grtc_cuda_block_size(kernel, options));
    for (uint32_t i = 0; i < kernel->binding_count; ++i) {
      const grtc_kbinding_t* binding = &kernel->bindings[i];
      size_t size = grtc_elem_byte_size(binding->elem);
      for (int64_t e = 0; (binding->access & GRTC_KACCESS_WRITE) && e < binding->element_count;
           ++e) {
        const uint8_t* x = (const uint8_t*)a[i] + (size_t)e * size;
        const uint8_t* y = (const uint8_t*)b[i] + (size_t)e * size;
        if (memcmp(x, y, size) == 0) continue;
        if (binding->elem == GRTC_ELEM_F32) {
          float fx, fy;
          memcpy(&fx, x, 4);
          memcpy(&fy, y, 4);
          // A NaN's sign and payload are the hardware's (x86 makes
          // 0xffc00000, the emulated GPU 0x7fc00000): any NaN matches one.
          if (isnan(fx) && isnan(fy)) continue;
          if (tolerance > 0 && fabs((double)fx - fy) <= tolerance * (1.0 + fabs((double)fx))) {
            continue;
          }
        }
        uint64_t vx = 0, vy = 0;
        memcpy(&vx, x, size);
        memcpy(&vy, y, size);
        fail_msg("kernel %.*s binding %u element %lld: cpu 0x%llx, cuda 0x%llx",
                 (int)kernel->name.size, kernel->name.data, i, (long long)e,
                 (unsigned long long)vx, (unsigned long long)vy);
      }
    }
    for (uint32_t i = 0; i < kernel->binding_count; ++i) {
      free(a[i]);
      free(b[i]);
    }
  }
  dlclose(emu.handle);
  cpu_unload(&cpu);
}

static void test_scalar_ops_every_type(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  cuda_test_add_every_type(&set);
  compare_with_cpu(&set, NULL, 0);
  grtc_kernel_set_deinit(&set);
}

static void test_reduction_sort_serial_scalar(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  cuda_test_add_loop_kernels(&set);
  compare_with_cpu(&set, NULL, 0);
  grtc_kernel_set_deinit(&set);
}

// The SIMT shared-memory path (f32, and bf16 below sm_80), partial blocks
// in m, n and k, batches, and a transposed rhs.
static void test_simt_matmul(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  cuda_test_add_matmul(&set, "mm_f32", GRTC_ELEM_F32, 2, 200, 300, 70, false);
  cuda_test_add_matmul(&set, "mm_f32_t", GRTC_ELEM_F32, 1, 33, 17, 9, true);
  cuda_test_add_matmul(&set, "mm_bf16_t", GRTC_ELEM_BF16, 3, 16, 8, 5, true);
  grtc_cuda_options_t options = {"sm_75", false};
  compare_with_cpu(&set, &options, 1e-5);
  grtc_kernel_set_deinit(&set);
}

typedef struct emu_sym_t {
  const emu_library_t* emu;
  const grtc_kernel_set_t* set;
  const grtc_cuda_options_t* options;
} emu_sym_t;

static void emu_sym_run(void* context, uint32_t index, void* const* data,
                        const size_t* sizes, const int64_t* extents) {
  const emu_sym_t* c = (const emu_sym_t*)context;
  emu_run_extents(c->emu, c->set, index, (void**)data, sizes, extents, c->options);
}

static void check_extents_past_bindings(const emu_library_t* emu, const grtc_kernel_set_t* set,
                                        const grtc_cuda_options_t* options);

// Symbolic extents (the shared kernels of symbolic_test_util.h): tiles
// over a symbolic dim (outermost, inner, serial), a symbolic reduction,
// and the SIMT matmul with a symbolic m, each run for several extents, and
// with extents past their bindings.
static void test_symbolic_extents(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  sym_add_all(&set);
  grtc_cuda_options_t options = {"sm_80", false};
  emu_library_t emu = emu_build(&set, &options);
  emu_sym_t context = {&emu, &set, &options};
  sym_check_all(emu_sym_run, &context);
  check_extents_past_bindings(&emu, &set, &options);
  dlclose(emu.handle);
  grtc_kernel_set_deinit(&set);
}

// Runs kernel |index| of |set| with extent |extent| on bindings of |elems|
// floats each placed before an inaccessible page (guarded_alloc), filled
// from |in|, and copies them back to |in|: the kernel must not fault.
static void emu_run_guarded(const emu_library_t* emu, const grtc_kernel_set_t* set,
                            uint32_t index, float* const* in, const size_t* elems,
                            int64_t extent, const grtc_cuda_options_t* options) {
  const grtc_kernel_t* kernel = set->kernels[index];
  guarded_t blocks[4];
  void* data[4] = {NULL};
  size_t sizes[4] = {0};
  assert_true(kernel->binding_count <= 4);
  for (uint32_t b = 0; b < kernel->binding_count; ++b) {
    sizes[b] = elems[b] * sizeof(float);
    blocks[b] = guarded_alloc(sizes[b]);
    data[b] = blocks[b].data;
    memcpy(data[b], in[b], sizes[b]);
  }
  emu_run_extents(emu, set, index, data, sizes, &extent, options);
  for (uint32_t b = 0; b < kernel->binding_count; ++b) {
    memcpy(in[b], data[b], sizes[b]);
    guarded_free(&blocks[b]);
  }
}

// Extents larger than the bindings (a tampered push constant) for the
// kernels of sym_add_all in |emu|: loads outside a binding read 0 and
// stores outside it are skipped (the bindings end at an inaccessible
// page), and the points inside are computed as usual.
static void check_extents_past_bindings(const emu_library_t* emu, const grtc_kernel_set_t* set,
                                        const grtc_cuda_options_t* options) {
  for (uint32_t k = SYM_OUTER; k <= SYM_SERIAL; ++k) {
    float a[15], out[15];
    sym_fill_elementwise(3, a);
    float* in[] = {a, out};
    emu_run_guarded(emu, set, k, in, (size_t[]){15, 15}, 7, options);
    for (int q = 0; q < 15; ++q) assert_true(out[q] == a[q] * 2 + 7);
  }
  float lhs[5 * SYM_MM_K], rhs[SYM_MM_K * SYM_MM_N], bias[SYM_MM_N], out[5 * SYM_MM_N];
  sym_fill_matmul(5, lhs, rhs, bias);
  for (uint32_t k = SYM_MM; k <= SYM_MM_LOOPS; ++k) {
    float* in[] = {lhs, rhs, bias, out};
    emu_run_guarded(emu, set, k, in,
                    (size_t[]){5 * SYM_MM_K, SYM_MM_K * SYM_MM_N, SYM_MM_N, 5 * SYM_MM_N}, 6,
                    options);
    sym_expect_matmul(5, lhs, rhs, bias, out, k == SYM_MM ? "pattern" : "loops");
  }
}

int main(void) {
  if (!have_cxx()) {
    printf("compiler_target_cuda_emulate_test: FAILED: no C++ compiler (c++): "
           "run scripts/install-deps.sh (apt-get install g++)\n");
    return 1;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scalar_ops_every_type),
      cmocka_unit_test(test_reduction_sort_serial_scalar),
      cmocka_unit_test(test_simt_matmul),
      cmocka_unit_test(test_symbolic_extents),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
