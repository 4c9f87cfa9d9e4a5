// grt's ELF loader for CPU kernel objects (elf_loader.h).
//
// Every structure is read from the file or the image with memcpy after a
// bounds check in 64-bit arithmetic that cannot wrap (the bytes come from a
// module: no alignment, size or offset in them is trusted).
// MAP_ANONYMOUS; sincos (compilers merge sin(x) and cos(x) into it).
#if !defined(_GNU_SOURCE)
#define _GNU_SOURCE 1
#endif

#include "hal/local/elf_loader.h"

#include "base/checked_math.h"
#include "hal/local/elf_host.h"
#include "hal/local/elf_types.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#if GRT_ELF_HAVE_MMAN
#include <sys/mman.h>
#include <unistd.h>
#endif

// Names for the e_machine values someone is likely to hand us by mistake.
static const char* grt_elf_machine_name(uint16_t machine) {
  static const struct {
    uint16_t machine;
    const char* name;
  } names[] = {
      {3, "x86"},     {8, "mips"},  {20, "powerpc"}, {21, "powerpc64"},
      {22, "s390"},   {40, "arm"},  {62, "x86_64"},  {183, "aarch64"},
      {243, "riscv"}, {258, "loongarch"},
  };
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i) {
    if (names[i].machine == machine) return names[i].name;
  }
  return "unknown";
}

static const char* grt_elf_class_name(uint8_t elf_class) {
  switch (elf_class) {
    case GRT_ELF_CLASS_32:
      return "32-bit";
    case GRT_ELF_CLASS_64:
      return "64-bit";
    default:
      return "invalid";
  }
}

static const char* grt_elf_data_name(uint8_t elf_data) {
  switch (elf_data) {
    case GRT_ELF_DATA_LSB:
      return "little-endian";
    case GRT_ELF_DATA_MSB:
      return "big-endian";
    default:
      return "invalid";
  }
}

grt_status_t grt_hal_local_elf_check_header(const char* label,
                                            const uint8_t* binary,
                                            size_t size) {
  static const uint8_t magic[4] = {0x7f, 'E', 'L', 'F'};
  if (size < sizeof(magic) || memcmp(binary, magic, sizeof(magic)) != 0) {
    char got[32] = "an empty binary";
    size_t shown = size < sizeof(magic) ? size : sizeof(magic);
    size_t length = 0;
    for (size_t i = 0; i < shown; ++i) {
      int n = snprintf(got + length, sizeof(got) - length, "%s%02x",
                       i ? " " : "", binary[i]);
      if (n > 0) length += (size_t)n;
    }
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: binary is not an ELF shared object (expected "
                           "the magic 7f 45 4c 46, got %s)",
                           label, got);
  }
  const size_t ident_size = 20;  // through e_machine
  if (size < ident_size) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: ELF binary is truncated: %zu bytes, the header "
                           "needs at least %zu",
                           label, size, ident_size);
  }
  uint8_t elf_class = binary[4];
  uint8_t elf_data = binary[5];
  if (elf_class != GRT_HOST_ELF_CLASS) {
    return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                           "%s: ELF class %" PRIu8
                           " (%s) does not match this host (%s)",
                           label, elf_class, grt_elf_class_name(elf_class),
                           grt_elf_class_name(GRT_HOST_ELF_CLASS));
  }
  if (elf_data != GRT_HOST_ELF_DATA) {
    return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                           "%s: ELF byte order %" PRIu8
                           " (%s) does not match this host (%s)",
                           label, elf_data, grt_elf_data_name(elf_data),
                           grt_elf_data_name(GRT_HOST_ELF_DATA));
  }
  // Same byte order as the host, so the fields read as native integers.
  uint16_t elf_type = 0;
  uint16_t elf_machine = 0;
  memcpy(&elf_type, binary + 16, sizeof(elf_type));
  memcpy(&elf_machine, binary + 18, sizeof(elf_machine));
  if (elf_type != GRT_ELF_TYPE_DYN) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: binary is not an ELF shared object (ELF type "
                           "%" PRIu16 ", expected %d ET_DYN)",
                           label, elf_type, GRT_ELF_TYPE_DYN);
  }
  if (elf_machine != GRT_HOST_ELF_MACHINE) {
    return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                           "%s: ELF machine %" PRIu16
                           " (%s) does not match this host (%s)",
                           label, elf_machine, grt_elf_machine_name(elf_machine),
                           GRT_HOST_ARCH);
  }
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// The import table
//===----------------------------------------------------------------------===//

typedef void (*grt_elf_import_fn_t)(void);

// X(name) for each function a kernel object may import: C99 <math.h> in
// float and double (and sincos, which GCC makes of sin and cos on Linux),
// and the four memory functions compilers call on their own (struct
// copies, zeroing loops).
#define GRT_ELF_MATH_IMPORTS(X)                                             \
  X(acos) X(acosh) X(asin) X(asinh) X(atan) X(atan2) X(atanh) X(cbrt)        \
  X(ceil) X(copysign) X(cos) X(cosh) X(erf) X(erfc) X(exp) X(exp2) X(expm1)  \
  X(fabs) X(fdim) X(floor) X(fma) X(fmax) X(fmin) X(fmod) X(hypot)           \
  X(ldexp) X(log) X(log10) X(log1p) X(log2) X(logb) X(nearbyint)             \
  X(nextafter) X(pow) X(remainder) X(rint) X(round) X(sin) X(sinh) X(sqrt)   \
  X(tan) X(tanh) X(tgamma) X(trunc) X(lrint) X(llrint) X(lround)           \
  X(llround) X(scalbn) X(ilogb)

#define GRT_ELF_IMPORT_DOUBLE(name) {#name, (grt_elf_import_fn_t)name},
#define GRT_ELF_IMPORT_FLOAT(name) {#name "f", (grt_elf_import_fn_t)name##f},

static const struct {
  const char* name;
  grt_elf_import_fn_t fn;
} grt_elf_imports[] = {
    GRT_ELF_MATH_IMPORTS(GRT_ELF_IMPORT_DOUBLE)
    GRT_ELF_MATH_IMPORTS(GRT_ELF_IMPORT_FLOAT)
    {"frexp", (grt_elf_import_fn_t)frexp},
    {"frexpf", (grt_elf_import_fn_t)frexpf},
    {"modf", (grt_elf_import_fn_t)modf},
    {"modff", (grt_elf_import_fn_t)modff},
#if defined(__linux__)  // glibc, musl and bionic have it; GCC uses it there
    {"sincos", (grt_elf_import_fn_t)sincos},
    {"sincosf", (grt_elf_import_fn_t)sincosf},
#endif
    {"memcmp", (grt_elf_import_fn_t)memcmp},
    {"memcpy", (grt_elf_import_fn_t)memcpy},
    {"memmove", (grt_elf_import_fn_t)memmove},
    {"memset", (grt_elf_import_fn_t)memset},
};

