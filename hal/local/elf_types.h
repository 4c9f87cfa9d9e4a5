// The ELF structures of the host's class (System V gABI) that more than
// one part of hal/local reads: the file header, section headers and
// symbols. Internal to hal/local (perf_map.c, elf_loader.c). The bytes come
// from a module, so they are copied out with memcpy after a bounds check:
// no alignment or value in them is trusted.
#ifndef GRT_HAL_LOCAL_ELF_TYPES_H_
#define GRT_HAL_LOCAL_ELF_TYPES_H_

#include <stdint.h>

#if UINTPTR_MAX > 0xffffffffu
typedef struct grt_elf_header_t {
  uint8_t ident[16];
  uint16_t type, machine;
  uint32_t version;
  uint64_t entry, phoff, shoff;
  uint32_t flags;
  uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
} grt_elf_header_t;
typedef struct grt_elf_section_t {
  uint32_t name, type;
  uint64_t flags, addr, offset, size;
  uint32_t link, info;
  uint64_t addralign, entsize;
} grt_elf_section_t;
typedef struct grt_elf_symbol_t {
  uint32_t name;
  uint8_t info, other;
  uint16_t shndx;
  uint64_t value, size;
} grt_elf_symbol_t;
#else
typedef struct grt_elf_header_t {
  uint8_t ident[16];
  uint16_t type, machine;
  uint32_t version;
  uint32_t entry, phoff, shoff;
  uint32_t flags;
  uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
} grt_elf_header_t;
typedef struct grt_elf_section_t {
  uint32_t name, type;
  uint32_t flags, addr, offset, size;
  uint32_t link, info;
  uint32_t addralign, entsize;
} grt_elf_section_t;
typedef struct grt_elf_symbol_t {
  uint32_t name;
  uint32_t value, size;
  uint8_t info, other;
  uint16_t shndx;
} grt_elf_symbol_t;
#endif


#endif  // GRT_HAL_LOCAL_ELF_TYPES_H_
