// The ONNX importer: decoding and checking the model, the graph walk, the
// scopes of names, initializers and external data, attributes and errors.
// Op semantics live in the op files (internal.h lists them).
#include "compiler/onnx/import.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/checked_math.h"
#include "base/name_index.h"
#include "compiler/onnx/internal.h"
#include "compiler/tensor/passes.h"

// The opsets of the default domain the importer implements.
#define GRTC_ONNX_MIN_OPSET 1
#define GRTC_ONNX_MAX_OPSET 21
// Sub-graphs nested deeper than this are refused (a recursion bound).
#define GRTC_ONNX_MAX_DEPTH 32

struct grtc_onnx_scope_t {
  grt_name_index_t index;  // name -> slot in |values|
  grtc_tvalue_t** values;
  uint32_t count, capacity;
  grtc_onnx_scope_t* parent;
};

struct grtc_onnx_importer_t {
  grtc_tmodule_t* module;
  grt_allocator_t allocator;
  const char* file_name;
  Onnx__ModelProto* model;
  int64_t opset;  // of the default domain
  const grtc_onnx_options_t* options;
  grt_name_index_t ops;  // op type -> row in |op_rows|
  const grtc_onnx_op_def_t** op_rows;
  uint32_t op_row_count;
  uint32_t depth;
  const grtc_location_t* file_location;  // the model file, line 0
  // Integer tensors whose values are known dimensions (Shape of a tensor
  // with symbolic dimensions and what Gather, Slice, Unsqueeze, Squeeze,
  // Concat and Cast make of it), newest first.
  struct grtc_onnx_known_t* known;
  // What DequantizeLinear made its results from (QDQ folding), newest
  // first.
  grtc_onnx_dequantized_t* dequantized;
  // Values of ONNX's INT4/UINT4 types (held one value a byte in i8/ui8),
  // newest first.
  struct grtc_onnx_int4_t* int4;
};

typedef struct grtc_onnx_int4_t {
  const grtc_tvalue_t* value;
  int32_t data_type;  // 21 (UINT4) or 22 (INT4)
  struct grtc_onnx_int4_t* next;
} grtc_onnx_int4_t;

typedef struct grtc_onnx_known_t {
  const grtc_tvalue_t* value;
  grtc_onnx_shape_values_t values;
  struct grtc_onnx_known_t* next;
} grtc_onnx_known_t;

static const grtc_onnx_op_def_t* const grtc_onnx_tables[] = {
    grtc_onnx_elementwise_ops, grtc_onnx_nn_ops, grtc_onnx_shape_ops,
    grtc_onnx_reduce_ops, grtc_onnx_control_ops, grtc_onnx_quant_ops, grtc_onnx_special_ops,
};
#define GRTC_ONNX_TABLE_COUNT (sizeof(grtc_onnx_tables) / sizeof(grtc_onnx_tables[0]))

const char* grtc_onnx_supported_op(uint32_t index) {
  for (size_t t = 0; t < GRTC_ONNX_TABLE_COUNT; ++t) {
    for (const grtc_onnx_op_def_t* row = grtc_onnx_tables[t]; row->op_type; ++row) {
      if (index == 0) return row->op_type;
      --index;
    }
  }
  return NULL;
}

//===----------------------------------------------------------------------===//
// Recognizing the input
//===----------------------------------------------------------------------===//

bool grtc_onnx_is_input(const uint8_t* data, size_t size, const char* file_name) {
  if (file_name) {
    size_t length = strlen(file_name);
    if (length >= 5 && strcmp(file_name + length - 5, ".onnx") == 0) return true;
  }
  if (size == 0) return false;
  // A ModelProto starts with one of its fields: ir_version (1, varint),
  // producer_name (2), producer_version (3), domain (4), model_version (5,
  // varint), doc_string (6), graph (7), opset_import (8), metadata_props
  // (14), training_info (20), functions (25).
  static const uint8_t kFirst[] = {0x08, 0x12, 0x1a, 0x22, 0x28, 0x32, 0x3a,
                                   0x42, 0x72, 0xa2, 0xca};
  bool field = memchr(kFirst, data[0], sizeof(kFirst)) != NULL;
  if (!field) return false;
  size_t limit = size < 4096 ? size : 4096;
  for (size_t i = 0; i < limit; ++i) {
    uint8_t c = data[i];
    if (c == 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r')) return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

static grt_status_t grtc_onnx_node_status(grtc_onnx_node_t* n, grt_status_code_t code,
                                          const char* format, va_list args) {
  char message[1024];
  vsnprintf(message, sizeof(message), format, args);
  const Onnx__NodeProto* p = n->proto;
  const char* domain = p && p->domain && p->domain[0] ? p->domain : NULL;
  // The graph's own pseudo node (initializers, output checks) has no proto.
  grt_status_t status =
      !p ? grt_make_status(code, "%s: %s", n->importer->file_name, message)
         : grt_make_status(code, "%s: node %u '%s' (%s%s%s, opset %lld): %s",
                           n->importer->file_name, n->number, p->name && p->name[0] ? p->name : "",
                           domain ? domain : "", domain ? "." : "",
                           p->op_type ? p->op_type : "?", (long long)n->opset, message);
  if (grt_status_is_ok(n->status)) {
    // One copy for the node, one for the caller.
    n->status = grt_make_status(code, "%s", grt_status_message(status));
  }
  return status;
}

grt_status_t grtc_onnx_error(grtc_onnx_node_t* n, const char* format, ...) {
  va_list args;
  va_start(args, format);
  grt_status_t status =
      grtc_onnx_node_status(n, GRT_STATUS_INVALID_ARGUMENT, format, args);
  va_end(args);
  return status;
}

grt_status_t grtc_onnx_unsupported(grtc_onnx_node_t* n, const char* format, ...) {
  va_list args;
  va_start(args, format);
  grt_status_t status = grtc_onnx_node_status(n, GRT_STATUS_UNIMPLEMENTED, format, args);
  va_end(args);
  return status;
}

// For errors raised where the caller reads |n->status| instead of a
// returned status: drops the caller's copy.
static void grtc_onnx_note(grtc_onnx_node_t* n, grt_status_t status) {
  (void)n;
  grt_status_free(status);
}

static grt_status_t grtc_onnx_file_error(grtc_onnx_importer_t* im, const char* format, ...)
    GRT_PRINTF_LIKE(2, 3);
static grt_status_t grtc_onnx_file_error(grtc_onnx_importer_t* im, const char* format, ...) {
  char message[1024];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT, "%s: %s", im->file_name, message);
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// TensorProto.DataType names for messages.
static const char* grtc_onnx_type_name(int32_t data_type) {
  switch (data_type) {
    case 0: return "UNDEFINED";
    case 1: return "FLOAT";
    case 2: return "UINT8";
    case 3: return "INT8";
    case 4: return "UINT16";
    case 5: return "INT16";
    case 6: return "INT32";
    case 7: return "INT64";
    case 8: return "STRING";
    case 9: return "BOOL";
    case 10: return "FLOAT16";
    case 11: return "DOUBLE";
    case 12: return "UINT32";
    case 13: return "UINT64";
    case 14: return "COMPLEX64";
    case 15: return "COMPLEX128";
    case 16: return "BFLOAT16";
    case 17: return "FLOAT8E4M3FN";
    case 18: return "FLOAT8E4M3FNUZ";
    case 19: return "FLOAT8E5M2";
    case 20: return "FLOAT8E5M2FNUZ";
    case 21: return "UINT4";
    case 22: return "INT4";
    default: return "an unknown type";
  }
}

static bool grtc_onnx_map_elem(int32_t data_type, grtc_elem_t* out) {
  switch (data_type) {
    case 1: *out = GRTC_ELEM_F32; return true;
    case 2: *out = GRTC_ELEM_U8; return true;
    case 3: *out = GRTC_ELEM_I8; return true;
    case 4: *out = GRTC_ELEM_U16; return true;
    case 5: *out = GRTC_ELEM_I16; return true;
    case 6: *out = GRTC_ELEM_I32; return true;
    case 7: *out = GRTC_ELEM_I64; return true;
    case 9: *out = GRTC_ELEM_I1; return true;
    case 10: *out = GRTC_ELEM_F16; return true;
    case 11: *out = GRTC_ELEM_F64; return true;
    case 12: *out = GRTC_ELEM_U32; return true;
    case 13: *out = GRTC_ELEM_U64; return true;
    case 16: *out = GRTC_ELEM_BF16; return true;
    default: return false;
  }
}

bool grtc_onnx_elem(grtc_onnx_node_t* n, int32_t data_type, grtc_elem_t* out_elem) {
  if (grtc_onnx_map_elem(data_type, out_elem)) return true;
  grtc_onnx_note(n, grtc_onnx_unsupported(n, "element type %s (%d) is not supported",
                                          grtc_onnx_type_name(data_type), (int)data_type));
  return false;
}

//===----------------------------------------------------------------------===//
// Scopes
//===----------------------------------------------------------------------===//

static void grtc_onnx_scope_init(grtc_onnx_importer_t* im, grtc_onnx_scope_t* parent,
                                 grtc_onnx_scope_t* scope) {
  memset(scope, 0, sizeof(*scope));
  grt_name_index_initialize(im->allocator, &scope->index);
  scope->parent = parent;
}

static void grtc_onnx_scope_deinit(grtc_onnx_importer_t* im, grtc_onnx_scope_t* scope) {
  grt_name_index_deinitialize(&scope->index);
  grt_allocator_free(im->allocator, scope->values);
}

static grtc_tvalue_t* grtc_onnx_scope_find(const grtc_onnx_scope_t* scope, const char* name) {
  grt_string_view_t view = grt_make_cstring_view(name);
  for (; scope; scope = scope->parent) {
    uint32_t slot = 0;
    if (grt_name_index_find(&scope->index, view, &slot)) return scope->values[slot];
  }
  return NULL;
}

// Defines |name| in |scope|; a name defined twice in one graph is an error
// (ONNX graphs are in SSA form).
static grt_status_t grtc_onnx_scope_define(grtc_onnx_importer_t* im, grtc_onnx_scope_t* scope,
                                           const char* name, grtc_tvalue_t* value,
                                           const char* what) {
  if (scope->count == scope->capacity) {
    uint32_t capacity = scope->capacity ? scope->capacity * 2 : 64;
    GRT_RETURN_IF_ERROR(grt_allocator_realloc(im->allocator,
                                              scope->capacity * sizeof(grtc_tvalue_t*),
                                              capacity * sizeof(grtc_tvalue_t*),
                                              (void**)&scope->values));
    scope->capacity = capacity;
  }
  uint32_t existing = 0;
  grt_status_t status =
      grt_name_index_insert(&scope->index, grt_make_cstring_view(name), scope->count, &existing);
  if (grt_status_code(status) == GRT_STATUS_ALREADY_EXISTS) {
    grt_status_free(status);
    return grtc_onnx_file_error(im, "%s '%s' is defined twice (ONNX graphs define each name once)",
                                what, name);
  }
  GRT_RETURN_IF_ERROR(status);
  scope->values[scope->count++] = value;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Tensors and initializers
//===----------------------------------------------------------------------===//

typedef struct grtc_onnx_buffer_t {
  grt_allocator_t allocator;
  void* data;
} grtc_onnx_buffer_t;

static void grtc_onnx_buffer_free(void* user) {
  grtc_onnx_buffer_t* buffer = user;
  grt_allocator_t allocator = buffer->allocator;
  grt_allocator_free(allocator, buffer->data);
  grt_allocator_free(allocator, buffer);
}

// A heap block of |size| bytes freed with the tensor module (external data
// can be far larger than anything the arena should hold).
static grt_status_t grtc_onnx_alloc_owned(grtc_onnx_importer_t* im, size_t size, void** out) {
  grtc_onnx_buffer_t* buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(im->allocator, sizeof(*buffer), (void**)&buffer));
  buffer->allocator = im->allocator;
  grt_status_t status = grt_allocator_malloc(im->allocator, size ? size : 1, &buffer->data);
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(im->allocator, buffer);
    return status;
  }
  *out = buffer->data;
  return grtc_tmodule_add_cleanup(im->module, grtc_onnx_buffer_free, buffer);
}

// Reads |length| bytes at |offset| of external data file |location|
// (relative to the model's folder; absolute paths and ".." are refused so a
// model can only name files beside it).
static grt_status_t grtc_onnx_read_external(grtc_onnx_importer_t* im, const char* tensor,
                                            const char* location, uint64_t offset,
                                            uint64_t length, bool has_length,
                                            size_t expected, const uint8_t** out) {
  if (!location || !location[0]) {
    return grtc_onnx_file_error(im, "tensor '%s' has external data without a 'location'", tensor);
  }
  if (location[0] == '/' || strstr(location, "..")) {
    return grtc_onnx_file_error(im,
                                "tensor '%s': external data location '%s' must be a relative "
                                "path inside the model's folder",
                                tensor, location);
  }
  if (has_length && length != expected) {
    return grtc_onnx_file_error(im,
                                "tensor '%s': external data 'length' is %llu bytes, the tensor's "
                                "type needs %zu",
                                tensor, (unsigned long long)length, expected);
  }
  const char* slash = strrchr(im->file_name, '/');
  size_t dir_length = slash ? (size_t)(slash - im->file_name) + 1 : 0;
  size_t path_size = dir_length + strlen(location) + 1;
  char* path = grtc_tmodule_alloc(im->module, path_size);
  if (!path) return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  memcpy(path, im->file_name, dir_length);
  memcpy(path + dir_length, location, strlen(location) + 1);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return grtc_onnx_file_error(im, "tensor '%s': cannot open external data file '%s': %s",
                                tensor, path, strerror(errno));
  }
  struct stat st;
  grt_status_t status = grt_ok_status();
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    status = grtc_onnx_file_error(im, "tensor '%s': external data '%s' is not a regular file",
                                  tensor, path);
  } else if (offset > (uint64_t)st.st_size || expected > (uint64_t)st.st_size - offset) {
    status = grtc_onnx_file_error(im,
                                  "tensor '%s': external data '%s' holds %lld bytes, fewer than "
                                  "offset %llu + %zu bytes the tensor needs",
                                  tensor, path, (long long)st.st_size,
                                  (unsigned long long)offset, expected);
  }
  void* data = NULL;
  if (grt_status_is_ok(status)) status = grtc_onnx_alloc_owned(im, expected, &data);
  size_t done = 0;
  while (grt_status_is_ok(status) && done < expected) {
    ssize_t got = pread(fd, (uint8_t*)data + done, expected - done, (off_t)(offset + done));
    if (got <= 0) {
      status = grtc_onnx_file_error(im, "tensor '%s': reading external data '%s' failed: %s",
                                    tensor, path, got < 0 ? strerror(errno) : "file shrank");
      break;
    }
    done += (size_t)got;
  }
  close(fd);
  *out = data;
  return status;
}

