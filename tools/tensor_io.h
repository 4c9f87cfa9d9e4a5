// Values on the command line and in files, for grt-run: what --input,
// --output and --expected_output mean (IREE's spelling), kept out of the
// tool's main so it can be tested and reused.
//
// Value text (for --input and --expected_output):
//   25, i32=25, 0x10, 1.5, f32=2   a scalar argument (its type comes from
//                                  the function's signature)
//   (null)                         a null ref
//   2x2xf32=1 2 3 4                a tensor; brackets "[[1 2][3 4]]" or
//   2x2xf32=[1 2][3 4]             IREE's "[1 2][3 4]" are checked against
//   2x2xf32=0                      the shape; one value is a splat
//   1x28x28x1xf32                  a shape alone: zero-filled (IREE's rule)
//   @x.npy                         the next array of x.npy (naming the same
//                                  file again reads the array after it)
//   2x2xf32=@raw.bin               raw little-endian bytes, size checked
// Files that are not regular files (pipes, FIFOs, devices) are read no
// further than expected: a .npy stream header by header and then exactly
// the data each declares, raw bytes up to the tensor's size (more is an
// error naming that bound).
// Tensor text is parsed by the HAL (grt_hal_shape_parse,
// grt_hal_parse_elements) and printed by it (grt_hal_format_elements), so
// there is one text form of tensors in grt.
//
// Output targets (--output, one per result in order):
//   -        print ("result[0]: hal.buffer_view" then "2x2xf32=[1 2][3 4]")
//   @y.npy   write a .npy file      +y.npy  append to one
//   @y.bin   write raw bytes        +y.bin  append raw bytes
#ifndef GRT_TOOLS_TENSOR_IO_H_
#define GRT_TOOLS_TENSOR_IO_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/allocator.h"
#include "base/file.h"
#include "base/status.h"
#include "hal/buffer_view.h"
#include "hal/device.h"
#include "vm/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

// A tensor in host memory: a parsed value, a .npy array or a result read
// back from the device. Scalars are rank 0.
typedef struct grt_tools_host_tensor_t {
  grt_hal_element_type_t element_type;
  size_t rank;
  grt_hal_dim_t shape[GRT_HAL_MAX_RANK];
  void* data;
  size_t data_length;
  bool owns_data;  // false when |data| points into a cached .npy file
} grt_tools_host_tensor_t;

// An open .npy file and how many of its arrays have been read. A regular
// file is mapped whole; anything else (a pipe, a FIFO, a device) is a
// stream read array by array: each header, then exactly the data it
// declares, so an endless stream such as /dev/zero is never read whole.
typedef struct grt_tools_npy_source_t {
  char* path;
  grt_file_contents_t contents;  // regular files
  size_t offset;
  size_t arrays_read;
  int stream_fd;  // streams; -1 for a regular file
} grt_tools_npy_source_t;

// State shared across the values of one run: the .npy files being read.
typedef struct grt_tools_tensor_io_t {
  grt_allocator_t host_allocator;
  grt_tools_npy_source_t* sources;
  size_t source_count;
  size_t source_capacity;
} grt_tools_tensor_io_t;

void grt_tools_tensor_io_initialize(grt_allocator_t host_allocator,
                                    grt_tools_tensor_io_t* out_io);
void grt_tools_tensor_io_deinitialize(grt_tools_tensor_io_t* io);

// Parses tensor text ("2x2xf32=1 2 3 4", "@x.npy", "4xi8=@raw.bin") into
// host memory. Free with grt_tools_host_tensor_free.
grt_status_t grt_tools_parse_host_tensor(grt_tools_tensor_io_t* io,
                                         const char* text,
                                         grt_tools_host_tensor_t* out_tensor)
    GRT_MUST_USE;
void grt_tools_host_tensor_free(grt_tools_tensor_io_t* io,
                                grt_tools_host_tensor_t* tensor);

// The VM value of |text| for an argument of |type|: a scalar for
// primitive types, (null) or a tensor (a buffer view allocated on
// |device|) for a ref.
grt_status_t grt_tools_parse_argument(grt_tools_tensor_io_t* io,
                                      grt_hal_device_t* device,
                                      const char* text,
                                      grt_vm_value_type_t type,
                                      grt_vm_variant_t* out_value)
    GRT_MUST_USE;

// A scalar or buffer-view result copied to host memory. Other refs are
// INVALID_ARGUMENT naming their type.
grt_status_t grt_tools_result_to_host(grt_tools_tensor_io_t* io,
                                      grt_hal_device_t* device,
                                      const grt_vm_variant_t* value,
                                      grt_tools_host_tensor_t* out_tensor)
    GRT_MUST_USE;

// Prints "result[i]: i32=5", or "result[i]: hal.buffer_view" and a line of
// its contents (at most |max_elements| elements; 0 = all). Only the
// elements printed are copied from the device.
grt_status_t grt_tools_print_result(grt_tools_tensor_io_t* io,
                                    grt_hal_device_t* device, size_t index,
                                    const grt_vm_variant_t* value,
                                    size_t max_elements, FILE* stream)
    GRT_MUST_USE;

// Handles one --output target for result |index|.
grt_status_t grt_tools_write_result(grt_tools_tensor_io_t* io,
                                    grt_hal_device_t* device,
                                    const char* target, size_t index,
                                    const grt_vm_variant_t* value,
                                    size_t max_elements, FILE* stream)
    GRT_MUST_USE;

// Absolute tolerances for float comparisons; integers compare exactly.
// bf16 uses the f16 tolerance.
typedef struct grt_tools_thresholds_t {
  double f16;
  double f32;
  double f64;
} grt_tools_thresholds_t;

// Compares result |index| with --expected_output text |expected|. On a
// mismatch *out_matched is false and |message| holds what differs:
// "result[0]: element 2: expected 3, got 4". Parse errors are returned.
grt_status_t grt_tools_compare_result(grt_tools_tensor_io_t* io,
                                      grt_hal_device_t* device, size_t index,
                                      const char* expected,
                                      const grt_vm_variant_t* value,
                                      const grt_tools_thresholds_t* thresholds,
                                      bool* out_matched, char* message,
                                      size_t message_capacity) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_TOOLS_TENSOR_IO_H_
