// Parser: MLIR text to the generic IR (ir.h).
//
// Accepts the generic op form
//   %r:2 = "dialect.op"(%a, %b)[^bb1(%x : i32)] <{props}> ({regions}) {attrs}
//       : (types) -> types loc(...)
// and, for ops named bare (vm.add.i32 %a, %b : i32), the pretty form of
// whichever registered syntax table claims the name. The builtin module and
// the func dialect are always registered; other dialects (the vm assembler,
// StableHLO) pass their tables in grtc_parse_options_t.
//
// Errors are "file:line:col: error: ..." naming what was expected and what
// was found. The parser stops at the first error and never reads past the
// end of the text, whatever the input.
#ifndef GRT_COMPILER_MLIR_PARSER_H_
#define GRT_COMPILER_MLIR_PARSER_H_

#include "compiler/mlir/ir.h"
#include "compiler/mlir/lexer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grtc_parser_t grtc_parser_t;

// An op being parsed: what a pretty-form parser fills in. Vectors live in
// the arena (grt_arena_vec_t of the noted element type).
typedef struct grtc_op_state_t {
  grt_string_view_t name;
  grt_arena_vec_t operands;      // grtc_value_t*
  grt_arena_vec_t result_types;  // const grtc_type_t*
  grt_arena_vec_t attributes;    // grtc_named_attribute_t
  const grtc_attribute_t* properties;
  grt_arena_vec_t successors;    // grtc_successor_t
  grt_arena_vec_t regions;       // grtc_region_t*
  // How many results the text binds (%a, %b:2 = ...): pretty forms that
  // cannot spell their result types need it to know how many to produce.
  uint32_t bound_result_count;
  // Where the op's name starts in the source (|name| itself may be the
  // canonical spelling, not a view into the source).
  uint32_t name_line, name_column;
} grtc_op_state_t;

typedef struct grtc_op_syntax_t grtc_op_syntax_t;

// Parses everything after the op name up to (not including) the trailing
// location. |syntax| is the table row that matched, for its |data|.
typedef grt_status_t (*grtc_op_parse_fn_t)(grtc_parser_t* parser,
                                           const grtc_op_syntax_t* syntax,
                                           grtc_op_state_t* state);

struct grtc_op_syntax_t {
  // The name as written. A trailing '*' matches any suffix ("vm.add.*");
  // the longest match wins and exact names beat patterns.
  const char* name;
  // The op name stored in the IR when it differs from the written one
  // ("module" -> "builtin.module"); NULL to keep the written name.
  const char* canonical_name;
  grtc_op_parse_fn_t parse;
  const void* data;
  // Ops named without a dialect inside this op's regions get this prefix
  // ("func" makes `return` inside func.func mean func.return).
  const char* default_dialect;
};

typedef struct grtc_dialect_syntax_t {
  const grtc_op_syntax_t* ops;
  size_t count;
  // An older name of the dialect (NULL: none): an op named
  // |alias_prefix|NAME, in the generic or a pretty form, is parsed as
  // |canonical_prefix|NAME (StableHLO reads MHLO's "mhlo.add" as
  // "stablehlo.add"); diagnostics then use the canonical name.
  const char* alias_prefix;
  const char* canonical_prefix;
} grtc_dialect_syntax_t;

typedef struct grtc_parse_options_t {
  const grtc_dialect_syntax_t* const* dialects;  // extra pretty forms
  size_t dialect_count;
} grtc_parse_options_t;

// Parses |source| (named |file_name| in diagnostics). The module owns a copy
// of the text; destroy it with grtc_module_destroy.
grt_status_t grtc_parse_source(grt_string_view_t source, const char* file_name,
                               const grtc_parse_options_t* options,
                               grt_allocator_t allocator,
                               grtc_module_t** out_module) GRT_MUST_USE;

// The most bytes of MLIR read from a file that cannot report its size (a
// pipe, a FIFO, a device such as /dev/zero): 256 MiB. Regular files are
// read whatever their size.
#define GRTC_MAX_SOURCE_STREAM_SIZE ((size_t)256 << 20)