static grt_status_t grtc_onnx_remember_int4(grtc_onnx_importer_t* im, const grtc_tvalue_t* value,
                                            int32_t data_type) {
  grtc_onnx_int4_t* k = grtc_tmodule_alloc(im->module, sizeof(*k));
  if (!k) return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  k->value = value;
  k->data_type = data_type;
  k->next = im->int4;
  im->int4 = k;
  return grt_ok_status();
}

int32_t grtc_onnx_int4_type(grtc_onnx_node_t* n, const grtc_tvalue_t* value) {
  if (!value) return 0;
  for (const grtc_onnx_int4_t* k = n->importer->int4; k; k = k->next) {
    if (k->value == value) return k->data_type;
  }
  return 0;
}

const char* grtc_onnx_value_type_name(grtc_onnx_node_t* n, const grtc_tvalue_t* value) {
  int32_t int4 = grtc_onnx_int4_type(n, value);
  if (int4) return grtc_onnx_type_name(int4);
  switch (value->type.elem) {
    case GRTC_ELEM_U8: return "UINT8";
    case GRTC_ELEM_I8: return "INT8";
    case GRTC_ELEM_U16: return "UINT16";
    case GRTC_ELEM_I16: return "INT16";
    case GRTC_ELEM_I32: return "INT32";
    default: return grtc_elem_spelling(value->type.elem);
  }
}

// After a node that only moves the elements of its input 0 (Identity,
// Reshape, Flatten, Squeeze, Unsqueeze, Transpose): an INT4/UINT4 input
// makes an output of the same type.
static void grtc_onnx_int4_forward(grtc_onnx_node_t* n) {
  static const char* const kMoves[] = {"Identity", "Reshape", "Flatten", "Squeeze", "Unsqueeze",
                                       "Transpose"};
  if (!n->importer->int4 || n->input_count == 0 || n->output_count != 1 || !n->outputs[0] ||
      !n->inputs[0] || n->outputs[0]->type.elem != n->inputs[0]->type.elem) {
    return;
  }
  bool moves = false;
  for (size_t i = 0; i < sizeof(kMoves) / sizeof(kMoves[0]); ++i) {
    moves |= strcmp(n->proto->op_type, kMoves[i]) == 0;
  }
  int32_t type = moves ? grtc_onnx_int4_type(n, n->inputs[0]) : 0;
  if (type) grtc_onnx_fail(n, grtc_onnx_remember_int4(n->importer, n->outputs[0], type));
}

