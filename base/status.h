// Status: how every fallible grt function reports failure.
//
// A status is a pointer; NULL means OK, so the success path costs one
// compare and no allocation. A failure owns a heap record holding a code, a
// formatted message, and the annotations callers add while the error travels
// up ("while loading module 'foo'"). Whoever receives a non-OK status owns it
// and must either return it, annotate-and-return it, or free it.
#ifndef GRT_BASE_STATUS_H_
#define GRT_BASE_STATUS_H_

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define GRT_PRINTF_LIKE(fmt_index, args_index) \
  __attribute__((format(printf, fmt_index, args_index)))
#define GRT_MUST_USE __attribute__((warn_unused_result))
#define GRT_LIKELY(x) __builtin_expect(!!(x), 1)
#define GRT_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define GRT_PRINTF_LIKE(fmt_index, args_index)
#define GRT_MUST_USE
#define GRT_LIKELY(x) (x)
#define GRT_UNLIKELY(x) (x)
#endif

// One row per code: enum suffix, printable name.
#define GRT_STATUS_CODE_LIST(X)                    \
  X(OK, "OK")                                      \
  X(CANCELLED, "CANCELLED")                        \
  X(UNKNOWN, "UNKNOWN")                            \
  X(INVALID_ARGUMENT, "INVALID_ARGUMENT")          \
  X(DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED")        \
  X(NOT_FOUND, "NOT_FOUND")                        \
  X(ALREADY_EXISTS, "ALREADY_EXISTS")              \
  X(PERMISSION_DENIED, "PERMISSION_DENIED")        \
  X(RESOURCE_EXHAUSTED, "RESOURCE_EXHAUSTED")      \
  X(FAILED_PRECONDITION, "FAILED_PRECONDITION")    \
  X(ABORTED, "ABORTED")                            \
  X(OUT_OF_RANGE, "OUT_OF_RANGE")                  \
  X(UNIMPLEMENTED, "UNIMPLEMENTED")                \
  X(INTERNAL, "INTERNAL")                          \
  X(UNAVAILABLE, "UNAVAILABLE")                    \
  X(DATA_LOSS, "DATA_LOSS")                        \
  X(INCOMPATIBLE, "INCOMPATIBLE")                  \
  X(DEFERRED, "DEFERRED")

typedef enum grt_status_code_e {
#define GRT_STATUS_CODE_ENUM(name, str) GRT_STATUS_##name,
  GRT_STATUS_CODE_LIST(GRT_STATUS_CODE_ENUM)
#undef GRT_STATUS_CODE_ENUM
  GRT_STATUS_CODE_COUNT
} grt_status_code_t;

// DEFERRED is not a failure: a VM invocation that yielded, or a native
// import that has not finished, returns it and is resumed later
// (vm/invoke.h). The codes a program may fail with (vm.fail,
// hal.fence.fail) are the ones before it.
#define GRT_STATUS_FAILURE_CODE_END GRT_STATUS_DEFERRED

typedef struct grt_status_record_t* grt_status_t;

#define grt_ok_status() ((grt_status_t)NULL)
#define grt_status_is_ok(status) GRT_LIKELY((status) == NULL)

// GRT_STATUS_MESSAGES (CMake option, default ON; docs/building.md): with
// GRT_STATUS_MESSAGES=0 the macros at the end of this section replace
// grt_make_status, grt_make_status_v and grt_status_annotate (and so
// GRT_RETURN_IF_ERROR_ANNOTATED) in every source that includes this header:
// a failure keeps its code and no message ("INVALID_ARGUMENT"), and the
// format strings and their arguments are not compiled in. The arguments
// stay in a branch that is never taken, so they are never evaluated but are
// still type-checked against the format. The functions themselves are built
// either way (an application compiled without the macro calls them).
#ifndef GRT_STATUS_MESSAGES
#define GRT_STATUS_MESSAGES 1
#endif

// Creates a failure with a printf-style message. |code| must not be OK.
// Never returns NULL: if the record cannot be allocated a shared static
// out-of-memory status is returned (freeing it is a no-op).
grt_status_t grt_make_status(grt_status_code_t code, const char* format, ...)
    GRT_PRINTF_LIKE(2, 3) GRT_MUST_USE;
grt_status_t grt_make_status_v(grt_status_code_t code, const char* format,
                               va_list args) GRT_MUST_USE;

// Appends "; <message>" context to |status| and returns it. OK stays OK, so
// this is safe to call on any status.
grt_status_t grt_status_annotate(grt_status_t status, const char* format, ...)
    GRT_PRINTF_LIKE(2, 3) GRT_MUST_USE;

// Creates a failure with |code| and an empty message (OK becomes INTERNAL,
// as in grt_make_status). Never returns NULL.
grt_status_t grt_make_status_code(grt_status_code_t code) GRT_MUST_USE;

#if !GRT_STATUS_MESSAGES
#define grt_make_status(code, ...) \
  (0 ? (grt_make_status)((code), __VA_ARGS__) : grt_make_status_code(code))
#define grt_make_status_v(code, format, args)                          \
  (0 ? (grt_make_status_v)((code), (format), (args))                   \
     : grt_make_status_code(code))
#define grt_status_annotate(status, ...)                                \
  (0 ? (grt_status_annotate)((status), __VA_ARGS__) : (grt_status_t)(status))
// For a source's own printf-like wrapper that always fails with |code|;
// after its definition:
//   #if !GRT_STATUS_MESSAGES
//   #define wrapper(...) GRT_STATUS_KEEP_CODE(CODE, (wrapper)(__VA_ARGS__))
//   #endif
#define GRT_STATUS_KEEP_CODE(code, call) \
  (0 ? (call) : grt_make_status_code(code))
#endif

grt_status_code_t grt_status_code(grt_status_t status);
const char* grt_status_code_name(grt_status_code_t code);

// The message with every annotation, without the code name. "" when OK.
// Valid until the status is freed or annotated again.
const char* grt_status_message(grt_status_t status);

// Writes "CODE: message; annotation; ..." into |buffer| (always
// NUL-terminated when |capacity| > 0; "CODE" alone for a message-less
// status in a GRT_STATUS_MESSAGES=0 build) and returns the length the full text
// needs, like snprintf.
size_t grt_status_format(grt_status_t status, char* buffer, size_t capacity);

// Prints the formatted status to stderr with a trailing newline.
void grt_status_fprint(void* file /* FILE* */, grt_status_t status);

void grt_status_free(grt_status_t status);

// A new status with the same code and message as |status| (OK gives OK),
// for failures that are kept and reported to many callers (a failed HAL
// semaphore hands each waiter its own copy to own and free).
grt_status_t grt_status_clone(grt_status_t status) GRT_MUST_USE;

// Consumes |status| and returns true if it was OK; for call sites that only
// need to know whether something worked.
bool grt_status_consume_ok(grt_status_t status);

#define GRT_STATUS_IMPL_CONCAT_(a, b) a##b
#define GRT_STATUS_IMPL_CONCAT(a, b) GRT_STATUS_IMPL_CONCAT_(a, b)

// Returns the status of |expr| from the enclosing function if it failed.
#define GRT_RETURN_IF_ERROR(expr)                                   \
  do {                                                              \
    grt_status_t grt_status_tmp_ = (expr);                          \
    if (GRT_UNLIKELY(grt_status_tmp_ != NULL)) return grt_status_tmp_; \
  } while (0)

// As GRT_RETURN_IF_ERROR but annotates the failure first.
#define GRT_RETURN_IF_ERROR_ANNOTATED(expr, ...)                    \
  do {                                                              \
    grt_status_t grt_status_tmp_ = (expr);                          \
    if (GRT_UNLIKELY(grt_status_tmp_ != NULL))                      \
      return grt_status_annotate(grt_status_tmp_, __VA_ARGS__);     \
  } while (0)

#ifdef __cplusplus
}
#endif

#endif  // GRT_BASE_STATUS_H_
