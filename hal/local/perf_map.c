// perf map files (perf_map.h).
#include "hal/local/perf_map.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/allocator.h"
#include "base/string_builder.h"
#include "hal/local/elf_types.h"

#define GRT_ELF_SECTION_SYMTAB 2
#define GRT_ELF_SECTION_DYNSYM 11
#define GRT_ELF_SECTION_FLAG_EXECINSTR 0x4
#define GRT_ELF_SYMBOL_TYPE_FUNC 2

static pthread_mutex_t grt_hal_local_perf_map_mutex = PTHREAD_MUTEX_INITIALIZER;

grt_status_t grt_hal_local_perf_map_requested(bool* out_requested) {
  *out_requested = false;
  const char* value = getenv("GRT_PERF_MAP");
  if (!value || !value[0] || strcmp(value, "0") == 0) return grt_ok_status();
  if (strcmp(value, "1") == 0) {
    *out_requested = true;
    return grt_ok_status();
  }
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "GRT_PERF_MAP='%.64s': expected 1 (write "
                         "/tmp/perf-<pid>.map for perf) or 0",
                         value);
}

void grt_hal_local_perf_map_default_path(char* out, size_t capacity) {
  snprintf(out, capacity, "/tmp/perf-%ld.map", (long)getpid());
}

// Section header |index| of |elf|; false when it is not inside the file.
static bool grt_elf_section_at(const uint8_t* elf, size_t elf_size,
                               const grt_elf_header_t* header, uint32_t index,
                               grt_elf_section_t* out_section) {
  if (index >= header->shnum || header->shoff > elf_size ||
      header->shentsize < sizeof(grt_elf_section_t)) {
    return false;
  }
  uint64_t offset = (uint64_t)header->shoff + (uint64_t)index * header->shentsize;
  if (offset > elf_size || elf_size - offset < sizeof(*out_section)) {
    return false;
  }
  memcpy(out_section, elf + offset, sizeof(*out_section));
  return true;
}

// The size the symbol table gives a function at |address| (file address),
// or 0 when it has none.
static uint64_t grt_elf_function_size(const uint8_t* elf, size_t elf_size,
                                      const grt_elf_header_t* header,
                                      uint64_t address) {
  // .symtab has the static functions a kernel library's entries point to;
  // .dynsym only what it exports.
  const uint32_t types[2] = {GRT_ELF_SECTION_SYMTAB, GRT_ELF_SECTION_DYNSYM};
  for (int t = 0; t < 2; ++t) {
    for (uint32_t i = 0; i < header->shnum; ++i) {
      grt_elf_section_t table;
      if (!grt_elf_section_at(elf, elf_size, header, i, &table) ||
          table.type != types[t] || table.offset > elf_size ||
          elf_size - table.offset < table.size) {
        continue;
      }
      uint64_t entry_size = table.entsize ? table.entsize
                                          : sizeof(grt_elf_symbol_t);
      if (entry_size < sizeof(grt_elf_symbol_t)) continue;
      for (uint64_t offset = 0; offset + entry_size <= table.size;
           offset += entry_size) {
        grt_elf_symbol_t symbol;
        memcpy(&symbol, elf + table.offset + offset, sizeof(symbol));
        if ((symbol.info & 0xF) == GRT_ELF_SYMBOL_TYPE_FUNC &&
            symbol.value == address && symbol.size) {
          return symbol.size;
        }
      }
    }
  }
  return 0;
}

// Bytes from |address| (file address) to the end of the executable
// section holding it; 0 when none does.
static uint64_t grt_elf_bytes_to_section_end(const uint8_t* elf,
                                             size_t elf_size,
                                             const grt_elf_header_t* header,
                                             uint64_t address) {
  for (uint32_t i = 0; i < header->shnum; ++i) {
    grt_elf_section_t section;
    if (!grt_elf_section_at(elf, elf_size, header, i, &section) ||
        !(section.flags & GRT_ELF_SECTION_FLAG_EXECINSTR)) {
      continue;
    }
    if (address >= section.addr && address - section.addr < section.size) {
      return section.size - (address - section.addr);
    }
  }
  return 0;
}