// Decodes |t| into a constant of the node's block (|n| gives errors a node;
// for initializers it is a pseudo-node). Checks every size against the
// tensor's type and shape.
static grt_status_t grtc_onnx_tensor_constant(grtc_onnx_importer_t* im, grtc_onnx_node_t* n,
                                              const Onnx__TensorProto* t, grtc_tvalue_t** out) {
  const char* name = t->name ? t->name : "";
  grtc_elem_t elem;
  // INT4 and UINT4 are packed two to a byte (element 2i in byte i's low
  // nibble, 2i + 1 in its high one) in raw_data, external data or
  // int32_data (one packed byte per entry); grt holds them one value a
  // byte in i8/ui8 (sign-extended for INT4) and remembers their type.
  bool int4 = t->data_type == 21 || t->data_type == 22;
  if (int4) {
    elem = t->data_type == 22 ? GRTC_ELEM_I8 : GRTC_ELEM_U8;
  } else if (!grtc_onnx_map_elem(t->data_type, &elem)) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "%s: tensor '%s' has element type %s (%d), which grt does not support",
                           im->file_name, name, grtc_onnx_type_name(t->data_type),
                           (int)t->data_type);
  }
  if (t->n_dims > GRTC_MAX_RANK) {
    return grtc_onnx_file_error(im, "tensor '%s' has rank %zu, more than grt's %d", name,
                                t->n_dims, GRTC_MAX_RANK);
  }
  grtc_ttype_t type = grtc_onnx_type(elem, (uint32_t)t->n_dims, NULL);
  uint64_t count = 1;
  for (size_t i = 0; i < t->n_dims; ++i) {
    if (t->dims[i] < 0 || !grt_checked_mul_u64(count, (uint64_t)t->dims[i], &count) ||
        count > ((uint64_t)1 << 40)) {
      return grtc_onnx_file_error(im, "tensor '%s' has an invalid dimension %lld", name,
                                  (long long)t->dims[i]);
    }
    type.dims[i] = t->dims[i];
  }
  if (t->segment) {
    return grtc_onnx_file_error(im, "tensor '%s' is segmented, which grt does not support", name);
  }
  size_t element_size = grtc_elem_byte_size(elem);
  size_t byte_size = int4 ? (size_t)(count + 1) / 2 : (size_t)count * element_size;
  const uint8_t* data = NULL;
  if (t->has_data_location && t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL) {
    const char* location = NULL;
    uint64_t offset = 0, length = 0;
    bool has_length = false;
    for (size_t i = 0; i < t->n_external_data; ++i) {
      const Onnx__StringStringEntryProto* e = t->external_data[i];
      if (!e->key || !e->value) continue;
      char* end = NULL;
      if (strcmp(e->key, "location") == 0) {
        location = e->value;
      } else if (strcmp(e->key, "offset") == 0 || strcmp(e->key, "length") == 0) {
        errno = 0;
        unsigned long long v = strtoull(e->value, &end, 10);
        if (errno || !end || *end || e->value[0] == '-') {
          return grtc_onnx_file_error(im, "tensor '%s': external data '%s' is '%s', not a number",
                                      name, e->key, e->value);
        }
        if (e->key[0] == 'o') {
          offset = v;
        } else {
          length = v;
          has_length = true;
        }
      }
    }
    GRT_RETURN_IF_ERROR(grtc_onnx_read_external(im, name, location, offset, length, has_length,
                                                byte_size, &data));
  } else if (t->has_raw_data) {
    if (t->raw_data.len != byte_size) {
      return grtc_onnx_file_error(
          im, "tensor '%s' of %llu %s elements has %zu bytes of raw_data, expected %zu%s", name,
          (unsigned long long)count, grtc_onnx_type_name(t->data_type), t->raw_data.len,
          byte_size, int4 ? " (two values to a byte)" : "");
    }
    data = t->raw_data.data;  // lives as long as the model (freed with the module)
  } else if (int4) {
    if (t->n_int32_data != byte_size) {
      return grtc_onnx_file_error(im,
                                  "tensor '%s' of %llu %s elements holds %zu int32_data entries, "
                                  "expected %zu (one byte of two packed values each)",
                                  name, (unsigned long long)count,
                                  grtc_onnx_type_name(t->data_type), t->n_int32_data, byte_size);
    }
    uint8_t* copy = NULL;
    if (byte_size) {
      GRT_RETURN_IF_ERROR(grtc_onnx_alloc_owned(im, byte_size, (void**)&copy));
    }
    for (size_t i = 0; i < byte_size; ++i) {
      int32_t v = t->int32_data[i];
      if (v < 0 || v > 255) {
        return grtc_onnx_file_error(im,
                                    "tensor '%s': int32_data entry %zu of %s is %d, expected a "
                                    "byte (0..255) holding two packed values",
                                    name, i, grtc_onnx_type_name(t->data_type), (int)v);
      }
      copy[i] = (uint8_t)v;
    }
    data = copy;
  } else {
    // Typed fields. Which one holds which type is fixed by onnx.proto.
    size_t given = 0;
    uint8_t* copy = NULL;
    if (byte_size) {
      GRT_RETURN_IF_ERROR(grtc_onnx_alloc_owned(im, byte_size, (void**)&copy));
    }
    switch (t->data_type) {
      case 1:
        given = t->n_float_data;
        if (given == count && count) memcpy(copy, t->float_data, byte_size);
        break;
      case 11:
        given = t->n_double_data;
        if (given == count && count) memcpy(copy, t->double_data, byte_size);
        break;
      case 7:
        given = t->n_int64_data;
        if (given == count && count) memcpy(copy, t->int64_data, byte_size);
        break;
      case 12:
      case 13:
        given = t->n_uint64_data;
        for (size_t i = 0; given == count && i < count; ++i) {
          if (elem == GRTC_ELEM_U32) {
            uint32_t v = (uint32_t)t->uint64_data[i];
            memcpy(copy + i * 4, &v, 4);
          } else {
            memcpy(copy + i * 8, &t->uint64_data[i], 8);
          }
        }
        break;
      default:  // int32_data holds every type of 32 bits or fewer
        given = t->n_int32_data;
        for (size_t i = 0; given == count && i < count; ++i) {
          int32_t v = t->int32_data[i];
          uint8_t* slot = copy + i * element_size;
          switch (element_size) {
            case 1: slot[0] = (uint8_t)(elem == GRTC_ELEM_I1 ? v != 0 : v); break;
            case 2: {
              uint16_t h = (uint16_t)v;
              memcpy(slot, &h, 2);
              break;
            }
            default: memcpy(slot, &v, 4); break;
          }
        }
        break;
    }
    if (given != count) {
      return grtc_onnx_file_error(im, "tensor '%s' of shape with %llu elements holds %zu values",
                                  name, (unsigned long long)count, given);
    }
    data = copy;
  }
  if (int4 && count) {
    // One value a byte, sign-extended for INT4.
    uint8_t* values = NULL;
    GRT_RETURN_IF_ERROR(grtc_onnx_alloc_owned(im, (size_t)count, (void**)&values));
    for (uint64_t i = 0; i < count; ++i) {
      int v = (data[i / 2] >> (4 * (i & 1))) & 15;
      values[i] = (uint8_t)(elem == GRTC_ELEM_I8 ? (v ^ 8) - 8 : v);
    }
    data = values;
    byte_size = (size_t)count;
  }
  grtc_top_t* op = NULL;
  GRT_RETURN_IF_ERROR(grtc_top_create(im->module, GRTC_TOP_CONSTANT, NULL, 0, &type, 1, 0, &op));
  static const uint8_t kZero[8] = {0};
  op->attrs.constant.data = count ? data : kZero;
  op->attrs.constant.size = count ? byte_size : element_size;
  op->attrs.constant.splat = count == 0;
  op->location = n->location;
  op->line = n->number;
  op->column = 1;
  grtc_tblock_append(n->block, op);
  *out = &op->results[0];
  if (int4) return grtc_onnx_remember_int4(im, *out, t->data_type);
  return grt_ok_status();
}

