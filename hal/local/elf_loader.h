// grt's own loader for CPU kernel objects: an ELF shared object (the
// cpu-<arch> executable grt-compile embeds in a module) made callable
// without the system's dynamic loader.
//
// What it does, and what it refuses (every refusal names what it found):
//   - The ELF header must be a 64-bit little-endian ET_DYN for this host's
//     machine (x86_64 or aarch64); every program header, segment, dynamic
//     table, symbol and relocation is bounds-checked with checked
//     arithmetic against the file or the image before it is used.
//   - The PT_LOAD segments are copied into one private anonymous mapping
//     (not mapped from a file): writable but never executable while the
//     relocations are applied, then each page gets its segment's final
//     permissions (read, read+execute or read+write; PT_GNU_RELRO read-only
//     after relocation). A page that two segments share and would need to
//     be writable and executable at once is refused, as is a segment that
//     asks for both, or one whose file offset and address disagree modulo
//     its alignment (the ELF rule linkers keep: a re-hashed object whose
//     segment was moved against its code fails it).
//   - Only the relocations grt-compile's objects contain are applied:
//     x86_64 RELATIVE, 64, GLOB_DAT and JUMP_SLOT; aarch64 RELATIVE, ABS64,
//     GLOB_DAT and JUMP_SLOT (and NONE). Any other type is refused by name,
//     and every target must lie inside a writable segment.
//   - Nothing in the object runs at load: an object with constructors or
//     destructors (DT_INIT, DT_INIT_ARRAY, DT_PREINIT_ARRAY, DT_FINI,
//     DT_FINI_ARRAY) is refused rather than loaded half-initialized, as is
//     one that needs another library (DT_NEEDED), thread-local storage
//     (PT_TLS, DF_STATIC_TLS), text relocations or an interpreter.
//   - Undefined symbols are bound only to the runtime's own functions in a
//     fixed import table: the C math library (expf, tanhf, powf, ... in
//     float and double) and memcpy/memmove/memset/memcmp
//     (grt_hal_local_elf_import_name lists them). Any other undefined
//     symbol is refused by name.
// Symbols are looked up in the dynamic symbol table, whose size comes from
// DT_HASH or DT_GNU_HASH.
//
// The mapping uses mmap/mprotect (Linux, Android, the BSDs); a platform
// without them gets UNIMPLEMENTED from grt_hal_local_elf_load.
#ifndef GRT_HAL_LOCAL_ELF_LOADER_H_
#define GRT_HAL_LOCAL_ELF_LOADER_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// The most image memory (span of the PT_LOAD segments) one object may ask
// for, and the most program headers it may have.
#define GRT_HAL_LOCAL_ELF_MAX_IMAGE_SIZE ((uint64_t)1 << 30)
#define GRT_HAL_LOCAL_ELF_MAX_PROGRAM_HEADERS 64
// The most dynamic symbols one object may have (an object exports one).
#define GRT_HAL_LOCAL_ELF_MAX_SYMBOLS (1 << 16)

// Checks the ELF identification of |size| bytes at |data| against this
// host: the magic, class (32/64-bit), byte order, type ET_DYN and machine.
// Errors start with |label|: "executable cpu-x86_64: ELF machine 183
// (aarch64) does not match this host (x86_64)". Also used before dlopen.
grt_status_t grt_hal_local_elf_check_header(const char* label,
                                            const uint8_t* data, size_t size)
    GRT_MUST_USE;

typedef struct grt_hal_local_elf_image_t grt_hal_local_elf_image_t;

// Loads the shared object in |size| bytes at |data| (which need not stay
// alive afterwards). Errors start with |label|.
grt_status_t grt_hal_local_elf_load(const uint8_t* data, size_t size,
                                    const char* label,
                                    grt_allocator_t allocator,
                                    grt_hal_local_elf_image_t** out_image)
    GRT_MUST_USE;

// The address of the defined global symbol |name| exported by |image|;
// NOT_FOUND naming it otherwise.
grt_status_t grt_hal_local_elf_lookup(const grt_hal_local_elf_image_t* image,
                                      const char* name, const char* label,
                                      void** out_address) GRT_MUST_USE;

// Whether [address, address + size) lies in |image|'s executable pages.
bool grt_hal_local_elf_contains_code(const grt_hal_local_elf_image_t* image,
                                     uintptr_t address, size_t size);

// Whether [address, address + size) lies in |image|'s readable pages.
bool grt_hal_local_elf_contains_data(const grt_hal_local_elf_image_t* image,
                                     uintptr_t address, size_t size);

// Whether |text| is a NUL-terminated string in |image|'s readable pages.
bool grt_hal_local_elf_contains_string(const grt_hal_local_elf_image_t* image,
                                       const char* text);

// What is added to an address in the file to give the address in memory
// (for the perf map, perf_map.h).
uintptr_t grt_hal_local_elf_load_base(const grt_hal_local_elf_image_t* image);

// Unmaps |image|. NULL is ignored.
void grt_hal_local_elf_unload(grt_hal_local_elf_image_t* image);

// The import table: how many names, and the name at |index| (NULL past
// the end).
size_t grt_hal_local_elf_import_count(void);
const char* grt_hal_local_elf_import_name(size_t index);

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_LOCAL_ELF_LOADER_H_
