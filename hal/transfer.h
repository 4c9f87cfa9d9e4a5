// Transfers between host memory and device buffers, for any device.
//
// When the buffer is host-visible these map and copy; otherwise they stage
// through a host-visible buffer and a queue copy, waiting for completion.
// This is also the "direct path" for applications that do not need the
// VM (in the spirit of PJRT): create a device from the registry, make
// buffer views from host data, run command buffers, copy results back.
#ifndef GRT_HAL_TRANSFER_H_
#define GRT_HAL_TRANSFER_H_

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "hal/buffer.h"
#include "hal/buffer_view.h"
#include "hal/device.h"

#ifdef __cplusplus
extern "C" {
#endif

grt_status_t grt_hal_device_transfer_h2d(grt_hal_device_t* device,
                                         const void* source,
                                         grt_hal_buffer_t* target,
                                         uint64_t target_offset, size_t length)
    GRT_MUST_USE;
grt_status_t grt_hal_device_transfer_d2h(grt_hal_device_t* device,
                                         grt_hal_buffer_t* source,
                                         uint64_t source_offset, void* target,
                                         size_t length) GRT_MUST_USE;

// Allocates a device buffer of the tensor's size (usage DEFAULT) and
// copies |data| (|data_length| must equal the tensor's byte length, else
// INVALID_ARGUMENT naming both) into it.
grt_status_t grt_hal_buffer_view_allocate_from_host(
    grt_hal_device_t* device, const grt_hal_dim_t* shape, size_t rank,
    grt_hal_element_type_t element_type, const void* data, size_t data_length,
    grt_hal_buffer_view_t** out_view) GRT_MUST_USE;
// Copies the view's contents to |target| (|target_capacity| >= its byte
// length, else OUT_OF_RANGE).
grt_status_t grt_hal_buffer_view_read_to_host(grt_hal_device_t* device,
                                              grt_hal_buffer_view_t* view,
                                              void* target,
                                              size_t target_capacity)
    GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_TRANSFER_H_