grtc_tvalue_t* grtc_onnx_attr_tensor(grtc_onnx_node_t* n, const char* name) {
  const Onnx__AttributeProto* a = grtc_onnx_attr(n, name);
  if (!a) return NULL;
  if (!a->t) {
    grtc_onnx_note(n, grtc_onnx_error(n, "attribute '%s' must be a tensor", name));
    return NULL;
  }
  grtc_tvalue_t* value = NULL;
  grt_status_t status = grtc_onnx_tensor_constant(n->importer, n, a->t, &value);
  if (!grt_status_is_ok(status)) {
    grtc_onnx_note(n, grtc_onnx_error(n, "attribute '%s': %s", name, grt_status_message(status)));
    grt_status_free(status);
    return NULL;
  }
  return value;
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

const Onnx__AttributeProto* grtc_onnx_attr(const grtc_onnx_node_t* n, const char* name) {
  for (size_t i = 0; i < n->proto->n_attribute; ++i) {
    const Onnx__AttributeProto* a = n->proto->attribute[i];
    if (a->name && strcmp(a->name, name) == 0) return a;
  }
  return NULL;
}

static bool grtc_onnx_attr_is(grtc_onnx_node_t* n, const Onnx__AttributeProto* a,
                              Onnx__AttributeProto__AttributeType type, const char* what) {
  if (a->has_type && a->type != type) {
    grtc_onnx_note(n, grtc_onnx_error(n, "attribute '%s' must be %s", a->name, what));
    return false;
  }
  return true;
}

int64_t grtc_onnx_attr_int(grtc_onnx_node_t* n, const char* name, int64_t default_value) {
  const Onnx__AttributeProto* a = grtc_onnx_attr(n, name);
  if (!a || !grtc_onnx_attr_is(n, a, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT, "an int")) {
    return default_value;
  }
  return a->i;
}

float grtc_onnx_attr_float(grtc_onnx_node_t* n, const char* name, float default_value) {
  const Onnx__AttributeProto* a = grtc_onnx_attr(n, name);
  if (!a || !grtc_onnx_attr_is(n, a, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT, "a float")) {
    return default_value;
  }
  return a->f;
}

const char* grtc_onnx_attr_string(grtc_onnx_node_t* n, const char* name,
                                  const char* default_value) {
  const Onnx__AttributeProto* a = grtc_onnx_attr(n, name);
  if (!a || !grtc_onnx_attr_is(n, a, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING, "a string")) {
    return default_value;
  }
  char* copy = grtc_tmodule_alloc(n->module, a->s.len + 1);
  if (!copy) return default_value;
  if (a->s.len) memcpy(copy, a->s.data, a->s.len);
  copy[a->s.len] = 0;
  return copy;
}

bool grtc_onnx_attr_ints(grtc_onnx_node_t* n, const char* name, int64_t** out_values,
                         uint32_t* out_count) {
  *out_values = NULL;
  *out_count = 0;
  const Onnx__AttributeProto* a = grtc_onnx_attr(n, name);
  if (!a || !grtc_onnx_attr_is(n, a, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS, "ints")) {
    return false;
  }
  if (a->n_ints > 4096) {
    grtc_onnx_note(n, grtc_onnx_error(n, "attribute '%s' has %zu values", name, a->n_ints));
    return false;
  }
  int64_t* values = grtc_tmodule_alloc(n->module, (a->n_ints + 1) * sizeof(int64_t));
  if (!values) return false;
  if (a->n_ints) memcpy(values, a->ints, a->n_ints * sizeof(int64_t));
  *out_values = values;
  *out_count = (uint32_t)a->n_ints;
  return true;
}

bool grtc_onnx_attr_floats(grtc_onnx_node_t* n, const char* name, float** out_values,
                           uint32_t* out_count) {
  *out_values = NULL;
  *out_count = 0;
  const Onnx__AttributeProto* a = grtc_onnx_attr(n, name);
  if (!a || !grtc_onnx_attr_is(n, a, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS, "floats")) {
    return false;
  }
  if (a->n_floats > 4096) {
    grtc_onnx_note(n, grtc_onnx_error(n, "attribute '%s' has %zu values", name, a->n_floats));
    return false;
  }
  float* values = grtc_tmodule_alloc(n->module, (a->n_floats + 1) * sizeof(float));
  if (!values) return false;
  if (a->n_floats) memcpy(values, a->floats, a->n_floats * sizeof(float));
  *out_values = values;
  *out_count = (uint32_t)a->n_floats;
  return true;
}

bool grtc_onnx_axis(grtc_onnx_node_t* n, const char* what, int64_t axis, uint32_t rank,
                    uint32_t* out_axis) {
  int64_t normalized = axis < 0 ? axis + (int64_t)rank : axis;
  if (normalized < 0 || normalized >= (int64_t)rank) {
    grtc_onnx_note(n, grtc_onnx_error(n, "%s %lld is out of range for a rank-%u tensor "
                                         "(expected %d to %d)",
                                      what, (long long)axis, rank, -(int)rank, (int)rank - 1));
    return false;
  }
  *out_axis = (uint32_t)normalized;
  return true;
}

grtc_tvalue_t* grtc_onnx_optional(grtc_onnx_node_t* n, uint32_t index) {
  return index < n->input_count ? n->inputs[index] : NULL;
}

grtc_tvalue_t* grtc_onnx_input(grtc_onnx_node_t* n, uint32_t index) {
  if (index < n->input_count && n->inputs[index]) return n->inputs[index];
  grtc_onnx_note(n, grtc_onnx_error(n, "input %u is required", index));
  return NULL;
}

//===----------------------------------------------------------------------===//
// Value types
//===----------------------------------------------------------------------===//

// The tensor type of |info|, with |override| (an --onnx-input-shape, may be
// NULL) pinning its dimensions. With |out_params| (graph inputs), a
// dimension the model leaves symbolic comes out as GRTC_DYNAMIC_DIM with its
// dim_param name ("" when it has none) in |out_params|; without, it is an
// error that asks for --onnx-input-shape.
static grt_status_t grtc_onnx_value_type(grtc_onnx_importer_t* im, const Onnx__ValueInfoProto* info,
                                         const char* what, const char* override,
                                         grtc_ttype_t* out, const char** out_params) {
  const char* name = info->name ? info->name : "";
  const Onnx__TypeProto* type = info->type;
  if (!type || type->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !type->tensor_type) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "%s: %s '%s' is not a tensor (sequences, maps and optionals are not "
                           "supported)",
                           im->file_name, what, name);
  }
  const Onnx__TypeProto__Tensor* tensor = type->tensor_type;
  grtc_elem_t elem;
  if (!tensor->has_elem_type || !grtc_onnx_map_elem(tensor->elem_type, &elem)) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "%s: %s '%s' has element type %s, which grt does not support",
                           im->file_name, what, name,
                           grtc_onnx_type_name(tensor->has_elem_type ? tensor->elem_type : 0));
  }
  memset(out, 0, sizeof(*out));
  out->elem = elem;
  int64_t pinned[GRTC_MAX_RANK];
  uint32_t pinned_rank = 0;
  if (override) {
    const char* p = override;
    while (*p) {
      char* end = NULL;
      errno = 0;
      long long v = strtoll(p, &end, 10);
      if (end == p || errno || v < 0 || pinned_rank == GRTC_MAX_RANK ||
          (*end && *end != 'x')) {
        return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "--onnx-input-shape %s:%s: expected dimensions like 1x3x224x224 "
                               "(at most %d, each >= 0)",
                               name, override, GRTC_MAX_RANK);
      }
      pinned[pinned_rank++] = v;
      p = *end ? end + 1 : end;
    }
  }
  if (!tensor->shape) {
    if (!override) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "%s: %s '%s' has no shape; give it with "
                             "--onnx-input-shape=%s:<dims, e.g. 1x3x224x224>",
                             im->file_name, what, name, name);
    }
    out->rank = pinned_rank;
    memcpy(out->dims, pinned, pinned_rank * sizeof(int64_t));
    return grt_ok_status();
  }
  const Onnx__TensorShapeProto* shape = tensor->shape;
  if (shape->n_dim > GRTC_MAX_RANK) {
    return grtc_onnx_file_error(im, "%s '%s' has rank %zu, more than grt's %d", what, name,
                                shape->n_dim, GRTC_MAX_RANK);
  }
  if (override && pinned_rank != shape->n_dim) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "--onnx-input-shape %s:%s has rank %u, the model's input has rank %zu",
                           name, override, pinned_rank, shape->n_dim);
  }
  out->rank = (uint32_t)shape->n_dim;
  for (size_t i = 0; i < shape->n_dim; ++i) {
    const Onnx__TensorShapeProto__Dimension* d = shape->dim[i];
    bool fixed = d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
    if (fixed && d->dim_value < 0) {
      return grtc_onnx_file_error(im, "%s '%s' dimension %zu is %lld", what, name, i,
                                  (long long)d->dim_value);
    }
    if (override) {
      if (fixed && d->dim_value != pinned[i]) {
        return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "--onnx-input-shape %s:%s sets dimension %zu to %lld, but the "
                               "model fixes it at %lld",
                               name, override, i, (long long)pinned[i], (long long)d->dim_value);
      }
      out->dims[i] = pinned[i];
      continue;
    }
    if (!fixed) {
      const char* param = d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM
                              ? d->dim_param
                              : NULL;
      if (out_params) {
        out->dims[i] = GRTC_DYNAMIC_DIM;
        out_params[i] = param ? param : "";
        continue;
      }
      return grt_make_status(
          GRT_STATUS_INVALID_ARGUMENT,
          "%s: %s '%s' dimension %zu is symbolic ('%s'); grt compiles static shapes: pin it "
          "with --onnx-input-shape=%s:<dims, e.g. 1x3x224x224>",
          im->file_name, what, name, i, param && param[0] ? param : "?", name);
    }
    out->dims[i] = d->dim_value;
  }
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Graphs
//===----------------------------------------------------------------------===//

static const grtc_location_t* grtc_onnx_node_location(grtc_onnx_importer_t* im,
                                                      const Onnx__NodeProto* node,
                                                      uint32_t number) {
  grtc_location_t* file = grtc_tmodule_alloc(im->module, sizeof(*file));
  grtc_location_t* loc = grtc_tmodule_alloc(im->module, sizeof(*loc));
  const grtc_location_t** children = grtc_tmodule_alloc(im->module, sizeof(*children));
  const char* name = node->name && node->name[0] ? node->name : node->op_type;
  size_t name_length = name ? strlen(name) : 0;
  char* name_copy = grtc_tmodule_alloc(im->module, name_length + 1);
  if (!file || !loc || !children || !name_copy) return NULL;
  if (name_length) memcpy(name_copy, name, name_length);
  file->kind = GRTC_LOC_FILE;
  file->text = grt_make_cstring_view(im->module->file_name);
  file->line = number;
  file->column = 1;
  children[0] = file;
  loc->kind = GRTC_LOC_NAME;
  loc->text = grt_make_string_view(name_copy, name_length);
  loc->child_count = 1;
  loc->children = children;
  return loc;
}

static const grtc_onnx_op_def_t* grtc_onnx_find_op(grtc_onnx_importer_t* im, const char* op_type) {
  uint32_t row = 0;
  if (!op_type || !grt_name_index_find(&im->ops, grt_make_cstring_view(op_type), &row)) {
    return NULL;
  }
  return im->op_rows[row];
}