#define GRT_ELF_IMPORT_COUNT (sizeof(grt_elf_imports) / sizeof(grt_elf_imports[0]))

size_t grt_hal_local_elf_import_count(void) { return GRT_ELF_IMPORT_COUNT; }

const char* grt_hal_local_elf_import_name(size_t index) {
  return index < GRT_ELF_IMPORT_COUNT ? grt_elf_imports[index].name : NULL;
}

#if GRT_ELF_RELOCATES_HOST

//===----------------------------------------------------------------------===//
// ELF64 structures (System V gABI), read with memcpy; the file header and
// symbols are elf_types.h's (this host is 64-bit here)
//===----------------------------------------------------------------------===//

_Static_assert(sizeof(grt_elf_header_t) == 64 && sizeof(grt_elf_symbol_t) == 24,
               "grt's ELF loader reads 64-bit objects");

typedef struct grt_elf64_phdr_t {
  uint32_t type, flags;
  uint64_t offset, vaddr, paddr, filesz, memsz, align;
} grt_elf64_phdr_t;

typedef struct grt_elf64_dyn_t {
  int64_t tag;
  uint64_t value;
} grt_elf64_dyn_t;

typedef struct grt_elf64_rela_t {
  uint64_t offset, info;
  int64_t addend;
} grt_elf64_rela_t;

#define GRT_PT_LOAD 1
#define GRT_PT_DYNAMIC 2
#define GRT_PT_INTERP 3
#define GRT_PT_TLS 7
#define GRT_PT_GNU_RELRO 0x6474e552u

#define GRT_PF_X 1u
#define GRT_PF_W 2u
#define GRT_PF_R 4u

#define GRT_DT_NULL 0
#define GRT_DT_NEEDED 1
#define GRT_DT_PLTRELSZ 2
#define GRT_DT_HASH 4
#define GRT_DT_STRTAB 5
#define GRT_DT_SYMTAB 6
#define GRT_DT_RELA 7
#define GRT_DT_RELASZ 8
#define GRT_DT_RELAENT 9
#define GRT_DT_STRSZ 10
#define GRT_DT_SYMENT 11
#define GRT_DT_INIT 12
#define GRT_DT_FINI 13
#define GRT_DT_REL 17
#define GRT_DT_RELSZ 18
#define GRT_DT_PLTREL 20
#define GRT_DT_TEXTREL 22
#define GRT_DT_JMPREL 23
#define GRT_DT_INIT_ARRAY 25
#define GRT_DT_FINI_ARRAY 26
#define GRT_DT_INIT_ARRAYSZ 27
#define GRT_DT_FINI_ARRAYSZ 28
#define GRT_DT_FLAGS 30
#define GRT_DT_PREINIT_ARRAY 32
#define GRT_DT_PREINIT_ARRAYSZ 33
#define GRT_DT_RELRSZ 35
#define GRT_DT_RELR 36
#define GRT_DT_GNU_HASH 0x6ffffef5
#define GRT_DF_TEXTREL 0x4u
#define GRT_DF_STATIC_TLS 0x10u

#define GRT_SHN_UNDEF 0
#define GRT_SHN_ABS 0xfff1
#define GRT_STB_GLOBAL 1
#define GRT_STB_WEAK 2

#if GRT_HOST_ELF_MACHINE == GRT_ELF_MACHINE_X86_64
#define GRT_R_NONE 0
#define GRT_R_ABS64 1
#define GRT_R_GLOB_DAT 6
#define GRT_R_JUMP_SLOT 7
#define GRT_R_RELATIVE 8
#define GRT_R_PREFIX "R_X86_64_"
// x86_64 GLOB_DAT and JUMP_SLOT are S; aarch64's are S + A.
#define GRT_R_SLOT_ADDEND 0
#else
#define GRT_R_NONE 0
#define GRT_R_ABS64 257
#define GRT_R_GLOB_DAT 1025
#define GRT_R_JUMP_SLOT 1026
#define GRT_R_RELATIVE 1027
#define GRT_R_PREFIX "R_AARCH64_"
#define GRT_R_SLOT_ADDEND 1
#endif

// Names for relocation types an object might carry, for the refusal.
static const char* grt_elf_relocation_name(uint32_t type) {
  static const struct {
    uint32_t type;
    const char* name;
  } names[] = {
#if GRT_HOST_ELF_MACHINE == GRT_ELF_MACHINE_X86_64
      {0, "R_X86_64_NONE"},        {1, "R_X86_64_64"},
      {2, "R_X86_64_PC32"},        {4, "R_X86_64_PLT32"},
      {5, "R_X86_64_COPY"},        {6, "R_X86_64_GLOB_DAT"},
      {7, "R_X86_64_JUMP_SLOT"},   {8, "R_X86_64_RELATIVE"},
      {10, "R_X86_64_32"},         {16, "R_X86_64_DTPMOD64"},
      {17, "R_X86_64_DTPOFF64"},   {18, "R_X86_64_TPOFF64"},
      {24, "R_X86_64_PC64"},       {36, "R_X86_64_TLSDESC"},
      {37, "R_X86_64_IRELATIVE"},
#else
      {0, "R_AARCH64_NONE"},          {257, "R_AARCH64_ABS64"},
      {258, "R_AARCH64_ABS32"},       {260, "R_AARCH64_PREL64"},
      {1024, "R_AARCH64_COPY"},       {1025, "R_AARCH64_GLOB_DAT"},
      {1026, "R_AARCH64_JUMP_SLOT"},  {1027, "R_AARCH64_RELATIVE"},
      {1028, "R_AARCH64_TLS_DTPMOD"}, {1029, "R_AARCH64_TLS_DTPREL"},
      {1030, "R_AARCH64_TLS_TPREL"},  {1031, "R_AARCH64_TLSDESC"},
      {1032, "R_AARCH64_IRELATIVE"},
#endif
  };
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i) {
    if (names[i].type == type) return names[i].name;
  }
  return NULL;
}

//===----------------------------------------------------------------------===//
// The image
//===----------------------------------------------------------------------===//

