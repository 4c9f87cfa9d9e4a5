// Value types and variants: the VM's scalar vocabulary.
//
// One table (GRT_VM_VALUE_TYPE_LIST) ties each value type to its
// calling-convention character, its printable name and its size, so the
// signature parser, lists, invoke and messages all agree.
//
// A variant is a tagged value: i32, i64, f32, f64 or a ref. A variant
// holding a ref owns one reference to it (release with
// grt_vm_variant_reset).
//
// A type def describes what a container element (or any typed slot) may
// hold: one primitive type, a ref of one type, a ref of any type, or any
// value at all (a variant).
#ifndef GRT_VM_VARIANT_H_
#define GRT_VM_VARIANT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vm/op_table.h"
#include "vm/ref.h"

#ifdef __cplusplus
extern "C" {
#endif

// X(enum suffix, cconv char, name, size, alignment): size and alignment
// are those of the C type that holds the value in a packed buffer.
#define GRT_VM_VALUE_TYPE_LIST(X)                                      \
  X(NONE, 'v', "none", 0, 1)                                           \
  X(I32, 'i', "i32", sizeof(int32_t), _Alignof(int32_t))               \
  X(I64, 'I', "i64", sizeof(int64_t), _Alignof(int64_t))               \
  X(F32, 'f', "f32", sizeof(float), _Alignof(float))                   \
  X(F64, 'F', "f64", sizeof(double), _Alignof(double))                 \
  X(REF, 'r', "ref", sizeof(grt_vm_ref_t), _Alignof(grt_vm_ref_t))

typedef enum grt_vm_value_type_e {
#define GRT_VM_VALUE_TYPE_ENUM(name, ch, str, size, align) GRT_VM_VALUE_TYPE_##name,
  GRT_VM_VALUE_TYPE_LIST(GRT_VM_VALUE_TYPE_ENUM)
#undef GRT_VM_VALUE_TYPE_ENUM
  GRT_VM_VALUE_TYPE_COUNT,
  // Element types only a vm.list stores (IREE's !vm.list<i8> and
  // !vm.list<i16>): 1 and 2 bytes an element. No register, argument,
  // result or variant has them: elements are read as i32 or i64,
  // sign-extended, and written from i32 or i64, keeping the low 8 or 16
  // bits (IREE's list value conversions). The bytecode names every one of
  // these through the ISA's grt_vm_type_t (grt_vm_value_type_from_isa).
  GRT_VM_VALUE_TYPE_I8 = GRT_VM_VALUE_TYPE_COUNT,
  GRT_VM_VALUE_TYPE_I16,
  GRT_VM_LIST_ELEMENT_TYPE_COUNT
} grt_vm_value_type_t;

// Whether |type| is one of the list-only narrow integer element types.
static inline bool grt_vm_value_type_is_narrow(grt_vm_value_type_t type) {
  return type == GRT_VM_VALUE_TYPE_I8 || type == GRT_VM_VALUE_TYPE_I16;
}

// A C99 inline definition: size builds call the one external copy in
// vm/variant.c (it is used only for messages).
inline const char* grt_vm_value_type_name(grt_vm_value_type_t type) {
  switch (type) {
#define GRT_VM_VALUE_TYPE_NAME(name, ch, str, size, align) \
  case GRT_VM_VALUE_TYPE_##name:                    \
    return str;
    GRT_VM_VALUE_TYPE_LIST(GRT_VM_VALUE_TYPE_NAME)
#undef GRT_VM_VALUE_TYPE_NAME
    case GRT_VM_VALUE_TYPE_I8:
      return "i8";
    case GRT_VM_VALUE_TYPE_I16:
      return "i16";
    default:
      return "invalid";
  }
}

// Bytes a value occupies in a packed argument/result buffer.
static inline size_t grt_vm_value_type_size(grt_vm_value_type_t type) {
  switch (type) {
#define GRT_VM_VALUE_TYPE_SIZE(name, ch, str, size, align) \
  case GRT_VM_VALUE_TYPE_##name:                    \
    return size;
    GRT_VM_VALUE_TYPE_LIST(GRT_VM_VALUE_TYPE_SIZE)
#undef GRT_VM_VALUE_TYPE_SIZE
    case GRT_VM_VALUE_TYPE_I8:
      return sizeof(int8_t);
    case GRT_VM_VALUE_TYPE_I16:
      return sizeof(int16_t);
    default:
      return 0;
  }
}

// Alignment of a value in a packed argument/result buffer.
static inline size_t grt_vm_value_type_alignment(grt_vm_value_type_t type) {
  switch (type) {
#define GRT_VM_VALUE_TYPE_ALIGN(name, ch, str, size, align) \
  case GRT_VM_VALUE_TYPE_##name:                            \
    return align;
    GRT_VM_VALUE_TYPE_LIST(GRT_VM_VALUE_TYPE_ALIGN)
#undef GRT_VM_VALUE_TYPE_ALIGN
    case GRT_VM_VALUE_TYPE_I8:
      return _Alignof(int8_t);
    case GRT_VM_VALUE_TYPE_I16:
      return _Alignof(int16_t);
    default:
      return 1;
  }
}

// The calling-convention character ('i', 'I', 'f', 'F', 'r', 'v').
static inline char grt_vm_value_type_cconv_char(grt_vm_value_type_t type) {
  switch (type) {
#define GRT_VM_VALUE_TYPE_CHAR(name, ch, str, size, align) \
  case GRT_VM_VALUE_TYPE_##name:                    \
    return ch;
    GRT_VM_VALUE_TYPE_LIST(GRT_VM_VALUE_TYPE_CHAR)
#undef GRT_VM_VALUE_TYPE_CHAR
    default:
      return '?';
  }
}

// The runtime value type of the ISA's type code |type| (a register type or
// a list element type; GRT_VM_TYPE_VARIANT is NONE, a list of variants).
// |type| must be below GRT_VM_TYPE_LIST_ELEMENT_COUNT.
static inline grt_vm_value_type_t grt_vm_value_type_from_isa(grt_vm_type_t type) {
  switch (type) {
    case GRT_VM_TYPE_I32: return GRT_VM_VALUE_TYPE_I32;
    case GRT_VM_TYPE_I64: return GRT_VM_VALUE_TYPE_I64;
    case GRT_VM_TYPE_F32: return GRT_VM_VALUE_TYPE_F32;
    case GRT_VM_TYPE_F64: return GRT_VM_VALUE_TYPE_F64;
    case GRT_VM_TYPE_REF: return GRT_VM_VALUE_TYPE_REF;
    case GRT_VM_TYPE_I8: return GRT_VM_VALUE_TYPE_I8;
    case GRT_VM_TYPE_I16: return GRT_VM_VALUE_TYPE_I16;
    default: return GRT_VM_VALUE_TYPE_NONE;
  }
}

// The value type for a calling-convention character; false if |ch| names
// none.
static inline bool grt_vm_value_type_from_cconv_char(
    char ch, grt_vm_value_type_t* out_type) {
  switch (ch) {
#define GRT_VM_VALUE_TYPE_FROM_CHAR(name, c, str, size, align) \
  case c:                                               \
    *out_type = GRT_VM_VALUE_TYPE_##name;               \
    return true;
    GRT_VM_VALUE_TYPE_LIST(GRT_VM_VALUE_TYPE_FROM_CHAR)
#undef GRT_VM_VALUE_TYPE_FROM_CHAR
    default:
      return false;
  }
}

typedef struct grt_vm_variant_t {
  grt_vm_value_type_t type;  // NONE: empty
  union {
    int32_t i32;
    int64_t i64;
    float f32;
    double f64;
    grt_vm_ref_t ref;  // when type is REF; may be the null ref
  };
} grt_vm_variant_t;

static inline grt_vm_variant_t grt_vm_variant_empty(void) {
  grt_vm_variant_t v;
  v.type = GRT_VM_VALUE_TYPE_NONE;
  v.ref = grt_vm_ref_null();
  return v;
}
static inline grt_vm_variant_t grt_vm_variant_i32(int32_t value) {
  grt_vm_variant_t v = grt_vm_variant_empty();
  v.type = GRT_VM_VALUE_TYPE_I32;
  v.i32 = value;
  return v;
}
static inline grt_vm_variant_t grt_vm_variant_i64(int64_t value) {
  grt_vm_variant_t v = grt_vm_variant_empty();
  v.type = GRT_VM_VALUE_TYPE_I64;
  v.i64 = value;
  return v;
}
static inline grt_vm_variant_t grt_vm_variant_f32(float value) {
  grt_vm_variant_t v = grt_vm_variant_empty();
  v.type = GRT_VM_VALUE_TYPE_F32;
  v.f32 = value;
  return v;
}
static inline grt_vm_variant_t grt_vm_variant_f64(double value) {
  grt_vm_variant_t v = grt_vm_variant_empty();
  v.type = GRT_VM_VALUE_TYPE_F64;
  v.f64 = value;
  return v;
}
// Takes a new reference to |ref|'s object.
static inline grt_vm_variant_t grt_vm_variant_ref_retain(const grt_vm_ref_t* ref) {
  grt_vm_variant_t v = grt_vm_variant_empty();
  v.type = GRT_VM_VALUE_TYPE_REF;
  grt_vm_ref_assign(&v.ref, ref);
  return v;
}
// Takes over |ref|'s reference and leaves |ref| null.
static inline grt_vm_variant_t grt_vm_variant_ref_move(grt_vm_ref_t* ref) {
  grt_vm_variant_t v = grt_vm_variant_empty();
  v.type = GRT_VM_VALUE_TYPE_REF;
  grt_vm_ref_move(&v.ref, ref);
  return v;
}

// Releases a held ref and leaves the variant empty.
static inline void grt_vm_variant_reset(grt_vm_variant_t* variant) {
  if (variant->type == GRT_VM_VALUE_TYPE_REF) grt_vm_ref_release(&variant->ref);
  *variant = grt_vm_variant_empty();
}

typedef struct grt_vm_type_def_t {
  // NONE means any value (a variant slot).
  grt_vm_value_type_t value_type;
  // For REF: the one ref type allowed, or NULL for any ref type.
  grt_vm_ref_type_t ref_type;
} grt_vm_type_def_t;

static inline grt_vm_type_def_t grt_vm_type_def_variant(void) {
  grt_vm_type_def_t def = {GRT_VM_VALUE_TYPE_NONE, NULL};
  return def;
}
// |value_type| must be a primitive type (I32/I64/F32/F64), or for a list
// element type I8/I16.
static inline grt_vm_type_def_t grt_vm_type_def_value(
    grt_vm_value_type_t value_type) {
  grt_vm_type_def_t def = {value_type, NULL};
  return def;
}
// |ref_type| NULL: any ref type.
static inline grt_vm_type_def_t grt_vm_type_def_ref(grt_vm_ref_type_t ref_type) {
  grt_vm_type_def_t def = {GRT_VM_VALUE_TYPE_REF, ref_type};
  return def;
}

// Whether a slot of type |def| may hold |variant| (a null ref fits any ref
// slot).
bool grt_vm_type_def_accepts(grt_vm_type_def_t def,
                             const grt_vm_variant_t* variant);

// Spells |def| into |buffer| as "i32", "ref<vm.buffer>", "ref<?>" or
// "variant"; returns |buffer|. 64 bytes always suffice for names up to 48
// characters; longer names are truncated.
#define GRT_VM_TYPE_NAME_CAPACITY 64
const char* grt_vm_type_def_format(grt_vm_type_def_t def, char* buffer,
                                   size_t capacity);
// Spells the type of the value |variant| holds: "i32", "ref<vm.list>",
// "ref<null>" (a null ref), "none".
const char* grt_vm_variant_format_type(const grt_vm_variant_t* variant,
                                       char* buffer, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif  // GRT_VM_VARIANT_H_
