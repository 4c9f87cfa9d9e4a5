// npy_copy IN.npy OUT.npy: reads every array of IN with tools/npy.h and
// appends each to OUT, printing "dtype shape" per array; the numpy
// cross-check (npy_numpy_check.py) drives it in both directions.
#include <inttypes.h>
#include <stdio.h>

#include "base/file.h"
#include "tools/npy.h"

static grt_status_t npy_copy(const char* in, const char* out) {
  grt_file_contents_t contents;
  GRT_RETURN_IF_ERROR(
      grt_file_read_contents(in, grt_allocator_system(), &contents));
  grt_const_byte_span_t span =
      grt_make_const_byte_span(contents.data, contents.size);
  grt_status_t status = grt_ok_status();
  bool first = true;
  for (size_t offset = 0; grt_status_is_ok(status) && offset < span.size;
       first = false) {
    grt_npy_array_t array;
    status = grt_npy_parse(in, span, &offset, &array);
    if (!grt_status_is_ok(status)) break;
    printf("%s", grt_npy_descr_for_element_type(array.element_type));
    for (size_t i = 0; i < array.rank; ++i) printf(" %" PRId64, array.shape[i]);
    printf("\n");
    status = grt_npy_write_file(out, !first, array.element_type, array.shape,
                                array.rank, array.data, array.data_length);
  }
  grt_file_contents_free(&contents);
  return status;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: npy_copy IN.npy OUT.npy\n");
    return 2;
  }
  grt_status_t status = npy_copy(argv[1], argv[2]);
  if (!grt_status_is_ok(status)) {
    grt_status_fprint(stderr, status);
    grt_status_free(status);
    return 1;
  }
  return 0;
}