struct grt_hal_local_elf_image_t {
  grt_allocator_t allocator;
  uint8_t* mapping;     // page aligned
  size_t mapping_size;  // a whole number of pages
  uint64_t min_vaddr;   // the file address at mapping[0]
  size_t page_size;
  uint8_t* page_flags;  // GRT_PF_* per page (PF_R for every mapped page)
  // The dynamic symbol table and its strings, as offsets into mapping.
  uint64_t symtab_offset;
  uint64_t symbol_count;
  uint64_t strtab_offset;
  uint64_t strtab_size;
};

typedef struct grt_elf_loader_t {
  const char* label;
  const uint8_t* data;
  size_t size;
  grt_elf64_phdr_t loads[GRT_HAL_LOCAL_ELF_MAX_PROGRAM_HEADERS];
  uint32_t load_count;
  grt_elf64_phdr_t dynamic;
  bool has_dynamic;
  grt_elf64_phdr_t relro;
  bool has_relro;
  grt_hal_local_elf_image_t* image;
  // From the dynamic section; 0 when absent (has_* says which were given).
  uint64_t dt[37];
  bool has_dt[37];
  uint64_t gnu_hash;
  bool has_gnu_hash;
} grt_elf_loader_t;

static const char* grt_elf_dt_name(int tag) {
  switch (tag) {
    case GRT_DT_INIT:
      return "DT_INIT";
    case GRT_DT_FINI:
      return "DT_FINI";
    case GRT_DT_INIT_ARRAYSZ:
      return "DT_INIT_ARRAY";
    case GRT_DT_FINI_ARRAYSZ:
      return "DT_FINI_ARRAY";
    case GRT_DT_PREINIT_ARRAYSZ:
      return "DT_PREINIT_ARRAY";
    default:
      return "?";
  }
}

// [vaddr, vaddr + size) as an offset into the mapping, when it lies inside
// one PT_LOAD segment's memory (so inside pages that stay readable).
static grt_status_t grt_elf_image_range(const grt_elf_loader_t* loader,
                                        uint64_t vaddr, uint64_t size,
                                        const char* what,
                                        uint64_t* out_offset) {
  uint64_t end = 0;
  if (grt_checked_add_u64(vaddr, size, &end)) {
    for (uint32_t i = 0; i < loader->load_count; ++i) {
      const grt_elf64_phdr_t* load = &loader->loads[i];
      if (vaddr >= load->vaddr && end <= load->vaddr + load->memsz) {
        *out_offset = vaddr - loader->image->min_vaddr;
        return grt_ok_status();
      }
    }
  }
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "%s: kernel object's %s (0x%" PRIx64 ", 0x%" PRIx64
                         " bytes) is not inside a loaded segment",
                         loader->label, what, vaddr, size);
}

static grt_status_t grt_elf_read_header(grt_elf_loader_t* loader,
                                        grt_elf_header_t* header) {
  if (loader->size < sizeof(*header)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: ELF binary is truncated: %zu bytes, the ELF "
                           "header needs %zu",
                           loader->label, loader->size, sizeof(*header));
  }
  memcpy(header, loader->data, sizeof(*header));
  if (header->ident[6] != 1 || header->version != 1) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: ELF version %u/%" PRIu32 ", expected 1",
                           loader->label, header->ident[6], header->version);
  }
  if (header->phentsize != sizeof(grt_elf64_phdr_t)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: ELF program header entries are %u bytes, "
                           "expected %zu",
                           loader->label, header->phentsize,
                           sizeof(grt_elf64_phdr_t));
  }
  if (header->phnum == 0 ||
      header->phnum > GRT_HAL_LOCAL_ELF_MAX_PROGRAM_HEADERS) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: kernel object has %u program headers, "
                           "expected 1 to %d",
                           loader->label, header->phnum,
                           GRT_HAL_LOCAL_ELF_MAX_PROGRAM_HEADERS);
  }
  uint64_t table_size = (uint64_t)header->phnum * sizeof(grt_elf64_phdr_t);
  if (header->phoff > loader->size || loader->size - header->phoff < table_size) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: ELF program headers (offset 0x%" PRIx64
                           ", %" PRIu64 " bytes) run past the end of the "
                           "%zu-byte file",
                           loader->label, header->phoff, table_size,
                           loader->size);
  }
  return grt_ok_status();
}

