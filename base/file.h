// Files: reading a whole file, mapping one read-only, and replacing one
// atomically. This is how module files (.vmfb), MLIR sources and test data
// get into memory and how the compiler writes its output.
//
// Every error names the path and the operating system's reason, e.g.
// "cannot open 'x.vmfb': No such file or directory".
#ifndef GRT_BASE_FILE_H_
#define GRT_BASE_FILE_H_

#include <stdbool.h>
#include <stddef.h>

#include "base/allocator.h"
#include "base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// The bytes of a file, either mapped or copied into an allocation. Release
// with grt_file_contents_free whichever way it was obtained.
typedef struct grt_file_contents_t {
  const void* data;
  size_t size;
  // True when |data| is an mmap of the file (so it is shared with the page
  // cache and costs no copy); false when it was read into memory.
  bool mapped;
  // Owner of |data| when it was read; unused when mapped.
  grt_allocator_t allocator;
} grt_file_contents_t;

// Reads the whole of |path| into memory from |allocator|. Works on any
// readable file, including pipes and /proc files that report size 0. The
// copy is followed by one NUL byte (not counted in |size|) so text parsers
// may treat it as a C string.
grt_status_t grt_file_read_contents(const char* path, grt_allocator_t allocator,
                                    grt_file_contents_t* out_contents)
    GRT_MUST_USE;

// Maps |path| read-only. Falls back to grt_file_read_contents' behaviour
// (and |allocator|) when the file is empty, is not a regular file, or the
// mapping fails; check |mapped| to see which happened. Mapped contents carry
// no NUL terminator guarantee.
grt_status_t grt_file_map_read_only(const char* path, grt_allocator_t allocator,
                                    grt_file_contents_t* out_contents)
    GRT_MUST_USE;

// Releases |contents| (unmapping or freeing) and clears it. Safe on a
// zeroed or already-freed value.
void grt_file_contents_free(grt_file_contents_t* contents);

// Like grt_file_map_read_only / grt_file_read_contents, but a file that is
// not a regular file (a pipe, a FIFO, a device such as /dev/zero) is read no
// further than |stream_limit| bytes: one that holds more fails with
// OUT_OF_RANGE naming the limit ("cannot read '/dev/zero': it is not a
// regular file and holds more than 4096 bytes, the most read from one"), so
// an endless stream can never exhaust memory. Regular files report their
// size and are mapped or read whole whatever the limit.
grt_status_t grt_file_map_read_only_bounded(const char* path,
                                            size_t stream_limit,
                                            grt_allocator_t allocator,
                                            grt_file_contents_t* out_contents)
    GRT_MUST_USE;
grt_status_t grt_file_read_contents_bounded(const char* path,
                                            size_t stream_limit,
                                            grt_allocator_t allocator,
                                            grt_file_contents_t* out_contents)
    GRT_MUST_USE;

// Reads exactly |size| bytes from an open descriptor into |out| (a stream
// read in pieces, such as a .npy array from a pipe). Fewer bytes before end
// of file fail with OUT_OF_RANGE naming |path|, what was wanted and what was
// there; *out_read (when not NULL) receives how many bytes were read.
grt_status_t grt_file_read_exactly(int fd, const char* path, void* out,
                                   size_t size, size_t* out_read) GRT_MUST_USE;

// One piece of what an output file gets; pieces are written in order.
typedef struct grt_file_chunk_t {
  const void* data;
  size_t size;
} grt_file_chunk_t;

typedef enum grt_file_write_mode_e {
  // Replace the contents (see grt_file_write_chunks).
  GRT_FILE_WRITE_REPLACE = 0,
  // Add to the end, creating the file when it is missing.
  GRT_FILE_WRITE_APPEND = 1,
} grt_file_write_mode_t;

// Writes |count| chunks to the output file |path|: how every tool writes
// what it was asked to (grt-compile -o, grt-run --output, grt-dump
// --extract). What |path| names decides how, so that naming an output never
// destroys something that is not a plain file:
//   - missing, or a regular file: the bytes go to a temporary file in the
//     same directory, renamed over |path| once fully written, so a failure
//     never leaves a partial or truncated file behind. A new file gets the
//     usual permissions (0666 less the umask); a replaced one keeps its own.
//   - a symbolic link: the link stays; its target is written as above
//     (through the resolved path) or, when that is not a regular file or
//     does not exist yet, in place through the link.
//   - another non-regular file (a character device such as /dev/null, a
//     FIFO, a socket): opened and written in place, never replaced.
//   - a directory: refused with INVALID_ARGUMENT ("cannot write 'out': it
//     is a directory, not a file").
// GRT_FILE_WRITE_APPEND opens |path| (through links) and appends in place.
grt_status_t grt_file_write_chunks(const char* path,
                                   const grt_file_chunk_t* chunks,
                                   size_t count, grt_file_write_mode_t mode)
    GRT_MUST_USE;

// Whether grt_file_write_chunks could replace |path| now, for tools that
// write an output only at the end of a long run (grt-run --trace) and
// should refuse a bad path before starting: OK, or the error naming what
// is wrong: "cannot write 'out': it is a directory, not a file", "cannot
// write 'no/t.json': its directory 'no' does not exist", "... 'f' is not
// a directory", "... its directory 'ro' is not writable: Permission
// denied", or an empty or too long path. Nothing is created.
grt_status_t grt_file_check_writable(const char* path) GRT_MUST_USE;

// grt_file_write_chunks with one chunk, replacing the contents.
grt_status_t grt_file_write_contents(const char* path, const void* data,
                                     size_t size) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_BASE_FILE_H_