// Where an op's import takes symbolic (dim_param) input dimensions
// (docs/onnx.md "Symbolic dimensions"): |takes| says whether input |input|
// may have a symbolic dimension |dim|; |where| names those places in the
// error for any other. Ops not listed take static shapes only. An op's
// import refuses what it still cannot express (a Reshape whose result
// would be a product of symbols, a reduction over a symbolic dimension it
// must count) with the same advice.
typedef struct grtc_onnx_symbolic_rule_t {
  const char* op_type;
  bool (*takes)(grtc_onnx_node_t* n, uint32_t input, uint32_t dim);
  const char* where;
} grtc_onnx_symbolic_rule_t;

static bool grtc_onnx_takes_any(grtc_onnx_node_t* n, uint32_t input, uint32_t dim) {
  (void)n, (void)input, (void)dim;
  return true;
}

static bool grtc_onnx_takes_batch(grtc_onnx_node_t* n, uint32_t input, uint32_t dim) {
  (void)n;
  return input == 0 && dim == 0;
}

// Pools: the batch and channel dimensions, whose window is 1; MaxPool's
// Indices output takes static shapes.
static bool grtc_onnx_takes_pool(grtc_onnx_node_t* n, uint32_t input, uint32_t dim) {
  bool indices = n->output_count > 1 && n->proto->output[1] && n->proto->output[1][0];
  return input == 0 && dim <= 1 && !indices;
}

// BatchNormalization in inference: any dimension of X but the channel.
static bool grtc_onnx_takes_batch_norm(grtc_onnx_node_t* n, uint32_t input, uint32_t dim) {
  return input == 0 && dim != 1 && grtc_onnx_attr_int(n, "training_mode", 0) == 0;
}

// Gemm: A's rows (M) and C.
static bool grtc_onnx_takes_gemm(grtc_onnx_node_t* n, uint32_t input, uint32_t dim) {
  if (input == 2) return true;
  return input == 0 && dim == (grtc_onnx_attr_int(n, "transA", 0) != 0 ? 1u : 0u);
}

// LayerNormalization: the dimensions before 'axis' (not normalized over).
static bool grtc_onnx_takes_layer_norm(grtc_onnx_node_t* n, uint32_t input, uint32_t dim) {
  int64_t rank = n->inputs[0]->type.rank;
  int64_t axis = grtc_onnx_attr_int(n, "axis", -1);
  if (axis < 0) axis += rank;
  return input == 0 && (int64_t)dim < axis;
}

#define GRTC_ONNX_ANY(op) {op, grtc_onnx_takes_any, "any dimension"}

static const grtc_onnx_symbolic_rule_t grtc_onnx_symbolic_rules[] = {
    // Elementwise ops and activations: ONNX broadcasting of a symbolic
    // extent against a static one takes the static one, a relation the
    // verifier records.
    GRTC_ONNX_ANY("Abs"), GRTC_ONNX_ANY("Neg"), GRTC_ONNX_ANY("Exp"), GRTC_ONNX_ANY("Log"),
    GRTC_ONNX_ANY("Sqrt"), GRTC_ONNX_ANY("Ceil"), GRTC_ONNX_ANY("Floor"), GRTC_ONNX_ANY("Sin"),
    GRTC_ONNX_ANY("Cos"), GRTC_ONNX_ANY("Tan"), GRTC_ONNX_ANY("Tanh"), GRTC_ONNX_ANY("Sigmoid"),
    GRTC_ONNX_ANY("Not"), GRTC_ONNX_ANY("Relu"), GRTC_ONNX_ANY("Identity"), GRTC_ONNX_ANY("Cast"),
    GRTC_ONNX_ANY("Add"), GRTC_ONNX_ANY("Sub"), GRTC_ONNX_ANY("Mul"), GRTC_ONNX_ANY("Div"),
    GRTC_ONNX_ANY("Pow"), GRTC_ONNX_ANY("And"), GRTC_ONNX_ANY("Or"), GRTC_ONNX_ANY("Xor"),
    GRTC_ONNX_ANY("Equal"), GRTC_ONNX_ANY("Less"), GRTC_ONNX_ANY("LessOrEqual"),
    GRTC_ONNX_ANY("Greater"), GRTC_ONNX_ANY("GreaterOrEqual"), GRTC_ONNX_ANY("Max"),
    GRTC_ONNX_ANY("Min"), GRTC_ONNX_ANY("Sum"), GRTC_ONNX_ANY("Reciprocal"),
    GRTC_ONNX_ANY("LeakyRelu"), GRTC_ONNX_ANY("Elu"), GRTC_ONNX_ANY("Selu"),
    GRTC_ONNX_ANY("Celu"), GRTC_ONNX_ANY("HardSigmoid"), GRTC_ONNX_ANY("HardSwish"),
    GRTC_ONNX_ANY("Softplus"), GRTC_ONNX_ANY("Softsign"), GRTC_ONNX_ANY("Mish"),
    GRTC_ONNX_ANY("ThresholdedRelu"), GRTC_ONNX_ANY("Erf"), GRTC_ONNX_ANY("Gelu"),
    GRTC_ONNX_ANY("Where"), GRTC_ONNX_ANY("Clip"),
    // Shapes: the ops refuse a result that is no longer a dimension of its
    // own (a product of a symbol and other dimensions).
    GRTC_ONNX_ANY("Shape"), GRTC_ONNX_ANY("Reshape"), GRTC_ONNX_ANY("Flatten"),
    GRTC_ONNX_ANY("Transpose"), GRTC_ONNX_ANY("Squeeze"), GRTC_ONNX_ANY("Unsqueeze"),
    GRTC_ONNX_ANY("Concat"),
    // Reductions along any axis (ReduceMean reads a symbolic extent it
    // divides by at run time).
    GRTC_ONNX_ANY("Softmax"), GRTC_ONNX_ANY("LogSoftmax"), GRTC_ONNX_ANY("ReduceSum"),
    GRTC_ONNX_ANY("ReduceMean"), GRTC_ONNX_ANY("ReduceMax"), GRTC_ONNX_ANY("ReduceMin"),
    // Gather refuses runtime indices into data with a symbolic dimension
    // other than the axis.
    GRTC_ONNX_ANY("Gather"),
    GRTC_ONNX_ANY("MatMul"), GRTC_ONNX_ANY("Pad"), GRTC_ONNX_ANY("Expand"),
    GRTC_ONNX_ANY("Slice"),
    {"Gemm", grtc_onnx_takes_gemm, "the rows of A (and in C)"},
    {"Conv", grtc_onnx_takes_batch, "the batch (input 0 dimension 0)"},
    {"MaxPool", grtc_onnx_takes_pool,
     "the batch and channels (input 0 dimensions 0 and 1, without the Indices output)"},
    {"AveragePool", grtc_onnx_takes_pool, "the batch and channels (input 0 dimensions 0 and 1)"},
    {"GlobalAveragePool", grtc_onnx_takes_pool,
     "the batch and channels (input 0 dimensions 0 and 1)"},
    {"GlobalMaxPool", grtc_onnx_takes_pool, "the batch and channels (input 0 dimensions 0 and 1)"},
    {"BatchNormalization", grtc_onnx_takes_batch_norm,
     "input X's dimensions other than the channel, in inference (training_mode 0)"},
    {"LayerNormalization", grtc_onnx_takes_layer_norm,
     "input X's dimensions before 'axis' (those not normalized over)"},
};

grt_status_t grtc_onnx_symbolic_error(grtc_onnx_node_t* n, uint32_t input, uint32_t dim,
                                      int64_t symbol, const char* why) {
  char described[192];
  return grtc_onnx_error(n,
                         "input %u dimension %u is symbolic (%s); %s: pin the model's symbolic "
                         "inputs with --onnx-input-shape=NAME:<dims>",
                         input, dim,
                         grtc_tmodule_describe_dim(n->module, symbol, described,
                                                   sizeof(described)),
                         why);
}

// Refuses a node with a symbolic input dimension its import does not take,
// naming the node, the input, the dimension and its dim_param.
static grt_status_t grtc_onnx_check_symbolic(grtc_onnx_node_t* n, const grtc_onnx_op_def_t* def) {
  const grtc_onnx_symbolic_rule_t* rule = NULL;
  for (size_t i = 0; i < sizeof(grtc_onnx_symbolic_rules) / sizeof(grtc_onnx_symbolic_rules[0]);
       ++i) {
    if (strcmp(def->op_type, grtc_onnx_symbolic_rules[i].op_type) == 0) {
      rule = &grtc_onnx_symbolic_rules[i];
    }
  }
  for (uint32_t i = 0; i < n->input_count; ++i) {
    if (!n->inputs[i]) continue;
    const grtc_ttype_t* type = &n->inputs[i]->type;
    for (uint32_t d = 0; d < type->rank; ++d) {
      if (grtc_dim_is_static(type->dims[d])) continue;
      if (rule && rule->takes(n, i, d)) continue;
      char why[256];
      if (rule) {
        snprintf(why, sizeof(why), "grt imports %s with symbolic dimensions in %s only",
                 def->op_type, rule->where);
      } else {
        snprintf(why, sizeof(why), "grt imports %s with static shapes only", def->op_type);
      }
      return grtc_onnx_symbolic_error(n, i, d, type->dims[d], why);
    }
  }
  return grt_ok_status();
}