// Reads and parses |path| (a stream at most GRTC_MAX_SOURCE_STREAM_SIZE
// bytes, else OUT_OF_RANGE naming that bound).
grt_status_t grtc_parse_file(const char* path,
                             const grtc_parse_options_t* options,
                             grt_allocator_t allocator,
                             grtc_module_t** out_module) GRT_MUST_USE;

//===----------------------------------------------------------------------===//
// Building blocks for pretty-form parsers
//===----------------------------------------------------------------------===//

const grtc_token_t* grtc_parser_token(const grtc_parser_t* parser);
grt_arena_t* grtc_parser_arena(grtc_parser_t* parser);
grt_status_t grtc_parser_advance(grtc_parser_t* parser) GRT_MUST_USE;

// An error at the current token: "file:line:col: error: <message>".
grt_status_t grtc_parser_error(grtc_parser_t* parser, const char* format, ...)
    GRT_PRINTF_LIKE(2, 3) GRT_MUST_USE;
grt_status_t grtc_parser_error_at(grtc_parser_t* parser,
                                  const grtc_token_t* token,
                                  const char* format, ...)
    GRT_PRINTF_LIKE(3, 4) GRT_MUST_USE;
// "expected <what>, found <the current token>".
grt_status_t grtc_parser_error_expected(grtc_parser_t* parser,
                                        const char* what) GRT_MUST_USE;

bool grtc_parser_at(const grtc_parser_t* parser, grtc_token_kind_t kind);
bool grtc_parser_at_keyword(const grtc_parser_t* parser, const char* keyword);
// Consumes the token if it is |kind| / |keyword|; *out_found says whether.
grt_status_t grtc_parser_consume_if(grtc_parser_t* parser,
                                    grtc_token_kind_t kind, bool* out_found)
    GRT_MUST_USE;
grt_status_t grtc_parser_consume_keyword_if(grtc_parser_t* parser,
                                            const char* keyword,
                                            bool* out_found) GRT_MUST_USE;
// Consumes a |kind| token or fails with "expected <kind> <context>, found
// ...", e.g. context "to close the operand list".
grt_status_t grtc_parser_expect(grtc_parser_t* parser, grtc_token_kind_t kind,
                                const char* context) GRT_MUST_USE;

grt_status_t grtc_parser_parse_type(grtc_parser_t* parser,
                                    const grtc_type_t** out_type) GRT_MUST_USE;
// Parses a comma-separated type list, parenthesized or not ("i32, i32" or
// "(i32, i32)" or "()"), appending to |types| (const grtc_type_t*).
grt_status_t grtc_parser_parse_type_list(grtc_parser_t* parser,
                                         grt_arena_vec_t* types) GRT_MUST_USE;
grt_status_t grtc_parser_parse_attribute(grtc_parser_t* parser,
                                         const grtc_attribute_t** out_attribute)
    GRT_MUST_USE;
// Parses `{name = value, ...}` appending to |attributes|
// (grtc_named_attribute_t); duplicate names are errors.
grt_status_t grtc_parser_parse_attribute_dict(grtc_parser_t* parser,
                                              grt_arena_vec_t* attributes)
    GRT_MUST_USE;
// As above when the current token is '{'; does nothing otherwise.
grt_status_t grtc_parser_parse_optional_attribute_dict(
    grtc_parser_t* parser, grt_arena_vec_t* attributes) GRT_MUST_USE;
// Parses `attributes {...}` when the keyword is present.
grt_status_t grtc_parser_parse_optional_attributes_keyword(
    grtc_parser_t* parser, grt_arena_vec_t* attributes) GRT_MUST_USE;
// Parses a use of a defined SSA value (%x or %x#1).
grt_status_t grtc_parser_parse_operand(grtc_parser_t* parser,
                                       grtc_value_t** out_value) GRT_MUST_USE;
