// grt-run's value text and files (see tensor_io.h).
#include "tools/tensor_io.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/checked_math.h"
#include "base/string_view.h"
#include "hal/transfer.h"
#include "runtime/hal_module.h"
#include "tools/npy.h"
#include "vm/buffer.h"
#include "vm/list.h"

void grt_tools_tensor_io_initialize(grt_allocator_t host_allocator,
                                    grt_tools_tensor_io_t* out_io) {
  memset(out_io, 0, sizeof(*out_io));
  out_io->host_allocator = host_allocator;
}

void grt_tools_tensor_io_deinitialize(grt_tools_tensor_io_t* io) {
  for (size_t i = 0; i < io->source_count; ++i) {
    if (io->sources[i].stream_fd >= 0) close(io->sources[i].stream_fd);
    grt_file_contents_free(&io->sources[i].contents);
    grt_allocator_free(io->host_allocator, io->sources[i].path);
  }
  grt_allocator_free(io->host_allocator, io->sources);
  grt_tools_tensor_io_initialize(io->host_allocator, io);
}

void grt_tools_host_tensor_free(grt_tools_tensor_io_t* io,
                                grt_tools_host_tensor_t* tensor) {
  if (tensor->owns_data) grt_allocator_free(io->host_allocator, tensor->data);
  memset(tensor, 0, sizeof(*tensor));
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

// The cached source for |path|, opening it on first use.
static grt_status_t grt_tools_npy_source(grt_tools_tensor_io_t* io,
                                         grt_string_view_t path,
                                         grt_tools_npy_source_t** out_source) {
  for (size_t i = 0; i < io->source_count; ++i) {
    if (grt_string_view_equal_cstring(path, io->sources[i].path)) {
      *out_source = &io->sources[i];
      return grt_ok_status();
    }
  }
  if (io->source_count == io->source_capacity) {
    size_t capacity = io->source_capacity ? io->source_capacity * 2 : 4;
    void* sources = io->sources;
    GRT_RETURN_IF_ERROR(grt_allocator_realloc(
        io->host_allocator, io->source_capacity * sizeof(*io->sources),
        capacity * sizeof(*io->sources), &sources));
    io->sources = (grt_tools_npy_source_t*)sources;
    io->source_capacity = capacity;
  }
  grt_tools_npy_source_t source;
  memset(&source, 0, sizeof(source));
  source.stream_fd = -1;
  GRT_RETURN_IF_ERROR(
      grt_string_view_copy_cstring(path, io->host_allocator, &source.path));
  grt_status_t status = grt_ok_status();
  struct stat info;
  if (stat(source.path, &info) == 0 && !S_ISREG(info.st_mode) &&
      !S_ISDIR(info.st_mode)) {
    do {
      source.stream_fd = open(source.path, O_RDONLY | O_CLOEXEC);
    } while (source.stream_fd < 0 && errno == EINTR);
    if (source.stream_fd < 0) {
      status = grt_make_status(GRT_STATUS_UNAVAILABLE, "cannot open '%s': %s",
                               source.path, strerror(errno));
    }
  } else {
    status = grt_file_map_read_only(source.path, io->host_allocator,
                                    &source.contents);
  }
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(io->host_allocator, source.path);
    return status;
  }
  io->sources[io->source_count] = source;
  *out_source = &io->sources[io->source_count++];
  return grt_ok_status();
}

