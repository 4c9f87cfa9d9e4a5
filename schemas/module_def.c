// Verifier descriptors for the module schema, expanded from the rows in
// module_def.h.
#include "schemas/module_def.h"

#include <stddef.h>

#define GRT_MODULE_DEF_FIELD_DESC(table, field, kind, size, alignment, sub, \
                                  required)                                 \
  {#field, GRT_FB_KIND_##kind, size, alignment, sub, required},
#define GRT_MODULE_DEF_TABLE_DESC(table, FIELDS)                            \
  static const grt_fb_field_desc_t grt_##table##_fields[] = {               \
      FIELDS(GRT_MODULE_DEF_FIELD_DESC)};                                   \
  const grt_fb_table_desc_t grt_##table##_desc = {                          \
      #table, grt_##table##_fields,                                         \
      sizeof(grt_##table##_fields) / sizeof(grt_##table##_fields[0])};
GRT_MODULE_SCHEMA_TABLES(GRT_MODULE_DEF_TABLE_DESC)