bool grtc_onnx_shape_values(grtc_onnx_node_t* n, grtc_tvalue_t* value,
                            grtc_onnx_shape_values_t* out) {
  memset(out, 0, sizeof(*out));
  if (!value || value->type.rank > 1 || !grtc_elem_is_integer(value->type.elem)) return false;
  for (const grtc_onnx_known_t* k = n->importer->known; k; k = k->next) {
    if (k->value == value) {
      *out = k->values;
      return true;
    }
  }
  if (!grtc_onnx_is_constant(value) ||
      grtc_ttype_element_count(&value->type) > GRTC_MAX_RANK) {
    return false;
  }
  int64_t* values = NULL;
  uint32_t count = 0;
  if (!grtc_onnx_ints(n, value, "a shape", &values, &count)) return false;
  out->count = count;
  memcpy(out->values, values, count * sizeof(int64_t));
  return true;
}

void grtc_onnx_remember_shape_values(grtc_onnx_node_t* n, const grtc_tvalue_t* value,
                                     const grtc_onnx_shape_values_t* values) {
  if (!value || grtc_onnx_is_constant(value)) return;
  bool symbolic = false;
  for (uint32_t i = 0; i < values->count; ++i) symbolic |= values->symbolic[i];
  if (!symbolic) return;
  grtc_onnx_known_t* k = grtc_tmodule_alloc(n->module, sizeof(*k));
  if (!k) {
    grtc_onnx_fail(n, grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory"));
    return;
  }
  k->value = value;
  k->values = *values;
  k->next = n->importer->known;
  n->importer->known = k;
}

void grtc_onnx_remember_dequantized(grtc_onnx_node_t* n, const grtc_onnx_dequantized_t* d) {
  if (!d->value) return;
  grtc_onnx_dequantized_t* copy = grtc_tmodule_alloc(n->module, sizeof(*copy));
  if (!copy) {
    grtc_onnx_fail(n, grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory"));
    return;
  }
  *copy = *d;
  copy->next = n->importer->dequantized;
  n->importer->dequantized = copy;
}

const grtc_onnx_dequantized_t* grtc_onnx_find_dequantized(grtc_onnx_node_t* n,
                                                          const grtc_tvalue_t* value) {
  if (!value) return NULL;
  for (const grtc_onnx_dequantized_t* d = n->importer->dequantized; d; d = d->next) {
    if (d->value == value) return d;
  }
  return NULL;
}

// The inputs among an op's first min_inputs that its definition lets a
// node leave out, as a mask (bit i: input i).
static uint32_t grtc_onnx_absent_inputs_ok(const char* op_type) {
  static const struct {
    const char* op_type;
    uint32_t mask;
  } rows[] = {{"Loop", 0x3u}, {"Scan", 0x1u}};
  for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); ++i) {
    if (strcmp(rows[i].op_type, op_type) == 0) return rows[i].mask;
  }
  return 0;
}

// The node's checks, the op and the binding of its outputs. Errors return
// their own status; |n->status| keeps a copy that the caller frees.
static grt_status_t grtc_onnx_import_node_in(grtc_onnx_importer_t* im, grtc_onnx_scope_t* scope,
                                             const Onnx__NodeProto* node, uint32_t number,
                                             grtc_onnx_node_t* n) {
  if (!n->location) return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  const char* domain = node->domain ? node->domain : "";
  if (domain[0] && strcmp(domain, "ai.onnx") != 0) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "%s: node %u '%s' has op type '%s' in domain '%s', which grt does not "
                           "support (only the default domain ai.onnx)",
                           im->file_name, number, node->name ? node->name : "",
                           node->op_type ? node->op_type : "", domain);
  }
  const grtc_onnx_op_def_t* def = grtc_onnx_find_op(im, node->op_type);
  if (!def) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "%s: node %u '%s': op '%s' (domain ai.onnx, opset %lld) is not "
                           "supported by grt",
                           im->file_name, number, node->name ? node->name : "",
                           node->op_type ? node->op_type : "", (long long)im->opset);
  }
  if (im->opset < def->since_opset) {
    return grtc_onnx_error(n, "the op exists from opset %d on; the model imports opset %lld",
                           def->since_opset, (long long)im->opset);
  }
  if (node->n_input < (size_t)def->min_inputs ||
      (def->max_inputs >= 0 && node->n_input > (size_t)def->max_inputs)) {
    if (def->max_inputs < 0) {
      return grtc_onnx_error(n, "expected at least %d inputs, got %zu", def->min_inputs,
                             node->n_input);
    }
    return grtc_onnx_error(n, "expected %d to %d inputs, got %zu", def->min_inputs,
                           def->max_inputs, node->n_input);
  }
  if (node->n_output < (size_t)def->min_outputs ||
      (def->max_outputs >= 0 && node->n_output > (size_t)def->max_outputs)) {
    return grtc_onnx_error(n, "expected %d to %d outputs, got %zu", def->min_outputs,
                           def->max_outputs, node->n_output);
  }
  // The first min_inputs inputs are required: a node may not leave one
  // out with an empty name, except where the op defines it as optional
  // (Loop's trip count and condition, opset 8 Scan's sequence_lens).
  uint32_t absent_ok = grtc_onnx_absent_inputs_ok(node->op_type);
  for (uint32_t i = 0; i < (uint32_t)def->min_inputs; ++i) {
    const char* name = node->input[i];
    if ((!name || !name[0]) && !(i < 32 && (absent_ok >> i) & 1u)) {
      return grtc_onnx_error(n, "input %u is required, but the node leaves it out (an empty name)",
                             i);
    }
  }
  n->input_count = (uint32_t)node->n_input;
  n->output_count = (uint32_t)node->n_output;
  n->inputs = grtc_tmodule_alloc(im->module, (n->input_count + 1) * sizeof(grtc_tvalue_t*));
  n->outputs = grtc_tmodule_alloc(im->module, (n->output_count + 1) * sizeof(grtc_tvalue_t*));
  if (!n->inputs || !n->outputs) return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (uint32_t i = 0; i < n->input_count; ++i) {
    const char* name = node->input[i];
    if (!name || !name[0]) continue;  // an optional input left out
    n->inputs[i] = grtc_onnx_scope_find(scope, name);
    if (!n->inputs[i]) {
      return grtc_onnx_error(n,
                             "input %u '%s' is not defined before the node (not a graph input, "
                             "an initializer or an earlier node's output; ONNX graphs are "
                             "topologically sorted)",
                             i, name);
    }
  }
  GRT_RETURN_IF_ERROR(grtc_onnx_check_symbolic(n, def));
  grt_status_t status = def->fn(n);
  if (grt_status_is_ok(status) && !grt_status_is_ok(n->status)) {
    status = n->status;
    n->status = grt_ok_status();
  }
  GRT_RETURN_IF_ERROR(status);
  grtc_onnx_qdq_forward(n);
  grtc_onnx_int4_forward(n);
  if (!grt_status_is_ok(n->status)) {
    status = n->status;
    n->status = grt_ok_status();
    return status;
  }
  for (uint32_t i = 0; i < n->output_count; ++i) {
    const char* name = node->output[i];
    if (!name || !name[0]) continue;
    if (!n->outputs[i]) {
      return grtc_onnx_unsupported(n, "output %u '%s' is not produced by grt's import of the op",
                                   i, name);
    }
    GRT_RETURN_IF_ERROR(grtc_onnx_scope_define(im, scope, name, n->outputs[i], "value"));
  }
  return grt_ok_status();
}

static grt_status_t grtc_onnx_import_node(grtc_onnx_importer_t* im, grtc_onnx_scope_t* scope,
                                          grtc_tblock_t* block, const Onnx__NodeProto* node,
                                          uint32_t number) {
  grtc_onnx_node_t n;
  memset(&n, 0, sizeof(n));
  n.importer = im;
  n.module = im->module;
  n.proto = node;
  n.number = number;
  n.opset = im->opset;
  n.block = block;
  n.scope = scope;
  n.location = grtc_onnx_node_location(im, node, number);
  grt_status_t status = grtc_onnx_import_node_in(im, scope, node, number, &n);
  grt_status_free(n.status);
  return status;
}

// Whether the symbolic |dim| is in the class of a dynamic op's result
// dimension whose shape operand element a graph input's data gives (the
// host program reads it at the call): a graph output's declared size
// there is compared at the call (a shape assertion), not when the model
// is compiled.
static bool grtc_onnx_dim_reads_data(grtc_tmodule_t* module, int64_t dim) {
  if (grtc_dim_is_static(dim)) return false;
  dim = grtc_tmodule_resolve_dim(module, dim);
  for (uint32_t id = 0; id < module->shapes->sym_count; ++id) {
    const grtc_tsym_t* sym = &module->shapes->syms[id];
    if (sym->origin != GRTC_SYM_RESULT || !sym->op ||
        grtc_tmodule_resolve_dim(module, GRTC_DIM_SYMBOL(id)) != dim) {
      continue;
    }
    uint32_t operand = sym->op->kind == GRTC_TOP_DYNAMIC_IOTA          ? 0
                       : sym->op->kind == GRTC_TOP_REAL_DYNAMIC_SLICE  ? 2
                       : sym->op->kind == GRTC_TOP_DYNAMIC_RESHAPE ||
                               sym->op->kind == GRTC_TOP_DYNAMIC_BROADCAST_IN_DIM
                           ? 1
                           : UINT32_MAX;
    const grtc_sexpr_t* expr = NULL;
    if (operand < sym->op->operand_count &&
        grtc_tvalue_shape_expr_data(module, sym->op->operands[operand], sym->axis, &expr) &&
        grtc_sexpr_reads_data(expr)) {
      return true;
    }
  }
  return false;
}

