// Decoding of the StableHLO attributes the importer reads: dimension lists
// in every spelling MLIR has used for them (array<i64: ..>, dense<..> :
// tensor<Nxi64>, [1, 2]), enums (#stablehlo<comparison_direction LT>) and
// the dimension-number structs kept as opaque text by the parser
// (#stablehlo.dot<..>, #stablehlo.conv<..>, #stablehlo.gather<..>,
// #stablehlo.scatter<..>). Private to compiler/stablehlo.
//
// Every decoder returns false with a message in |error| (what was expected
// and what was found) when the attribute is malformed; the importer places
// it at the op.
#ifndef GRT_COMPILER_STABLEHLO_ATTRS_H_
#define GRT_COMPILER_STABLEHLO_ATTRS_H_

#include <stdbool.h>
#include <stddef.h>

#include "compiler/mlir/ir.h"
#include "compiler/tensor/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRTC_ATTR_ERROR_CAPACITY 256

// The most values a dimension list (or list of padding pairs) may hold, in
// the pretty forms and in attributes: lists name tensor dimensions, so real
// programs stay far below it, and fixed buffers can hold any valid one.
#define GRTC_STABLEHLO_MAX_LIST 64

typedef struct grtc_attr_error_t {
  char message[GRTC_ATTR_ERROR_CAPACITY];
} grtc_attr_error_t;

// Integer list from array<iN: ..>, dense<..> : tensor<..xiN> (splats
// expanded) or [1, 2]; values land in |module|'s arena.
bool grtc_attr_i64s(grtc_tmodule_t* module, const grtc_attribute_t* attr,
                    const char* name, grtc_i64s_t* out, grtc_attr_error_t* error);
// One integer (42 : i64) or a one-element list.
bool grtc_attr_i64(const grtc_attribute_t* attr, const char* name, int64_t* out,
                   grtc_attr_error_t* error);
bool grtc_attr_bool(const grtc_attribute_t* attr, const char* name, bool* out,
                    grtc_attr_error_t* error);
double grtc_attr_number(const grtc_attribute_t* attr);  // int or float

// #stablehlo<comparison_direction LT> / #stablehlo<comparison_type FLOAT>
bool grtc_attr_compare_direction(const grtc_attribute_t* attr,
                                 grtc_compare_direction_t* out,
                                 grtc_attr_error_t* error);
bool grtc_attr_compare_type(const grtc_attribute_t* attr,
                            grtc_compare_type_t* out, grtc_attr_error_t* error);
// Whether |attr| is #stablehlo<comparison_type WEAKORDER> (floats ordered
// with every NaN equal to every other and above +Inf, and -0 == +0), which
// the importer builds from FLOAT compares; grtc_attr_compare_type refuses it.
bool grtc_attr_compare_type_is_weak_order(const grtc_attribute_t* attr);

bool grtc_attr_dot_dims(grtc_tmodule_t* module, const grtc_attribute_t* attr,
                        grtc_dot_dims_t* out, grtc_attr_error_t* error);
// #chlo.ragged_dot<...>: the dot numbers, lhs_ragged_dimensions and
// rhs_group_dimensions (absent lists are empty).
bool grtc_attr_ragged_dot_dims(grtc_tmodule_t* module, const grtc_attribute_t* attr,
                               grtc_dot_dims_t* out, grtc_i64s_t* lhs_ragged,
                               grtc_i64s_t* rhs_group, grtc_attr_error_t* error);
// The layout part of the convolution dimension numbers (both the
// [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] and the `raw` forms).
bool grtc_attr_conv_dims(grtc_tmodule_t* module, const grtc_attribute_t* attr,
                         grtc_conv_dims_t* out, grtc_attr_error_t* error);
bool grtc_attr_gather_dims(grtc_tmodule_t* module, const grtc_attribute_t* attr,
                           grtc_gather_dims_t* out, grtc_attr_error_t* error);
bool grtc_attr_scatter_dims(grtc_tmodule_t* module, const grtc_attribute_t* attr,
                            grtc_scatter_dims_t* out, grtc_attr_error_t* error);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_STABLEHLO_ATTRS_H_
