// Generates a native module's argument readers, result writers, shims and
// export table from its ABI table (runtime/native_abi.h), so an export's
// C code and its calling convention come from the same rows and cannot
// disagree. Internal to runtime/.
//
// For an export <id> of a module whose C prefix is P:
//   P_<id>_args_t     one member per argument: int32_t, int64_t, float,
//                     double, or `const grt_vm_ref_t*` (borrowed, into the
//                     caller's buffer); a span is a <group>_span_t;
//   P_<id>_results_t  one member per result (a ref result is a
//                     grt_vm_ref_t holding the reference the caller gets);
//   P_<id>            the hand-written body, (data, in, out) -> status;
//   P_<id>_shim       the grt_vm_native_function_fn that reads the packed
//                     arguments (vm/signature.h) into an args struct, calls
//                     the body and, when it succeeds, packs the results.
// For a span group macro g: g_t (one group's values), g_span_t (the
// count and where the next group starts) and g_next (reads one group and
// moves past it).
#ifndef GRT_RUNTIME_ABI_SHIM_H_
#define GRT_RUNTIME_ABI_SHIM_H_

#include <stdint.h>
#include <string.h>

#include "base/inline.h"
#include "base/status.h"
#include "runtime/native_abi.h"
#include "vm/native_module.h"
#include "vm/ref.h"
#include "vm/signature.h"

#if defined(__GNUC__)
#define GRT_RUNTIME_ABI_MAYBE_UNUSED __attribute__((unused))
#else
#define GRT_RUNTIME_ABI_MAYBE_UNUSED
#endif

// How each value kind is held in an args or results struct.
#define GRT_RUNTIME_ABI_ARG_I32 int32_t
#define GRT_RUNTIME_ABI_ARG_I64 int64_t
#define GRT_RUNTIME_ABI_ARG_F32 float
#define GRT_RUNTIME_ABI_ARG_F64 double
#define GRT_RUNTIME_ABI_ARG_REF const grt_vm_ref_t*
#define GRT_RUNTIME_ABI_RESULT_I32 int32_t
#define GRT_RUNTIME_ABI_RESULT_I64 int64_t
#define GRT_RUNTIME_ABI_RESULT_F32 float
#define GRT_RUNTIME_ABI_RESULT_F64 double
#define GRT_RUNTIME_ABI_RESULT_REF grt_vm_ref_t

// Reads one value of each kind at the next packed place after *size.
static GRT_ALWAYS_INLINE int32_t grt_runtime_abi_read_I32(const uint8_t* base,
                                               size_t* size) {
  int32_t value;
  memcpy(&value, base + grt_vm_packed_place(size, GRT_VM_VALUE_TYPE_I32),
         sizeof(value));
  return value;
}
static GRT_ALWAYS_INLINE int64_t grt_runtime_abi_read_I64(const uint8_t* base,
                                               size_t* size) {
  int64_t value;
  memcpy(&value, base + grt_vm_packed_place(size, GRT_VM_VALUE_TYPE_I64),
         sizeof(value));
  return value;
}
static GRT_ALWAYS_INLINE float grt_runtime_abi_read_F32(const uint8_t* base,
                                             size_t* size) {
  float value;
  memcpy(&value, base + grt_vm_packed_place(size, GRT_VM_VALUE_TYPE_F32),
         sizeof(value));
  return value;
}
static GRT_ALWAYS_INLINE double grt_runtime_abi_read_F64(const uint8_t* base,
                                              size_t* size) {
  double value;
  memcpy(&value, base + grt_vm_packed_place(size, GRT_VM_VALUE_TYPE_F64),
         sizeof(value));
  return value;
}
static GRT_ALWAYS_INLINE const grt_vm_ref_t* grt_runtime_abi_read_REF(
    const uint8_t* base, size_t* size) {
  return (const grt_vm_ref_t*)(base +
                               grt_vm_packed_place(size, GRT_VM_VALUE_TYPE_REF));
}

// Row consumers. |v| is the struct being filled or written out; |base| and
// |size| the packed buffer and the end of the values placed so far.
#define GRT_RUNTIME_ABI_KIND_(type) GRT_ABI_KIND_OF(type)
#define GRT_RUNTIME_ABI_ARG_FIELD_(name, type) \
  GRT_ABI_CAT(GRT_RUNTIME_ABI_ARG_, GRT_RUNTIME_ABI_KIND_(type)) name;
#define GRT_RUNTIME_ABI_SPAN_FIELD_(name, group) group##_span_t name;
#define GRT_RUNTIME_ABI_RESULT_FIELD_(name, type) \
  GRT_ABI_CAT(GRT_RUNTIME_ABI_RESULT_, GRT_RUNTIME_ABI_KIND_(type)) name;