static grt_status_t grt_elf_read_program_headers(
    grt_elf_loader_t* loader, const grt_elf_header_t* header) {
  for (uint32_t i = 0; i < header->phnum; ++i) {
    grt_elf64_phdr_t phdr;
    memcpy(&phdr, loader->data + header->phoff + i * sizeof(phdr),
           sizeof(phdr));
    switch (phdr.type) {
      case GRT_PT_LOAD: {
        uint64_t file_end = 0;
        uint64_t memory_end = 0;
        if (!grt_checked_add_u64(phdr.offset, phdr.filesz, &file_end) ||
            file_end > loader->size) {
          return grt_make_status(
              GRT_STATUS_INVALID_ARGUMENT,
              "%s: segment %" PRIu32 " (file offset 0x%" PRIx64 ", 0x%" PRIx64
              " bytes) runs past the end of the %zu-byte file",
              loader->label, i, phdr.offset, phdr.filesz, loader->size);
        }
        if (phdr.filesz > phdr.memsz) {
          return grt_make_status(
              GRT_STATUS_INVALID_ARGUMENT,
              "%s: segment %" PRIu32 " has 0x%" PRIx64 " bytes in the file "
              "but only 0x%" PRIx64 " in memory",
              loader->label, i, phdr.filesz, phdr.memsz);
        }
        if (phdr.memsz > GRT_HAL_LOCAL_ELF_MAX_IMAGE_SIZE ||
            !grt_checked_add_u64(phdr.vaddr, phdr.memsz, &memory_end) ||
            memory_end > UINT64_MAX - GRT_HAL_LOCAL_ELF_MAX_IMAGE_SIZE) {
          return grt_make_status(
              GRT_STATUS_INVALID_ARGUMENT,
              "%s: segment %" PRIu32 " (address 0x%" PRIx64 ", 0x%" PRIx64
              " bytes) is larger than the %" PRIu64 " bytes a kernel object "
              "may use",
              loader->label, i, phdr.vaddr, phdr.memsz,
              GRT_HAL_LOCAL_ELF_MAX_IMAGE_SIZE);
        }
        if ((phdr.flags & GRT_PF_W) && (phdr.flags & GRT_PF_X)) {
          return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                                 "%s: segment %" PRIu32 " (address 0x%" PRIx64
                                 ") is both writable and executable",
                                 loader->label, i, phdr.vaddr);
        }
        // Code comes whole from the file: an executable segment whose file
        // size falls short of its memory size would run zero-filled bytes
        // as instructions (a re-hashed object with a shortened p_filesz
        // did, and crashed). No linker writes one.
        if ((phdr.flags & GRT_PF_X) && phdr.filesz != phdr.memsz) {
          return grt_make_status(
              GRT_STATUS_INVALID_ARGUMENT,
              "%s: executable segment %" PRIu32 " (address 0x%" PRIx64 ") has 0x%" PRIx64
              " bytes in the file and 0x%" PRIx64 " in memory; code must come whole "
              "from the file",
              loader->label, i, phdr.vaddr, phdr.filesz, phdr.memsz);
        }
        if (loader->load_count > 0) {
          const grt_elf64_phdr_t* last = &loader->loads[loader->load_count - 1];
          if (phdr.vaddr < last->vaddr + last->memsz) {
            return grt_make_status(
                GRT_STATUS_INVALID_ARGUMENT,
                "%s: segment %" PRIu32 " [0x%" PRIx64 ", 0x%" PRIx64
                ") overlaps or precedes the segment before it, which ends at "
                "0x%" PRIx64 " (segments must be in address order and apart)",
                loader->label, i, phdr.vaddr, memory_end,
                last->vaddr + last->memsz);
          }
        }
        // The ELF rule every linker keeps: a segment's file offset and
        // address agree modulo its alignment. A re-hashed object whose
        // segment was shifted against its code (relative branches and
        // data references between segments then land elsewhere) fails it.
        if (phdr.align > 1 && ((phdr.align & (phdr.align - 1)) != 0 ||
                               phdr.offset % phdr.align != phdr.vaddr % phdr.align)) {
          return grt_make_status(
              GRT_STATUS_INVALID_ARGUMENT,
              "%s: segment %" PRIu32 " (file offset 0x%" PRIx64 ", address 0x%" PRIx64
              ", alignment 0x%" PRIx64 "): expected a power-of-two alignment "
              "that the offset and the address agree modulo",
              loader->label, i, phdr.offset, phdr.vaddr, phdr.align);
        }
        loader->loads[loader->load_count++] = phdr;
        break;
      }
      case GRT_PT_DYNAMIC:
        if (loader->has_dynamic) {
          return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                                 "%s: kernel object has two PT_DYNAMIC "
                                 "program headers",
                                 loader->label);
        }
        loader->dynamic = phdr;
        loader->has_dynamic = true;
        break;
      case GRT_PT_GNU_RELRO:
        loader->relro = phdr;
        loader->has_relro = true;
        break;
      case GRT_PT_INTERP:
        return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "%s: kernel object names a program interpreter "
                               "(PT_INTERP): it is a program, not a library",
                               loader->label);
      case GRT_PT_TLS:
        return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "%s: kernel object uses thread-local storage "
                               "(PT_TLS), which grt's loader does not provide",
                               loader->label);
      default:
        break;  // notes, GNU_STACK, GNU_EH_FRAME, GNU_PROPERTY: nothing to do
    }
  }
  if (loader->load_count == 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: kernel object has no PT_LOAD segment",
                           loader->label);
  }
  if (!loader->has_dynamic) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: kernel object has no PT_DYNAMIC segment (no "
                           "symbols to find its entry point by)",
                           loader->label);
  }
  const grt_elf64_phdr_t* first = &loader->loads[0];
  const grt_elf64_phdr_t* last = &loader->loads[loader->load_count - 1];
  if (last->vaddr + last->memsz - first->vaddr >
      GRT_HAL_LOCAL_ELF_MAX_IMAGE_SIZE) {
    return grt_make_status(
        GRT_STATUS_INVALID_ARGUMENT,
        "%s: kernel object's segments span 0x%" PRIx64 " bytes, more than the "
        "%" PRIu64 " a kernel object may use",
        loader->label, last->vaddr + last->memsz - first->vaddr,
        GRT_HAL_LOCAL_ELF_MAX_IMAGE_SIZE);
  }
  return grt_ok_status();
}

// Reserves the image and copies the segments' file bytes into it (the rest
// of each segment, its .bss, stays zero).
static grt_status_t grt_elf_map(grt_elf_loader_t* loader,
                                grt_allocator_t allocator) {
  long page = sysconf(_SC_PAGESIZE);
  size_t page_size = page > 0 ? (size_t)page : 4096;
  const grt_elf64_phdr_t* first = &loader->loads[0];
  const grt_elf64_phdr_t* last = &loader->loads[loader->load_count - 1];
  uint64_t min_vaddr = first->vaddr - first->vaddr % page_size;
  uint64_t end = last->vaddr + last->memsz;
  uint64_t span = end - min_vaddr;
  span += (page_size - span % page_size) % page_size;
  grt_hal_local_elf_image_t* image = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(allocator, sizeof(*image), (void**)&image));
  image->allocator = allocator;
  image->page_size = page_size;
  image->min_vaddr = min_vaddr;
  grt_status_t status = grt_allocator_calloc(
      allocator, (size_t)(span / page_size), (void**)&image->page_flags);
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(allocator, image);
    return status;
  }
  void* mapping = mmap(NULL, (size_t)span, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) {
    grt_allocator_free(allocator, image->page_flags);
    grt_allocator_free(allocator, image);
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "%s: cannot reserve 0x%" PRIx64 " bytes for the "
                           "kernel object",
                           loader->label, span);
  }
  image->mapping = mapping;
  image->mapping_size = (size_t)span;
  loader->image = image;
  for (uint32_t i = 0; i < loader->load_count; ++i) {
    const grt_elf64_phdr_t* load = &loader->loads[i];
    if (load->filesz) {
      memcpy(image->mapping + (load->vaddr - min_vaddr),
             loader->data + load->offset, (size_t)load->filesz);
    }
  }
  return grt_ok_status();
}

