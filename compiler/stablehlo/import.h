// The StableHLO front-end: MLIR text as JAX and TensorFlow export it
// (stablehlo, func, arith, tensor.extract, util.unfoldable_constant,
// check.*) into the tensor IR.
//
// grtc_stablehlo_parse_options registers the pretty forms with the shared
// parser (compiler/mlir/parser.h); grtc_stablehlo_import then walks the
// parsed module, decodes every op's attributes (pretty and generic forms
// give the same IR) and builds a grtc_tmodule_t. An op or type it does not
// support is "file:line:col: error: 'stablehlo.collective_permute' is not supported" (also
// for stablehlo/chlo ops written in a pretty form this front-end lacks).
#ifndef GRT_COMPILER_STABLEHLO_IMPORT_H_
#define GRT_COMPILER_STABLEHLO_IMPORT_H_

#include "base/allocator.h"
#include "base/status.h"
#include "compiler/mlir/ir.h"
#include "compiler/mlir/parser.h"
#include "compiler/tensor/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

// Parse options with the stablehlo, chlo-free arith/tensor/util/check
// pretty forms registered (static storage; valid forever).
const grtc_parse_options_t* grtc_stablehlo_parse_options(void);

// Whether |module| holds StableHLO-style functions (a func.func at top
// level or inside a builtin.module) rather than a vm.module.
bool grtc_stablehlo_is_input(const grtc_module_t* module);

// Every op keeps its position (line, column) and a copy of its loc(...)
// (aliases resolved); literals and locations are copied into the tensor
// module, so |module| may be destroyed as soon as this returns.
grt_status_t grtc_stablehlo_import(const grtc_module_t* module,
                                   grt_allocator_t allocator,
                                   grtc_tmodule_t** out_module) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_STABLEHLO_IMPORT_H_
