// The CPU target: every kernel of a module emitted as C against
// hal/local/kernel_abi.h and built with the system C compiler into one
// shared object, whose grt_kernel_library_query lists the kernels in
// kernel-set order (entry point i is kernel i).
#ifndef GRT_COMPILER_TARGET_CPU_CPU_TARGET_H_
#define GRT_COMPILER_TARGET_CPU_CPU_TARGET_H_

#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_builder.h"
#include "compiler/kernel/ir.h"
#include "compiler/tensor/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grtc_cpu_options_t {
  const char* cc;        // NULL: $CC, else "cc"
  const char* flags;     // extra flags appended to the command (may be NULL)
  // "host" (-march=native), "generic" (the baseline ISA), or a
  // comma-separated list such as "avx2,fma" / "avx512f" / "neon".
  const char* features;  // NULL means "host"
  int optimization_level;  // 0..3 -> -O0..-O3 (kernels use at least -O2
                           // unless 0)
  // Directory for temporaries (NULL: $TMPDIR or /tmp); removed afterwards.
  const char* temp_dir;
  // Keep the generated C here when non-NULL (for --dump-after / debugging).
  const char* keep_source_path;
} grtc_cpu_options_t;

// The C source of all kernels. With |static_library_name| the library is
// exported as `const grt_kernel_library_t* <name>_query(uint32_t)` and a
// `grt_status_t <name>_register(void)` that returns what
// grt_hal_local_register_static_library does (for --output-format=c-static);
// with NULL it exports grt_kernel_library_query for a shared object.
grt_status_t grtc_cpu_emit_c(const grtc_kernel_set_t* kernels,
                             const char* static_library_name,
                             grt_string_builder_t* out) GRT_MUST_USE;

// Emits, compiles and links the kernels into a shared object. On success
// *out_binary (allocated from |allocator|) holds the .so bytes and
// *out_format the executable format ("cpu-x86_64", "cpu-aarch64", ...)
// matching the compiler's target machine (from `cc -dumpmachine`). A
// compiler failure reports the command and its output.
grt_status_t grtc_cpu_build(const grtc_kernel_set_t* kernels,
                            const grtc_cpu_options_t* options,
                            grt_allocator_t allocator, uint8_t** out_binary,
                            size_t* out_binary_size,
                            char out_format[32]) GRT_MUST_USE;

// Filters prepacked at compile time (grtc_kconv_t.filter_packed): a
// constant filter of a convolution on the planar GEMM path is laid out as
// the GEMM's A panels, so the kernel reads them from rodata instead of
// packing the filter in every workgroup.
//
// Whether |kernel|'s filter can be prepacked: an f32 CONV2D the CPU runs on
// the planar GEMM path, its filter read only by the convolution and not
// packed yet. The caller also checks that the filter binding is a constant
// nothing else reads.
bool grtc_cpu_filter_prepackable(const grtc_kernel_t* kernel);
// Floats of |kernel|'s packed filter.
int64_t grtc_cpu_packed_filter_size(const grtc_kernel_t* kernel);
// Writes the packed form of |filter| (the filter binding's elements, read
// through the kernel's filter strides) to |out|
// (grtc_cpu_packed_filter_size floats) and rewrites |kernel| to read it:
// the generic body's filter loads index the packed layout, the binding's
// element count becomes the packed size and filter_packed is set.
grt_status_t grtc_cpu_prepack_filter(grtc_kernel_set_t* set,
                                     grtc_kernel_t* kernel,
                                     const float* filter,
                                     float* out) GRT_MUST_USE;
// 4-bit weights (grtc_kmatmul_t.rhs_packed4): the i8/ui8 rhs of an f32 x
// int -> f32 MATMUL kernel on the CPU's int4-weight GEMM, a constant whose
// values all fit in 4 bits (i4/ui4 held in i8/ui8), is stored two to a
// byte, element e in the low nibble of byte e/2 when e is even and the
// high one when odd.
//
// Whether |kernel|'s rhs can be packed: that shape, the rhs read only by
// the multiply, not bounds-checked and not packed yet.
bool grtc_cpu_rhs4_prepackable(const grtc_kernel_t* kernel);
// Whether the |count| values (i8 or ui8 by |elem|) fit in 4 bits.
bool grtc_cpu_rhs4_fits(grtc_elem_t elem, const uint8_t* values, int64_t count);
// Packs the rhs binding's |count| values to |out| ((count + 1) / 2 bytes)
// and rewrites |kernel| to read them: its generic body's rhs loads extract
// the fields, the binding's element count becomes the byte count and
// rhs_packed4 is set.
grt_status_t grtc_cpu_prepack_rhs4(grtc_kernel_set_t* set, grtc_kernel_t* kernel,
                                   const uint8_t* values, int64_t count,
                                   uint8_t* out) GRT_MUST_USE;
// Prepacks every filter of |module|'s DISPATCH ops that is a constant
// (CONSTANT op, not a splat or unfoldable) read by that one DISPATCH alone,
// whose kernel no other DISPATCH runs and grtc_cpu_filter_prepackable
// accepts: the constant's data becomes the packed panels (a rank-1
// tensor) and the kernel reads them; so does every such 4-bit rhs.
// *out_packed (may be NULL) counts them.
// Whether |kernel| is a CONV2D the CPU runs on its planar GEMM path, whose
// output-channel split may be chosen at run time
// (grtc_dispatch_plan_runtime_split): every channel tile of a pixel block
// builds the same im2col B panels again.
bool grtc_cpu_conv_takes_runtime_split(const grtc_kernel_t* kernel);

grt_status_t grtc_cpu_prepack_module(grtc_tmodule_t* module,
                                     grtc_kernel_set_t* kernels,
                                     uint32_t* out_packed) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_TARGET_CPU_CPU_TARGET_H_
