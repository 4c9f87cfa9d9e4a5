#include "compiler/kernel/scalar_impl.h"

#include <string.h>

// Rows whose op is a support helper carry GRTC_SCALAR_NONE.
static const grtc_scalar_impl_t grtc_scalar_impl_rows[] = {
#define GRTC_SCALAR_IMPL_ROW(op, spelling, cls, sig, c_body, glsl_body)    \
  {GRTC_SCALAR_##op, #spelling, GRTC_SCALAR_CLASS_##cls, GRTC_SCALAR_SIG_##sig, \
   #c_body, #glsl_body},
    GRTC_SCALAR_IMPL_LIST(GRTC_SCALAR_IMPL_ROW)
#undef GRTC_SCALAR_IMPL_ROW
};

const grtc_scalar_impl_t* grtc_scalar_impls(uint32_t* out_count) {
  *out_count = (uint32_t)(sizeof(grtc_scalar_impl_rows) /
                          sizeof(grtc_scalar_impl_rows[0]));
  return grtc_scalar_impl_rows;
}

bool grtc_scalar_class_covers(grtc_scalar_class_t cls, grtc_elem_t elem) {
  switch (cls) {
    case GRTC_SCALAR_CLASS_INT: return grtc_elem_is_integer(elem);
    case GRTC_SCALAR_CLASS_SINT: return grtc_elem_is_signed_integer(elem);
    case GRTC_SCALAR_CLASS_UINT:
      return elem == GRTC_ELEM_I1 || grtc_elem_is_unsigned_integer(elem);
    case GRTC_SCALAR_CLASS_FLOAT: return grtc_elem_is_float(elem);
  }
  return false;
}

// The body without the parentheses the table wraps it in.
static void grtc_scalar_impl_append_body(grt_string_builder_t* out,
                                         const char* body) {
  size_t length = strlen(body);
  grt_string_builder_append(out, grt_make_string_view(body + 1, length - 2));
}

void grtc_scalar_impl_append_class(grt_string_builder_t* out,
                                   grtc_scalar_class_t cls,
                                   grtc_scalar_lang_t lang,
                                   const char* qualifier) {
  bool c = lang == GRTC_SCALAR_LANG_C;
  const char* flag = c ? "uint8_t" : "uint";
  uint32_t count;
  const grtc_scalar_impl_t* rows = grtc_scalar_impls(&count);
  for (uint32_t i = 0; i < count; ++i) {
    const grtc_scalar_impl_t* row = &rows[i];
    if (row->cls != cls) continue;
    grt_string_builder_appendf(out, " \\\n%s%s grt_%s_##S(", qualifier,
                               row->sig == GRTC_SCALAR_SIG_PRED ? flag : "T",
                               row->spelling);
    switch (row->sig) {
      case GRTC_SCALAR_SIG_UN:
      case GRTC_SCALAR_SIG_PRED:
        grt_string_builder_append_cstring(out, "T a");
        break;
      case GRTC_SCALAR_SIG_BIN:
        grt_string_builder_append_cstring(out, "T a, T b");
        break;
      case GRTC_SCALAR_SIG_TERN:
        grt_string_builder_append_cstring(out, "T lo, T x, T hi");
        break;
      case GRTC_SCALAR_SIG_SEL:
        grt_string_builder_appendf(out, "%s c, T a, T b", flag);
        break;
    }
    grt_string_builder_append_cstring(out, ") { ");
    grtc_scalar_impl_append_body(out, c ? row->c_body : row->glsl_body);
    grt_string_builder_append_cstring(out, " }");
  }
}
