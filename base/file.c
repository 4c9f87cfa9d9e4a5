#include "base/file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "base/checked_math.h"

// First buffer size when the file cannot tell us its size (pipes, /proc).
#define GRT_FILE_UNKNOWN_SIZE_CAPACITY 4096

// One write() is capped so the byte count always fits ssize_t.
#define GRT_FILE_MAX_WRITE_CHUNK ((size_t)1 << 30)

#ifdef PATH_MAX
#define GRT_FILE_PATH_CAPACITY PATH_MAX
#else
#define GRT_FILE_PATH_CAPACITY 4096
#endif

// How an errno value maps to a status code; anything else is UNKNOWN.
static const struct {
  int error;
  grt_status_code_t code;
} grt_file_errno_codes[] = {
    {ENOENT, GRT_STATUS_NOT_FOUND},
    {ENOTDIR, GRT_STATUS_NOT_FOUND},
    {EACCES, GRT_STATUS_PERMISSION_DENIED},
    {EPERM, GRT_STATUS_PERMISSION_DENIED},
    {EROFS, GRT_STATUS_PERMISSION_DENIED},
    {EEXIST, GRT_STATUS_ALREADY_EXISTS},
    {EISDIR, GRT_STATUS_INVALID_ARGUMENT},
    {ENAMETOOLONG, GRT_STATUS_INVALID_ARGUMENT},
    {ENOSPC, GRT_STATUS_RESOURCE_EXHAUSTED},
    {EFBIG, GRT_STATUS_RESOURCE_EXHAUSTED},
    {ENOMEM, GRT_STATUS_RESOURCE_EXHAUSTED},
    {EMFILE, GRT_STATUS_RESOURCE_EXHAUSTED},
    {ENFILE, GRT_STATUS_RESOURCE_EXHAUSTED},
    {EIO, GRT_STATUS_DATA_LOSS},
};

static grt_status_t grt_file_os_error(int error, const char* verb,
                                      const char* path) {
  grt_status_code_t code = GRT_STATUS_UNKNOWN;
  for (size_t i = 0;
       i < sizeof(grt_file_errno_codes) / sizeof(grt_file_errno_codes[0]);
       ++i) {
    if (grt_file_errno_codes[i].error == error) {
      code = grt_file_errno_codes[i].code;
      break;
    }
  }
  // strerror() may share a buffer between threads; the XSI strerror_r that
  // strict POSIX mode selects fills ours instead.
  char reason[128];
  if (strerror_r(error, reason, sizeof(reason)) != 0) {
    snprintf(reason, sizeof(reason), "error %d", error);
  }
  return grt_make_status(code, "cannot %s '%s': %s", verb, path, reason);
}

static int grt_file_open_for_reading(const char* path, int* out_fd) {
  int fd;
  do {
    fd = open(path, O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  *out_fd = fd;
  return fd < 0 ? errno : 0;
}

// The size a regular file reports, or 0 when it reports none we can use
// (pipes, character devices, /proc files, sizes beyond size_t).
static size_t grt_file_regular_size(int fd) {
  struct stat info;
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || info.st_size <= 0) {
    return 0;
  }
  if ((uintmax_t)info.st_size >= (uintmax_t)SIZE_MAX) return 0;
  return (size_t)info.st_size;
}

// Reads |fd| to its end. The reported size is only a hint: files can grow
// or shrink while being read and many report nothing, so the loop trusts
// read() and keeps one spare byte so that end of file is seen without a
// final grow.
static grt_status_t grt_file_read_fd(int fd, const char* path,
                                     size_t size_hint,
                                     grt_allocator_t allocator,
                                     grt_file_contents_t* out_contents) {
  size_t capacity = size_hint ? size_hint + 1 : GRT_FILE_UNKNOWN_SIZE_CAPACITY;
  char* buffer = NULL;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_allocator_malloc(allocator, capacity, (void**)&buffer),
      "reading '%s'", path);
  size_t length = 0;
  for (;;) {
    if (length + 1 == capacity) {
      size_t grown;
      // Past the largest doubling, asking for everything lets the allocator
      // report the failure.
      if (!grt_checked_mul_size(capacity, 2, &grown)) grown = SIZE_MAX;
      grt_status_t status =
          grt_allocator_realloc(allocator, capacity, grown, (void**)&buffer);
      if (!grt_status_is_ok(status)) {
        grt_allocator_free(allocator, buffer);
        return grt_status_annotate(status, "reading '%s'", path);
      }
      capacity = grown;
    }
    size_t room = capacity - 1 - length;
    if (room > GRT_FILE_MAX_WRITE_CHUNK) room = GRT_FILE_MAX_WRITE_CHUNK;
    ssize_t count = read(fd, buffer + length, room);
    if (count < 0) {
      if (errno == EINTR) continue;
      int error = errno;
      grt_allocator_free(allocator, buffer);
      return grt_file_os_error(error, "read", path);
    }
    if (count == 0) break;
    length += (size_t)count;
  }
  buffer[length] = '\0';
  out_contents->data = buffer;
  out_contents->size = length;
  out_contents->mapped = false;
  out_contents->allocator = allocator;
  return grt_ok_status();
}