static uintptr_t grt_kernel_address(grt_kernel_fn_t fn) {
  // ISO C has no function-to-integer conversion; POSIX guarantees a
  // function pointer has the representation of an object pointer.
  void* pointer = NULL;
  memcpy(&pointer, &fn, sizeof(pointer));
  return (uintptr_t)pointer;
}

// How many bytes the perf map gives |entry|.
static uint64_t grt_hal_local_perf_map_entry_size(
    const grt_kernel_library_t* library, size_t index, const uint8_t* elf,
    size_t elf_size, uintptr_t load_base) {
  grt_elf_header_t header;
  memset(&header, 0, sizeof(header));
  bool have_header = elf_size >= sizeof(header);
  if (have_header) memcpy(&header, elf, sizeof(header));
  uintptr_t address = grt_kernel_address(library->entries[index].fn);
  uint64_t file_address = (uint64_t)(address - load_base);
  if (have_header) {
    uint64_t size =
        grt_elf_function_size(elf, elf_size, &header, file_address);
    if (size) return size;
  }
  // No symbol: up to the next entry point above it, within its section.
  uint64_t size = have_header ? grt_elf_bytes_to_section_end(
                                    elf, elf_size, &header, file_address)
                              : 0;
  for (size_t i = 0; i < library->entry_count; ++i) {
    uintptr_t other = grt_kernel_address(library->entries[i].fn);
    if (other > address && (size == 0 || other - address < size)) {
      size = other - address;
    }
  }
  return size ? size : 1;
}

grt_status_t grt_hal_local_perf_map_append(const char* path,
                                           const grt_kernel_library_t* library,
                                           const uint8_t* elf, size_t elf_size,
                                           uintptr_t load_base) {
  grt_string_builder_t lines;
  grt_string_builder_init(grt_allocator_system(), &lines);
  for (size_t i = 0; i < library->entry_count; ++i) {
    const grt_kernel_entry_t* entry = &library->entries[i];
    uint64_t size = grt_hal_local_perf_map_entry_size(library, i, elf,
                                                      elf_size, load_base);
    // A name runs to the end of its line: no newline may end it early.
    grt_string_builder_appendf(&lines, "%" PRIxPTR " %" PRIx64 " ",
                               grt_kernel_address(entry->fn), size);
    for (const char* c = entry->name; *c; ++c) {
      char text[2] = {(*c == '\n' || *c == '\r') ? '_' : *c, '\0'};
      grt_string_builder_append_cstring(&lines, text);
    }
    grt_string_builder_append_cstring(&lines, "\n");
  }
  grt_status_t status = grt_string_builder_status(&lines);
  if (grt_status_is_ok(status)) {
    grt_string_view_t text = grt_string_builder_view(&lines);
    pthread_mutex_lock(&grt_hal_local_perf_map_mutex);
    int fd;
    do {
      fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    } while (fd < 0 && errno == EINTR);
    int error = fd < 0 ? errno : 0;
    size_t written = 0;
    while (!error && written < text.size) {
      ssize_t count = write(fd, text.data + written, text.size - written);
      if (count < 0) {
        if (errno != EINTR) error = errno;
      } else {
        written += (size_t)count;
      }
    }
    if (fd >= 0 && close(fd) != 0 && !error) error = errno;
    pthread_mutex_unlock(&grt_hal_local_perf_map_mutex);
    if (error) {
      char reason[128];
      if (strerror_r(error, reason, sizeof(reason)) != 0) {
        snprintf(reason, sizeof(reason), "error %d", error);
      }
      grt_status_code_t code = GRT_STATUS_UNAVAILABLE;
      if (error == ENOENT || error == ENOTDIR) code = GRT_STATUS_NOT_FOUND;
      if (error == EACCES || error == EPERM || error == EROFS) {
        code = GRT_STATUS_PERMISSION_DENIED;
      }
      status = grt_make_status(code, "cannot write the perf map '%s': %s",
                               path, reason);
    }
  }
  grt_string_builder_deinit(&lines);
  return status;
}