static grt_status_t grt_elf_read_dynamic(grt_elf_loader_t* loader) {
  uint64_t offset = 0;
  GRT_RETURN_IF_ERROR(grt_elf_image_range(loader, loader->dynamic.vaddr,
                                          loader->dynamic.memsz,
                                          "dynamic section", &offset));
  uint64_t count = loader->dynamic.memsz / sizeof(grt_elf64_dyn_t);
  bool terminated = false;
  uint64_t needed_name = 0;
  bool has_needed = false;
  for (uint64_t i = 0; i < count && !terminated; ++i) {
    grt_elf64_dyn_t dyn;
    memcpy(&dyn, loader->image->mapping + offset + i * sizeof(dyn),
           sizeof(dyn));
    if (dyn.tag == GRT_DT_NULL) {
      terminated = true;
    } else if (dyn.tag == GRT_DT_NEEDED) {
      if (!has_needed) needed_name = dyn.value;
      has_needed = true;
    } else if (dyn.tag == GRT_DT_GNU_HASH) {
      loader->gnu_hash = dyn.value;
      loader->has_gnu_hash = true;
    } else if (dyn.tag > 0 &&
               dyn.tag < (int64_t)(sizeof(loader->dt) / sizeof(loader->dt[0]))) {
      loader->dt[dyn.tag] = dyn.value;
      loader->has_dt[dyn.tag] = true;
    }
  }
  if (!terminated) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: kernel object's dynamic section has no "
                           "DT_NULL end",
                           loader->label);
  }
  if (!loader->has_dt[GRT_DT_STRTAB] || !loader->has_dt[GRT_DT_SYMTAB]) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: kernel object has no dynamic %s",
                           loader->label,
                           loader->has_dt[GRT_DT_STRTAB] ? "symbol table"
                                                         : "string table");
  }
  uint64_t strtab = 0;
  GRT_RETURN_IF_ERROR(grt_elf_image_range(loader, loader->dt[GRT_DT_STRTAB],
                                          loader->dt[GRT_DT_STRSZ],
                                          "dynamic string table", &strtab));
  loader->image->strtab_offset = strtab;
  loader->image->strtab_size = loader->dt[GRT_DT_STRSZ];
  if (has_needed) {
    char name[64] = "?";
    uint64_t size = loader->dt[GRT_DT_STRSZ];
    if (needed_name < size) {
      const char* text = (const char*)loader->image->mapping + strtab + needed_name;
      size_t length = strnlen(text, (size_t)(size - needed_name));
      snprintf(name, sizeof(name), "%.*s", (int)(length < 63 ? length : 63),
               text);
    }
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: kernel object needs the library '%s' "
                           "(DT_NEEDED); grt's loader links none: a kernel "
                           "object may import only the functions of grt's "
                           "import table (build it with -nostdlib)",
                           loader->label, name);
  }
  static const int runs[] = {GRT_DT_INIT, GRT_DT_INIT_ARRAYSZ,
                             GRT_DT_PREINIT_ARRAYSZ, GRT_DT_FINI,
                             GRT_DT_FINI_ARRAYSZ};
  for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); ++i) {
    if (loader->dt[runs[i]] != 0) {
      return grt_make_status(
          GRT_STATUS_INVALID_ARGUMENT,
          "%s: kernel object has %s code (%s), which grt's loader never runs; "
          "kernel objects must not need it (build them with -nostdlib)",
          loader->label, runs[i] == GRT_DT_FINI || runs[i] == GRT_DT_FINI_ARRAYSZ
                             ? "destructor"
                             : "constructor",
          grt_elf_dt_name(runs[i]));
    }
  }
  if (loader->has_dt[GRT_DT_TEXTREL] ||
      (loader->dt[GRT_DT_FLAGS] & GRT_DF_TEXTREL)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: kernel object has text relocations "
                           "(DT_TEXTREL): its code would have to be writable",
                           loader->label);
  }
  if (loader->dt[GRT_DT_FLAGS] & GRT_DF_STATIC_TLS) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: kernel object uses thread-local storage "
                           "(DF_STATIC_TLS), which grt's loader does not "
                           "provide",
                           loader->label);
  }
  if (loader->dt[GRT_DT_RELSZ] != 0 || loader->dt[GRT_DT_RELRSZ] != 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: kernel object has %s relocations; this "
                           "machine's objects use DT_RELA only",
                           loader->label,
                           loader->dt[GRT_DT_RELSZ] ? "DT_REL" : "DT_RELR");
  }
  if (loader->has_dt[GRT_DT_SYMENT] &&
      loader->dt[GRT_DT_SYMENT] != sizeof(grt_elf_symbol_t)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: kernel object's symbols are %" PRIu64
                           " bytes (DT_SYMENT), expected %zu",
                           loader->label, loader->dt[GRT_DT_SYMENT],
                           sizeof(grt_elf_symbol_t));
  }
  return grt_ok_status();
}

static grt_status_t grt_elf_read_u32(const grt_elf_loader_t* loader,
                                     uint64_t vaddr, const char* what,
                                     uint32_t* out_value) {
  uint64_t offset = 0;
  GRT_RETURN_IF_ERROR(
      grt_elf_image_range(loader, vaddr, sizeof(*out_value), what, &offset));
  memcpy(out_value, loader->image->mapping + offset, sizeof(*out_value));
  return grt_ok_status();
}

