#include "vm/signature.h"

#include <assert.h>
#include <stdio.h>

static_assert(GRT_VM_PACKED_ALIGNMENT >= _Alignof(int64_t) &&
                  GRT_VM_PACKED_ALIGNMENT >= _Alignof(double) &&
                  GRT_VM_PACKED_ALIGNMENT >= _Alignof(grt_vm_ref_t),
              "packed buffers must be aligned for every value type");

#define GRT_VM_SPAN_BEGIN 'C'
#define GRT_VM_SPAN_END 'D'

static grt_status_t grt_vm_signature_error(grt_string_view_t text,
                                           size_t position, const char* what) {
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "invalid calling convention '%.*s': %s at position %zu",
                         GRT_SV_ARG(text), what, position);
}

// Validates one side; |first| is the position of side.data[0] in |text|.
static grt_status_t grt_vm_signature_parse_side(grt_string_view_t text,
                                                grt_string_view_t side,
                                                size_t first, bool allow_spans,
                                                grt_string_view_t* out_types,
                                                bool* out_variadic,
                                                size_t* out_bytes) {
  *out_variadic = false;
  if (side.size == 1 && side.data[0] == 'v') {
    *out_types = grt_string_view_empty();
    *out_bytes = 0;
    return grt_ok_status();
  }
  size_t span_start = 0;
  bool in_span = false;
  for (size_t i = 0; i < side.size; ++i) {
    char ch = side.data[i];
    grt_vm_value_type_t type;
    if (ch == GRT_VM_SPAN_BEGIN) {
      if (!allow_spans) {
        return grt_vm_signature_error(text, first + i,
                                      "variadic span 'C' in results");
      }
      if (in_span) {
        return grt_vm_signature_error(text, first + i, "nested span 'C'");
      }
      in_span = true;
      span_start = i;
      *out_variadic = true;
    } else if (ch == GRT_VM_SPAN_END) {
      if (!in_span) {
        return grt_vm_signature_error(text, first + i, "'D' without 'C'");
      }
      if (i == span_start + 1) {
        return grt_vm_signature_error(text, first + i, "empty span 'CD'");
      }
      in_span = false;
    } else if (ch == 'v') {
      return grt_vm_signature_error(
          text, first + i, "'v' must be the only character of its side");
    } else if (!grt_vm_value_type_from_cconv_char(ch, &type)) {
      char what[64];
      snprintf(what, sizeof(what),
               "unknown type '%c' (expected one of i I f F r C D v)", ch);
      return grt_vm_signature_error(text, first + i, what);
    }
  }
  if (in_span) {
    return grt_vm_signature_error(text, first + span_start,
                                  "span 'C' not closed by 'D'");
  }
  *out_types = side;
  return grt_vm_signature_packed_size(side, NULL, 0, out_bytes);
}

grt_status_t grt_vm_signature_parse(grt_string_view_t text,
                                    grt_vm_signature_t* out_signature) {
  grt_vm_signature_t signature = {0};
  signature.text = text;
  *out_signature = signature;
  if (text.size == 0 || text.data[0] != '0') {
    return grt_vm_signature_error(text, 0, "expected version '0'");
  }
  size_t separator = 1;
  while (separator < text.size && text.data[separator] != '_') ++separator;
  if (separator == text.size) {
    return grt_vm_signature_error(
        text, text.size, "expected '_' between arguments and results");
  }
  grt_string_view_t arguments =
      grt_make_string_view(text.data + 1, separator - 1);
  grt_string_view_t results = grt_make_string_view(
      text.data + separator + 1, text.size - separator - 1);
  bool results_variadic = false;
  GRT_RETURN_IF_ERROR(grt_vm_signature_parse_side(
      text, arguments, 1, /*allow_spans=*/true, &signature.arguments,
      &signature.variadic, &signature.argument_bytes));
  GRT_RETURN_IF_ERROR(grt_vm_signature_parse_side(
      text, results, separator + 1, /*allow_spans=*/false, &signature.results,
      &results_variadic, &signature.result_bytes));
  *out_signature = signature;
  return grt_ok_status();
}

bool grt_vm_signature_equal(const grt_vm_signature_t* a,
                            const grt_vm_signature_t* b) {
  return grt_string_view_equal(a->arguments, b->arguments) &&
         grt_string_view_equal(a->results, b->results);
}

grt_status_t grt_vm_signature_check_import(grt_string_view_t import_name,
                                           const grt_vm_signature_t* expected,
                                           grt_string_view_t module_name,
                                           const grt_vm_signature_t* exported) {
  if (grt_vm_signature_equal(expected, exported)) return grt_ok_status();
  return grt_make_status(
      GRT_STATUS_INCOMPATIBLE,
      "import '%.*s' expects signature %.*s but module '%.*s' exports %.*s",
      GRT_SV_ARG(import_name), GRT_SV_ARG(expected->text),
      GRT_SV_ARG(module_name), GRT_SV_ARG(exported->text));
}

static size_t grt_vm_signature_span_count(grt_string_view_t types) {
  size_t count = 0;
  for (size_t i = 0; i < types.size; ++i) {
    if (types.data[i] == GRT_VM_SPAN_BEGIN) ++count;
  }
  return count;
}

grt_status_t grt_vm_signature_packed_size(grt_string_view_t types,
                                          const int32_t* span_counts,
                                          size_t span_count_count,
                                          size_t* out_size) {
  *out_size = 0;
  if (span_counts != NULL &&
      span_count_count != grt_vm_signature_span_count(types)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' has %zu variadic spans but %zu counts "
                           "were given",
                           GRT_SV_ARG(types), grt_vm_signature_span_count(types),
                           span_count_count);
  }
  size_t size = 0;
  size_t span_index = 0;
  for (size_t i = 0; i < types.size; ++i) {
    grt_vm_value_type_t type = GRT_VM_VALUE_TYPE_NONE;
    if (types.data[i] != GRT_VM_SPAN_BEGIN) {
      grt_vm_value_type_from_cconv_char(types.data[i], &type);
      grt_vm_packed_place(&size, type);
      continue;
    }
    size_t end = i + 1;
    while (types.data[end] != GRT_VM_SPAN_END) ++end;
    int32_t count = span_counts ? span_counts[span_index] : 0;
    if (count < 0) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "variadic span %zu of '%.*s' has negative count %d",
                             span_index, GRT_SV_ARG(types), (int)count);
    }
    ++span_index;
    grt_vm_packed_place(&size, GRT_VM_VALUE_TYPE_I32);
    for (int32_t n = 0; n < count; ++n) {
      for (size_t j = i + 1; j < end; ++j) {
        grt_vm_value_type_from_cconv_char(types.data[j], &type);
        grt_vm_packed_place(&size, type);
      }
    }
    i = end;
  }
  *out_size = grt_vm_packed_finish(size);
  return grt_ok_status();
}
