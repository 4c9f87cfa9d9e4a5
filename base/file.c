#define _XOPEN_SOURCE 700  // realpath
#include "base/file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

#ifdef NAME_MAX
#define GRT_FILE_NAME_CAPACITY NAME_MAX
#else
#define GRT_FILE_NAME_CAPACITY 255
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

// A path the operating system would refuse for its length gets a message
// naming the limit and the length given, with only its start shown.
static grt_status_t grt_file_check_path_length(const char* verb,
                                               const char* path) {
  size_t length = strlen(path);
  if (length >= GRT_FILE_PATH_CAPACITY) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "cannot %s '%.64s...': the path has %zu bytes, at "
                           "most %zu are allowed",
                           verb, path, length,
                           (size_t)GRT_FILE_PATH_CAPACITY - 1);
  }
  for (const char* part = path; *part;) {
    size_t part_length = strcspn(part, "/");
    if (part_length > GRT_FILE_NAME_CAPACITY) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "cannot %s '%.64s...': its part '%.32s...' has "
                             "%zu bytes, at most %d are allowed in one name",
                             verb, path, part, part_length,
                             GRT_FILE_NAME_CAPACITY);
    }
    part += part_length;
    while (*part == '/') ++part;
  }
  return grt_ok_status();
}

static int grt_file_open_for_reading(const char* path, int* out_fd) {
  int fd;
  do {
    fd = open(path, O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  *out_fd = fd;
  return fd < 0 ? errno : 0;
}

// Whether |fd| is a regular file, and the size it reports (0 when it
// reports none we can use: empty, or beyond size_t).
static bool grt_file_is_regular(int fd, size_t* out_size) {
  *out_size = 0;
  struct stat info;
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) return false;
  if (info.st_size > 0 && (uintmax_t)info.st_size < (uintmax_t)SIZE_MAX) {
    *out_size = (size_t)info.st_size;
  }
  return true;
}

// Reads |fd| to its end, or fails once it has more than |limit| bytes
// (SIZE_MAX: no limit). The reported size is only a hint: files can grow
// or shrink while being read and many report nothing, so the loop trusts
// read() and keeps one spare byte so that end of file is seen without a
// final grow.
static grt_status_t grt_file_read_fd(int fd, const char* path,
                                     size_t size_hint, size_t limit,
                                     grt_allocator_t allocator,
                                     grt_file_contents_t* out_contents) {
  size_t capacity = size_hint ? size_hint + 1 : GRT_FILE_UNKNOWN_SIZE_CAPACITY;
  // Room for one byte past the limit (to see that there is one) and the
  // NUL: a stream never costs more memory than its limit.
  if (limit < SIZE_MAX - 2 && capacity > limit + 2) capacity = limit + 2;
  char* buffer = NULL;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_allocator_malloc(allocator, capacity, (void**)&buffer),
      "reading '%s'", path);
  size_t length = 0;
  for (;;) {
    if (length > limit) {
      grt_allocator_free(allocator, buffer);
      return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                             "cannot read '%s': it is not a regular file and "
                             "holds more than %zu bytes, the most read from "
                             "one",
                             path, limit);
    }
    if (length + 1 == capacity) {
      size_t grown;
      // Past the largest doubling, asking for everything lets the allocator
      // report the failure.
      if (!grt_checked_mul_size(capacity, 2, &grown)) grown = SIZE_MAX;
      if (limit < SIZE_MAX - 2 && grown > limit + 2) grown = limit + 2;
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

grt_status_t grt_file_read_contents_bounded(const char* path,
                                            size_t stream_limit,
                                            grt_allocator_t allocator,
                                            grt_file_contents_t* out_contents) {
  memset(out_contents, 0, sizeof(*out_contents));
  GRT_RETURN_IF_ERROR(grt_file_check_path_length("open", path));
  int fd;
  int error = grt_file_open_for_reading(path, &fd);
  if (error) return grt_file_os_error(error, "open", path);
  size_t size = 0;
  bool regular = grt_file_is_regular(fd, &size);
  grt_status_t status =
      grt_file_read_fd(fd, path, size, regular ? SIZE_MAX : stream_limit,
                       allocator, out_contents);
  close(fd);
  return status;
}

grt_status_t grt_file_read_contents(const char* path, grt_allocator_t allocator,
                                    grt_file_contents_t* out_contents) {
  return grt_file_read_contents_bounded(path, SIZE_MAX, allocator,
                                        out_contents);
}

grt_status_t grt_file_map_read_only_bounded(const char* path,
                                            size_t stream_limit,
                                            grt_allocator_t allocator,
                                            grt_file_contents_t* out_contents) {
  memset(out_contents, 0, sizeof(*out_contents));
  GRT_RETURN_IF_ERROR(grt_file_check_path_length("open", path));
  int fd;
  int error = grt_file_open_for_reading(path, &fd);
  if (error) return grt_file_os_error(error, "open", path);
  // Zero length cannot be mapped and non-regular files report no usable
  // size; both are read instead, as is anything mmap refuses.
  size_t size = 0;
  bool regular = grt_file_is_regular(fd, &size);
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
      grt_file_read_fd(fd, path, size, regular ? SIZE_MAX : stream_limit,
                       allocator, out_contents);
  close(fd);
  return status;
}

grt_status_t grt_file_map_read_only(const char* path, grt_allocator_t allocator,
                                    grt_file_contents_t* out_contents) {
  return grt_file_map_read_only_bounded(path, SIZE_MAX, allocator,
                                        out_contents);
}

grt_status_t grt_file_read_exactly(int fd, const char* path, void* out,
                                   size_t size, size_t* out_read) {
  size_t length = 0;
  while (length < size) {
    size_t room = size - length;
    if (room > GRT_FILE_MAX_WRITE_CHUNK) room = GRT_FILE_MAX_WRITE_CHUNK;
    ssize_t count = read(fd, (char*)out + length, room);
    if (count < 0) {
      if (errno == EINTR) continue;
      if (out_read) *out_read = length;
      return grt_file_os_error(errno, "read", path);
    }
    if (count == 0) break;
    length += (size_t)count;
  }
  if (out_read) *out_read = length;
  if (length < size) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "cannot read '%s': wanted %zu bytes, it ended "
                           "after %zu",
                           path, size, length);
  }
  return grt_ok_status();
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

static int grt_file_write_chunks_to(int fd, const grt_file_chunk_t* chunks,
                                    size_t count) {
  for (size_t i = 0; i < count; ++i) {
    int error = grt_file_write_all(fd, (const unsigned char*)chunks[i].data,
                                   chunks[i].size);
    if (error) return error;
  }
  return 0;
}

static grt_status_t grt_file_is_directory_error(const char* path) {
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "cannot write '%s': it is a directory, not a file",
                         path);
}