// The next array of a stream: its header (read in the pieces that say how
// long it is), then exactly the data the header declares, into memory the
// tensor owns.
static grt_status_t grt_tools_read_npy_stream(
    grt_tools_tensor_io_t* io, grt_tools_npy_source_t* source,
    grt_tools_host_tensor_t* out_tensor) {
  uint8_t first[12];
  size_t have = 0, need = 10;
  for (;;) {
    size_t got = 0;
    grt_status_t status = grt_file_read_exactly(
        source->stream_fd, source->path, first + have, need - have, &got);
    have += got;
    if (have == 0 && source->arrays_read > 0) {
      grt_status_free(status);
      return grt_make_status(
          GRT_STATUS_OUT_OF_RANGE,
          "%s: no array left: the file holds %zu and was named %zu times",
          source->path, source->arrays_read, source->arrays_read + 1);
    }
    if (!grt_status_is_ok(status)) {
      grt_status_free(status);
      // Too short for a prefix: grt_npy_parse says what is wrong.
      size_t offset = 0;
      grt_npy_array_t array;
      return grt_npy_parse(source->path, grt_make_const_byte_span(first, have),
                           &offset, &array);
    }
    size_t size = 0;
    GRT_RETURN_IF_ERROR(grt_npy_header_size(
        source->path, grt_make_const_byte_span(first, have), &size));
    if (size <= have || have == sizeof(first)) {
      need = size;
      break;
    }
    need = size < sizeof(first) ? size : sizeof(first);
  }
  uint8_t* header = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_malloc(io->host_allocator, need, (void**)&header));
  memcpy(header, first, have < need ? have : need);
  grt_status_t status = grt_ok_status();
  if (need > have) {
    status = grt_file_read_exactly(source->stream_fd, source->path,
                                   header + have, need - have, NULL);
  }
  grt_npy_array_t array;
  size_t data_offset = 0;
  if (grt_status_is_ok(status)) {
    status = grt_npy_parse_header(source->path,
                                  grt_make_const_byte_span(header, need), 0,
                                  &array, &data_offset);
  }
  grt_allocator_free(io->host_allocator, header);
  GRT_RETURN_IF_ERROR(status);
  out_tensor->element_type = array.element_type;
  out_tensor->rank = array.rank;
  memcpy(out_tensor->shape, array.shape, sizeof(array.shape));
  out_tensor->data_length = array.data_length;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(
      io->host_allocator, array.data_length ? array.data_length : 1,
      &out_tensor->data));
  out_tensor->owns_data = true;
  status = grt_file_read_exactly(source->stream_fd, source->path,
                                 out_tensor->data, array.data_length, NULL);
  if (!grt_status_is_ok(status)) {
    grt_tools_host_tensor_free(io, out_tensor);
    return grt_status_annotate(status, "%s: the header declares %zu bytes of "
                               "data", source->path, array.data_length);
  }
  ++source->arrays_read;
  return grt_ok_status();
}

// "@x.npy": the next array of the file.
static grt_status_t grt_tools_read_npy(grt_tools_tensor_io_t* io,
                                       grt_string_view_t path,
                                       grt_tools_host_tensor_t* out_tensor) {
  grt_tools_npy_source_t* source = NULL;
  GRT_RETURN_IF_ERROR(grt_tools_npy_source(io, path, &source));
  if (source->stream_fd >= 0) {
    return grt_tools_read_npy_stream(io, source, out_tensor);
  }
  if (source->offset == source->contents.size && source->arrays_read > 0) {
    return grt_make_status(
        GRT_STATUS_OUT_OF_RANGE,
        "%s: no array left: the file holds %zu and was named %zu times",
        source->path, source->arrays_read, source->arrays_read + 1);
  }
  grt_npy_array_t array;
  GRT_RETURN_IF_ERROR(grt_npy_parse(
      source->path,
      grt_make_const_byte_span(source->contents.data, source->contents.size),
      &source->offset, &array));
  ++source->arrays_read;
  out_tensor->element_type = array.element_type;
  out_tensor->rank = array.rank;
  memcpy(out_tensor->shape, array.shape, sizeof(array.shape));
  out_tensor->data = (void*)array.data;
  out_tensor->data_length = array.data_length;
  out_tensor->owns_data = false;
  return grt_ok_status();
}

// "SHAPE=@raw.bin": the whole file, which must be the tensor's size.
static grt_status_t grt_tools_read_raw(grt_tools_tensor_io_t* io,
                                       grt_string_view_t path,
                                       grt_string_view_t shape_text,
                                       grt_tools_host_tensor_t* tensor) {
  char* path_buffer = NULL;
  GRT_RETURN_IF_ERROR(
      grt_string_view_copy_cstring(path, io->host_allocator, &path_buffer));
  grt_file_contents_t contents;
  // A stream is read no further than the tensor needs (and one byte to
  // see whether it holds more).
  grt_status_t status = grt_file_map_read_only_bounded(
      path_buffer, tensor->data_length, io->host_allocator, &contents);
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(io->host_allocator, path_buffer);
    return grt_status_annotate(status, "%.*s needs %zu bytes",
                               GRT_SV_ARG(shape_text), tensor->data_length);
  }
  if (contents.size != tensor->data_length) {
    status = grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "%s: file has %zu bytes, %.*s needs %zu",
                             path_buffer, contents.size,
                             GRT_SV_ARG(shape_text), tensor->data_length);
  } else {
    memcpy(tensor->data, contents.data, contents.size);
  }
  grt_file_contents_free(&contents);
  grt_allocator_free(io->host_allocator, path_buffer);
  return status;
}

