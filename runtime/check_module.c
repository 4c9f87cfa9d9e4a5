#include "runtime/check_module.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hal/buffer_view.h"
#include "hal/device.h"
#include "hal/transfer.h"
#include "runtime/abi_shim.h"
#include "runtime/check_abi.h"
#include "runtime/hal_module.h"
#include "vm/native_module.h"

typedef struct grt_runtime_check_data_t {
  grt_allocator_t host_allocator;
} grt_runtime_check_data_t;

static void grt_runtime_check_data_destroy(void* module_data) {
  grt_runtime_check_data_t* data = module_data;
  grt_allocator_free(data->host_allocator, data);
}

// The exports' argument structs and shims, generated from
// runtime/check_abi.h (runtime/abi_shim.h says what each name is).
#define GRT_RUNTIME_CHECK_DECLARE(id, name, optional, doc)          \
  GRT_RUNTIME_ABI_EXPORT(grt_runtime_check, GRT_CHECK_ABI_##id, id, \
                         grt_runtime_check_data_t)
GRT_CHECK_ABI_EXPORT_LIST(GRT_RUNTIME_CHECK_DECLARE)
#undef GRT_RUNTIME_CHECK_DECLARE

// The body of export |id|: (data, in, out) -> status.
#define GRT_RUNTIME_CHECK_EXPORT(id)                                    \
  static grt_status_t grt_runtime_check_##id(                           \
      grt_runtime_check_data_t* data,                                   \
      const grt_runtime_check_##id##_args_t* in,                        \
      grt_runtime_check_##id##_results_t* out)

GRT_RUNTIME_CHECK_EXPORT(expect_true) {
  if (in->value != 0) return grt_ok_status();
  return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                         "check.expect_true failed: value is 0");
}

GRT_RUNTIME_CHECK_EXPORT(expect_false) {
  if (in->value == 0) return grt_ok_status();
  return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                         "check.expect_false failed: value is %d", in->value);
}

//===----------------------------------------------------------------------===//
// Buffer views on the host
//===----------------------------------------------------------------------===//

// A buffer view's contents read back to host memory.
typedef struct grt_runtime_host_tensor_t {
  grt_hal_buffer_view_t* view;  // borrowed
  void* data;                   // owned
  uint64_t element_count;
  size_t element_size;
} grt_runtime_host_tensor_t;

static grt_status_t grt_runtime_host_tensor_read(
    grt_runtime_check_data_t* data, grt_hal_device_t* device,
    const grt_vm_ref_t* ref, const char* what,
    grt_runtime_host_tensor_t* out_tensor) {
  memset(out_tensor, 0, sizeof(*out_tensor));
  grt_hal_buffer_view_t* view = NULL;
  GRT_RETURN_IF_ERROR_ANNOTATED(grt_runtime_buffer_view_from_ref(ref, &view),
                                "%s", what);
  if (grt_hal_element_type_is_packed(grt_hal_buffer_view_element_type(view))) {
    // Compiled programs compare the one-per-byte holders, never these.
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "%s is a packed %s tensor (several values to a "
                           "byte), which the checks do not compare",
                           what,
                           grt_hal_element_type_name(
                               grt_hal_buffer_view_element_type(view)));
  }
  uint64_t byte_length = grt_hal_buffer_view_byte_length(view);
  if (byte_length > SIZE_MAX) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "%s of %llu bytes does not fit in host memory", what,
                           (unsigned long long)byte_length);
  }
  void* bytes = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(data->host_allocator,
                                           (size_t)byte_length, &bytes));
  grt_status_t status = grt_hal_buffer_view_read_to_host(device, view, bytes,
                                                         (size_t)byte_length);
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(data->host_allocator, bytes);
    return grt_status_annotate(status, "reading %s", what);
  }
  out_tensor->view = view;
  out_tensor->data = bytes;
  out_tensor->element_count = grt_hal_buffer_view_element_count(view);
  out_tensor->element_size = grt_hal_element_type_byte_size(
      grt_hal_buffer_view_element_type(view));
  return grt_ok_status();
}

static void grt_runtime_host_tensor_free(grt_runtime_check_data_t* data,
                                         grt_runtime_host_tensor_t* tensor) {
  grt_allocator_free(data->host_allocator, tensor->data);
  tensor->data = NULL;
}