// Opens |path| as it is (following links, creating it when |flags| say)
// and writes the chunks: how devices, FIFOs and appends are written.
static grt_status_t grt_file_write_in_place(const char* path, int flags,
                                            const grt_file_chunk_t* chunks,
                                            size_t count) {
  int fd;
  do {
    fd = open(path, O_WRONLY | O_CLOEXEC | flags, 0666);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    if (errno == EISDIR) return grt_file_is_directory_error(path);
    return grt_file_os_error(errno, "write", path);
  }
  int error = grt_file_write_chunks_to(fd, chunks, count);
  if (close(fd) != 0 && error == 0) error = errno;
  if (error != 0) return grt_file_os_error(error, "write", path);
  return grt_ok_status();
}

// Writes a temporary file beside |path| and renames it over |path|;
// |mode| (when not 0) is given to the new file, so a replaced file keeps
// its permissions. Errors name |shown| (the path the caller gave).
static grt_status_t grt_file_replace(const char* path, const char* shown,
                                     mode_t mode,
                                     const grt_file_chunk_t* chunks,
                                     size_t count) {
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
                             shown, length + 1, sizeof(temp_path));
    }
    fd = open(temp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  } while (fd < 0 && (errno == EEXIST || errno == EINTR));
  if (fd < 0) return grt_file_os_error(errno, "write", shown);

  // No fsync: the rename protects readers from a writer that fails or is
  // killed, which is the failure a compiler sees; surviving power loss is
  // not worth an fsync per output file.
  int error = grt_file_write_chunks_to(fd, chunks, count);
  if (error == 0 && mode != 0 && fchmod(fd, mode) != 0) error = errno;
  if (close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && rename(temp_path, path) != 0) error = errno;
  if (error != 0) {
    unlink(temp_path);
    return grt_file_os_error(error, "write", shown);
  }
  return grt_ok_status();
}