// How many entries the dynamic symbol table has: DT_HASH's chain count,
// or one past the last symbol DT_GNU_HASH's chains reach.
static grt_status_t grt_elf_count_symbols(grt_elf_loader_t* loader) {
  uint64_t count = 0;
  if (loader->has_dt[GRT_DT_HASH]) {
    uint32_t chain_count = 0;
    GRT_RETURN_IF_ERROR(grt_elf_read_u32(loader, loader->dt[GRT_DT_HASH] + 4,
                                         "hash table (DT_HASH)",
                                         &chain_count));
    count = chain_count;
  } else if (loader->has_gnu_hash) {
    uint32_t words[4];  // nbuckets, symoffset, bloom words, bloom shift
    uint64_t offset = 0;
    GRT_RETURN_IF_ERROR(grt_elf_image_range(loader, loader->gnu_hash,
                                            sizeof(words),
                                            "hash table (DT_GNU_HASH)",
                                            &offset));
    memcpy(words, loader->image->mapping + offset, sizeof(words));
    if (words[0] > GRT_HAL_LOCAL_ELF_MAX_SYMBOLS) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "%s: kernel object's DT_GNU_HASH has %" PRIu32
                             " buckets, more than the %d symbols grt's loader "
                             "accepts",
                             loader->label, words[0],
                             GRT_HAL_LOCAL_ELF_MAX_SYMBOLS);
    }
    uint64_t buckets = loader->gnu_hash + sizeof(words) + (uint64_t)words[2] * 8;
    uint64_t chains = buckets + (uint64_t)words[0] * 4;
    GRT_RETURN_IF_ERROR(grt_elf_image_range(loader, buckets,
                                            (uint64_t)words[0] * 4,
                                            "DT_GNU_HASH buckets", &offset));
    uint32_t max_bucket = 0;
    for (uint32_t i = 0; i < words[0]; ++i) {
      uint32_t bucket = 0;
      memcpy(&bucket, loader->image->mapping + offset + (uint64_t)i * 4, 4);
      if (bucket > max_bucket) max_bucket = bucket;
    }
    count = words[1];
    if (max_bucket != 0) {
      if (max_bucket < words[1]) {
        return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "%s: kernel object's DT_GNU_HASH bucket names "
                               "symbol %" PRIu32 ", below its first hashed "
                               "symbol %" PRIu32,
                               loader->label, max_bucket, words[1]);
      }
      // Walk the last chain to its end marker; every read is range checked,
      // so a chain without one ends at its segment's end with an error.
      uint64_t index = max_bucket;
      for (;;) {
        uint32_t hash = 0;
        GRT_RETURN_IF_ERROR(grt_elf_read_u32(
            loader, chains + (index - words[1]) * 4, "DT_GNU_HASH chain",
            &hash));
        if (hash & 1) break;
        if (++index - max_bucket > GRT_HAL_LOCAL_ELF_MAX_SYMBOLS) {
          return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                                 "%s: kernel object's DT_GNU_HASH chain runs "
                                 "past %d symbols without an end marker",
                                 loader->label, GRT_HAL_LOCAL_ELF_MAX_SYMBOLS);
        }
      }
      count = index + 1;
    }
  } else {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: kernel object has neither DT_HASH nor "
                           "DT_GNU_HASH (the size of its symbol table)",
                           loader->label);
  }
  if (count > GRT_HAL_LOCAL_ELF_MAX_SYMBOLS) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: kernel object has %" PRIu64 " dynamic "
                           "symbols, more than the %d grt's loader accepts",
                           loader->label, count, GRT_HAL_LOCAL_ELF_MAX_SYMBOLS);
  }
  uint64_t offset = 0;
  GRT_RETURN_IF_ERROR(grt_elf_image_range(
      loader, loader->dt[GRT_DT_SYMTAB], count * sizeof(grt_elf_symbol_t),
      "dynamic symbol table", &offset));
  loader->image->symtab_offset = offset;
  loader->image->symbol_count = count;
  return grt_ok_status();
}

static void grt_elf_symbol_at(const grt_hal_local_elf_image_t* image,
                              uint64_t index, grt_elf_symbol_t* out_symbol) {
  memcpy(out_symbol,
         image->mapping + image->symtab_offset + index * sizeof(*out_symbol),
         sizeof(*out_symbol));
}

// The NUL-terminated name at |offset| in the string table, or NULL.
static const char* grt_elf_string_at(const grt_hal_local_elf_image_t* image,
                                     uint64_t offset) {
  if (offset >= image->strtab_size) return NULL;
  const char* text = (const char*)image->mapping + image->strtab_offset + offset;
  size_t room = (size_t)(image->strtab_size - offset);
  return memchr(text, 0, room) ? text : NULL;
}

// The value symbol |index| gives a relocation: the import table's function
// for an undefined one, its address in the image otherwise.
static grt_status_t grt_elf_symbol_value(const grt_elf_loader_t* loader,
                                         uint64_t index, const char* type_name,
                                         uint64_t* out_value) {
  const grt_hal_local_elf_image_t* image = loader->image;
  if (index == 0 || index >= image->symbol_count) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: kernel object's %s relocation names symbol "
                           "%" PRIu64 ", outside its %" PRIu64 "-entry symbol "
                           "table",
                           loader->label, type_name, index,
                           image->symbol_count);
  }
  grt_elf_symbol_t symbol;
  grt_elf_symbol_at(image, index, &symbol);
  const char* name = grt_elf_string_at(image, symbol.name);
  if (!name) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: kernel object's symbol %" PRIu64 " has no "
                           "name inside its string table",
                           loader->label, index);
  }
  if (symbol.shndx == GRT_SHN_UNDEF) {
    for (size_t i = 0; i < GRT_ELF_IMPORT_COUNT; ++i) {
      if (strcmp(grt_elf_imports[i].name, name) == 0) {
        void* address = NULL;
        memcpy(&address, &grt_elf_imports[i].fn, sizeof(address));
        *out_value = (uint64_t)(uintptr_t)address;
        return grt_ok_status();
      }
    }
    return grt_make_status(
        GRT_STATUS_NOT_FOUND,
        "%s: kernel object imports '%.64s', which is not in grt's import table "
        "(the C math functions and memcpy, memmove, memset, memcmp)",
        loader->label, name);
  }
  if (symbol.shndx == GRT_SHN_ABS) {
    *out_value = symbol.value;
  } else {
    *out_value = (uint64_t)(uintptr_t)image->mapping + (symbol.value - image->min_vaddr);
  }
  return grt_ok_status();
}

