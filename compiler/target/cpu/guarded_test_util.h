// Test-only memory whose ends fault: kernels are code no sanitizer
// instruments (the CPU target's loaded objects, the CUDA emulation's
// shared library), so a test that must show a kernel never touches memory
// past a binding places the binding right before an inaccessible page
// (and after one). Define _DEFAULT_SOURCE (or _GNU_SOURCE) before any
// include for MAP_ANONYMOUS.
#ifndef GRT_COMPILER_TARGET_CPU_GUARDED_TEST_UTIL_H_
#define GRT_COMPILER_TARGET_CPU_GUARDED_TEST_UTIL_H_

#include <stddef.h>
#include <sys/mman.h>
#include <unistd.h>

// |bytes| of memory that end where an inaccessible page begins, with one
// before them too, so a kernel (uninstrumented code, which ASan does not
// see) that reads or writes past them faults. Free with guarded_free.
typedef struct guarded_t {
  void* data;
  char* map;
  size_t map_size;
} guarded_t;

static inline guarded_t guarded_alloc(size_t bytes) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t body = (bytes + page - 1) / page * page;
  guarded_t g;
  g.map_size = body + 2 * page;
  g.map = mmap(NULL, g.map_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  assert_true(g.map != MAP_FAILED);
  if (body) {
    assert_int_equal(mprotect(g.map + page, body, PROT_READ | PROT_WRITE), 0);
  }
  g.data = g.map + page + body - bytes;
  return g;
}

static inline void guarded_free(guarded_t* g) { munmap(g->map, g->map_size); }

#endif  // GRT_COMPILER_TARGET_CPU_GUARDED_TEST_UTIL_H_