static const uint8_t* grt_runtime_host_tensor_element(
    const grt_runtime_host_tensor_t* tensor, uint64_t index) {
  return (const uint8_t*)tensor->data + index * tensor->element_size;
}

static bool grt_runtime_element_type_is_float(grt_hal_element_type_t type) {
  uint32_t kind = grt_hal_element_type_kind(type);
  return kind == GRT_HAL_NUMERICAL_FLOAT_IEEE ||
         kind == GRT_HAL_NUMERICAL_FLOAT_BRAIN;
}

// A float element widened to double (type is f16, bf16, f32 or f64).
static double grt_runtime_element_as_double(grt_hal_element_type_t type,
                                            const uint8_t* element) {
  switch (type) {
    case GRT_HAL_ELEMENT_TYPE_FLOAT_16: {
      uint16_t bits;
      memcpy(&bits, element, sizeof(bits));
      return grt_hal_f16_to_f32(bits);
    }
    case GRT_HAL_ELEMENT_TYPE_BFLOAT_16: {
      uint16_t bits;
      memcpy(&bits, element, sizeof(bits));
      return grt_hal_bf16_to_f32(bits);
    }
    case GRT_HAL_ELEMENT_TYPE_FLOAT_32: {
      float value;
      memcpy(&value, element, sizeof(value));
      return value;
    }
    default: {
      double value;
      memcpy(&value, element, sizeof(value));
      return value;
    }
  }
}

// "1.5" for one element.
static void grt_runtime_format_element(const grt_runtime_host_tensor_t* tensor,
                                       uint64_t index, char* out,
                                       size_t capacity) {
  // Rank 0: the element printed as a scalar.
  grt_hal_format_elements(grt_runtime_host_tensor_element(tensor, index),
                          grt_hal_buffer_view_shape(tensor->view), 0,
                          grt_hal_buffer_view_element_type(tensor->view), 0,
                          out, capacity);
}

// "2x2xf32=[1 2][3 4]" (bounded).
static void grt_runtime_format_tensor(const grt_runtime_host_tensor_t* tensor,
                                      char* out, size_t capacity) {
  const grt_hal_buffer_view_t* view = tensor->view;
  size_t used = grt_hal_shape_format(grt_hal_buffer_view_shape(view),
                                     grt_hal_buffer_view_rank(view),
                                     grt_hal_buffer_view_element_type(view),
                                     out, capacity);
  if (used + 2 >= capacity) return;
  out[used++] = '=';
  out[used] = '\0';
  grt_hal_format_elements(tensor->data, grt_hal_buffer_view_shape(view),
                          grt_hal_buffer_view_rank(view),
                          grt_hal_buffer_view_element_type(view),
                          GRT_RUNTIME_CHECK_MAX_PRINTED_ELEMENTS, out + used,
                          capacity - used);
}

// "[1, 0]": the multi-dimensional index of flat element |index|.
static void grt_runtime_format_index(const grt_hal_buffer_view_t* view,
                                     uint64_t index, char* out,
                                     size_t capacity) {
  size_t rank = grt_hal_buffer_view_rank(view);
  const grt_hal_dim_t* shape = grt_hal_buffer_view_shape(view);
  uint64_t coordinates[GRT_HAL_MAX_RANK];
  for (size_t i = rank; i-- > 0;) {
    uint64_t dim = (uint64_t)shape[i];
    coordinates[i] = dim ? index % dim : 0;
    index = dim ? index / dim : 0;
  }
  size_t used = 0;
  int n = snprintf(out, capacity, "[");
  used = n > 0 ? (size_t)n : 0;
  for (size_t i = 0; i < rank && used < capacity; ++i) {
    n = snprintf(out + used, capacity - used, "%s%llu", i ? ", " : "",
                 (unsigned long long)coordinates[i]);
    if (n < 0) return;
    used += (size_t)n;
  }
  if (used < capacity) snprintf(out + used, capacity - used, "]");
}

// Room for one printed tensor: 64 elements of up to ~16 characters plus
// brackets and the type.
#define GRT_RUNTIME_CHECK_TEXT_CAPACITY 2048