static grt_status_t grt_elf_apply_relocations(grt_elf_loader_t* loader,
                                              uint64_t table, uint64_t size,
                                              const char* what) {
  if (size == 0) return grt_ok_status();
  if (size % sizeof(grt_elf64_rela_t) != 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: kernel object's %s is %" PRIu64 " bytes, not "
                           "a whole number of %zu-byte entries",
                           loader->label, what, size,
                           sizeof(grt_elf64_rela_t));
  }
  uint64_t offset = 0;
  GRT_RETURN_IF_ERROR(grt_elf_image_range(loader, table, size, what, &offset));
  grt_hal_local_elf_image_t* image = loader->image;
  uint64_t count = size / sizeof(grt_elf64_rela_t);
  for (uint64_t i = 0; i < count; ++i) {
    grt_elf64_rela_t rela;
    memcpy(&rela, image->mapping + offset + i * sizeof(rela), sizeof(rela));
    uint32_t type = (uint32_t)rela.info;
    uint64_t symbol_index = rela.info >> 32;
    if (type == GRT_R_NONE) continue;
    const char* type_name = grt_elf_relocation_name(type);
    uint64_t value = 0;
    switch (type) {
      case GRT_R_RELATIVE:
        value = (uint64_t)(uintptr_t)image->mapping - image->min_vaddr +
                (uint64_t)rela.addend;
        break;
      case GRT_R_ABS64:
        GRT_RETURN_IF_ERROR(
            grt_elf_symbol_value(loader, symbol_index, type_name, &value));
        value += (uint64_t)rela.addend;
        break;
      case GRT_R_GLOB_DAT:
      case GRT_R_JUMP_SLOT:
        GRT_RETURN_IF_ERROR(
            grt_elf_symbol_value(loader, symbol_index, type_name, &value));
        if (GRT_R_SLOT_ADDEND) value += (uint64_t)rela.addend;
        break;
      default:
        if (type_name) {
          return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                                 "%s: kernel object has a %s relocation, which "
                                 "grt's loader does not apply",
                                 loader->label, type_name);
        }
        return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                               "%s: kernel object has a relocation of unknown "
                               "type %" PRIu32 " (" GRT_R_PREFIX "*)",
                               loader->label, type);
    }
    // The target: 8 bytes inside one writable segment.
    bool writable = false;
    uint64_t end = 0;
    if (grt_checked_add_u64(rela.offset, sizeof(value), &end)) {
      for (uint32_t s = 0; s < loader->load_count && !writable; ++s) {
        const grt_elf64_phdr_t* load = &loader->loads[s];
        writable = (load->flags & GRT_PF_W) && rela.offset >= load->vaddr &&
                   end <= load->vaddr + load->memsz;
      }
    }
    if (!writable) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "%s: kernel object's %s relocation %" PRIu64
                             " patches 0x%" PRIx64 ", outside its writable "
                             "segments",
                             loader->label, type_name, i, rela.offset);
    }
    memcpy(image->mapping + (rela.offset - image->min_vaddr), &value,
           sizeof(value));
  }
  return grt_ok_status();
}

static grt_status_t grt_elf_relocate(grt_elf_loader_t* loader) {
  if (loader->has_dt[GRT_DT_RELAENT] &&
      loader->dt[GRT_DT_RELAENT] != sizeof(grt_elf64_rela_t)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: kernel object's relocations are %" PRIu64
                           " bytes (DT_RELAENT), expected %zu",
                           loader->label, loader->dt[GRT_DT_RELAENT],
                           sizeof(grt_elf64_rela_t));
  }
  if (loader->dt[GRT_DT_PLTRELSZ] != 0 &&
      loader->dt[GRT_DT_PLTREL] != GRT_DT_RELA) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: kernel object's PLT relocations are of kind "
                           "%" PRIu64 " (DT_PLTREL), expected %d (DT_RELA)",
                           loader->label, loader->dt[GRT_DT_PLTREL],
                           GRT_DT_RELA);
  }
  GRT_RETURN_IF_ERROR(grt_elf_apply_relocations(
      loader, loader->dt[GRT_DT_RELA], loader->dt[GRT_DT_RELASZ],
      "relocation table (DT_RELA)"));
  return grt_elf_apply_relocations(loader, loader->dt[GRT_DT_JMPREL],
                                   loader->dt[GRT_DT_PLTRELSZ],
                                   "PLT relocation table (DT_JMPREL)");
}

// Gives every page its final permissions: the union of the segments on it
// (never writable and executable), read-only for PT_GNU_RELRO, nothing for
// pages between segments.
static grt_status_t grt_elf_protect(grt_elf_loader_t* loader) {
  grt_hal_local_elf_image_t* image = loader->image;
  size_t page_size = image->page_size;
  size_t page_count = image->mapping_size / page_size;
  for (uint32_t i = 0; i < loader->load_count; ++i) {
    const grt_elf64_phdr_t* load = &loader->loads[i];
    if (load->memsz == 0) continue;
    uint64_t first = (load->vaddr - image->min_vaddr) / page_size;
    uint64_t last = (load->vaddr + load->memsz - 1 - image->min_vaddr) / page_size;
    uint8_t flags = (uint8_t)(GRT_PF_R | (load->flags & (GRT_PF_W | GRT_PF_X)));
    for (uint64_t p = first; p <= last; ++p) {
      uint8_t merged = (uint8_t)(image->page_flags[p] | flags);
      if ((merged & GRT_PF_W) && (merged & GRT_PF_X)) {
        return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "%s: kernel object's page at 0x%" PRIx64
                               " would be writable and executable (segment "
                               "%" PRIu32 " shares it with another)",
                               loader->label,
                               image->min_vaddr + p * page_size, i);
      }
      image->page_flags[p] = merged;
    }
  }
  if (loader->has_relro && loader->relro.memsz > 0) {
    // Like the system loader: from the page holding its start to the last
    // page it fills, so a page it shares with ordinary data stays writable.
    uint64_t start = loader->relro.vaddr;
    uint64_t end = 0;
    if (start >= image->min_vaddr &&
        grt_checked_add_u64(start, loader->relro.memsz, &end) &&
        end - image->min_vaddr <= image->mapping_size) {
      uint64_t first = (start - image->min_vaddr) / page_size;
      uint64_t stop = (end - image->min_vaddr) / page_size;
      for (uint64_t p = first; p < stop; ++p) {
        image->page_flags[p] &= (uint8_t)~GRT_PF_W;
      }
    }
  }
  size_t run = 0;
  for (size_t p = 1; p <= page_count; ++p) {
    if (p < page_count && image->page_flags[p] == image->page_flags[run]) {
      continue;
    }
    uint8_t flags = image->page_flags[run];
    int prot = PROT_NONE;
    if (flags & GRT_PF_R) prot |= PROT_READ;
    if (flags & GRT_PF_W) prot |= PROT_WRITE;
    if (flags & GRT_PF_X) prot |= PROT_EXEC;
    uint8_t* start = image->mapping + run * page_size;
    size_t length = (p - run) * page_size;
    if (flags & GRT_PF_X) __builtin___clear_cache((char*)start, (char*)start + length);
    if (mprotect(start, length, prot) != 0) {
      return grt_make_status(GRT_STATUS_PERMISSION_DENIED,
                             "%s: cannot make the kernel object's pages at "
                             "0x%" PRIx64 " %s%s%s (mprotect refused; is "
                             "executable memory forbidden here?)",
                             loader->label, image->min_vaddr + run * page_size,
                             (flags & GRT_PF_R) ? "r" : "-",
                             (flags & GRT_PF_W) ? "w" : "-",
                             (flags & GRT_PF_X) ? "x" : "-");
    }
    run = p;
  }
  return grt_ok_status();
}