// Imports |graph|'s initializers and nodes into |block| with |scope|
// (whose inputs the caller has defined), and returns its outputs.
static grt_status_t grtc_onnx_import_body(grtc_onnx_importer_t* im, grtc_onnx_scope_t* scope,
                                          grtc_tblock_t* block, const Onnx__GraphProto* graph,
                                          grtc_tvalue_t** outputs) {
  grtc_onnx_node_t init_node;
  memset(&init_node, 0, sizeof(init_node));
  init_node.importer = im;
  init_node.module = im->module;
  init_node.block = block;
  init_node.location = im->file_location;
  for (size_t i = 0; i < graph->n_initializer; ++i) {
    const Onnx__TensorProto* t = graph->initializer[i];
    if (!t->name || !t->name[0]) {
      return grtc_onnx_file_error(im, "initializer %zu has no name", i);
    }
    grtc_tvalue_t* value = NULL;
    GRT_RETURN_IF_ERROR(grtc_onnx_tensor_constant(im, &init_node, t, &value));
    // An input of the same name (IR version < 4 lists initializers as
    // inputs) was not made an argument; see grtc_onnx_is_initializer.
    GRT_RETURN_IF_ERROR(grtc_onnx_scope_define(im, scope, t->name, value, "initializer"));
  }
  if (graph->n_sparse_initializer) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED, "%s: sparse initializers are not supported",
                           im->file_name);
  }
  for (size_t i = 0; i < graph->n_node; ++i) {
    GRT_RETURN_IF_ERROR(
        grtc_onnx_import_node(im, scope, block, graph->node[i], (uint32_t)(i + 1)));
  }
  for (size_t i = 0; i < graph->n_output; ++i) {
    const Onnx__ValueInfoProto* info = graph->output[i];
    const char* name = info->name ? info->name : "";
    grtc_tvalue_t* value = grtc_onnx_scope_find(scope, name);
    if (!value) {
      return grtc_onnx_file_error(im, "graph output '%s' is not defined by any node", name);
    }
    // Check the declared type where the model gives one.
    const Onnx__TypeProto* type = info->type;
    if (type && type->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE && type->tensor_type) {
      const Onnx__TypeProto__Tensor* tensor = type->tensor_type;
      grtc_elem_t elem;
      if (tensor->has_elem_type && tensor->elem_type != 0 &&
          grtc_onnx_map_elem(tensor->elem_type, &elem) && elem != value->type.elem) {
        char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
        return grtc_onnx_file_error(im, "graph output '%s' is declared %s, but computes %s", name,
                                    grtc_onnx_type_name(tensor->elem_type),
                                    grtc_ttype_format(&value->type, buffer, sizeof(buffer)));
      }
      const Onnx__TensorShapeProto* shape = tensor->shape;
      if (shape && shape->n_dim != value->type.rank) {
        char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
        return grtc_onnx_file_error(im, "graph output '%s' is declared with rank %zu, but "
                                        "computes %s",
                                    name, shape->n_dim,
                                    grtc_ttype_format(&value->type, buffer, sizeof(buffer)));
      }
      for (size_t d = 0; shape && d < shape->n_dim; ++d) {
        if (shape->dim[d]->value_case != ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE ||
            shape->dim[d]->dim_value == value->type.dims[d]) {
          continue;
        }
        if (grtc_onnx_dim_reads_data(im->module, value->type.dims[d])) {
          // A size read from data at the call: compared there.
          char message[512];
          snprintf(message, sizeof(message),
                   "graph output '%s' is declared with dimension %zu = %lld, but the sizes "
                   "read from the graph inputs' data give {0}",
                   name, d, (long long)shape->dim[d]->dim_value);
          int64_t declared = shape->dim[d]->dim_value;
          grtc_tvalue_t* size = grtc_onnx_dimension_size(&init_node, value, (uint32_t)d);
          grtc_onnx_assert_message(
              &init_node,
              grtc_onnx_compare(&init_node, GRTC_CMP_EQ, size,
                                grtc_onnx_const_ints(&init_node, GRTC_ELEM_I64, 0, NULL, &declared)),
              &size, 1, message);
          if (!grtc_onnx_ok(&init_node)) {
            grt_status_t status = init_node.status;
            init_node.status = grt_ok_status();
            return status;
          }
          continue;
        }
        char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
        return grtc_onnx_file_error(
            im, "graph output '%s' is declared with dimension %zu = %lld, but computes %s",
            name, d, (long long)shape->dim[d]->dim_value,
            grtc_ttype_format(&value->type, buffer, sizeof(buffer)));
      }
    }
    outputs[i] = value;
  }
  return grt_ok_status();
}

static bool grtc_onnx_is_initializer(const Onnx__GraphProto* graph, const char* name) {
  for (size_t i = 0; i < graph->n_initializer; ++i) {
    if (graph->initializer[i]->name && strcmp(graph->initializer[i]->name, name) == 0) {
      return true;
    }
  }
  return false;
}

grt_status_t grtc_onnx_graph_input_types(grtc_onnx_node_t* n, const Onnx__GraphProto* graph,
                                         grtc_ttype_t* out_types) {
  for (size_t i = 0; i < graph->n_input; ++i) {
    grt_status_t status =
        grtc_onnx_value_type(n->importer, graph->input[i], "sub-graph input", NULL, &out_types[i],
                             NULL);
    if (!grt_status_is_ok(status)) {
      grt_status_t wrapped = grtc_onnx_error(n, "%s", grt_status_message(status));
      grt_status_free(status);
      return wrapped;
    }
  }
  return grt_ok_status();
}

