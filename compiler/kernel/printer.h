// The kernel IR as text, for --dump-after=dispatch and tests.
#ifndef GRT_COMPILER_KERNEL_PRINTER_H_
#define GRT_COMPILER_KERNEL_PRINTER_H_

#include "base/string_builder.h"
#include "compiler/kernel/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

void grtc_kernel_print(const grtc_kernel_t* kernel, grt_string_builder_t* out);
// " tile[AxB] wg=N" (no tile for a SORT kernel): the part of the kernel's
// first line that depends on how it is tiled, for dumps that show a
// target's own tiles.
void grtc_kernel_print_tiling(const grtc_kernel_t* kernel, grt_string_builder_t* out);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_KERNEL_PRINTER_H_