void grt_hal_local_elf_unload(grt_hal_local_elf_image_t* image) {
  if (!image) return;
  if (image->mapping) munmap(image->mapping, image->mapping_size);
  grt_allocator_free(image->allocator, image->page_flags);
  grt_allocator_free(image->allocator, image);
}

grt_status_t grt_hal_local_elf_load(const uint8_t* data, size_t size,
                                    const char* label,
                                    grt_allocator_t allocator,
                                    grt_hal_local_elf_image_t** out_image) {
  *out_image = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_local_elf_check_header(label, data, size));
  grt_elf_loader_t* loader = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(allocator, sizeof(*loader), (void**)&loader));
  loader->label = label;
  loader->data = data;
  loader->size = size;
  grt_elf_header_t header;
  grt_status_t status = grt_elf_read_header(loader, &header);
  if (grt_status_is_ok(status)) {
    status = grt_elf_read_program_headers(loader, &header);
  }
  if (grt_status_is_ok(status)) status = grt_elf_map(loader, allocator);
  if (grt_status_is_ok(status)) status = grt_elf_read_dynamic(loader);
  if (grt_status_is_ok(status)) status = grt_elf_count_symbols(loader);
  if (grt_status_is_ok(status)) status = grt_elf_relocate(loader);
  if (grt_status_is_ok(status)) status = grt_elf_protect(loader);
  if (grt_status_is_ok(status)) {
    *out_image = loader->image;
  } else {
    grt_hal_local_elf_unload(loader->image);
  }
  grt_allocator_free(allocator, loader);
  return status;
}

grt_status_t grt_hal_local_elf_lookup(const grt_hal_local_elf_image_t* image,
                                      const char* name, const char* label,
                                      void** out_address) {
  *out_address = NULL;
  for (uint64_t i = 1; i < image->symbol_count; ++i) {
    grt_elf_symbol_t symbol;
    grt_elf_symbol_at(image, i, &symbol);
    uint8_t binding = symbol.info >> 4;
    if (symbol.shndx == GRT_SHN_UNDEF || symbol.shndx == GRT_SHN_ABS ||
        (binding != GRT_STB_GLOBAL && binding != GRT_STB_WEAK)) {
      continue;
    }
    const char* symbol_name = grt_elf_string_at(image, symbol.name);
    if (!symbol_name || strcmp(symbol_name, name) != 0) continue;
    if (symbol.value < image->min_vaddr ||
        symbol.value - image->min_vaddr >= image->mapping_size) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "%s: kernel object's symbol '%s' (0x%" PRIx64
                             ") is outside the object",
                             label, name, symbol.value);
    }
    *out_address = image->mapping + (symbol.value - image->min_vaddr);
    return grt_ok_status();
  }
  return grt_make_status(GRT_STATUS_NOT_FOUND,
                         "%s: kernel library does not export '%s'", label,
                         name);
}

static bool grt_elf_pages_have(const grt_hal_local_elf_image_t* image,
                               uintptr_t address, size_t size, uint8_t flag) {
  uintptr_t start = (uintptr_t)image->mapping;
  if (address < start || address - start > image->mapping_size ||
      size > image->mapping_size - (address - start)) {
    return false;
  }
  size_t first = (address - start) / image->page_size;
  size_t stop = (address - start + size + image->page_size - 1) / image->page_size;
  if (size == 0) stop = first + 1;
  if (stop > image->mapping_size / image->page_size) return false;
  for (size_t p = first; p < stop; ++p) {
    if (!(image->page_flags[p] & flag)) return false;
  }
  return true;
}

bool grt_hal_local_elf_contains_code(const grt_hal_local_elf_image_t* image,
                                     uintptr_t address, size_t size) {
  return grt_elf_pages_have(image, address, size, GRT_PF_X);
}

bool grt_hal_local_elf_contains_data(const grt_hal_local_elf_image_t* image,
                                     uintptr_t address, size_t size) {
  return grt_elf_pages_have(image, address, size, GRT_PF_R);
}

bool grt_hal_local_elf_contains_string(const grt_hal_local_elf_image_t* image,
                                       const char* text) {
  uintptr_t address = (uintptr_t)text;
  while (grt_elf_pages_have(image, address, 1, GRT_PF_R)) {
    size_t in_page = image->page_size - (address % image->page_size);
    if (memchr((const void*)address, 0, in_page)) return true;
    address += in_page;
  }
  return false;
}

uintptr_t grt_hal_local_elf_load_base(const grt_hal_local_elf_image_t* image) {
  return (uintptr_t)image->mapping - (uintptr_t)image->min_vaddr;
}

#else  // !GRT_ELF_RELOCATES_HOST

struct grt_hal_local_elf_image_t {
  int unused;
};

grt_status_t grt_hal_local_elf_load(const uint8_t* data, size_t size,
                                    const char* label,
                                    grt_allocator_t allocator,
                                    grt_hal_local_elf_image_t** out_image) {
  (void)allocator;
  *out_image = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_local_elf_check_header(label, data, size));
  return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                         "%s: grt's kernel object loader relocates x86_64 and "
                         "aarch64 objects on platforms with mmap; this one "
                         "(" GRT_HOST_ARCH ") needs the dlopen loader "
                         "(GRT_ENABLE_DLOPEN_LOADER)",
                         label);
}

grt_status_t grt_hal_local_elf_lookup(const grt_hal_local_elf_image_t* image,
                                      const char* name, const char* label,
                                      void** out_address) {
  (void)image;
  *out_address = NULL;
  return grt_make_status(GRT_STATUS_NOT_FOUND,
                         "%s: kernel library does not export '%s'", label,
                         name);
}

bool grt_hal_local_elf_contains_code(const grt_hal_local_elf_image_t* image,
                                     uintptr_t address, size_t size) {
  (void)image;
  (void)address;
  (void)size;
  return false;
}

bool grt_hal_local_elf_contains_data(const grt_hal_local_elf_image_t* image,
                                     uintptr_t address, size_t size) {
  (void)image;
  (void)address;
  (void)size;
  return false;
}

bool grt_hal_local_elf_contains_string(const grt_hal_local_elf_image_t* image,
                                       const char* text) {
  (void)image;
  (void)text;
  return false;
}

uintptr_t grt_hal_local_elf_load_base(const grt_hal_local_elf_image_t* image) {
  (void)image;
  return 0;
}

void grt_hal_local_elf_unload(grt_hal_local_elf_image_t* image) { (void)image; }

#endif  // GRT_ELF_RELOCATES_HOST