grt_status_t grtc_onnx_import_subgraph(grtc_onnx_node_t* n, const Onnx__GraphProto* graph,
                                       grtc_tblock_t* block) {
  grtc_onnx_importer_t* im = n->importer;
  if (im->depth >= GRTC_ONNX_MAX_DEPTH) {
    return grtc_onnx_error(n, "sub-graphs nest deeper than %d", GRTC_ONNX_MAX_DEPTH);
  }
  if (block->arg_count != graph->n_input) {
    return grtc_onnx_error(n, "the sub-graph has %zu inputs, expected %u", graph->n_input,
                           block->arg_count);
  }
  grtc_onnx_scope_t scope;
  grtc_onnx_scope_init(im, n->scope, &scope);
  grt_status_t status = grt_ok_status();
  for (size_t i = 0; i < graph->n_input && grt_status_is_ok(status); ++i) {
    const char* name = graph->input[i]->name;
    status = grtc_onnx_scope_define(im, &scope, name ? name : "", &block->args[i], "input");
  }
  grtc_tvalue_t** outputs = NULL;
  if (grt_status_is_ok(status)) {
    outputs = grtc_tmodule_alloc(im->module, (graph->n_output + 1) * sizeof(*outputs));
    if (!outputs) status = grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  if (grt_status_is_ok(status)) {
    ++im->depth;
    status = grtc_onnx_import_body(im, &scope, block, graph, outputs);
    --im->depth;
  }
  grtc_top_t* yield = NULL;
  if (grt_status_is_ok(status)) {
    status = grtc_top_create(im->module, GRTC_TOP_YIELD, outputs, (uint32_t)graph->n_output,
                             NULL, 0, 0, &yield);
  }
  if (grt_status_is_ok(status)) {
    yield->location = n->location;
    yield->line = n->number;
    yield->column = 1;
    grtc_tblock_append(block, yield);
  }
  grtc_onnx_scope_deinit(im, &scope);
  return status;
}

// The symbolic (dim_param) dimensions of |func|'s arguments become symbols
// (docs/compiler.md "Symbolic shapes"), named by their dim_param. Dims that
// share a name are one extent: each later one is related to the first
// (recorded, so the host program checks it at the call). A dimension with
// neither a value nor a name is a symbol of its own.
static grt_status_t grtc_onnx_input_symbols(grtc_onnx_importer_t* im, grtc_tfunc_t* func,
                                            const char* const* params) {
  for (uint32_t i = 0; i < func->body->arg_count; ++i) {
    grtc_ttype_t* type = &func->body->args[i].type;
    for (uint32_t d = 0; d < type->rank; ++d) {
      if (type->dims[d] != GRTC_DYNAMIC_DIM) continue;
      const char* param = params[(size_t)i * GRTC_MAX_RANK + d];
      GRT_RETURN_IF_ERROR(grtc_tmodule_new_symbol(im->module, func, GRTC_SYM_ARGUMENT, NULL,
                                                  i, d, &type->dims[d]));
      grtc_tsym_t* sym = &im->module->shapes->syms[grtc_dim_symbol(type->dims[d])];
      sym->name = param[0] ? param : NULL;
      // The first earlier dimension of the same name.
      int64_t first = 0;
      for (uint32_t j = 0; param[0] && j <= i && !first; ++j) {
        const grtc_ttype_t* earlier = &func->body->args[j].type;
        for (uint32_t e = 0; e < (j == i ? d : earlier->rank) && !first; ++e) {
          const char* other = params[(size_t)j * GRTC_MAX_RANK + e];
          if (!grtc_dim_is_static(earlier->dims[e]) && other && strcmp(other, param) == 0) {
            first = earlier->dims[e];
          }
        }
      }
      if (first) {
        bool conflict = false;
        GRT_RETURN_IF_ERROR(grtc_tmodule_relate(im->module, func, GRTC_REL_EQ, type->dims[d],
                                                first, NULL, "the same dim_param", &conflict));
      }
    }
  }
  return grt_ok_status();
}

static grt_status_t grtc_onnx_import_main(grtc_onnx_importer_t* im) {
  const Onnx__GraphProto* graph = im->model->graph;
  // Check every --onnx-input-shape names an input.
  for (uint32_t i = 0; im->options && i < im->options->input_shape_count; ++i) {
    const char* spec = im->options->input_shapes[i];
    const char* colon = spec ? strrchr(spec, ':') : NULL;
    if (!colon || colon == spec) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "--onnx-input-shape '%s': expected NAME:DIMS, e.g. input:1x3x224x224",
                             spec ? spec : "");
    }
    bool found = false;
    for (size_t k = 0; k < graph->n_input && !found; ++k) {
      const char* name = graph->input[k]->name;
      found = name && strlen(name) == (size_t)(colon - spec) &&
              memcmp(name, spec, (size_t)(colon - spec)) == 0;
    }
    if (!found) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "--onnx-input-shape '%s' names '%.*s', which is not an input of the "
                             "graph in %s",
                             spec, (int)(colon - spec), spec, im->file_name);
    }
  }
  uint32_t arg_count = 0;
  grtc_ttype_t* arg_types =
      grtc_tmodule_alloc(im->module, (graph->n_input + 1) * sizeof(grtc_ttype_t));
  const char** arg_names = grtc_tmodule_alloc(im->module, (graph->n_input + 1) * sizeof(char*));
  const char** params =
      grtc_tmodule_alloc(im->module, (graph->n_input + 1) * GRTC_MAX_RANK * sizeof(char*));
  if (!arg_types || !arg_names || !params) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  for (size_t i = 0; i < graph->n_input; ++i) {
    const Onnx__ValueInfoProto* info = graph->input[i];
    const char* name = info->name ? info->name : "";
    if (!name[0]) return grtc_onnx_file_error(im, "graph input %zu has no name", i);
    if (grtc_onnx_is_initializer(graph, name)) continue;
    const char* override = NULL;
    for (uint32_t k = 0; im->options && k < im->options->input_shape_count; ++k) {
      const char* spec = im->options->input_shapes[k];
      const char* colon = strrchr(spec, ':');
      if (strlen(name) == (size_t)(colon - spec) && memcmp(name, spec, (size_t)(colon - spec)) == 0) {
        override = colon + 1;
      }
    }
    GRT_RETURN_IF_ERROR(grtc_onnx_value_type(im, info, "graph input", override,
                                             &arg_types[arg_count],
                                             params + (size_t)arg_count * GRTC_MAX_RANK));
    arg_names[arg_count++] = name;
  }
  if (graph->n_output == 0) return grtc_onnx_file_error(im, "the graph has no outputs");
  grtc_tfunc_t* func = NULL;
  GRT_RETURN_IF_ERROR(grtc_tfunc_create(im->module, grt_make_cstring_view("main"), arg_types,
                                        arg_count, NULL, 0, &func));
  func->is_public = true;
  func->location = im->file_location;
  func->line = 1;
  func->column = 1;
  GRT_RETURN_IF_ERROR(grtc_onnx_input_symbols(im, func, params));
  grtc_onnx_scope_t scope;
  grtc_onnx_scope_init(im, NULL, &scope);
  grt_status_t status = grt_ok_status();
  for (uint32_t i = 0; i < arg_count && grt_status_is_ok(status); ++i) {
    status = grtc_onnx_scope_define(im, &scope, arg_names[i], &func->body->args[i], "graph input");
  }
  grtc_tvalue_t** outputs = grtc_tmodule_alloc(im->module, (graph->n_output + 1) * sizeof(*outputs));
  if (grt_status_is_ok(status) && !outputs) {
    status = grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  if (grt_status_is_ok(status)) status = grtc_onnx_import_body(im, &scope, func->body, graph, outputs);
  grtc_onnx_scope_deinit(im, &scope);
  GRT_RETURN_IF_ERROR(status);
  func->result_count = (uint32_t)graph->n_output;
  func->result_types = grtc_tmodule_alloc(im->module, graph->n_output * sizeof(grtc_ttype_t));
  if (!func->result_types) return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (size_t i = 0; i < graph->n_output; ++i) func->result_types[i] = outputs[i]->type;
  grtc_top_t* ret = NULL;
  GRT_RETURN_IF_ERROR(grtc_top_create(im->module, GRTC_TOP_RETURN, outputs,
                                      (uint32_t)graph->n_output, NULL, 0, 0, &ret));
  ret->location = im->file_location;
  ret->line = (uint32_t)graph->n_node + 1;
  ret->column = 1;
  grtc_tblock_append(func->body, ret);
  grtc_tfunc_remove_dead_ops(func);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// The model
//===----------------------------------------------------------------------===//

static void grtc_onnx_model_free(void* user) {
  protobuf_c_message_free_unpacked((ProtobufCMessage*)user, NULL);
}

static grt_status_t grtc_onnx_check_model(grtc_onnx_importer_t* im) {
  const Onnx__ModelProto* model = im->model;
  if (!model->graph) {
    return grtc_onnx_file_error(im, "the model has no graph (is it an ONNX ModelProto?)");
  }
  bool has_default = false;
  for (size_t i = 0; i < model->n_opset_import; ++i) {
    const Onnx__OperatorSetIdProto* o = model->opset_import[i];
    const char* domain = o->domain ? o->domain : "";
    if (domain[0] && strcmp(domain, "ai.onnx") != 0) continue;  // checked per node
    has_default = true;
    im->opset = o->version;
  }
  if (!has_default) {
    if (model->has_ir_version && model->ir_version >= 3) {
      return grtc_onnx_file_error(im, "the model imports no opset of the default domain "
                                      "(opset_import has no entry for domain \"\")");
    }
    im->opset = 1;
  }
  if (im->opset < GRTC_ONNX_MIN_OPSET || im->opset > GRTC_ONNX_MAX_OPSET) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "%s: the model uses opset %lld of the default domain; grt supports "
                           "opsets %d to %d",
                           im->file_name, (long long)im->opset, GRTC_ONNX_MIN_OPSET,
                           GRTC_ONNX_MAX_OPSET);
  }
  return grt_ok_status();
}

static grt_status_t grtc_onnx_index_ops(grtc_onnx_importer_t* im) {
  grt_name_index_initialize(im->allocator, &im->ops);
  uint32_t count = 0;
  while (grtc_onnx_supported_op(count)) ++count;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(im->allocator, (count + 1) * sizeof(*im->op_rows),
                                           (void**)&im->op_rows));
  for (size_t t = 0; t < GRTC_ONNX_TABLE_COUNT; ++t) {
    for (const grtc_onnx_op_def_t* row = grtc_onnx_tables[t]; row->op_type; ++row) {
      im->op_rows[im->op_row_count] = row;
      GRT_RETURN_IF_ERROR(grt_name_index_insert(&im->ops, grt_make_cstring_view(row->op_type),
                                                im->op_row_count, NULL));
      ++im->op_row_count;
    }
  }
  return grt_ok_status();
}

grt_status_t grtc_onnx_import(const uint8_t* data, size_t size, const char* file_name,
                              const grtc_onnx_options_t* options, grt_allocator_t allocator,
                              grtc_tmodule_t** out_module) {
  *out_module = NULL;
  grtc_onnx_importer_t im;
  memset(&im, 0, sizeof(im));
  im.allocator = allocator;
  im.options = options;
  GRT_RETURN_IF_ERROR(grtc_tmodule_create("module", file_name, allocator, &im.module));
  im.file_name = im.module->file_name;
  grtc_location_t* file_location = grtc_tmodule_alloc(im.module, sizeof(*file_location));
  grt_status_t status = grt_ok_status();
  if (!file_location) status = grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (grt_status_is_ok(status)) {
    file_location->kind = GRTC_LOC_FILE;
    file_location->text = grt_make_cstring_view(im.file_name);
    file_location->line = 1;
    file_location->column = 1;
    im.file_location = file_location;
    im.model = onnx__model_proto__unpack(NULL, size, data);
    if (!im.model) {
      status = grtc_onnx_file_error(&im,
                                    "not an ONNX model: the %zu bytes do not decode as an "
                                    "onnx.ModelProto protobuf (truncated, corrupt, or another "
                                    "kind of file)",
                                    size);
    } else {
      status = grtc_tmodule_add_cleanup(im.module, grtc_onnx_model_free, im.model);
    }
  }
  if (grt_status_is_ok(status)) status = grtc_onnx_check_model(&im);
  if (grt_status_is_ok(status)) status = grtc_onnx_index_ops(&im);
  if (grt_status_is_ok(status)) status = grtc_onnx_import_main(&im);
  grt_name_index_deinitialize(&im.ops);
  grt_allocator_free(allocator, im.op_rows);
  if (!grt_status_is_ok(status)) {
    grtc_tmodule_destroy(im.module);
    return status;
  }
  *out_module = im.module;
  return grt_ok_status();
}
