// The ONNX front-end: an ONNX ModelProto (as torch.onnx.export and the ONNX
// model zoos write it) into the tensor IR, so that folding, dispatch
// formation, memory planning and every backend serve ONNX models unchanged
// (docs/onnx.md).
//
// The protobuf is decoded with protobuf-c from code generated at build time
// from Debian's onnx.proto, then checked: every tensor's data against its
// type and shape, every node's inputs against the values defined before it
// (graphs are topologically sorted), every op against the importer's table
// with its opset. The graph becomes public function @main: its inputs that
// are not initializers are the arguments, in the graph's order, and its
// outputs the results, in order. Initializers become constants that point
// into the decoded model (no text form, no second copy); the model is freed
// with the tensor module.
//
// Errors name the file and the node: "m.onnx: node 3 'conv1' (Conv, opset
// 13): ...". Ops the importer emits carry the location
// loc("<node name>"("m.onnx":<node number>:1)), so later diagnostics and
// debug info name the node too.
#ifndef GRT_COMPILER_ONNX_IMPORT_H_
#define GRT_COMPILER_ONNX_IMPORT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "compiler/tensor/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grtc_onnx_options_t {
  // "NAME:1x3x224x224" (grt-compile --onnx-input-shape, repeatable): the
  // shape of graph input NAME, pinning its symbolic (dim_param) or unknown
  // dimensions. Each must name a graph input and agree with the dimensions
  // the model fixes.
  const char* const* input_shapes;
  uint32_t input_shape_count;
} grtc_onnx_options_t;

// Whether |data| looks like an ONNX model rather than MLIR text: |file_name|
// ends in ".onnx", or the bytes are binary (a NUL or another control byte
// in the first 4 KiB, which MLIR text never has) and begin like a
// ModelProto field. Only a guess: grtc_onnx_import decides.
bool grtc_onnx_is_input(const uint8_t* data, size_t size,
                        const char* file_name);

// Imports the model in |data| (|file_name| names it in errors; its folder
// is where external_data files are read from). |data| may be released as
// soon as this returns.
grt_status_t grtc_onnx_import(const uint8_t* data, size_t size,
                              const char* file_name,
                              const grtc_onnx_options_t* options,
                              grt_allocator_t allocator,
                              grtc_tmodule_t** out_module) GRT_MUST_USE;

// The ONNX op types the importer handles in the default domain (ai.onnx),
// one per call with |index| from 0 until it returns NULL, for docs/onnx.md's
// check and `grt-compile --list-onnx-ops`.
const char* grtc_onnx_supported_op(uint32_t index);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_ONNX_IMPORT_H_