static grt_status_t grt_runtime_check_mismatch(
    const char* check, const grt_runtime_host_tensor_t* lhs,
    const grt_runtime_host_tensor_t* rhs, uint64_t index, const char* detail) {
  char lhs_value[64];
  char rhs_value[64];
  char where[160];
  grt_runtime_format_element(lhs, index, lhs_value, sizeof(lhs_value));
  grt_runtime_format_element(rhs, index, rhs_value, sizeof(rhs_value));
  grt_runtime_format_index(lhs->view, index, where, sizeof(where));
  char lhs_text[GRT_RUNTIME_CHECK_TEXT_CAPACITY];
  char rhs_text[GRT_RUNTIME_CHECK_TEXT_CAPACITY];
  grt_runtime_format_tensor(lhs, lhs_text, sizeof(lhs_text));
  grt_runtime_format_tensor(rhs, rhs_text, sizeof(rhs_text));
  return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                         "%s failed: first mismatch at element %llu %s: lhs "
                         "%s, rhs %s%s%s\n  lhs: %s\n  rhs: %s",
                         check, (unsigned long long)index, where, lhs_value,
                         rhs_value, detail ? " (" : "", detail ? detail : "",
                         lhs_text, rhs_text);
}

// Type and shape must agree before elements are compared.
static grt_status_t grt_runtime_check_same_type(
    const char* check, const grt_runtime_host_tensor_t* lhs,
    const grt_runtime_host_tensor_t* rhs) {
  const grt_hal_buffer_view_t* a = lhs->view;
  const grt_hal_buffer_view_t* b = rhs->view;
  bool same_type = grt_hal_buffer_view_element_type(a) ==
                   grt_hal_buffer_view_element_type(b);
  bool same_shape =
      grt_hal_buffer_view_rank(a) == grt_hal_buffer_view_rank(b) &&
      memcmp(grt_hal_buffer_view_shape(a), grt_hal_buffer_view_shape(b),
             grt_hal_buffer_view_rank(a) * sizeof(grt_hal_dim_t)) == 0;
  if (same_type && same_shape) return grt_ok_status();
  char lhs_type[160];
  char rhs_type[160];
  grt_hal_buffer_view_format_type(a, lhs_type, sizeof(lhs_type));
  grt_hal_buffer_view_format_type(b, rhs_type, sizeof(rhs_type));
  return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                         "%s failed: %s differ: lhs is %s, rhs is %s", check,
                         !same_type && !same_shape ? "element types and shapes"
                         : !same_type             ? "element types"
                                                  : "shapes",
                         lhs_type, rhs_type);
}

// Whether two elements agree: bit-exact, or within |atol| + |rtol|*|rhs|
// for floats when |tolerant| (two NaNs agree).
static bool grt_runtime_elements_agree(grt_hal_element_type_t type,
                                       const uint8_t* a, const uint8_t* b,
                                       size_t size, bool tolerant, double atol,
                                       double rtol) {
  if (!tolerant || !grt_runtime_element_type_is_float(type)) {
    return memcmp(a, b, size) == 0;
  }
  double x = grt_runtime_element_as_double(type, a);
  double y = grt_runtime_element_as_double(type, b);
  if (isnan(x) || isnan(y)) return isnan(x) && isnan(y);
  if (x == y) return true;  // equal infinities
  return fabs(x - y) <= atol + rtol * fabs(y);
}

// The StableHLO interpreter's element rules for floats (integers compare
// exactly): VALUE, equal as IEEE values (+0 equals -0, NaN equals
// nothing); NEAR, equal, or both NaN, or both finite, of one sign and at
// most |tolerance| apart (so -1e-6 is not near 1e-6, nor is 0 near -1e-6).
static bool grt_runtime_elements_match_reference(grt_hal_element_type_t type,
                                                 const uint8_t* a, const uint8_t* b,
                                                 size_t size, bool near,
                                                 double tolerance) {
  if (!grt_runtime_element_type_is_float(type)) return memcmp(a, b, size) == 0;
  double x = grt_runtime_element_as_double(type, a);
  double y = grt_runtime_element_as_double(type, b);
  if (x == y) return true;
  if (!near) return false;
  if (isnan(x) || isnan(y)) return isnan(x) && isnan(y);
  if (isinf(x) || isinf(y)) return false;
  if (signbit(x) != signbit(y)) return false;
  return fabs(x - y) <= tolerance;
}