// Complex text, "2xcomplex<f32>=(1,2) (3,-4)" (or "2xcomplex<f32>" for
// zeros): rewritten into the f32 (f64) tensor with a trailing dimension of
// 2 that a module takes complex tensors as (docs/module-format.md "Complex
// tensors"), "2x2xf32=1 2 3 -4", in *out_text (caller frees). Brackets may
// group the elements; the count is checked against the shape. *out_text
// stays NULL when |text| names no complex element type.
static grt_status_t grt_tools_complex_text(grt_tools_tensor_io_t* io, const char* text,
                                           char** out_text) {
  *out_text = NULL;
  grt_string_view_t view = grt_make_cstring_view(text);
  grt_string_view_t shape_text = view, elements = grt_string_view_empty();
  bool zeros = !grt_string_view_split(view, '=', &shape_text, &elements);
  if (zeros) shape_text = view;
  shape_text = grt_string_view_trim(shape_text);
  static const char* const parts[2] = {"f32", "f64"};
  const char* part = NULL;
  for (int i = 0; i < 2; ++i) {
    char spelled[16];
    snprintf(spelled, sizeof(spelled), "complex<%s>", parts[i]);
    size_t n = strlen(spelled);
    if (grt_string_view_ends_with(shape_text, grt_make_cstring_view(spelled)) &&
        (shape_text.size == n || shape_text.data[shape_text.size - n - 1] == 'x')) {
      part = parts[i];
      shape_text.size -= n;
    }
  }
  if (!part) return grt_ok_status();
  // Each "(re, im)" becomes "re im "; the rewritten text is never longer
  // than the prefix, "2x", the part's name and the elements.
  size_t capacity = shape_text.size + 8 + 1 + elements.size + 1;
  char* rewritten = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_malloc(io->host_allocator, capacity, (void**)&rewritten));
  size_t used = (size_t)snprintf(rewritten, capacity, "%.*s2x%s%s",
                                 GRT_SV_ARG(shape_text), part, zeros ? "" : "=");
  for (size_t i = 0; !zeros && i < elements.size;) {
    char c = elements.data[i];
    if (c == ' ' || c == '\t' || c == '[' || c == ']') {
      ++i;
      continue;
    }
    size_t comma = grt_string_view_find_char(elements, ',', i);
    size_t close = grt_string_view_find_char(elements, ')', i);
    if (c != '(' || comma == GRT_STRING_VIEW_NPOS || close == GRT_STRING_VIEW_NPOS ||
        comma > close ||
        grt_string_view_find_char(
            grt_string_view_substr(elements, comma + 1, close - comma - 1), ',', 0) !=
            GRT_STRING_VIEW_NPOS) {
      grt_allocator_free(io->host_allocator, rewritten);
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "expected complex elements written (re, im), such as "
                             "2xcomplex<f32>=(1,2) (3,-4), got '%s'", text);
    }
    // "(re," and " im)" become "re  im  ".
    for (size_t j = i + 1; j < close; ++j) {
      rewritten[used++] = j == comma ? ' ' : elements.data[j];
    }
    rewritten[used++] = ' ';
    i = close + 1;
  }
  rewritten[used] = 0;
  *out_text = rewritten;
  return grt_ok_status();
}

