// NumPy .npy files: how grt-run reads --input=@x.npy and writes
// --output=@y.npy / +y.npy, so arrays move between grt and Python without a
// conversion step.
//
// Supported: format versions 1.0, 2.0 and 3.0; little-endian, C-order
// arrays of the dtypes numpy and grt share:
//   <f2 <f4 <f8  |b1  |i1 <i2 <i4 <i8  |u1 <u2 <u4 <u8
// and complex64/complex128 (<c8 <c16), read as f32/f64 with a trailing
// dimension of 2 holding (re, im): a compiled module's complex tensors
// (docs/module-format.md "Complex tensors"). Written arrays keep their
// float type (an f32 ...x2 result is written as <f4).
// Everything else is rejected with a message naming the file and the
// problem (big-endian, fortran_order, object and structured dtypes, a
// truncated file). bf16 has no numpy dtype: writing one is refused (write
// raw bytes with @FILE.bin instead) rather than inventing a descr other
// tools would misread.
//
// Several arrays may follow one another in one file (IREE's --output=+y.npy
// appends, and numpy.load on an open file reads them in turn); parsing
// takes an offset and returns where the next array starts.
#ifndef GRT_TOOLS_NPY_H_
#define GRT_TOOLS_NPY_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "base/string_view.h"
#include "hal/buffer_view.h"

#ifdef __cplusplus
extern "C" {
#endif

// One array of a .npy file. |data| points into the bytes that were parsed.
typedef struct grt_npy_array_t {
  grt_hal_element_type_t element_type;
  size_t rank;
  grt_hal_dim_t shape[GRT_HAL_MAX_RANK];
  const void* data;
  size_t data_length;  // element count * element size
} grt_npy_array_t;

// The element type of a numpy dtype string ("<f4"), or an error naming the
// dtype; |name| (the file) prefixes the message.
grt_status_t grt_npy_element_type_from_descr(const char* name,
                                             grt_string_view_t descr,
                                             grt_hal_element_type_t* out_type)
    GRT_MUST_USE;
// The dtype string of |type| ("<f4"), or NULL when numpy has none (bf16).
const char* grt_npy_descr_for_element_type(grt_hal_element_type_t type);

// Parses the array starting at *inout_offset in |contents| (a whole file)
// and advances *inout_offset to the byte after its data. Errors start with
// |name|: "x.npy: fortran_order arrays are not supported".
grt_status_t grt_npy_parse(const char* name, grt_const_byte_span_t contents,
                           size_t* inout_offset, grt_npy_array_t* out_array)
    GRT_MUST_USE;

// The longest header dictionary read (numpy writes well under 1 KiB); a
// longer one is refused rather than read from a stream into memory.
#define GRT_NPY_MAX_HEADER_LENGTH (1 << 20)

// For reading a stream array by array: given the first |prefix.size| bytes
// of an array, *out_size is how many bytes come before its data (magic,
// version, header length and header). While |prefix| is too short to tell
// (under 10 bytes, or 12 for versions 2.0 and 3.0) *out_size is the number
// of bytes needed to tell. Errors as grt_npy_parse's.
grt_status_t grt_npy_header_size(const char* name, grt_const_byte_span_t prefix,
                                 size_t* out_size) GRT_MUST_USE;

// Parses the header of the array at |offset| without needing its data:
// |out_array| gets the type, shape and data_length (data stays NULL) and
// *out_data_offset where its data starts.
grt_status_t grt_npy_parse_header(const char* name,
                                  grt_const_byte_span_t contents,
                                  size_t offset, grt_npy_array_t* out_array,
                                  size_t* out_data_offset) GRT_MUST_USE;

// Writes the header for an array into |out| (|capacity| bytes): version
// 1.0, or 2.0 when the header does not fit 1.0's 16-bit length, padded so
// the data starts 64-byte aligned. *out_length receives its size.
grt_status_t grt_npy_format_header(grt_hal_element_type_t type,
                                   const grt_hal_dim_t* shape, size_t rank,
                                   char* out, size_t capacity,
                                   size_t* out_length) GRT_MUST_USE;

// Writes one array to |path|, replacing the file, or appending to it when
// |append| (creating it if missing). |data_length| must be the array's
// byte size.
grt_status_t grt_npy_write_file(const char* path, bool append,
                                grt_hal_element_type_t type,
                                const grt_hal_dim_t* shape, size_t rank,
                                const void* data, size_t data_length)
    GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_TOOLS_NPY_H_