// A float element's position in the ordered sequence of its type's values:
// consecutive values differ by 1, -0 and +0 both map to 0, and infinities
// sit one step past the largest finite value. Width in bytes: 2, 4 or 8.
static int64_t grt_runtime_float_ordinal(const uint8_t* element, size_t width) {
  uint64_t bits = 0;
  for (size_t i = 0; i < width; ++i) bits |= (uint64_t)element[i] << (8 * i);
  uint64_t sign = 1ull << (8 * width - 1);
  uint64_t magnitude = bits & (sign - 1);
  // magnitude < 2^63, so negating it cannot overflow.
  return (bits & sign) ? -(int64_t)magnitude : (int64_t)magnitude;
}

// How many representable values of |type| lie between two float elements
// (the distance in units in the last place): 0 for equal values, for +0
// and -0, and for two NaNs; UINT64_MAX when exactly one is NaN, or when an
// infinity meets any other value.
static uint64_t grt_runtime_ulp_distance(grt_hal_element_type_t type,
                                         const uint8_t* a, const uint8_t* b,
                                         size_t width) {
  double u = grt_runtime_element_as_double(type, a);
  double v = grt_runtime_element_as_double(type, b);
  if (isnan(u) || isnan(v)) return isnan(u) && isnan(v) ? 0 : UINT64_MAX;
  // As the StableHLO interpreter measures it: an infinity is 0 apart from
  // itself and unmeasurably far from anything else.
  if (isinf(u) || isinf(v)) return u == v ? 0 : UINT64_MAX;
  int64_t x = grt_runtime_float_ordinal(a, width);
  int64_t y = grt_runtime_float_ordinal(b, width);
  // |x|, |y| < 2^63 and of any sign: the difference fits in a uint64_t.
  return x >= y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x;
}

// The (device, lhs, rhs) every comparing check takes.
typedef struct grt_runtime_compare_args_t {
  const grt_vm_ref_t* device;
  const grt_vm_ref_t* lhs;
  const grt_vm_ref_t* rhs;
} grt_runtime_compare_args_t;

// How a check compares elements: bit-exact, within atol + rtol*|rhs| for
// floats (integers stay exact), within [min_ulp, max_ulp] units in the
// last place (floats only), or by the StableHLO interpreter's rules
// (grt_runtime_elements_match_reference: VALUE, and NEAR within atol).
typedef enum grt_runtime_compare_kind_e {
  GRT_RUNTIME_COMPARE_EXACT,
  GRT_RUNTIME_COMPARE_TOLERANCE,
  GRT_RUNTIME_COMPARE_ULP,
  GRT_RUNTIME_COMPARE_VALUE,
  GRT_RUNTIME_COMPARE_NEAR,
} grt_runtime_compare_kind_t;

typedef struct grt_runtime_compare_rule_t {
  grt_runtime_compare_kind_t kind;
  double atol, rtol;          // TOLERANCE
  uint64_t min_ulp, max_ulp;  // ULP
} grt_runtime_compare_rule_t;

// The first mismatch of element |i| under |rule|, or OK.
static grt_status_t grt_runtime_check_element(
    const char* check, const grt_runtime_compare_rule_t* rule,
    const grt_runtime_host_tensor_t* lhs, const grt_runtime_host_tensor_t* rhs,
    uint64_t i) {
  grt_hal_element_type_t type = grt_hal_buffer_view_element_type(lhs->view);
  const uint8_t* a = grt_runtime_host_tensor_element(lhs, i);
  const uint8_t* b = grt_runtime_host_tensor_element(rhs, i);
  if (rule->kind == GRT_RUNTIME_COMPARE_VALUE || rule->kind == GRT_RUNTIME_COMPARE_NEAR) {
    if (grt_runtime_elements_match_reference(type, a, b, lhs->element_size,
                                             rule->kind == GRT_RUNTIME_COMPARE_NEAR,
                                             rule->atol)) {
      return grt_ok_status();
    }
    return grt_runtime_check_mismatch(check, lhs, rhs, i, NULL);
  }
  if (rule->kind != GRT_RUNTIME_COMPARE_ULP) {
    if (grt_runtime_elements_agree(type, a, b, lhs->element_size,
                                   rule->kind == GRT_RUNTIME_COMPARE_TOLERANCE,
                                   rule->atol, rule->rtol)) {
      return grt_ok_status();
    }
    return grt_runtime_check_mismatch(check, lhs, rhs, i, NULL);
  }
  uint64_t distance = grt_runtime_ulp_distance(type, a, b, lhs->element_size);
  if (distance >= rule->min_ulp && distance <= rule->max_ulp) {
    return grt_ok_status();
  }
  // Both values in full, since the short form hides a few ULP.
  int digits = type == GRT_HAL_ELEMENT_TYPE_FLOAT_64 ? 17 : 9;
  char apart[48];
  if (distance == UINT64_MAX) {
    snprintf(apart, sizeof(apart), "%s",
             isnan(grt_runtime_element_as_double(type, a)) ||
                     isnan(grt_runtime_element_as_double(type, b))
                 ? "one is NaN"
                 : "an infinity and another value");
  } else {
    snprintf(apart, sizeof(apart), "%llu ULP apart", (unsigned long long)distance);
  }
  char detail[192];
  snprintf(detail, sizeof(detail), "%.*g vs %.*g: %s, expected %llu to %llu ULP)",
           digits, grt_runtime_element_as_double(type, a), digits,
           grt_runtime_element_as_double(type, b), apart,
           (unsigned long long)rule->min_ulp, (unsigned long long)rule->max_ulp);
  return grt_runtime_check_mismatch(check, lhs, rhs, i, detail);
}