#define GRT_RUNTIME_ABI_READ_(name, type) \
  v->name = GRT_ABI_CAT(grt_runtime_abi_read_, GRT_RUNTIME_ABI_KIND_(type))(base, &size);
#define GRT_RUNTIME_ABI_SKIP_(name, type) \
  grt_vm_packed_place(                    \
      &size, GRT_ABI_CAT(GRT_VM_VALUE_TYPE_, GRT_RUNTIME_ABI_KIND_(type)));
#define GRT_RUNTIME_ABI_READ_SPAN_(name, group)                 \
  v->name.count = grt_runtime_abi_read_I32(base, &size);       \
  v->name.base = base;                                          \
  v->name.offset = size;                                        \
  for (int32_t i_ = 0; i_ < v->name.count; ++i_) {              \
    group(GRT_RUNTIME_ABI_SKIP_)                                \
  }
#define GRT_RUNTIME_ABI_WRITE_(name, type)                                  \
  memcpy(base + grt_vm_packed_place(                                        \
                    &size, GRT_ABI_CAT(GRT_VM_VALUE_TYPE_,                  \
                                       GRT_RUNTIME_ABI_KIND_(type))),       \
         &v->name, sizeof(v->name));

// The types and reader of span group |group|. A negative count (which the
// VM never passes) reads as no groups.
#define GRT_RUNTIME_ABI_GROUP(group)                                        \
  typedef struct group##_t {                                                \
    group(GRT_RUNTIME_ABI_ARG_FIELD_)                                       \
  } group##_t;                                                              \
  typedef struct group##_span_t {                                           \
    int32_t count;                                                          \
    const uint8_t* base;  /* the packed argument buffer */                  \
    size_t offset;        /* where the next group starts */                 \
  } group##_span_t;                                                         \
  GRT_RUNTIME_ABI_MAYBE_UNUSED static void group##_next(group##_span_t* span, \
                                                        group##_t* v) {     \
    const uint8_t* base = span->base;                                       \
    size_t size = span->offset;                                             \
    group(GRT_RUNTIME_ABI_READ_)                                            \
    span->offset = size;                                                    \
  }

// Declares export |id| (signature macro |sig|) of the module with C prefix
// P and module data type |data_t|, and defines its shim.
#define GRT_RUNTIME_ABI_EXPORT(P, sig, id, data_t)                          \
  typedef struct P##_##id##_args_t {                                        \
    char none_;                                                             \
    sig(GRT_RUNTIME_ABI_ARG_FIELD_, GRT_RUNTIME_ABI_SPAN_FIELD_,            \
        GRT_ABI_IGNORE)                                                     \
  } P##_##id##_args_t;                                                      \
  typedef struct P##_##id##_results_t {                                     \
    char none_;                                                             \
    sig(GRT_ABI_IGNORE, GRT_ABI_IGNORE, GRT_RUNTIME_ABI_RESULT_FIELD_)      \
  } P##_##id##_results_t;                                                   \
  static grt_status_t P##_##id(data_t* data, const P##_##id##_args_t* in,  \
                               P##_##id##_results_t* out);                  \
  static grt_status_t P##_##id##_shim(void* module_data, void* state,       \
                                      const void* args, void* results) {    \
    (void)state;                                                            \
    P##_##id##_args_t in_values;                                            \
    memset(&in_values, 0, sizeof(in_values));                               \
    {                                                                       \
      const uint8_t* base = (const uint8_t*)args;                           \
      size_t size = 0;                                                      \
      P##_##id##_args_t* v = &in_values;                                    \
      sig(GRT_RUNTIME_ABI_READ_, GRT_RUNTIME_ABI_READ_SPAN_, GRT_ABI_IGNORE) \
      (void)base;                                                           \
      (void)size;                                                           \
      (void)v;                                                              \
    }                                                                       \
    P##_##id##_results_t out_values;                                        \
    memset(&out_values, 0, sizeof(out_values));                             \
    grt_status_t status = P##_##id((data_t*)module_data, &in_values,        \
                                   &out_values);                            \
    if (grt_status_is_ok(status)) {                                         \
      uint8_t* base = (uint8_t*)results;                                    \
      size_t size = 0;                                                      \
      const P##_##id##_results_t* v = &out_values;                          \
      sig(GRT_ABI_IGNORE, GRT_ABI_IGNORE, GRT_RUNTIME_ABI_WRITE_)           \
      (void)base;                                                           \
      (void)size;                                                           \
      (void)v;                                                              \
    }                                                                       \
    return status;                                                          \
  }

// One row of the module's grt_vm_native_export_t table.
#define GRT_RUNTIME_ABI_EXPORT_ROW(P, sig, id, name) \
  {name, GRT_ABI_CCONV(sig), P##_##id##_shim},

#endif  // GRT_RUNTIME_ABI_SHIM_H_
