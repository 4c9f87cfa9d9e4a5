// Kernel objects for grt's ELF loader's tests (hal/local/elf_loader_test.c),
// one per build of this file (hal/local/CMakeLists.txt):
//   GRT_IMPORT_KERNELS_ALLOWED      imports expf and memcpy (in grt's import
//                                   table) and exports functions that call
//                                   them, plus a pointer to a function of
//                                   its own and an exported object.
//   GRT_IMPORT_KERNELS_UNLISTED     imports a function grt does not provide.
//   GRT_IMPORT_KERNELS_CONSTRUCTOR  has a constructor.
//   GRT_IMPORT_KERNELS_NEEDED       is linked against libm (DT_NEEDED).
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define GRT_EXPORT __attribute__((visibility("default")))

#if defined(GRT_IMPORT_KERNELS_ALLOWED)

GRT_EXPORT float grt_import_kernels_exp(float x);
GRT_EXPORT void grt_import_kernels_copy(void* to, const void* from,
                                        size_t size);
GRT_EXPORT int grt_import_kernels_call_own(int x);
GRT_EXPORT int grt_import_kernels_counter;

int grt_import_kernels_counter = 41;

float grt_import_kernels_exp(float x) { return expf(x); }

// volatile: the compiler may not turn the call into inline moves.
void grt_import_kernels_copy(void* to, const void* from, size_t size) {
  void* (*volatile copy)(void*, const void*, size_t) = memcpy;
  copy(to, from, size);
}

static int twice(int x) { return 2 * x; }

// A table of function pointers: R_*_RELATIVE relocations in writable data.
static int (*const grt_import_kernels_table[2])(int) = {twice, twice};

int grt_import_kernels_call_own(int x) {
  return grt_import_kernels_table[x & 1](x) + grt_import_kernels_counter;
}

#elif defined(GRT_IMPORT_KERNELS_UNLISTED)

int grt_import_kernels_not_provided(int x);
GRT_EXPORT int grt_import_kernels_call(int x);

int grt_import_kernels_call(int x) { return grt_import_kernels_not_provided(x); }

#elif defined(GRT_IMPORT_KERNELS_CONSTRUCTOR)

GRT_EXPORT int grt_import_kernels_value;
int grt_import_kernels_value;

// The asm keeps clang from running the constructor at compile time and
// folding it into the variable's initial value.
__attribute__((constructor)) static void grt_import_kernels_init(void) {
  __asm__ volatile("" ::: "memory");
  grt_import_kernels_value = 1;
}

#elif defined(GRT_IMPORT_KERNELS_NEEDED)

GRT_EXPORT double grt_import_kernels_cos(double x);

double grt_import_kernels_cos(double x) { return cos(x); }

#else
#error "define one of the GRT_IMPORT_KERNELS_* variants"
#endif
