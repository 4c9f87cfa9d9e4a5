// Kernel libraries the loader must refuse, one per build of this file
// (hal/local/CMakeLists.txt):
//   GRT_BROKEN_KERNELS_NO_QUERY    exports a function but not
//                                  GRT_KERNEL_LIBRARY_QUERY_SYMBOL.
//   GRT_BROKEN_KERNELS_NEWER_ABI   exports the query symbol, but answers
//                                  NULL for every ABI version, as a library
//                                  built for a later ABI would.
#include "hal/local/kernel_abi.h"

#if defined(GRT_BROKEN_KERNELS_NO_QUERY)

__attribute__((visibility("default"))) int grt_broken_kernels_not_a_query(void);

int grt_broken_kernels_not_a_query(void) { return 1; }

#elif defined(GRT_BROKEN_KERNELS_NEWER_ABI)

__attribute__((visibility("default"))) const grt_kernel_library_t*
grt_kernel_library_query(uint32_t abi_version);

const grt_kernel_library_t* grt_kernel_library_query(uint32_t abi_version) {
  (void)abi_version;
  return NULL;
}

#else
#error "define GRT_BROKEN_KERNELS_NO_QUERY or GRT_BROKEN_KERNELS_NEWER_ABI"
#endif