grt_status_t grt_file_write_chunks(const char* path,
                                   const grt_file_chunk_t* chunks,
                                   size_t count, grt_file_write_mode_t mode) {
  GRT_RETURN_IF_ERROR(grt_file_check_path_length("write", path));
  struct stat link_info;
  if (lstat(path, &link_info) != 0) {
    if (errno != ENOENT) return grt_file_os_error(errno, "write", path);
    if (mode == GRT_FILE_WRITE_APPEND) {
      return grt_file_write_in_place(path, O_CREAT | O_APPEND, chunks, count);
    }
    return grt_file_replace(path, path, 0, chunks, count);
  }
  if (S_ISDIR(link_info.st_mode)) return grt_file_is_directory_error(path);
  if (mode == GRT_FILE_WRITE_APPEND) {
    return grt_file_write_in_place(path, O_CREAT | O_APPEND, chunks, count);
  }
  if (S_ISREG(link_info.st_mode)) {
    return grt_file_replace(path, path, link_info.st_mode & 07777, chunks,
                            count);
  }
  if (S_ISLNK(link_info.st_mode)) {
    struct stat target_info;
    bool target_exists = stat(path, &target_info) == 0;
    if (target_exists) {
      if (S_ISDIR(target_info.st_mode)) return grt_file_is_directory_error(path);
      if (S_ISREG(target_info.st_mode)) {
        // The link stays a link: its target is replaced, beside itself.
        char* resolved = realpath(path, NULL);
        if (!resolved) return grt_file_os_error(errno, "write", path);
        grt_status_t status = grt_file_replace(
            resolved, path, target_info.st_mode & 07777, chunks, count);
        free(resolved);
        return status;
      }
    }
    // A dangling link creates its target; a link to a device writes it.
    return grt_file_write_in_place(path, target_exists ? 0 : O_CREAT, chunks,
                                   count);
  }
  // A device, FIFO or socket is written as it is, never replaced.
  return grt_file_write_in_place(path, 0, chunks, count);
}

// The directory a file at |path| is created in must exist and be writable
// (|shown| is the path the caller gave, for messages).
static grt_status_t grt_file_check_directory_of(const char* path,
                                                const char* shown) {
  char directory[GRT_FILE_PATH_CAPACITY];
  const char* slash = strrchr(path, '/');
  if (!slash) {
    snprintf(directory, sizeof(directory), ".");
  } else if (slash == path) {
    snprintf(directory, sizeof(directory), "/");
  } else {
    snprintf(directory, sizeof(directory), "%.*s", (int)(slash - path), path);
  }
  struct stat info;
  if (stat(directory, &info) != 0) {
    int error = errno;
    if (error == ENOENT || error == ENOTDIR) {
      return grt_make_status(GRT_STATUS_NOT_FOUND,
                             "cannot write '%s': its directory '%s' does not "
                             "exist",
                             shown, directory);
    }
    return grt_file_os_error(error, "write", shown);
  }
  if (!S_ISDIR(info.st_mode)) {
    return grt_make_status(GRT_STATUS_NOT_FOUND,
                           "cannot write '%s': '%s' is not a directory", shown,
                           directory);
  }
  if (access(directory, W_OK | X_OK) != 0) {
    int error = errno;
    char reason[128];
    if (strerror_r(error, reason, sizeof(reason)) != 0) {
      snprintf(reason, sizeof(reason), "error %d", error);
    }
    return grt_make_status(GRT_STATUS_PERMISSION_DENIED,
                           "cannot write '%s': its directory '%s' is not "
                           "writable: %s",
                           shown, directory, reason);
  }
  return grt_ok_status();
}

grt_status_t grt_file_check_writable(const char* path) {
  if (!path[0]) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "cannot write '': the path is empty");
  }
  GRT_RETURN_IF_ERROR(grt_file_check_path_length("write", path));
  struct stat info;
  if (stat(path, &info) != 0) {
    if (errno != ENOENT && errno != ENOTDIR) {
      return grt_file_os_error(errno, "write", path);
    }
    return grt_file_check_directory_of(path, path);
  }
  if (S_ISDIR(info.st_mode)) return grt_file_is_directory_error(path);
  if (!S_ISREG(info.st_mode)) {
    // Written in place.
    if (access(path, W_OK) != 0) {
      return grt_file_os_error(errno, "write", path);
    }
    return grt_ok_status();
  }
  // A regular file (or a link to one) is replaced beside its real self.
  char* resolved = realpath(path, NULL);
  if (!resolved) return grt_file_os_error(errno, "write", path);
  grt_status_t status = grt_file_check_directory_of(resolved, path);
  free(resolved);
  return status;
}

grt_status_t grt_file_write_contents(const char* path, const void* data,
                                     size_t size) {
  grt_file_chunk_t chunk = {data, size};
  return grt_file_write_chunks(path, &chunk, 1, GRT_FILE_WRITE_REPLACE);
}