static grt_status_t grt_runtime_check_compare(
    grt_runtime_check_data_t* data, const char* check,
    const grt_runtime_compare_args_t* in,
    const grt_runtime_compare_rule_t* rule) {
  grt_hal_device_t* device = NULL;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_vm_ref_deref(in->device, &grt_runtime_hal_device_type,
                       (void**)&device),
      "%s: device", check);
  grt_runtime_host_tensor_t lhs;
  grt_runtime_host_tensor_t rhs;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_runtime_host_tensor_read(data, device, in->lhs, "lhs", &lhs), "%s",
      check);
  grt_status_t status =
      grt_runtime_host_tensor_read(data, device, in->rhs, "rhs", &rhs);
  if (!grt_status_is_ok(status)) {
    grt_runtime_host_tensor_free(data, &lhs);
    return grt_status_annotate(status, "%s", check);
  }
  status = grt_runtime_check_same_type(check, &lhs, &rhs);
  if (grt_status_is_ok(status) && rule->kind == GRT_RUNTIME_COMPARE_ULP &&
      !grt_runtime_element_type_is_float(
          grt_hal_buffer_view_element_type(lhs.view))) {
    char text[160];
    grt_hal_buffer_view_format_type(lhs.view, text, sizeof(text));
    status = grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "%s: expected f16, bf16, f32 or f64 tensors, "
                             "got %s", check, text);
  }
  for (uint64_t i = 0; grt_status_is_ok(status) && i < lhs.element_count; ++i) {
    status = grt_runtime_check_element(check, rule, &lhs, &rhs, i);
  }
  grt_runtime_host_tensor_free(data, &lhs);
  grt_runtime_host_tensor_free(data, &rhs);
  return status;
}

GRT_RUNTIME_CHECK_EXPORT(expect_eq) {
  const grt_runtime_compare_rule_t exact = {GRT_RUNTIME_COMPARE_EXACT, 0, 0, 0, 0};
  const grt_runtime_compare_args_t views = {in->device, in->lhs, in->rhs};
  return grt_runtime_check_compare(data, "check.expect_eq", &views, &exact);
}

GRT_RUNTIME_CHECK_EXPORT(expect_almost_eq) {
  if (!(in->atol >= 0.0f) || !(in->rtol >= 0.0f)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "check.expect_almost_eq: tolerances must be >= 0, "
                           "got atol %g, rtol %g",
                           (double)in->atol, (double)in->rtol);
  }
  const grt_runtime_compare_rule_t rule = {GRT_RUNTIME_COMPARE_TOLERANCE,
                                           in->atol, in->rtol, 0, 0};
  const grt_runtime_compare_args_t views = {in->device, in->lhs, in->rhs};
  return grt_runtime_check_compare(data, "check.expect_almost_eq", &views,
                                   &rule);
}

// The StableHLO check dialect's expect_close.
GRT_RUNTIME_CHECK_EXPORT(expect_close) {
  if (in->min_ulp < 0 || in->max_ulp < in->min_ulp) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "check.expect_close: expected 0 <= min_ulp_difference <= "
                           "max_ulp_difference, got min %lld, max %lld",
                           (long long)in->min_ulp, (long long)in->max_ulp);
  }
  const grt_runtime_compare_rule_t rule = {GRT_RUNTIME_COMPARE_ULP, 0, 0,
                                           (uint64_t)in->min_ulp,
                                           (uint64_t)in->max_ulp};
  const grt_runtime_compare_args_t views = {in->device, in->lhs, in->rhs};
  return grt_runtime_check_compare(data, "check.expect_close", &views, &rule);
}

