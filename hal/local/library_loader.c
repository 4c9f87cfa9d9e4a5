// memfd_create() is a GNU extension; everything else here is POSIX.
#define _GNU_SOURCE 1

#include "hal/local/library_loader.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__linux__) && defined(MFD_CLOEXEC)
#define GRT_HAL_LOCAL_HAVE_MEMFD 1
#else
#define GRT_HAL_LOCAL_HAVE_MEMFD 0
#endif

// One write() is capped so the byte count always fits ssize_t.
#define GRT_HAL_LOCAL_MAX_WRITE_CHUNK ((size_t)1 << 30)

#define GRT_HAL_LOCAL_PATH_CAPACITY 4096

// How many descriptor numbers a memfd load may skip because loaded
// libraries are named by them before it falls back to a temporary file.
#define GRT_HAL_LOCAL_MAX_SKIPPED_FDS 64

static grt_status_t grt_hal_local_write_all(int fd, const uint8_t* data,
                                            size_t size, const char* label,
                                            const char* where) {
  while (size > 0) {
    size_t chunk =
        size < GRT_HAL_LOCAL_MAX_WRITE_CHUNK ? size : GRT_HAL_LOCAL_MAX_WRITE_CHUNK;
    ssize_t written = write(fd, data, chunk);
    if (written < 0) {
      if (errno == EINTR) continue;
      int error = errno;
      return grt_make_status(
          error == ENOSPC ? GRT_STATUS_RESOURCE_EXHAUSTED : GRT_STATUS_UNKNOWN,
          "%s: cannot write the kernel library to %s: %s", label, where,
          strerror(error));
    }
    data += written;
    size -= (size_t)written;
  }
  return grt_ok_status();
}

static grt_status_t grt_hal_local_dlopen(const char* path, const char* label,
                                         void** out_handle) {
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* reason = dlerror();
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: cannot load the kernel library: %s", label,
                           reason ? reason : "dlopen failed");
  }
  *out_handle = handle;
  return grt_ok_status();
}

#if GRT_HAL_LOCAL_HAVE_MEMFD
// Sets *out_used to false (and returns OK) when memfd cannot be used here,
// so the caller falls back; a library that fails to load is an error.
static grt_status_t grt_hal_local_load_memfd(const uint8_t* data, size_t size,
                                             const char* label, bool* out_used,
                                             void** out_handle) {
  *out_used = false;
  int fd = memfd_create("grt-kernel-library", MFD_CLOEXEC);
  if (fd < 0) return grt_ok_status();
  char path[64];
  snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
  if (access(path, R_OK) != 0) {  // no /proc mounted
    close(fd);
    return grt_ok_status();
  }
  // dlopen hands back an already-loaded library whose path string matches
  // before it looks at the file, and descriptor numbers are reused once
  // closed: a library loaded earlier from "/proc/self/fd/N" and still
  // loaded would be returned for this one. Move to a descriptor number no
  // loaded library is named by, keeping the skipped ones open (so they are
  // not handed out again) until the dlopen.
  int skipped[GRT_HAL_LOCAL_MAX_SKIPPED_FDS];
  int skipped_count = 0;
  void* stale = NULL;
  while ((stale = dlopen(path, RTLD_LAZY | RTLD_NOLOAD)) != NULL) {
    dlclose(stale);
    int next = skipped_count < GRT_HAL_LOCAL_MAX_SKIPPED_FDS
                   ? fcntl(fd, F_DUPFD_CLOEXEC, fd + 1)
                   : -1;
    if (next < 0) {  // give up on memfd: the temporary file has a fresh name
      for (int i = 0; i < skipped_count; ++i) close(skipped[i]);
      close(fd);
      return grt_ok_status();
    }
    skipped[skipped_count++] = fd;
    fd = next;
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
  }
  *out_used = true;
  grt_status_t status =
      grt_hal_local_write_all(fd, data, size, label, "an in-memory file");
  if (grt_status_is_ok(status)) {
    status = grt_hal_local_dlopen(path, label, out_handle);
  }
  // The loader keeps its own mappings; the descriptors are no longer needed.
  for (int i = 0; i < skipped_count; ++i) close(skipped[i]);
  close(fd);
  return status;
}
#endif  // GRT_HAL_LOCAL_HAVE_MEMFD

static grt_status_t grt_hal_local_load_temporary_file(const uint8_t* data,
                                                      size_t size,
                                                      const char* label,
                                                      void** out_handle) {
  const char* directory = getenv("TMPDIR");
  if (!directory || !directory[0]) directory = "/tmp";
  char path[GRT_HAL_LOCAL_PATH_CAPACITY];
  int length = snprintf(path, sizeof(path), "%s/grt-kernel-library-XXXXXX",
                        directory);
  if (length < 0 || (size_t)length >= sizeof(path)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: temporary directory '%s' is too long: a file "
                           "path in it needs %d bytes, at most %d fit",
                           label, directory, length + 1,
                           GRT_HAL_LOCAL_PATH_CAPACITY);
  }
  // mkstemp creates the file 0600: no other user can swap in other code
  // between the write and the dlopen.
  int fd = mkstemp(path);
  if (fd < 0) {
    int error = errno;
    return grt_make_status(GRT_STATUS_UNAVAILABLE,
                           "%s: cannot create a temporary file in '%s' for "
                           "the kernel library: %s",
                           label, directory, strerror(error));
  }
  grt_status_t status = grt_hal_local_write_all(fd, data, size, label, path);
  close(fd);
  if (grt_status_is_ok(status)) {
    status = grt_hal_local_dlopen(path, label, out_handle);
  }
  // The mapping survives the unlink; nothing is left behind on disk.
  unlink(path);
  return status;
}

grt_status_t grt_hal_local_library_load(const uint8_t* data, size_t size,
                                        grt_hal_local_library_load_mode_t mode,
                                        const char* label, void** out_handle) {
  *out_handle = NULL;
#if GRT_HAL_LOCAL_HAVE_MEMFD
  if (mode == GRT_HAL_LOCAL_LIBRARY_LOAD_DEFAULT) {
    bool used = false;
    grt_status_t status =
        grt_hal_local_load_memfd(data, size, label, &used, out_handle);
    if (used || !grt_status_is_ok(status)) return status;
  }
#else
  (void)mode;
#endif
  return grt_hal_local_load_temporary_file(data, size, label, out_handle);
}

grt_status_t grt_hal_local_library_lookup(void* handle, const char* symbol,
                                          const char* label,
                                          void** out_address) {
  *out_address = NULL;
  dlerror();  // clear any earlier error so the one below is ours
  void* address = dlsym(handle, symbol);
  if (!address) {
    const char* reason = dlerror();
    return grt_make_status(GRT_STATUS_NOT_FOUND,
                           "%s: kernel library does not export '%s': %s", label,
                           symbol, reason ? reason : "symbol is NULL");
  }
  *out_address = address;
  return grt_ok_status();
}

grt_status_t grt_hal_local_library_load_base(void* handle, const char* label,
                                             uintptr_t* out_base) {
  *out_base = 0;
  struct link_map* map = NULL;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || !map) {
    const char* reason = dlerror();
    return grt_make_status(GRT_STATUS_UNAVAILABLE,
                           "%s: cannot find where the kernel library was "
                           "loaded: %s",
                           label, reason ? reason : "dlinfo failed");
  }
  *out_base = (uintptr_t)map->l_addr;
  return grt_ok_status();
}

void grt_hal_local_library_unload(void* handle) {
  if (handle) dlclose(handle);
}
