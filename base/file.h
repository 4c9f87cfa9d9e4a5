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

// Replaces |path| with |size| bytes from |data|. The bytes go to a temporary
// file in the same directory which is renamed over |path| only once fully
// written, so a failure never leaves a partial or truncated file behind.
// A new file gets the usual permissions (0666 less the umask).
grt_status_t grt_file_write_contents(const char* path, const void* data,
                                     size_t size) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_BASE_FILE_H_
