// Pretty forms of the builtin and func dialects (module, func.func,
// func.return, func.call), and the function/call/return shapes they share
// with other dialects (vm.func, vm.import, vm.call, vm.return use the same
// helpers with their own flags).
#ifndef GRT_COMPILER_MLIR_BUILTIN_SYNTAX_H_
#define GRT_COMPILER_MLIR_BUILTIN_SYNTAX_H_

#include "compiler/mlir/parser.h"

#ifdef __cplusplus
extern "C" {
#endif

// Always registered by the parser.
extern const grtc_dialect_syntax_t grtc_builtin_dialect_syntax;

typedef enum grtc_function_flags_e {
  GRTC_FUNCTION_ALLOW_BODY = 1u << 0,      // `{ ... }` may follow
  GRTC_FUNCTION_ALLOW_VARIADIC = 1u << 1,  // `%a : i32 ...` (vm.import)
  GRTC_FUNCTION_ALLOW_OPTIONAL = 1u << 2,  // `optional` keyword (vm.import)
} grtc_function_flags_t;

// [public|private|nested] [optional] @name(%a : t {attrs} loc(..), ...)
//   [-> t | -> (t {attrs}, ...)] [attributes {...}] [{ body }]
// Sets sym_name, function_type, sym_visibility, arg_attrs, res_attrs,
// is_variadic (array of bools, only when some argument is) and optional.
grt_status_t grtc_parse_function_op(grtc_parser_t* parser,
                                    grtc_op_state_t* state, uint32_t flags)
    GRT_MUST_USE;

// @callee(%a, %b) [{attrs}] : (t1, t2) -> results; sets `callee`.
grt_status_t grtc_parse_call_op(grtc_parser_t* parser, grtc_op_state_t* state)
    GRT_MUST_USE;

// [%a, %b : t1, t2] [{attrs}]
grt_status_t grtc_parse_return_op(grtc_parser_t* parser,
                                  grtc_op_state_t* state) GRT_MUST_USE;

// module-like: [visibility] [@name] [attributes {...}] { body }
grt_status_t grtc_parse_module_op(grtc_parser_t* parser,
                                  grtc_op_state_t* state) GRT_MUST_USE;

// The same, shaped as table row parsers, so every dialect whose module and
// function, call and return ops share the builtin syntax (vm.module,
// vm.func, vm.call, vm.return) reuses them.
grt_status_t grtc_parse_module_syntax(grtc_parser_t* parser,
                                      const grtc_op_syntax_t* syntax,
                                      grtc_op_state_t* state) GRT_MUST_USE;
grt_status_t grtc_parse_func_syntax(grtc_parser_t* parser,
                                    const grtc_op_syntax_t* syntax,
                                    grtc_op_state_t* state) GRT_MUST_USE;
grt_status_t grtc_parse_call_syntax(grtc_parser_t* parser,
                                    const grtc_op_syntax_t* syntax,
                                    grtc_op_state_t* state) GRT_MUST_USE;
grt_status_t grtc_parse_return_syntax(grtc_parser_t* parser,
                                      const grtc_op_syntax_t* syntax,
                                      grtc_op_state_t* state) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_MLIR_BUILTIN_SYNTAX_H_