grt_status_t grt_tools_parse_host_tensor(grt_tools_tensor_io_t* io,
                                         const char* text,
                                         grt_tools_host_tensor_t* out_tensor) {
  memset(out_tensor, 0, sizeof(*out_tensor));
  grt_string_view_t view = grt_make_cstring_view(text);
  if (grt_string_view_starts_with(view, grt_make_cstring_view("@"))) {
    return grt_tools_read_npy(io, grt_string_view_substr(view, 1, SIZE_MAX),
                              out_tensor);
  }
  char* complex_text = NULL;
  GRT_RETURN_IF_ERROR(grt_tools_complex_text(io, text, &complex_text));
  if (complex_text) {
    grt_status_t status = grt_tools_parse_host_tensor(io, complex_text, out_tensor);
    grt_allocator_free(io->host_allocator, complex_text);
    return status;
  }
  grt_string_view_t shape_text, elements;
  bool zeros = false;
  if (!grt_string_view_split(view, '=', &shape_text, &elements)) {
    // A shape and element type alone ("1x28x28x1xf32") is a zero-filled
    // tensor, as in IREE.
    shape_text = view;
    elements = grt_string_view_empty();
    zeros = true;
    grt_status_t status = grt_hal_shape_parse(
        grt_string_view_trim(shape_text), GRT_HAL_MAX_RANK, out_tensor->shape,
        &out_tensor->rank, &out_tensor->element_type);
    if (!grt_status_is_ok(status)) {
      grt_status_t error = grt_make_status(
          GRT_STATUS_INVALID_ARGUMENT,
          "expected a tensor such as 2x2xf32=1 2 3 4, 2x2xf32 (zeros) or "
          "@FILE.npy, got '%s' (not a shape either: %s)",
          text, grt_status_message(status));
      grt_status_free(status);
      return error;
    }
  } else {
    GRT_RETURN_IF_ERROR(grt_hal_shape_parse(
        grt_string_view_trim(shape_text), GRT_HAL_MAX_RANK, out_tensor->shape,
        &out_tensor->rank, &out_tensor->element_type));
  }
  uint64_t count = 0;
  GRT_RETURN_IF_ERROR(grt_hal_shape_element_count(
      out_tensor->shape, out_tensor->rank, &count));
  uint64_t length = 0;
  if (!grt_hal_element_type_dense_bytes(out_tensor->element_type, count,
                                        &length) ||
      length > SIZE_MAX / 2) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "tensor %.*s is too large", GRT_SV_ARG(shape_text));
  }
  out_tensor->data_length = (size_t)length;
  if (zeros) {
    GRT_RETURN_IF_ERROR(grt_allocator_calloc(
        io->host_allocator, out_tensor->data_length, &out_tensor->data));
    out_tensor->owns_data = true;
    return grt_ok_status();
  }
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(
      io->host_allocator, out_tensor->data_length, &out_tensor->data));
  out_tensor->owns_data = true;
  grt_string_view_t trimmed = grt_string_view_trim(elements);
  grt_status_t status;
  if (grt_string_view_starts_with(trimmed, grt_make_cstring_view("@"))) {
    status = grt_tools_read_raw(io, grt_string_view_substr(trimmed, 1, SIZE_MAX),
                                shape_text, out_tensor);
  } else {
    // Brackets, when given, must nest as the shape says.
    status = grt_hal_parse_shaped_elements(
        trimmed, out_tensor->shape, out_tensor->rank, out_tensor->element_type,
        out_tensor->data, out_tensor->data_length);
  }
  if (!grt_status_is_ok(status)) grt_tools_host_tensor_free(io, out_tensor);
  return status;
}

// A scalar argument: "25", "0x10", "i32=25", "1.5", "f32=2".
static grt_status_t grt_tools_parse_scalar(const char* text,
                                           grt_vm_value_type_t type,
                                           grt_vm_variant_t* out_value) {
  grt_string_view_t value = grt_make_cstring_view(text);
  grt_string_view_t type_name, typed_value;
  if (grt_string_view_split(value, '=', &type_name, &typed_value)) {
    if (!grt_string_view_equal_cstring(type_name,
                                       grt_vm_value_type_name(type))) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "expected %s, got %.*s",
                             grt_vm_value_type_name(type),
                             GRT_SV_ARG(type_name));
    }
    value = typed_value;
  }
  double f64 = 0;
  switch (type) {
    case GRT_VM_VALUE_TYPE_I32:
      *out_value = grt_vm_variant_i32(0);
      return grt_string_view_parse_i32(value, &out_value->i32);
    case GRT_VM_VALUE_TYPE_I64:
      *out_value = grt_vm_variant_i64(0);
      return grt_string_view_parse_i64(value, &out_value->i64);
    case GRT_VM_VALUE_TYPE_F32:
      GRT_RETURN_IF_ERROR(grt_string_view_parse_f64(value, &f64));
      if (isfinite(f64) && fabs(f64) > FLT_MAX) {
        return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                               "%.*s is out of range for f32",
                               GRT_SV_ARG(value));
      }
      *out_value = grt_vm_variant_f32((float)f64);
      return grt_ok_status();
    case GRT_VM_VALUE_TYPE_F64:
      *out_value = grt_vm_variant_f64(0);
      return grt_string_view_parse_f64(value, &out_value->f64);
    default:
      return grt_make_status(GRT_STATUS_INTERNAL, "value type %d", (int)type);
  }
}

