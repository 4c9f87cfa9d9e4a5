// The compiler driver: one input file to one module file, the pipeline
// behind grt-compile (and anything else that compiles programmatically).
//
// The input is an ONNX model (compiler/onnx, recognized by its bytes or a
// .onnx name) or MLIR text. A vm.module (IREE's vm dialect) is assembled as
// written by compiler/vm_asm. Anything else goes through the tensor
// pipeline (docs/compiler.md):
//
//   parse → import (compiler/stablehlo, or compiler/onnx) → verify → fold (not at -O0) →
//   verify → dispatch formation (compiler/dispatch) → kernel verify →
//   per target: kernels built (cpu: C → shared object) →
//   host program + memory plan (compiler/host) → .vmfb
//
// --output-format=c-static writes a C file instead: the kernels as C
// source for static linking and the module as a byte array, and NAME.h
// beside it declaring NAME_vmfb, NAME_vmfb_size and (with kernels)
// grt_status_t NAME_register(void).
#ifndef GRT_COMPILER_DRIVER_DRIVER_H_
#define GRT_COMPILER_DRIVER_DRIVER_H_

#include <stdio.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_builder.h"
#include "compiler/target/cpu/cpu_target.h"
#include "compiler/target/cuda/cuda_target.h"
#include "schemas/module_file.h"
#include "schemas/module_signature.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum grtc_output_format_e {
  GRTC_OUTPUT_FORMAT_VMFB = 0,  // the module file
  // C source: the CPU kernels (static library) and the module's bytes.
  GRTC_OUTPUT_FORMAT_C_STATIC,
} grtc_output_format_t;

// Zero means the default so that options stay zero-initializable; -On is
// GRTC_OPT_O0 + n.
typedef enum grtc_opt_level_e {
  GRTC_OPT_DEFAULT = 0,  // -O2
  GRTC_OPT_O0,  // no folding, no fusion (one kernel per op), kernels at -O0
  GRTC_OPT_O1,  // folding and fusion; kernels at -O2 (the CPU target's floor)
  GRTC_OPT_O2,  // as -O1 (the default)
  GRTC_OPT_O3,  // as -O2, kernels built with -O3
} grtc_opt_level_t;

// The steps whose result --dump-after prints, in pipeline order:
// X(ENUM, name, what is printed).
#define GRTC_DUMP_PASS_LIST(X)                                       \
  X(IMPORT, "import", "the tensor IR as imported")                   \
  X(FOLD, "fold", "the tensor IR after folding (as imported at -O0)") \
  X(DISPATCH, "dispatch", "the tensor IR after dispatch formation")  \
  X(KERNELS, "kernels", "the kernel IR of every kernel")             \
  X(CPU, "cpu", "the C source of the CPU kernels")                   \
  X(VULKAN, "vulkan", "the GLSL of the Vulkan kernels")              \
  X(HOST, "host", "the host program as vm-dialect text")

// The names as one string literal, each after a space: " import fold ...".
#define GRTC_DUMP_PASS_SPACED(name, spelling, what) " " spelling
#define GRTC_DUMP_PASS_NAMES GRTC_DUMP_PASS_LIST(GRTC_DUMP_PASS_SPACED)

typedef enum grtc_dump_pass_e {
  GRTC_DUMP_NONE = 0,
#define GRTC_DUMP_PASS_ENUM(name, spelling, what) GRTC_DUMP_##name,
  GRTC_DUMP_PASS_LIST(GRTC_DUMP_PASS_ENUM)
#undef GRTC_DUMP_PASS_ENUM
} grtc_dump_pass_t;

typedef struct grtc_compile_options_t {
  // Comma-separated target names ("cpu", "cpu,vulkan"); NULL or "" means
  // "cpu". Known: cpu, vulkan, cuda.
  const char* targets;
  grtc_output_format_t output_format;
  grtc_opt_level_t opt_level;
  // A GRTC_DUMP_PASS_LIST name: print that step's result to |dump_file|
  // (NULL: stdout). NULL or "": no dump. vm-dialect inputs have no steps
  // to dump.
  const char* dump_after;
  FILE* dump_file;
  // CPU target settings (cc, flags, features, temp_dir). Its
  // optimization_level is ignored: the driver passes the level of
  // |opt_level|.
  grtc_cpu_options_t cpu;
  // Comma-separated machines the CPU kernels are built for, one executable
  // each ("aarch64-linux-gnu", "host,aarch64-linux-gnu"); NULL or "" means
  // "host". A triple builds with TRIPLE-gcc (unless cpu.cc names a compiler,
  // which then takes a single target) and, unless cpu.features says
  // otherwise, for that architecture's baseline ("generic": SSE2 on x86-64,
  // NEON on aarch64). The runtime runs the first executable its device can.
  const char* cpu_targets;
  // CUDA target settings: arch (NULL: sm_80; validated even when cuda is
  // not a target) and whether f32 matmuls may use tf32 tensor cores.
  grtc_cuda_options_t cuda;
  // c-static: the prefix of the emitted C names (<name>_register,
  // <name>_vmfb, <name>_vmfb_size) and the registered library name; NULL:
  // the module's name with every character outside [A-Za-z0-9_] made '_'.
  const char* c_static_name;
  // ONNX inputs: "NAME:1x3x224x224" entries pinning graph inputs' shapes
  // (grt-compile --onnx-input-shape; compiler/onnx/import.h).
  const char* const* onnx_input_shapes;
  uint32_t onnx_input_shape_count;
  // Signs the module with this key (grt-compile --sign-key; the c-static
  // array holds the signed bytes too); NULL: unsigned.
  const grt_module_secret_key_t* signing_key;
} grtc_compile_options_t;

// The grt version the compiler was built as ("0.1.0").
const char* grtc_compiler_version(void);

// Checks the options' values (targets, output format, level, dump pass)
// without compiling; errors name what was expected and given. The compile
// functions call it first; tools call it to tell usage errors apart.
grt_status_t grtc_compile_options_validate(
    const grtc_compile_options_t* options) GRT_MUST_USE;

// Parses |input_path|, compiles it and writes the result (the module file,
// or the C source for c-static, with NAME.h in the same directory) to
// |output_path|. Errors are
// file:line:col diagnostics from the parser and the passes, or name the
// file that could not be read or written.
grt_status_t grtc_compile_file(const char* input_path, const char* output_path,
                               const grtc_compile_options_t* options,
                               grt_allocator_t allocator) GRT_MUST_USE;

// As grtc_compile_file, from text in memory (|file_name| names it in
// diagnostics) into |writer|, for callers that keep the module in memory.
// Only for the vmfb output format.
grt_status_t grtc_compile_source(const char* source, size_t source_size,
                                 const char* file_name,
                                 const grtc_compile_options_t* options,
                                 grt_allocator_t allocator,
                                 grt_module_writer_t* writer) GRT_MUST_USE;

// The c-static output of |source| appended to |out|, and its header
// (NAME.h: the declarations) to |header_out| unless that is NULL (any
// output_format in |options| is taken to be c-static).
grt_status_t grtc_compile_source_c_static(const char* source,
                                          size_t source_size,
                                          const char* file_name,
                                          const grtc_compile_options_t* options,
                                          grt_allocator_t allocator,
                                          grt_string_builder_t* out,
                                          grt_string_builder_t* header_out)
    GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_DRIVER_DRIVER_H_
