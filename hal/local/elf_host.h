// The host's ELF identity, for the parts of hal/local that name or load
// cpu-<arch> kernel objects (executable.c, elf_loader.c): its machine, class
// and byte order, the executable format it runs ("cpu-" GRT_HOST_ARCH) and
// whether grt's ELF loader relocates for it. Internal to hal/local.
#ifndef GRT_HAL_LOCAL_ELF_HOST_H_
#define GRT_HAL_LOCAL_ELF_HOST_H_

#if defined(__unix__) || defined(__APPLE__)
#define GRT_ELF_HAVE_MMAN 1
#else
#define GRT_ELF_HAVE_MMAN 0
#endif

#define GRT_ELF_CLASS_32 1
#define GRT_ELF_CLASS_64 2
#define GRT_ELF_DATA_LSB 1
#define GRT_ELF_DATA_MSB 2
#define GRT_ELF_TYPE_DYN 3
#define GRT_ELF_MACHINE_X86_64 62
#define GRT_ELF_MACHINE_AARCH64 183

#if defined(__x86_64__) || defined(_M_X64)
#define GRT_HOST_ARCH "x86_64"
#define GRT_HOST_ELF_MACHINE GRT_ELF_MACHINE_X86_64
#define GRT_HOST_ELF_CLASS GRT_ELF_CLASS_64
#elif defined(__aarch64__)
#define GRT_HOST_ARCH "aarch64"
#define GRT_HOST_ELF_MACHINE GRT_ELF_MACHINE_AARCH64
#define GRT_HOST_ELF_CLASS GRT_ELF_CLASS_64
#elif defined(__riscv) && __riscv_xlen == 64
#define GRT_HOST_ARCH "riscv64"
#define GRT_HOST_ELF_MACHINE 243
#define GRT_HOST_ELF_CLASS GRT_ELF_CLASS_64
#elif defined(__riscv) && __riscv_xlen == 32
#define GRT_HOST_ARCH "riscv32"
#define GRT_HOST_ELF_MACHINE 243
#define GRT_HOST_ELF_CLASS GRT_ELF_CLASS_32
#elif defined(__i386__)
#define GRT_HOST_ARCH "x86"
#define GRT_HOST_ELF_MACHINE 3
#define GRT_HOST_ELF_CLASS GRT_ELF_CLASS_32
#elif defined(__arm__)
#define GRT_HOST_ARCH "arm"
#define GRT_HOST_ELF_MACHINE 40
#define GRT_HOST_ELF_CLASS GRT_ELF_CLASS_32
#else
#define GRT_HOST_ARCH "unknown"
#define GRT_HOST_ELF_MACHINE 0
#define GRT_HOST_ELF_CLASS 0
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define GRT_HOST_ELF_DATA GRT_ELF_DATA_MSB
#else
#define GRT_HOST_ELF_DATA GRT_ELF_DATA_LSB
#endif

// Whether this host's machine is one grt's ELF loader relocates for
// (x86_64, aarch64) on a platform with mmap. Elsewhere cpu-<arch>
// executables need the dlopen loader.
#define GRT_ELF_RELOCATES_HOST                                    \
  (GRT_ELF_HAVE_MMAN && GRT_HOST_ELF_DATA == GRT_ELF_DATA_LSB &&   \
   (GRT_HOST_ELF_MACHINE == GRT_ELF_MACHINE_X86_64 ||             \
    GRT_HOST_ELF_MACHINE == GRT_ELF_MACHINE_AARCH64))

#endif  // GRT_HAL_LOCAL_ELF_HOST_H_