grt_status_t grt_tools_parse_argument(grt_tools_tensor_io_t* io,
                                      grt_hal_device_t* device,
                                      const char* text,
                                      grt_vm_value_type_t type,
                                      grt_vm_variant_t* out_value) {
  *out_value = grt_vm_variant_empty();
  if (type != GRT_VM_VALUE_TYPE_REF) {
    return grt_tools_parse_scalar(text, type, out_value);
  }
  out_value->type = GRT_VM_VALUE_TYPE_REF;
  if (strcmp(text, "(null)") == 0) return grt_ok_status();
  grt_tools_host_tensor_t tensor;
  GRT_RETURN_IF_ERROR(grt_tools_parse_host_tensor(io, text, &tensor));
  grt_hal_buffer_view_t* view = NULL;
  grt_status_t status = grt_hal_buffer_view_allocate_from_host(
      device, tensor.shape, tensor.rank, tensor.element_type, tensor.data,
      tensor.data_length, &view);
  grt_tools_host_tensor_free(io, &tensor);
  GRT_RETURN_IF_ERROR(status);
  out_value->ref = grt_runtime_buffer_view_ref_retain(view);
  grt_hal_buffer_view_release(view);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

// The name of a result's type for messages: "i32", "hal.buffer_view".
static const char* grt_tools_value_type_name(const grt_vm_variant_t* value) {
  if (value->type != GRT_VM_VALUE_TYPE_REF) {
    return grt_vm_value_type_name(value->type);
  }
  return value->ref.type ? value->ref.type->name : "(null)";
}

// A result in host memory; a buffer view's first |max_elements| elements
// only (0: all), so printing copies no more than it prints. The tensor
// keeps its full shape; data_length says how much was read.
static grt_status_t grt_tools_result_prefix_to_host(
    grt_tools_tensor_io_t* io, grt_hal_device_t* device,
    const grt_vm_variant_t* value, size_t max_elements,
    grt_tools_host_tensor_t* out_tensor) {
  memset(out_tensor, 0, sizeof(*out_tensor));
  grt_hal_element_type_t scalar_type = GRT_HAL_ELEMENT_TYPE_NONE;
  switch (value->type) {
    case GRT_VM_VALUE_TYPE_I32:
      scalar_type = GRT_HAL_ELEMENT_TYPE_INT_32;
      break;
    case GRT_VM_VALUE_TYPE_I64:
      scalar_type = GRT_HAL_ELEMENT_TYPE_INT_64;
      break;
    case GRT_VM_VALUE_TYPE_F32:
      scalar_type = GRT_HAL_ELEMENT_TYPE_FLOAT_32;
      break;
    case GRT_VM_VALUE_TYPE_F64:
      scalar_type = GRT_HAL_ELEMENT_TYPE_FLOAT_64;
      break;
    default:
      break;
  }
  if (scalar_type != GRT_HAL_ELEMENT_TYPE_NONE) {
    out_tensor->element_type = scalar_type;
    out_tensor->data_length = grt_hal_element_type_byte_size(scalar_type);
    GRT_RETURN_IF_ERROR(grt_allocator_malloc(
        io->host_allocator, out_tensor->data_length, &out_tensor->data));
    out_tensor->owns_data = true;
    // The variant's storage starts with the value for every primitive type.
    memcpy(out_tensor->data, &value->i32, out_tensor->data_length);
    return grt_ok_status();
  }
  if (value->type != GRT_VM_VALUE_TYPE_REF || !value->ref.ptr ||
      value->ref.type != &grt_runtime_hal_buffer_view_type) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "expected a scalar or hal.buffer_view, got %s",
                           grt_tools_value_type_name(value));
  }
  grt_hal_buffer_view_t* view = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_buffer_view_from_ref(&value->ref, &view));
  out_tensor->element_type = grt_hal_buffer_view_element_type(view);
  out_tensor->rank = grt_hal_buffer_view_rank(view);
  memcpy(out_tensor->shape, grt_hal_buffer_view_shape(view),
         out_tensor->rank * sizeof(grt_hal_dim_t));
  uint64_t length = grt_hal_buffer_view_byte_length(view);
  if (length > SIZE_MAX / 2) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "result of %" PRIu64 " bytes is too large for host "
                           "memory",
                           length);
  }
  uint64_t count = 0;
  size_t element_size = grt_hal_element_type_byte_size(out_tensor->element_type);
  grt_status_t status = grt_hal_shape_element_count(
      out_tensor->shape, out_tensor->rank, &count);
  // Elements are laid out in order, so the first ones are a prefix of the
  // bytes (checked, in case a type's elements are not whole bytes).
  bool partial = grt_status_is_ok(status) && max_elements && element_size &&
                 count > max_elements &&
                 length == count * (uint64_t)element_size;
  grt_status_free(status);
  if (partial) length = (uint64_t)max_elements * element_size;
  out_tensor->data_length = (size_t)length;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(
      io->host_allocator, out_tensor->data_length, &out_tensor->data));
  out_tensor->owns_data = true;
  if (partial) {
    status = grt_hal_device_transfer_d2h(device,
                                         grt_hal_buffer_view_buffer(view), 0,
                                         out_tensor->data,
                                         out_tensor->data_length);
  } else {
    status = grt_hal_buffer_view_read_to_host(device, view, out_tensor->data,
                                              out_tensor->data_length);
  }
  if (!grt_status_is_ok(status)) grt_tools_host_tensor_free(io, out_tensor);
  return status;
}

