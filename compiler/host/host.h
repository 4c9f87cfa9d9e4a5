// The host program: a tensor IR module after dispatch formation (and its
// kernel set) to VM bytecode that checks inputs, allocates the transient
// arena and the results, records the dispatches into command buffers,
// submits, waits, and returns buffer views (docs/architecture.md §6).
//
// The program is built in memory as a vm.module with the typed builder
// (compiler/vm_asm/builder.h) and assembled into the writer directly: no
// text and no parser in between (the vm-dialect text is printed from the
// built module only when asked, for --dump-after=host). The executables
// are then added with one entry point per kernel
// (kernel i is entry point i; bindings per the DISPATCH contract in
// compiler/tensor/ir.h; workgroup size 1x1x1). Each function gets a
// buffer-level function "<name>$buffers" (arguments and results are
// !hal.buffer; CALL ops call these), and each public function an export
// "<name>" taking and returning !hal.buffer_view that asserts every
// argument's element type and shape ("argument 0: expected
// tensor<4xf32>, got ...") and wraps the results. Constants are rodata
// segments imported once (hal.allocator.import, from vm.initializer) into
// global !hal.buffer refs. Dispatches go into one command buffer per
// stretch of straight-line code, with an execution barrier only where a
// dispatch reads or overwrites bytes an earlier one of the stretch touched
// (reused arena space included); before a check, call, return or branch
// the work is submitted and awaited. if/case/while run in bytecode on the
// predicate or index read back (hal.buffer.load), carried values passed as
// block arguments. The run-time module name is the tensor module's name
// with every character other than a letter, digit or '_' replaced by '_'
// (functions are called as "module.function"). Every emitted op carries the tensor op's
// loc("file":line:col) so VM backtraces point at the source. The module
// writer records each function's transient arena size (memory_plan.h).
//
// Symbolic shapes (docs/compiler.md "Symbolic shapes", "The host
// program"): an export reads each symbolic argument dimension
// (hal.buffer_view.dim) and checks what the relations assume
// (hal.buffer_view.assert_dim); "<name>$buffers" takes the function's
// symbols as i64 after its buffers; sizes, arena slot offsets, kernel
// extents (push constants) and workgroup counts are computed from them;
// reusable recordings are keyed on their values. Extents a while loop
// changes or an if/case's branch decides are values of the loop header or
// the join block, and "<name>$buffers" returns those of its results after
// its buffers (docs/compiler.md "Loops that change size"). Symbols an op's
// shape rule computes otherwise are a diagnostic at the op.
#ifndef GRT_COMPILER_HOST_HOST_H_
#define GRT_COMPILER_HOST_HOST_H_

#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_builder.h"
#include "compiler/kernel/ir.h"
#include "compiler/mlir/ir.h"
#include "compiler/tensor/ir.h"
#include "schemas/module_file.h"

#ifdef __cplusplus
extern "C" {
#endif

// One compiled form of the kernel set (the CPU shared object, PTX, ...).
typedef struct grtc_host_executable_t {
  const char* format;  // "cpu-x86_64", ...
  const uint8_t* data;
  size_t size;
  // Per kernel (kernel-set order): the x workgroup size its entry point
  // records (y = z = 1), e.g. the CUDA block size; NULL: 1 for every
  // kernel (a CPU workgroup is one invocation).
  const uint32_t* workgroup_sizes;
  // Per kernel: how many workgroups a dispatch of it runs with this
  // executable (its targets tile the kernels their own way); NULL: the
  // kernel's workgroup_count.
  const uint32_t* workgroup_counts;
} grtc_host_executable_t;

// Straight-line functions (only constants, reshapes and dispatches) record
// a reusable command buffer on their first call, its bindings naming
// binding-table slots (arguments, the arena, results), keep it in a
// global and replay it with hal.device.queue.execute.indirect; this flag
// records every call one-shot instead.
#define GRTC_HOST_FLAG_ONE_SHOT 1u

typedef struct grtc_host_options_t {
  uint32_t flags;  // GRTC_HOST_FLAG_*; zero-initialize
} grtc_host_options_t;

// Emits the host program of |module| into |writer| (module name, bytecode,
// rodata, globals, exports, debug locations, transient sizes) and adds
// |executables|, executable i as the module file's executable i. Where
// the executables disagree on a kernel's workgroup count, the initializer
// reads hal.executable.variant (the index of the executable the runtime
// chose for the device) into global __variant, and each dispatch of that
// kernel picks its count with a select chain on it; elsewhere the count is
// a constant. When |optional_vm_text_out| is non-NULL the built
// program's vm-dialect text (compiler/vm_asm/vm_printer.h) is appended to
// it, also when assembling it fails. Unsupported ops are
// "file:line:col: error: ..." diagnostics at the op.
grt_status_t grtc_host_emit(const grtc_tmodule_t* module,
                            const grtc_kernel_set_t* kernels,
                            const grtc_host_executable_t* executables,
                            uint32_t executable_count,
                            const grtc_host_options_t* options,
                            grt_allocator_t allocator,
                            grt_module_writer_t* writer,
                            grt_string_builder_t* optional_vm_text_out)
    GRT_MUST_USE;

// Builds the host program as a vm.module (compiler/mlir/ir.h; find it with
// grtc_vm_find_module) without assembling it; |executables| (which it does
// not add) give the workgroup counts as for grtc_host_emit. Free
// *out_module with grtc_module_destroy, before |module|: its rodata
// segments refer to the constants' bytes.
grt_status_t grtc_host_build(const grtc_tmodule_t* module,
                             const grtc_kernel_set_t* kernels,
                             const grtc_host_executable_t* executables,
                             uint32_t executable_count,
                             const grtc_host_options_t* options,
                             grt_allocator_t allocator,
                             grtc_module_t** out_module) GRT_MUST_USE;

// Only the printed text (no assembly), for tests and --dump-after.
grt_status_t grtc_host_emit_text(const grtc_tmodule_t* module,
                                 const grtc_kernel_set_t* kernels,
                                 const grtc_host_executable_t* executables,
                                 uint32_t executable_count,
                                 const grtc_host_options_t* options,
                                 grt_allocator_t allocator,
                                 grt_string_builder_t* out) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_HOST_HOST_H_
