#include "tests/runtime/test_support.h"

#include <stdlib.h>

grt_status_t grt_runtime_test_filled_view(grt_hal_device_t* device, grt_hal_dim_t rows,
                                          grt_hal_dim_t columns, float value,
                                          grt_hal_buffer_view_t** out_view) {
  *out_view = NULL;
  size_t count = (size_t)(rows * columns);
  float* data = malloc(count * sizeof(float));
  if (!data) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "out of memory for a %zu-element test input", count);
  }
  for (size_t i = 0; i < count; ++i) data[i] = value;
  const grt_hal_dim_t shape[2] = {rows, columns};
  grt_status_t status = grt_hal_buffer_view_allocate_from_host(
      device, shape, 2, GRT_HAL_ELEMENT_TYPE_FLOAT_32, data, count * sizeof(float), out_view);
  free(data);
  return status;
}