// The StableHLO interpreter's expect_eq: values, not bit patterns.
GRT_RUNTIME_CHECK_EXPORT(expect_value_eq) {
  const grt_runtime_compare_rule_t value = {GRT_RUNTIME_COMPARE_VALUE, 0, 0, 0, 0};
  const grt_runtime_compare_args_t views = {in->device, in->lhs, in->rhs};
  return grt_runtime_check_compare(data, "check.expect_value_eq", &views, &value);
}

// The StableHLO interpreter's expect_almost_eq (and custom_call @check.eq
// on floats), with its absolute tolerance.
GRT_RUNTIME_CHECK_EXPORT(expect_near) {
  if (!(in->tolerance >= 0.0)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "check.expect_near: tolerance must be >= 0, got %g",
                           in->tolerance);
  }
  const grt_runtime_compare_rule_t rule = {GRT_RUNTIME_COMPARE_NEAR, in->tolerance, 0, 0, 0};
  const grt_runtime_compare_args_t views = {in->device, in->lhs, in->rhs};
  return grt_runtime_check_compare(data, "check.expect_near", &views, &rule);
}

GRT_RUNTIME_CHECK_EXPORT(expect_all_true) {
  const char* check = "check.expect_all_true";
  grt_hal_device_t* device = NULL;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_vm_ref_deref(in->device, &grt_runtime_hal_device_type,
                       (void**)&device),
      "%s: device", check);
  grt_runtime_host_tensor_t tensor;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_runtime_host_tensor_read(data, device, in->view, "value", &tensor),
      "%s", check);
  grt_hal_element_type_t type = grt_hal_buffer_view_element_type(tensor.view);
  static const uint8_t zeros[8] = {0};
  grt_status_t status = grt_ok_status();
  for (uint64_t i = 0; grt_status_is_ok(status) && i < tensor.element_count;
       ++i) {
    const uint8_t* element = grt_runtime_host_tensor_element(&tensor, i);
    bool is_true = grt_runtime_element_type_is_float(type)
                       ? grt_runtime_element_as_double(type, element) != 0.0
                       : memcmp(element, zeros, tensor.element_size) != 0;
    if (is_true) continue;
    char value[64];
    char where[160];
    char text[GRT_RUNTIME_CHECK_TEXT_CAPACITY];
    grt_runtime_format_element(&tensor, i, value, sizeof(value));
    grt_runtime_format_index(tensor.view, i, where, sizeof(where));
    grt_runtime_format_tensor(&tensor, text, sizeof(text));
    status = grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                             "%s failed: element %llu %s is %s\n  value: %s",
                             check, (unsigned long long)i, where, value, text);
  }
  grt_runtime_host_tensor_free(data, &tensor);
  return status;
}

// One row per line of runtime/check_abi.h, which is sorted by name.
static const grt_vm_native_export_t grt_runtime_check_exports[] = {
#define GRT_RUNTIME_CHECK_ROW(id, name, optional, doc)                      \
  GRT_RUNTIME_ABI_EXPORT_ROW(grt_runtime_check, GRT_CHECK_ABI_##id, id, \
                             name)
    GRT_CHECK_ABI_EXPORT_LIST(GRT_RUNTIME_CHECK_ROW)
#undef GRT_RUNTIME_CHECK_ROW
};

static const grt_vm_native_module_descriptor_t grt_runtime_check_descriptor = {
    "check",
    grt_runtime_check_exports,
    sizeof(grt_runtime_check_exports) / sizeof(grt_runtime_check_exports[0]),
    NULL,
    NULL,
    grt_runtime_check_data_destroy,
};

grt_status_t grt_runtime_check_module_create(grt_allocator_t host_allocator,
                                             grt_vm_module_t** out_module) {
  *out_module = NULL;
  grt_runtime_check_data_t* data = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(host_allocator, sizeof(*data), (void**)&data));
  data->host_allocator = host_allocator;
  grt_status_t status = grt_vm_native_module_create(
      &grt_runtime_check_descriptor, data, host_allocator, out_module);
  if (!grt_status_is_ok(status)) grt_runtime_check_data_destroy(data);
  return status;
}