grt_status_t grt_tools_result_to_host(grt_tools_tensor_io_t* io,
                                      grt_hal_device_t* device,
                                      const grt_vm_variant_t* value,
                                      grt_tools_host_tensor_t* out_tensor) {
  return grt_tools_result_prefix_to_host(io, device, value, 0, out_tensor);
}

// The shortest decimal that reads back as the same value, so scalar
// results print as "f32=3.14" rather than "3.1400001".
static void grt_tools_format_float(double value, bool single, char* buffer,
                                   size_t capacity) {
  if (isnan(value)) {
    snprintf(buffer, capacity, "%s", signbit(value) ? "-nan" : "nan");
    return;
  }
  int max_digits = single ? 9 : 17;
  for (int digits = 1; digits <= max_digits; ++digits) {
    snprintf(buffer, capacity, "%.*g", digits, value);
    double back = strtod(buffer, NULL);
    if (single ? (float)back == (float)value : back == value) return;
  }
}

// Prints "2x2xf32=[1 2][3 4]" and a newline.
static grt_status_t grt_tools_print_tensor(grt_tools_tensor_io_t* io,
                                           const grt_tools_host_tensor_t* tensor,
                                           size_t max_elements, FILE* stream) {
  char shape[256];
  grt_hal_shape_format(tensor->shape, tensor->rank, tensor->element_type,
                       shape, sizeof(shape));
  size_t length =
      grt_hal_format_elements(tensor->data, tensor->shape, tensor->rank,
                              tensor->element_type, max_elements, NULL, 0);
  char* text = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_malloc(io->host_allocator, length + 1, (void**)&text));
  grt_hal_format_elements(tensor->data, tensor->shape, tensor->rank,
                          tensor->element_type, max_elements, text,
                          length + 1);
  fprintf(stream, "%s=%s\n", shape, text);
  grt_allocator_free(io->host_allocator, text);
  return grt_ok_status();
}

grt_status_t grt_tools_print_result(grt_tools_tensor_io_t* io,
                                    grt_hal_device_t* device, size_t index,
                                    const grt_vm_variant_t* value,
                                    size_t max_elements, FILE* stream) {
  char text[64];
  fprintf(stream, "result[%zu]: ", index);
  switch (value->type) {
    case GRT_VM_VALUE_TYPE_I32:
      fprintf(stream, "i32=%" PRId32 "\n", value->i32);
      return grt_ok_status();
    case GRT_VM_VALUE_TYPE_I64:
      fprintf(stream, "i64=%" PRId64 "\n", value->i64);
      return grt_ok_status();
    case GRT_VM_VALUE_TYPE_F32:
      grt_tools_format_float(value->f32, true, text, sizeof(text));
      fprintf(stream, "f32=%s\n", text);
      return grt_ok_status();
    case GRT_VM_VALUE_TYPE_F64:
      grt_tools_format_float(value->f64, false, text, sizeof(text));
      fprintf(stream, "f64=%s\n", text);
      return grt_ok_status();
    default:
      break;
  }
  if (!value->ref.ptr) {
    fprintf(stream, "(null)\n");
  } else if (value->ref.type == &grt_runtime_hal_buffer_view_type) {
    fprintf(stream, "hal.buffer_view\n");
    grt_tools_host_tensor_t tensor;
    GRT_RETURN_IF_ERROR(grt_tools_result_prefix_to_host(
        io, device, value, max_elements, &tensor));
    grt_status_t status =
        grt_tools_print_tensor(io, &tensor, max_elements, stream);
    grt_tools_host_tensor_free(io, &tensor);
    return status;
  } else if (value->ref.type == grt_vm_buffer_type()) {
    fprintf(stream, "vm.buffer[%" PRIu64 " bytes]\n",
            grt_vm_buffer_length((const grt_vm_buffer_t*)value->ref.ptr));
  } else if (value->ref.type == grt_vm_list_type()) {
    fprintf(stream, "vm.list[%zu elements]\n",
            grt_vm_list_size((const grt_vm_list_t*)value->ref.ptr));
  } else {
    fprintf(stream, "%s\n", value->ref.type->name);
  }
  return grt_ok_status();
}

// Raw bytes to |path|, replacing it or appending.
static grt_status_t grt_tools_write_raw(const char* path, bool append,
                                        const void* data, size_t length) {
  grt_file_chunk_t chunk = {data, length};
  return grt_file_write_chunks(
      path, &chunk, 1, append ? GRT_FILE_WRITE_APPEND : GRT_FILE_WRITE_REPLACE);
}

