#include "compiler/host/native_imports.h"

#include "runtime/check_abi.h"
#include "runtime/hal_abi.h"

// Row consumers: each value of a signature as a grtc_native_value_t
// initializer; a span's group as a file-scope compound literal. Lists end
// with a NULL-named row so that a signature without values is still an
// array; the counts leave it out.
#define GRTC_NATIVE_VALUE_(name, type) \
  {#name, GRT_ABI_SPELLING_OF(type), 0, NULL},
#define GRTC_NATIVE_SPAN_(name, group)                                   \
  {#name, NULL,                                                          \
   (uint32_t)(sizeof((const grtc_native_value_t[]){                      \
                  group(GRTC_NATIVE_VALUE_)}) /                          \
              sizeof(grtc_native_value_t)),                              \
   (const grtc_native_value_t[]){group(GRTC_NATIVE_VALUE_)}},
#define GRTC_NATIVE_END_ {NULL, NULL, 0, NULL}

#define GRTC_NATIVE_ARGUMENTS_(sig) \
  (const grtc_native_value_t[]) {   \
    sig(GRTC_NATIVE_VALUE_, GRTC_NATIVE_SPAN_, GRT_ABI_IGNORE)   \
    GRTC_NATIVE_END_                                             \
  }
#define GRTC_NATIVE_RESULTS_(sig)                                     \
  (const grtc_native_value_t[]) {                                     \
    sig(GRT_ABI_IGNORE, GRT_ABI_IGNORE, GRTC_NATIVE_VALUE_)           \
    GRTC_NATIVE_END_                                                  \
  }
#define GRTC_NATIVE_COUNT_(list) \
  (uint32_t)(sizeof(list) / sizeof(grtc_native_value_t) - 1)

#define GRTC_NATIVE_IMPORT_(module, sig, name, optional, doc)             \
  {module "." name,                                                       \
   GRT_ABI_CCONV(sig),                                                    \
   optional,                                                              \
   doc,                                                                   \
   GRTC_NATIVE_COUNT_(GRTC_NATIVE_ARGUMENTS_(sig)),                       \
   GRTC_NATIVE_ARGUMENTS_(sig),                                           \
   GRTC_NATIVE_COUNT_(GRTC_NATIVE_RESULTS_(sig)),                         \
   GRTC_NATIVE_RESULTS_(sig)},
#define GRTC_NATIVE_HAL_(id, name, optional, doc) \
  GRTC_NATIVE_IMPORT_(GRT_HAL_ABI_MODULE, GRT_HAL_ABI_##id, name, optional, doc)
#define GRTC_NATIVE_CHECK_(id, name, optional, doc)                      \
  GRTC_NATIVE_IMPORT_(GRT_CHECK_ABI_MODULE, GRT_CHECK_ABI_##id, name,    \
                      optional, doc)

static const grtc_native_import_t grtc_native_imports[] = {
    GRT_HAL_ABI_EXPORT_LIST(GRTC_NATIVE_HAL_)
    GRT_CHECK_ABI_EXPORT_LIST(GRTC_NATIVE_CHECK_)
};

size_t grtc_native_import_count(void) {
  return sizeof(grtc_native_imports) / sizeof(grtc_native_imports[0]);
}

const grtc_native_import_t* grtc_native_import_at(size_t index) {
  return index < grtc_native_import_count() ? &grtc_native_imports[index]
                                            : NULL;
}

const grtc_native_import_t* grtc_native_import_lookup(grt_string_view_t name) {
  for (size_t i = 0; i < grtc_native_import_count(); ++i) {
    if (grt_string_view_equal_cstring(name, grtc_native_imports[i].name)) {
      return &grtc_native_imports[i];
    }
  }
  return NULL;
}

void grtc_native_value_append_type(const grtc_native_value_t* value,
                                   grt_string_builder_t* out) {
  if (value->type) {
    grt_string_builder_append_cstring(out, value->type);
    return;
  }
  if (value->group_count == 1) {
    grt_string_builder_appendf(out, "%s ...", value->group[0].type);
    return;
  }
  grt_string_builder_append_cstring(out, "tuple<");
  for (uint32_t i = 0; i < value->group_count; ++i) {
    grt_string_builder_appendf(out, "%s%s", i ? ", " : "",
                               value->group[i].type);
  }
  grt_string_builder_append_cstring(out, "> ...");
}

void grtc_native_import_append_declaration(const grtc_native_import_t* import,
                                           grt_string_builder_t* out) {
  grt_string_builder_appendf(out, "vm.import private %s@%s(",
                             import->optional ? "optional " : "", import->name);
  for (uint32_t i = 0; i < import->argument_count; ++i) {
    grt_string_builder_appendf(out, "%s%%%s : ", i ? ", " : "",
                               import->arguments[i].name);
    grtc_native_value_append_type(&import->arguments[i], out);
  }
  grt_string_builder_append_cstring(out, ")");
  if (import->result_count == 0) return;
  grt_string_builder_append_cstring(out, " -> ");
  if (import->result_count > 1) grt_string_builder_append_cstring(out, "(");
  for (uint32_t i = 0; i < import->result_count; ++i) {
    grt_string_builder_appendf(out, "%s%s", i ? ", " : "",
                               import->results[i].type);
  }
  if (import->result_count > 1) grt_string_builder_append_cstring(out, ")");
}
