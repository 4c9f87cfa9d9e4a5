// libFuzzer target for grt's ELF loader (elf_loader.h): any byte string
// must either load (and then answer lookups and range queries, and unload
// without fault) or fail with a message. The loaded code is never run.
// The seeds are the test kernel objects hal/local/CMakeLists.txt builds.
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hal/local/elf_loader.h"
#include "hal/local/kernel_abi.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // An exact-size copy, so any read past the end is caught by ASan.
  grt_allocator_t allocator = grt_allocator_system();
  void* copy = NULL;
  if (!grt_status_consume_ok(grt_allocator_malloc(allocator, size ? size : 1,
                                                  &copy))) {
    return 0;
  }
  if (size) memcpy(copy, data, size);
  grt_hal_local_elf_image_t* image = NULL;
  grt_status_t status =
      grt_hal_local_elf_load(copy, size, "fuzz", allocator, &image);
  if (grt_status_is_ok(status)) {
    void* address = NULL;
    status = grt_hal_local_elf_lookup(image, GRT_KERNEL_LIBRARY_QUERY_SYMBOL,
                                      "fuzz", &address);
    if (grt_status_is_ok(status)) {
      volatile bool sink =
          grt_hal_local_elf_contains_code(image, (uintptr_t)address, 1) ||
          grt_hal_local_elf_contains_data(image, (uintptr_t)address, 64) ||
          grt_hal_local_elf_contains_string(image, (const char*)address);
      (void)sink;
    } else {
      if (grt_status_message(status)[0] == 0) __builtin_trap();
      grt_status_free(status);
    }
    volatile uintptr_t base = grt_hal_local_elf_load_base(image);
    (void)base;
    grt_hal_local_elf_unload(image);
  } else {
    if (grt_status_message(status)[0] == 0) __builtin_trap();
    grt_status_free(status);
  }
  grt_allocator_free(allocator, copy);
  return 0;
}