grt_status_t grt_file_read_contents(const char* path, grt_allocator_t allocator,
                                    grt_file_contents_t* out_contents) {
  memset(out_contents, 0, sizeof(*out_contents));
  int fd;
  int error = grt_file_open_for_reading(path, &fd);
  if (error) return grt_file_os_error(error, "open", path);
  grt_status_t status = grt_file_read_fd(fd, path, grt_file_regular_size(fd),
                                         allocator, out_contents);
  close(fd);
  return status;
}

grt_status_t grt_file_map_read_only(const char* path, grt_allocator_t allocator,
                                    grt_file_contents_t* out_contents) {
  memset(out_contents, 0, sizeof(*out_contents));
  int fd;
  int error = grt_file_open_for_reading(path, &fd);
  if (error) return grt_file_os_error(error, "open", path);
  // Zero length cannot be mapped and non-regular files report no usable
  // size; both are read instead, as is anything mmap refuses.
  size_t size = grt_file_regular_size(fd);
  if (size > 0) {
    void* mapping = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapping != MAP_FAILED) {
      close(fd);
      out_contents->data = mapping;
      out_contents->size = size;
      out_contents->mapped = true;
      return grt_ok_status();
    }
  }
  grt_status_t status =
      grt_file_read_fd(fd, path, size, allocator, out_contents);
  close(fd);
  return status;
}

void grt_file_contents_free(grt_file_contents_t* contents) {
  if (contents->mapped) {
    munmap((void*)contents->data, contents->size);
  } else if (contents->data) {
    grt_allocator_free(contents->allocator, (void*)contents->data);
  }
  memset(contents, 0, sizeof(*contents));
}

// Returns 0 or the errno of the failing write.
static int grt_file_write_all(int fd, const unsigned char* data, size_t size) {
  while (size > 0) {
    size_t chunk = size < GRT_FILE_MAX_WRITE_CHUNK ? size
                                                   : GRT_FILE_MAX_WRITE_CHUNK;
    ssize_t count = write(fd, data, chunk);
    if (count < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    data += count;
    size -= (size_t)count;
  }
  return 0;
}

grt_status_t grt_file_write_contents(const char* path, const void* data,
                                     size_t size) {
  // pid + a per-process counter keeps concurrent writers (threads or
  // processes) off each other's temporary; O_EXCL skips stale leftovers.
  static atomic_uint temp_counter;
  char temp_path[GRT_FILE_PATH_CAPACITY];
  int fd;
  do {
    int length = snprintf(temp_path, sizeof(temp_path), "%s.tmp.%ld.%u", path,
                          (long)getpid(), atomic_fetch_add(&temp_counter, 1));
    if (length < 0 || (size_t)length >= sizeof(temp_path)) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "cannot write '%s': the path with a temporary "
                             "suffix needs %d bytes, at most %zu are allowed",
                             path, length + 1, sizeof(temp_path));
    }
    fd = open(temp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  } while (fd < 0 && (errno == EEXIST || errno == EINTR));
  if (fd < 0) return grt_file_os_error(errno, "write", path);

  // No fsync: the rename protects readers from a writer that fails or is
  // killed, which is the failure a compiler sees; surviving power loss is
  // not worth an fsync per output file.
  int error = grt_file_write_all(fd, data, size);
  if (close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && rename(temp_path, path) != 0) error = errno;
  if (error != 0) {
    unlink(temp_path);
    return grt_file_os_error(error, "write", path);
  }
  return grt_ok_status();
}