// Parses a symbol name (@foo or @"foo") and returns it decoded.
grt_status_t grtc_parser_parse_symbol_name(grtc_parser_t* parser,
                                           grt_string_view_t* out_name)
    GRT_MUST_USE;
grt_status_t grtc_parser_parse_string(grtc_parser_t* parser,
                                      grt_string_view_t* out_value)
    GRT_MUST_USE;
// Parses `^bb` or `^bb(%a, %b : t1, t2)` (also `^bb(%a : t1, %b : t2)`)
// and appends it to state->successors.
grt_status_t grtc_parser_parse_successor(grtc_parser_t* parser,
                                         grtc_op_state_t* state) GRT_MUST_USE;
// Parses a branch's operands: `^bb(args)`, or with |conditional| `%c,
// ^a(args), ^b(args)` (the condition appended to state->operands), then an
// optional attribute dictionary (vm.br / vm.cond_br, cf.br / cf.cond_br).
grt_status_t grtc_parser_parse_branch(grtc_parser_t* parser,
                                      grtc_op_state_t* state,
                                      bool conditional) GRT_MUST_USE;
// Parses `^bb` alone and appends it to state->successors with no operands
// (an op that defines the block's arguments itself, e.g. vm.call.yieldable).
grt_status_t grtc_parser_parse_successor_label(grtc_parser_t* parser,
                                               grtc_op_state_t* state)
    GRT_MUST_USE;

// An entry-block argument declared outside the region (function
// signatures): name token spelling "%arg0", type, optional location.
typedef struct grtc_argument_decl_t {
  grtc_token_t name;
  const grtc_type_t* type;
  const grtc_location_t* location;
} grtc_argument_decl_t;

// Parses `{ ... }` into a new region. With |entry_args| the entry block is
// created with those arguments and must not be labeled with other ones.
grt_status_t grtc_parser_parse_region(grtc_parser_t* parser,
                                      const grtc_argument_decl_t* entry_args,
                                      uint32_t entry_arg_count,
                                      grtc_region_t** out_region) GRT_MUST_USE;
// Parses `loc(...)` when present (*out_location stays NULL otherwise).
grt_status_t grtc_parser_parse_optional_location(
    grtc_parser_t* parser, const grtc_location_t** out_location) GRT_MUST_USE;

// Appends name = value to a grtc_named_attribute_t vector.
grt_status_t grtc_parser_add_attribute(grtc_parser_t* parser,
                                       grt_arena_vec_t* attributes,
                                       const char* name,
                                       const grtc_attribute_t* value)
    GRT_MUST_USE;

// Attribute and type constructors (arena-allocated; NULL on exhaustion).
const grtc_type_t* grtc_parser_integer_type(grtc_parser_t* parser,
                                            uint32_t width);
const grtc_type_t* grtc_parser_float_type(grtc_parser_t* parser,
                                          grtc_float_kind_t kind);
const grtc_attribute_t* grtc_parser_string_attr(grtc_parser_t* parser,
                                                grt_string_view_t value);
const grtc_attribute_t* grtc_parser_symbol_attr(grtc_parser_t* parser,
                                                grt_string_view_t name);
const grtc_attribute_t* grtc_parser_type_attr(grtc_parser_t* parser,
                                              const grtc_type_t* type);
const grtc_attribute_t* grtc_parser_unit_attr(grtc_parser_t* parser);
const grtc_attribute_t* grtc_parser_array_attr(
    grtc_parser_t* parser, const grtc_attribute_t* const* items,
    uint32_t count);
const grtc_attribute_t* grtc_parser_function_type_attr(
    grtc_parser_t* parser, const grtc_type_t* const* inputs,
    uint32_t input_count, const grtc_type_t* const* results,
    uint32_t result_count);

// Parses a bare numeric or boolean literal (no `: type` suffix) typed as
// |type|: `42`, `-1`, `0xFF`, `1.5`, `true`.
grt_status_t grtc_parser_parse_literal(grtc_parser_t* parser,
                                       const grtc_type_t* type,
                                       const grtc_attribute_t** out_attribute)
    GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_MLIR_PARSER_H_
