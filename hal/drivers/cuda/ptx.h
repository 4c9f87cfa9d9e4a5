// Checks of a "cuda-ptx" executable's binary before the driver sees it.
//
// The binary is one PTX text module holding every entry point, with or
// without a terminating NUL (NUL padding after it is allowed). The checks
// need no driver, so a bad module is reported the same way on every
// machine, and the text length cuModuleLoadDataEx will read is known:
// it is taken from the module, never trusted from a NUL that may be
// missing.
#ifndef GRT_HAL_DRIVERS_CUDA_PTX_H_
#define GRT_HAL_DRIVERS_CUDA_PTX_H_

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "hal/executable.h"

#ifdef __cplusplus
extern "C" {
#endif

// INCOMPATIBLE (naming the offset or the missing piece) unless |binary| is
// printable PTX text (tab, CR, LF and 0x20..0x7e) up to its first NUL or
// its end, with only NULs after that NUL, holding a `.version` directive
// and, for every expected entry point, a `.entry <name>` declaration.
// *out_text_length is the length of the text without the NUL.
grt_status_t grt_hal_cuda_ptx_validate(
    const uint8_t* binary, size_t binary_size,
    const grt_hal_entry_point_info_t* entry_points, size_t entry_point_count,
    size_t* out_text_length) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_DRIVERS_CUDA_PTX_H_