grt_status_t grt_tools_write_result(grt_tools_tensor_io_t* io,
                                    grt_hal_device_t* device,
                                    const char* target, size_t index,
                                    const grt_vm_variant_t* value,
                                    size_t max_elements, FILE* stream) {
  if (strcmp(target, "-") == 0) {
    return grt_tools_print_result(io, device, index, value, max_elements,
                                  stream);
  }
  if ((target[0] != '@' && target[0] != '+') || target[1] == '\0') {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "--output '%s': expected -, @FILE or +FILE "
                           "(.npy or raw bytes)",
                           target);
  }
  bool append = target[0] == '+';
  const char* path = target + 1;
  grt_tools_host_tensor_t tensor;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_tools_result_to_host(io, device, value, &tensor),
      "--output '%s' for result %zu", target, index);
  grt_status_t status = grt_ok_status();
  bool npy = grt_string_view_ends_with(grt_make_cstring_view(path),
                                       grt_make_cstring_view(".npy"));
  if (npy && grt_hal_element_type_is_packed(tensor.element_type)) {
    // numpy has no 2- or 4-bit integers: the values go out one per byte,
    // as int8 (i2, i4) or uint8 (ui2, ui4).
    uint64_t count = 0;
    status = grt_hal_shape_element_count(tensor.shape, tensor.rank, &count);
    uint8_t* unpacked = NULL;
    if (grt_status_is_ok(status) && count > SIZE_MAX / 2) {
      status = grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                               "result of %" PRIu64 " elements is too large",
                               count);
    }
    if (grt_status_is_ok(status)) {
      status = grt_allocator_malloc(io->host_allocator, count ? (size_t)count : 1,
                                    (void**)&unpacked);
    }
    if (grt_status_is_ok(status)) {
      for (uint64_t i = 0; i < count; ++i) {
        unpacked[i] = grt_hal_packed_element(tensor.element_type, tensor.data, i);
      }
      status = grt_npy_write_file(
          path, append,
          grt_hal_element_type_kind(tensor.element_type) == GRT_HAL_NUMERICAL_UNSIGNED
              ? GRT_HAL_ELEMENT_TYPE_UINT_8
              : GRT_HAL_ELEMENT_TYPE_INT_8,
          tensor.shape, tensor.rank, unpacked, (size_t)count);
      grt_allocator_free(io->host_allocator, unpacked);
    }
  } else if (npy) {
    status = grt_npy_write_file(path, append, tensor.element_type,
                                tensor.shape, tensor.rank, tensor.data,
                                tensor.data_length);
  } else {
    status = grt_tools_write_raw(path, append, tensor.data, tensor.data_length);
  }
  grt_tools_host_tensor_free(io, &tensor);
  return grt_status_annotate(status, "--output '%s' for result %zu", target,
                             index);
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

static double grt_tools_float_at(grt_hal_element_type_t type, const void* p) {
  uint16_t half;
  float f32;
  double f64;
  switch (type) {
    case GRT_HAL_ELEMENT_TYPE_FLOAT_16:
      memcpy(&half, p, 2);
      return grt_hal_f16_to_f32(half);
    case GRT_HAL_ELEMENT_TYPE_BFLOAT_16:
      memcpy(&half, p, 2);
      return grt_hal_bf16_to_f32(half);
    case GRT_HAL_ELEMENT_TYPE_FLOAT_32:
      memcpy(&f32, p, 4);
      return f32;
    default:
      memcpy(&f64, p, 8);
      return f64;
  }
}

// Whether element |i| of two tensors of |type| match.
static bool grt_tools_element_matches(grt_hal_element_type_t type,
                                      const uint8_t* expected,
                                      const uint8_t* actual,
                                      const grt_tools_thresholds_t* t) {
  size_t size = grt_hal_element_type_byte_size(type);
  if (grt_hal_element_type_kind(type) != GRT_HAL_NUMERICAL_FLOAT_IEEE &&
      grt_hal_element_type_kind(type) != GRT_HAL_NUMERICAL_FLOAT_BRAIN) {
    return memcmp(expected, actual, size) == 0;
  }
  double e = grt_tools_float_at(type, expected);
  double a = grt_tools_float_at(type, actual);
  if (isnan(e) || isnan(a)) return isnan(e) && isnan(a);
  if (e == a) return true;  // also equal infinities
  double tolerance = size == 2 ? t->f16 : size == 4 ? t->f32 : t->f64;
  return fabs(e - a) <= tolerance;
}

grt_status_t grt_tools_compare_result(grt_tools_tensor_io_t* io,
                                      grt_hal_device_t* device, size_t index,
                                      const char* expected_text,
                                      const grt_vm_variant_t* value,
                                      const grt_tools_thresholds_t* thresholds,
                                      bool* out_matched, char* message,
                                      size_t message_capacity) {
  *out_matched = false;
  if (message_capacity) message[0] = '\0';
  bool expect_null = strcmp(expected_text, "(null)") == 0;
  if (value->type == GRT_VM_VALUE_TYPE_REF &&
      (!value->ref.ptr || expect_null)) {
    *out_matched = expect_null == !value->ref.ptr;
    if (!*out_matched) {
      snprintf(message, message_capacity, "result[%zu]: expected %s, got %s",
               index, expected_text, grt_tools_value_type_name(value));
    }
    return grt_ok_status();
  }
  grt_tools_host_tensor_t actual;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_tools_result_to_host(io, device, value, &actual),
      "--expected_output for result %zu", index);
  grt_tools_host_tensor_t expected;
  grt_status_t status;
  // A bare number for a scalar result takes the result's type ("5").
  if (actual.rank == 0 && !strchr(expected_text, '=') &&
      expected_text[0] != '@') {
    memset(&expected, 0, sizeof(expected));
    expected.element_type = actual.element_type;
    expected.data_length = actual.data_length;
    status = grt_allocator_malloc(io->host_allocator, expected.data_length,
                                  &expected.data);
    expected.owns_data = grt_status_is_ok(status);
    if (grt_status_is_ok(status)) {
      status = grt_hal_parse_elements(grt_make_cstring_view(expected_text),
                                      expected.element_type, 1, expected.data,
                                      expected.data_length);
    }
  } else {
    status = grt_tools_parse_host_tensor(io, expected_text, &expected);
  }
  if (!grt_status_is_ok(status)) {
    grt_tools_host_tensor_free(io, &actual);
    return grt_status_annotate(status, "--expected_output '%s' for result %zu",
                               expected_text, index);
  }
  char expected_type[256], actual_type[256];
  grt_hal_shape_format(expected.shape, expected.rank, expected.element_type,
                       expected_type, sizeof(expected_type));
  grt_hal_shape_format(actual.shape, actual.rank, actual.element_type,
                       actual_type, sizeof(actual_type));
  if (strcmp(expected_type, actual_type) != 0) {
    snprintf(message, message_capacity, "result[%zu]: expected %s, got %s",
             index, expected_type, actual_type);
  } else if (grt_hal_element_type_is_packed(actual.element_type)) {
    // Field by field, so the mismatch names the element, not its byte.
    uint64_t count = 0;
    if (!grt_status_consume_ok(
            grt_hal_shape_element_count(actual.shape, actual.rank, &count))) {
      count = 0;
    }
    uint64_t i = 0;
    uint8_t want = 0, got = 0;
    for (; i < count; ++i) {
      want = grt_hal_packed_element(actual.element_type, expected.data, i);
      got = grt_hal_packed_element(actual.element_type, actual.data, i);
      if (want != got) break;
    }
    if (i == count) {
      *out_matched = true;
    } else {
      char want_text[64], got_text[64];
      grt_hal_element_type_t byte_type =
          GRT_HAL_ELEMENT_TYPE(grt_hal_element_type_kind(actual.element_type), 8);
      grt_hal_format_elements(&want, NULL, 0, byte_type,
                              0, want_text, sizeof(want_text));
      grt_hal_format_elements(&got, NULL, 0, byte_type,
                              0, got_text, sizeof(got_text));
      snprintf(message, message_capacity,
               "result[%zu]: element %" PRIu64 ": expected %s, got %s", index, i,
               want_text, got_text);
    }
  } else {
    size_t size = grt_hal_element_type_byte_size(actual.element_type);
    size_t count = size ? actual.data_length / size : 0;
    size_t i = 0;
    for (; i < count; ++i) {
      if (!grt_tools_element_matches(
              actual.element_type, (const uint8_t*)expected.data + i * size,
              (const uint8_t*)actual.data + i * size, thresholds)) {
        break;
      }
    }
    if (i == count) {
      *out_matched = true;
    } else {
      char want[64], got[64];
      grt_hal_format_elements((const uint8_t*)expected.data + i * size, NULL,
                              0, actual.element_type, 0, want, sizeof(want));
      grt_hal_format_elements((const uint8_t*)actual.data + i * size, NULL, 0,
                              actual.element_type, 0, got, sizeof(got));
      snprintf(message, message_capacity,
               "result[%zu]: element %zu: expected %s, got %s", index, i, want,
               got);
    }
  }
  grt_tools_host_tensor_free(io, &expected);
  grt_tools_host_tensor_free(io, &actual);
  return grt_ok_status();
}
