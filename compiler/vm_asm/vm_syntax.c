#include "compiler/vm_asm/vm_syntax.h"

#include <stdio.h>
#include <string.h>

#include "compiler/mlir/builtin_syntax.h"
#include "compiler/mlir/printer.h"

//===----------------------------------------------------------------------===//
// The shared operand format
//===----------------------------------------------------------------------===//

typedef enum grtc_vm_result_rule_e {
  // From the types after ':' (the list after '->' when present), else from
  // the first i32/i64/f32/f64 component of the op name (vm.const.i32 1).
  GRTC_VM_RESULT_FROM_TYPES,
  // Comparisons and buffer.compare: always i32.
  GRTC_VM_RESULT_I32,
} grtc_vm_result_rule_t;

typedef struct grtc_vm_operand_format_t {
  const char* symbol_attr;   // what `@name` becomes, or NULL (not allowed)
  const char* literal_attr;  // what a number/string becomes, or NULL
  grtc_vm_result_rule_t result;
  // Takes no SSA operands. Needed to tell `%c0 = vm.const.i32.zero` from an
  // operand list: the next line's `%x = ...` must not be read as one.
  bool no_values;
} grtc_vm_operand_format_t;

static const grtc_vm_operand_format_t grtc_vm_plain = {
    NULL, NULL, GRTC_VM_RESULT_FROM_TYPES, false};
static const grtc_vm_operand_format_t grtc_vm_const = {
    "rodata", "value", GRTC_VM_RESULT_FROM_TYPES, true};
static const grtc_vm_operand_format_t grtc_vm_global_access = {
    "global", NULL, GRTC_VM_RESULT_FROM_TYPES, false};
static const grtc_vm_operand_format_t grtc_vm_import_resolved = {
    "import", NULL, GRTC_VM_RESULT_FROM_TYPES, true};
static const grtc_vm_operand_format_t grtc_vm_compare = {
    NULL, NULL, GRTC_VM_RESULT_I32, false};
static const grtc_vm_operand_format_t grtc_vm_message = {
    NULL, "message", GRTC_VM_RESULT_FROM_TYPES, false};

// The value type an op name spells (vm.const.f32.zero -> f32), or NULL.
static const grtc_type_t* grtc_vm_type_from_name(grtc_parser_t* parser,
                                                 grt_string_view_t name) {
  static const struct {
    const char* component;
    bool is_float;
    uint32_t width;
  } names[] = {{"i32", false, 32}, {"i64", false, 64}, {"f32", true, 32},
               {"f64", true, 64}};
  const char* p = name.data;
  const char* end = name.data + name.size;
  while (p < end) {
    const char* dot = memchr(p, '.', (size_t)(end - p));
    size_t length = (size_t)((dot ? dot : end) - p);
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i) {
      if (length == 3 && memcmp(p, names[i].component, 3) == 0) {
        return names[i].is_float
                   ? grtc_parser_float_type(parser, names[i].width == 32
                                                        ? GRTC_FLOAT_F32
                                                        : GRTC_FLOAT_F64)
                   : grtc_parser_integer_type(parser, names[i].width);
      }
    }
    p = dot ? dot + 1 : end;
  }
  return NULL;
}

static grt_status_t grtc_vm_push_operand(grtc_parser_t* parser,
                                         grtc_op_state_t* state) {
  grtc_value_t* value = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_operand(parser, &value));
  return grt_arena_vec_push(grtc_parser_arena(parser), &state->operands, &value,
                             sizeof(value));
}

static grt_status_t grtc_vm_parse_item(grtc_parser_t* parser,
                                       const grtc_vm_operand_format_t* format,
                                       grtc_op_state_t* state,
                                       bool* seen_symbol, bool* seen_literal) {
  const grtc_token_t* token = grtc_parser_token(parser);
  if (token->kind == GRTC_TOKEN_PERCENT_ID) {
    GRT_RETURN_IF_ERROR(grtc_vm_push_operand(parser, state));
    // %buffer[%offset] and %index[%a, %b] (switch) add the bracketed values.
    bool bracket = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_LSQUARE, &bracket));
    while (bracket) {
      GRT_RETURN_IF_ERROR(grtc_vm_push_operand(parser, state));
      bool comma = false;
      GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
      if (!comma) {
        GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RSQUARE,
                                               "to close the index list"));
        bracket = false;
      }
    }
    return grt_ok_status();
  }
  if (token->kind == GRTC_TOKEN_AT_ID && format->symbol_attr && !*seen_symbol) {
    *seen_symbol = true;
    grt_string_view_t name;
    GRT_RETURN_IF_ERROR(grtc_parser_parse_symbol_name(parser, &name));
    return grtc_parser_add_attribute(parser, &state->attributes, format->symbol_attr,
                                     grtc_parser_symbol_attr(parser, name));
  }
  bool literal = token->kind == GRTC_TOKEN_STRING || token->kind == GRTC_TOKEN_INTEGER ||
                 token->kind == GRTC_TOKEN_FLOAT || token->kind == GRTC_TOKEN_MINUS ||
                 grtc_parser_at_keyword(parser, "true") ||
                 grtc_parser_at_keyword(parser, "false");
  if (literal && format->literal_attr && !*seen_literal) {
    *seen_literal = true;
    const grtc_attribute_t* value = NULL;
    if (token->kind == GRTC_TOKEN_STRING) {
      grt_string_view_t text;
      GRT_RETURN_IF_ERROR(grtc_parser_parse_string(parser, &text));
      value = grtc_parser_string_attr(parser, text);
    } else {
      const grtc_type_t* type = grtc_vm_type_from_name(parser, state->name);
      if (!type) type = grtc_parser_integer_type(parser, 32);
      if (!type) return grtc_parser_error(parser, "out of memory");
      GRT_RETURN_IF_ERROR(grtc_parser_parse_literal(parser, type, &value));
    }
    return grtc_parser_add_attribute(parser, &state->attributes,
                                     format->literal_attr, value);
  }
  char what[160];
  snprintf(what, sizeof(what), "an operand of '%.*s' (%%value%s%s)",
           GRT_SV_ARG(state->name), format->symbol_attr ? ", @symbol" : "",
           format->literal_attr ? ", literal" : "");
  return grtc_parser_error_expected(parser, what);
}

static bool grtc_vm_at_item(const grtc_parser_t* parser) {
  switch (grtc_parser_token(parser)->kind) {
    case GRTC_TOKEN_PERCENT_ID: case GRTC_TOKEN_AT_ID: case GRTC_TOKEN_STRING:
    case GRTC_TOKEN_INTEGER: case GRTC_TOKEN_FLOAT: case GRTC_TOKEN_MINUS:
      return true;
    default:
      return grtc_parser_at_keyword(parser, "true") ||
             grtc_parser_at_keyword(parser, "false");
  }
}

static grt_status_t grtc_vm_parse_operands_op(grtc_parser_t* parser,
                                              const grtc_op_syntax_t* syntax,
                                              grtc_op_state_t* state) {
  const grtc_vm_operand_format_t* format = syntax->data;
  grt_arena_t* arena = grtc_parser_arena(parser);
  bool seen_symbol = false, seen_literal = false;
  // util.do_not_optimize(%x) wraps its operands in parentheses.
  bool paren = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_LPAREN, &paren));
  bool more = grtc_vm_at_item(parser) &&
              !(format->no_values && grtc_parser_at(parser, GRTC_TOKEN_PERCENT_ID));
  while (more) {
    GRT_RETURN_IF_ERROR(
        grtc_vm_parse_item(parser, format, state, &seen_symbol, &seen_literal));
    // vm.print "message"(%a, %b): the operands follow the message in
    // parentheses.
    if (!paren && seen_literal) {
      GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_LPAREN, &paren));
      if (paren) {
        more = grtc_vm_at_item(parser);
        continue;
      }
    }
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &more));
    if (!more) {
      // vm.switch.*: %index[%values] else %default
      GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "else", &more));
    }
  }
  if (paren) {
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RPAREN,
                                           "to close the operand list"));
  }
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  grt_arena_vec_t types = {0};
  grt_arena_vec_t result_types = {0};
  bool colon = false, arrow = false;
  grtc_token_t types_token = *grtc_parser_token(parser);
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COLON, &colon));
  if (colon) {
    if (!grtc_parser_at(parser, GRTC_TOKEN_ARROW)) {
      GRT_RETURN_IF_ERROR(grtc_parser_parse_type_list(parser, &types));
    }
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_ARROW, &arrow));
    if (arrow) GRT_RETURN_IF_ERROR(grtc_parser_parse_type_list(parser, &result_types));
  }
  uint32_t count = state->bound_result_count;
  if (count == 0) return grt_ok_status();
  const grtc_type_t* const* candidates = arrow ? result_types.data : types.data;
  uint32_t candidate_count = arrow ? result_types.count : types.count;
  for (uint32_t i = 0; i < count; ++i) {
    const grtc_type_t* type = NULL;
    if (format->result == GRTC_VM_RESULT_I32) {
      type = grtc_parser_integer_type(parser, 32);
    } else if (candidate_count == count) {
      type = candidates[i];
    } else if (count == 1 && candidate_count) {
      type = candidates[candidate_count - 1];
    } else if (count == 1 && !colon) {
      type = grtc_vm_type_from_name(parser, state->name);
      if (!type) {
        char what[128];
        snprintf(what, sizeof(what), "':' and the result type of '%.*s'",
                 GRT_SV_ARG(state->name));
        return grtc_parser_error_expected(parser, what);
      }
    } else {
      return grtc_parser_error_at(parser, &types_token,
                                  "'%.*s' binds %u results but its types "
                                  "give %u",
                                  GRT_SV_ARG(state->name), count, candidate_count);
    }
    if (!type) return grtc_parser_error(parser, "out of memory");
    GRT_RETURN_IF_ERROR(
        grt_arena_vec_push(arena, &state->result_types, &type, sizeof(type)));
  }
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Structure: module, functions, imports, exports, globals, rodata
//===----------------------------------------------------------------------===//

static grt_status_t grtc_vm_parse_import(grtc_parser_t* parser,
                                         const grtc_op_syntax_t* syntax,
                                         grtc_op_state_t* state) {
  return grtc_parse_function_op(
      parser, state, GRTC_FUNCTION_ALLOW_VARIADIC | GRTC_FUNCTION_ALLOW_OPTIONAL);
}

// vm.export @function [as("name")] [attributes {...}]
static grt_status_t grtc_vm_parse_export(grtc_parser_t* parser,
                                         const grtc_op_syntax_t* syntax,
                                         grtc_op_state_t* state) {
  grt_string_view_t function;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_symbol_name(parser, &function));
  GRT_RETURN_IF_ERROR(grtc_parser_add_attribute(parser, &state->attributes,
                                                "function_ref",
                                                grtc_parser_symbol_attr(parser, function)));
  grt_string_view_t export_name = function;
  bool renamed = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "as", &renamed));
  if (renamed) {
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LPAREN, "after 'as'"));
    GRT_RETURN_IF_ERROR(grtc_parser_parse_string(parser, &export_name));
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RPAREN,
                                           "to close the export name"));
  }
  GRT_RETURN_IF_ERROR(grtc_parser_add_attribute(parser, &state->attributes,
                                                "export_name",
                                                grtc_parser_string_attr(parser, export_name)));
  return grtc_parser_parse_optional_attributes_keyword(parser, &state->attributes);
}

static grt_status_t grtc_vm_parse_visibility(grtc_parser_t* parser,
                                             grtc_op_state_t* state) {
  static const char* const visibilities[] = {"public", "private", "nested"};
  for (size_t i = 0; i < 3; ++i) {
    bool found = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, visibilities[i], &found));
    if (found) {
      return grtc_parser_add_attribute(
          parser, &state->attributes, "sym_visibility",
          grtc_parser_string_attr(parser, grt_make_cstring_view(visibilities[i])));
    }
  }
  return grt_ok_status();
}

static grt_status_t grtc_vm_parse_mutable(grtc_parser_t* parser,
                                          grtc_op_state_t* state, bool* seen) {
  bool found = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "mutable", &found));
  if (!found || *seen) return grt_ok_status();
  *seen = true;
  return grtc_parser_add_attribute(parser, &state->attributes, "is_mutable",
                                   grtc_parser_unit_attr(parser));
}

// The initial value of a global: a bare literal typed by the op name, or
// any attribute (a typed literal, or a ref global's value). After the
// global's own `: type` a literal may repeat its type (`= 0 : i32`).
static grt_status_t grtc_vm_parse_initial_value(grtc_parser_t* parser,
                                                grtc_op_state_t* state,
                                                bool allow_type_suffix) {
  const grtc_attribute_t* value = NULL;
  const grtc_type_t* type = grtc_vm_type_from_name(parser, state->name);
  const grtc_token_t* token = grtc_parser_token(parser);
  bool bare_number = type && (token->kind == GRTC_TOKEN_INTEGER ||
                              token->kind == GRTC_TOKEN_FLOAT ||
                              token->kind == GRTC_TOKEN_MINUS);
  if (bare_number) {
    GRT_RETURN_IF_ERROR(grtc_parser_parse_literal(parser, type, &value));
    bool suffix = false;
    if (allow_type_suffix) {
      GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COLON, &suffix));
    }
    if (suffix) {
      const grtc_type_t* repeated = NULL;
      GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &repeated));
    }
  } else {
    GRT_RETURN_IF_ERROR(grtc_parser_parse_attribute(parser, &value));
  }
  return grtc_parser_add_attribute(parser, &state->attributes, "initial_value", value);
}

// vm.global.T [visibility] [mutable] @name [mutable] [init(@f)]
//     [[=] value] [: type] [= value] [attributes {...}]
// (IREE's spelling moved over the years; every placement it used parses.)
static grt_status_t grtc_vm_parse_global(grtc_parser_t* parser,
                                         const grtc_op_syntax_t* syntax,
                                         grtc_op_state_t* state) {
  bool is_mutable = false;
  GRT_RETURN_IF_ERROR(grtc_vm_parse_visibility(parser, state));
  GRT_RETURN_IF_ERROR(grtc_vm_parse_mutable(parser, state, &is_mutable));
  grt_string_view_t name;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_symbol_name(parser, &name));
  GRT_RETURN_IF_ERROR(grtc_parser_add_attribute(parser, &state->attributes, "sym_name",
                                                grtc_parser_string_attr(parser, name)));
  GRT_RETURN_IF_ERROR(grtc_vm_parse_mutable(parser, state, &is_mutable));
  bool init = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "init", &init));
  if (init) {
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LPAREN, "after 'init'"));
    grt_string_view_t initializer;
    GRT_RETURN_IF_ERROR(grtc_parser_parse_symbol_name(parser, &initializer));
    GRT_RETURN_IF_ERROR(grtc_parser_add_attribute(
        parser, &state->attributes, "initializer",
        grtc_parser_symbol_attr(parser, initializer)));
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RPAREN,
                                           "to close init(...)"));
  }
  bool has_value = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_EQUAL, &has_value));
  // Without '=' only a number can be the value (`@c42 42 : i32`).
  if (has_value || grtc_parser_at(parser, GRTC_TOKEN_INTEGER) ||
      grtc_parser_at(parser, GRTC_TOKEN_FLOAT) ||
      grtc_parser_at(parser, GRTC_TOKEN_MINUS)) {
    GRT_RETURN_IF_ERROR(grtc_vm_parse_initial_value(parser, state, false));
    has_value = true;
  }
  // "42 : i32" may already have been read as a typed value; the type is then
  // the value's.
  bool colon = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COLON, &colon));
  const grtc_type_t* type = NULL;
  if (colon) {
    GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type));
    bool equal = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_EQUAL, &equal));
    if (equal) {
      if (has_value) {
        return grtc_parser_error(parser, "global has two initial values");
      }
      GRT_RETURN_IF_ERROR(grtc_vm_parse_initial_value(parser, state, true));
    }
  } else {
    type = grtc_vm_type_from_name(parser, state->name);
    if (!type) {
      return grtc_parser_error_expected(parser, "':' and the global's type");
    }
  }
  GRT_RETURN_IF_ERROR(grtc_parser_add_attribute(parser, &state->attributes, "type",
                                                grtc_parser_type_attr(parser, type)));
  return grtc_parser_parse_optional_attributes_keyword(parser, &state->attributes);
}

// vm.rodata [visibility] @name [{attrs}] value
static grt_status_t grtc_vm_parse_rodata(grtc_parser_t* parser,
                                         const grtc_op_syntax_t* syntax,
                                         grtc_op_state_t* state) {
  GRT_RETURN_IF_ERROR(grtc_vm_parse_visibility(parser, state));
  grt_string_view_t name;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_symbol_name(parser, &name));
  GRT_RETURN_IF_ERROR(grtc_parser_add_attribute(parser, &state->attributes, "sym_name",
                                                grtc_parser_string_attr(parser, name)));
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  const grtc_attribute_t* value = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_attribute(parser, &value));
  return grtc_parser_add_attribute(parser, &state->attributes, "value", value);
}

// %r = vm.rodata.inline ["name"] [{attrs}] : !vm.buffer = value
static grt_status_t grtc_vm_parse_rodata_inline(grtc_parser_t* parser,
                                                const grtc_op_syntax_t* syntax,
                                                grtc_op_state_t* state) {
  if (grtc_parser_at(parser, GRTC_TOKEN_STRING)) {
    grt_string_view_t name;
    GRT_RETURN_IF_ERROR(grtc_parser_parse_string(parser, &name));
    GRT_RETURN_IF_ERROR(grtc_parser_add_attribute(parser, &state->attributes, "name",
                                                  grtc_parser_string_attr(parser, name)));
  }
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON,
                                         "and the result type"));
  const grtc_type_t* type = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type));
  GRT_RETURN_IF_ERROR(grt_arena_vec_push(grtc_parser_arena(parser),
                                          &state->result_types, &type, sizeof(type)));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_EQUAL,
                                         "and the inline value"));
  const grtc_attribute_t* value = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_attribute(parser, &value));
  return grtc_parser_add_attribute(parser, &state->attributes, "value", value);
}

// vm.initializer [attributes {...}] { body }
static grt_status_t grtc_vm_parse_initializer(grtc_parser_t* parser,
                                              const grtc_op_syntax_t* syntax,
                                              grtc_op_state_t* state) {
  GRT_RETURN_IF_ERROR(
      grtc_parser_parse_optional_attributes_keyword(parser, &state->attributes));
  grtc_region_t* body = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_region(parser, NULL, 0, &body));
  return grt_arena_vec_push(grtc_parser_arena(parser), &state->regions, &body,
                             sizeof(body));
}

//===----------------------------------------------------------------------===//
// Control flow and calls
//===----------------------------------------------------------------------===//

// vm.br ^bb(args), vm.cond_br %c, ^a(args), ^b(args)
static grt_status_t grtc_vm_parse_branch(grtc_parser_t* parser,
                                         const grtc_op_syntax_t* syntax,
                                         grtc_op_state_t* state) {
  return grtc_parser_parse_branch(parser, state, syntax->data != NULL);
}

// vm.br_table %index { default: ^d(args), 0: ^a(args), 1: ^b(args) }
// Successors: the default first, then case 0, 1, ... which must be listed
// in order.
static grt_status_t grtc_vm_parse_br_table(grtc_parser_t* parser,
                                           const grtc_op_syntax_t* syntax,
                                           grtc_op_state_t* state) {
  GRT_RETURN_IF_ERROR(grtc_vm_push_operand(parser, state));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LBRACE,
                                         "to open the branch table"));
  if (!grtc_parser_at_keyword(parser, "default")) {
    return grtc_parser_error_expected(parser, "'default' as the first table entry");
  }
  GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON, "after 'default'"));
  GRT_RETURN_IF_ERROR(grtc_parser_parse_successor(parser, state));
  uint64_t next_case = 0;
  bool comma = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
  while (comma && grtc_parser_at(parser, GRTC_TOKEN_INTEGER)) {
    const grtc_attribute_t* value = NULL;
    GRT_RETURN_IF_ERROR(
        grtc_parser_parse_literal(parser, grtc_parser_integer_type(parser, 32), &value));
    if ((uint64_t)value->integer != next_case) {
      return grtc_parser_error(parser, "branch table case %lld is out of order: "
                               "expected case %llu",
                               (long long)value->integer,
                               (unsigned long long)next_case);
    }
    ++next_case;
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON,
                                           "after a branch table case"));
    GRT_RETURN_IF_ERROR(grtc_parser_parse_successor(parser, state));
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
  }
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RBRACE,
                                         "to close the branch table"));
  return grtc_parser_parse_optional_attribute_dict(parser, &state->attributes);
}

// One item of a variadic span: a value, or a parenthesized group of values
// for a span of tuples. Kept to check against the callee type, which comes
// after the arguments.
typedef struct grtc_vm_span_item_t {
  grtc_token_t at;
  uint32_t argument;
  int32_t group_size;  // -1: a single value
} grtc_vm_span_item_t;

static grt_status_t grtc_vm_check_span_items(grtc_parser_t* parser,
                                             const grt_arena_vec_t* items,
                                             uint32_t argument,
                                             const grtc_type_t* type) {
  const grtc_vm_span_item_t* item = items->data;
  uint32_t group = 0;
  for (uint32_t i = 0; i < items->count; ++i, ++item) {
    if (item->argument != argument) continue;
    char spelling[128];
    grtc_format_type(type, spelling, sizeof(spelling));
    if (type->kind != GRTC_TYPE_TUPLE && item->group_size >= 0) {
      return grtc_parser_error_at(parser, &item->at,
                                  "argument %u is a span of %s: pass single "
                                  "values, not (...) groups",
                                  argument, spelling);
    }
    if (type->kind == GRTC_TYPE_TUPLE && item->group_size < 0) {
      return grtc_parser_error_at(parser, &item->at,
                                  "argument %u is a span of %s: pass each "
                                  "tuple as a (...) group",
                                  argument, spelling);
    }
    if (type->kind == GRTC_TYPE_TUPLE &&
        (uint32_t)item->group_size != type->function.input_count) {
      return grtc_parser_error_at(parser, &item->at,
                                  "group %u of argument %u has %d values but "
                                  "%s has %u elements",
                                  group, argument, item->group_size, spelling,
                                  type->function.input_count);
    }
    ++group;
  }
  return grt_ok_status();
}

// vm.call.variadic @callee(%a, [%b, %c], [(%d, %e), (%f, %g)])
//     : (i32, i32 ..., tuple<i32, f32> ...) -> r
// Operands are flattened; `segment_sizes` (array<i32>) gives -1 for a plain
// argument and the span length for a bracketed one (in groups for a span of
// tuples: the count the callee receives), and `segment_types` the declared
// type of each argument.
// The parts vm.call.variadic and the yieldable calls share: `@callee(`
// (the callee attribute) and `) {attributes} :` after the arguments.
static grt_status_t grtc_vm_parse_call_open(grtc_parser_t* parser,
                                            grtc_op_state_t* state) {
  grt_string_view_t callee;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_symbol_name(parser, &callee));
  GRT_RETURN_IF_ERROR(grtc_parser_add_attribute(parser, &state->attributes, "callee",
                                                grtc_parser_symbol_attr(parser, callee)));
  return grtc_parser_expect(parser, GRTC_TOKEN_LPAREN, "to open the call arguments");
}

static grt_status_t grtc_vm_parse_call_close(grtc_parser_t* parser,
                                             grtc_op_state_t* state) {
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RPAREN,
                                         "to close the call arguments"));
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  return grtc_parser_expect(parser, GRTC_TOKEN_COLON, "and the callee's type");
}

// The end of vm.call.yieldable and vm.call.variadic.yieldable, after '->':
// `^bb` and, optionally, the callee's result types in parentheses (the
// results are the block's arguments; the assembler checks their types).
static grt_status_t grtc_vm_parse_yieldable_successor(grtc_parser_t* parser,
                                                      grtc_op_state_t* state) {
  GRT_RETURN_IF_ERROR(grtc_parser_parse_successor_label(parser, state));
  if (!grtc_parser_at(parser, GRTC_TOKEN_LPAREN)) return grt_ok_status();
  grt_arena_vec_t types = {0};
  return grtc_parser_parse_type_list(parser, &types);
}

// vm.call.yieldable @callee(%a, %b) : (i32, i32) -> ^bb(i32)
// A terminator: the callee's results become the arguments of ^bb.
static grt_status_t grtc_vm_parse_call_yieldable(grtc_parser_t* parser,
                                                 const grtc_op_syntax_t* syntax,
                                                 grtc_op_state_t* state) {
  GRT_RETURN_IF_ERROR(grtc_vm_parse_call_open(parser, state));
  bool more = !grtc_parser_at(parser, GRTC_TOKEN_RPAREN);
  while (more) {
    GRT_RETURN_IF_ERROR(grtc_vm_push_operand(parser, state));
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &more));
  }
  GRT_RETURN_IF_ERROR(grtc_vm_parse_call_close(parser, state));
  grt_arena_vec_t types = {0};
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LPAREN,
                                         "to open the callee's argument types"));
  if (!grtc_parser_at(parser, GRTC_TOKEN_RPAREN)) {
    GRT_RETURN_IF_ERROR(grtc_parser_parse_type_list(parser, &types));
  }
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RPAREN,
                                         "to close the callee's argument types"));
  if (types.count != state->operands.count) {
    return grtc_parser_error(parser, "call passes %u arguments but the callee "
                             "type lists %u", state->operands.count, types.count);
  }
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_ARROW,
                                         "and the block the call continues at"));
  return grtc_vm_parse_yieldable_successor(parser, state);
}

static grt_status_t grtc_vm_parse_call_variadic(grtc_parser_t* parser,
                                                const grtc_op_syntax_t* syntax,
                                                grtc_op_state_t* state) {
  grt_arena_t* arena = grtc_parser_arena(parser);
  GRT_RETURN_IF_ERROR(grtc_vm_parse_call_open(parser, state));
  grt_arena_vec_t sizes = {0};  // int32_t
  grt_arena_vec_t items = {0};  // grtc_vm_span_item_t
  bool more = !grtc_parser_at(parser, GRTC_TOKEN_RPAREN);
  while (more) {
    int32_t size = -1;
    bool span = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_LSQUARE, &span));
    if (span) {
      size = 0;
      bool item = !grtc_parser_at(parser, GRTC_TOKEN_RSQUARE);
      while (item) {
        grtc_vm_span_item_t entry = {*grtc_parser_token(parser), sizes.count, -1};
        bool group = false;
        GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_LPAREN, &group));
        if (group) {
          entry.group_size = 0;
          bool value = !grtc_parser_at(parser, GRTC_TOKEN_RPAREN);
          while (value) {
            GRT_RETURN_IF_ERROR(grtc_vm_push_operand(parser, state));
            ++entry.group_size;
            GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &value));
          }
          GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RPAREN,
                                                 "to close a tuple group"));
        } else {
          GRT_RETURN_IF_ERROR(grtc_vm_push_operand(parser, state));
        }
        GRT_RETURN_IF_ERROR(grt_arena_vec_push(arena, &items, &entry, sizeof(entry)));
        ++size;
        GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &item));
      }
      GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RSQUARE,
                                             "to close a variadic span"));
    } else {
      GRT_RETURN_IF_ERROR(grtc_vm_push_operand(parser, state));
    }
    GRT_RETURN_IF_ERROR(grt_arena_vec_push(arena, &sizes, &size, sizeof(size)));
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &more));
  }
  GRT_RETURN_IF_ERROR(grtc_vm_parse_call_close(parser, state));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LPAREN,
                                         "to open the callee's argument types"));
  grt_arena_vec_t types = {0};  // const grtc_attribute_t* (type attrs)
  more = !grtc_parser_at(parser, GRTC_TOKEN_RPAREN);
  while (more) {
    grtc_token_t at = *grtc_parser_token(parser);
    const grtc_type_t* type = NULL;
    GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type));
    bool variadic = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_ELLIPSIS, &variadic));
    uint32_t index = types.count;
    if (index >= sizes.count) {
      return grtc_parser_error_at(parser, &at, "callee type lists more arguments "
                                  "than the call passes (%u)", sizes.count);
    }
    if (variadic != (((int32_t*)sizes.data)[index] >= 0)) {
      return grtc_parser_error_at(parser, &at,
                                  "argument %u is %s but its type is %s", index,
                                  variadic ? "a single value" : "a [span]",
                                  variadic ? "variadic ('...')" : "not variadic");
    }
    if (variadic) {
      GRT_RETURN_IF_ERROR(grtc_vm_check_span_items(parser, &items, index, type));
    }
    const grtc_attribute_t* attr = grtc_parser_type_attr(parser, type);
    GRT_RETURN_IF_ERROR(grt_arena_vec_push(arena, &types, &attr, sizeof(attr)));
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &more));
  }
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RPAREN,
                                         "to close the callee's argument types"));
  if (types.count != sizes.count) {
    return grtc_parser_error(parser, "call passes %u arguments but the callee "
                             "type lists %u", sizes.count, types.count);
  }
  if (syntax->data) {  // vm.call.variadic.yieldable
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_ARROW,
                                           "and the block the call continues at"));
    GRT_RETURN_IF_ERROR(grtc_vm_parse_yieldable_successor(parser, state));
  } else {
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_ARROW,
                                           "and the callee's result types"));
    GRT_RETURN_IF_ERROR(grtc_parser_parse_type_list(parser, &state->result_types));
  }
  grtc_attribute_t* segment_sizes = grt_arena_alloc_zeroed(arena, sizeof(*segment_sizes));
  if (!segment_sizes) return grtc_parser_error(parser, "out of memory");
  segment_sizes->kind = GRTC_ATTR_DENSE_ARRAY;
  segment_sizes->type = grtc_parser_integer_type(parser, 32);
  segment_sizes->dense.data = sizes.data;
  segment_sizes->dense.size = sizes.count * sizeof(int32_t);
  GRT_RETURN_IF_ERROR(grtc_parser_add_attribute(parser, &state->attributes,
                                                "segment_sizes", segment_sizes));
  return grtc_parser_add_attribute(parser, &state->attributes, "segment_types",
                                   grtc_parser_array_attr(parser, types.data, types.count));
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

#define GRTC_VM_OPERANDS(name, format) \
  {name, NULL, grtc_vm_parse_operands_op, &format, NULL}
#define GRTC_VM_CUSTOM(name, parse, data) {name, NULL, parse, data, NULL}

static const grtc_op_syntax_t grtc_vm_ops[] = {
    GRTC_VM_CUSTOM("vm.module", grtc_parse_module_syntax, NULL),
    GRTC_VM_CUSTOM("vm.func", grtc_parse_func_syntax, NULL),
    GRTC_VM_CUSTOM("vm.import", grtc_vm_parse_import, NULL),
    GRTC_VM_CUSTOM("vm.export", grtc_vm_parse_export, NULL),
    GRTC_VM_CUSTOM("vm.global.i32", grtc_vm_parse_global, NULL),
    GRTC_VM_CUSTOM("vm.global.i64", grtc_vm_parse_global, NULL),
    GRTC_VM_CUSTOM("vm.global.f32", grtc_vm_parse_global, NULL),
    GRTC_VM_CUSTOM("vm.global.f64", grtc_vm_parse_global, NULL),
    GRTC_VM_CUSTOM("vm.global.ref", grtc_vm_parse_global, NULL),
    GRTC_VM_CUSTOM("vm.rodata", grtc_vm_parse_rodata, NULL),
    GRTC_VM_CUSTOM("vm.rodata.inline", grtc_vm_parse_rodata_inline, NULL),
    GRTC_VM_CUSTOM("vm.initializer", grtc_vm_parse_initializer, NULL),
    GRTC_VM_CUSTOM("vm.br", grtc_vm_parse_branch, NULL),
    GRTC_VM_CUSTOM("vm.cond_br", grtc_vm_parse_branch, "conditional"),
    GRTC_VM_CUSTOM("vm.br_table", grtc_vm_parse_br_table, NULL),
    GRTC_VM_CUSTOM("vm.call", grtc_parse_call_syntax, NULL),
    GRTC_VM_CUSTOM("vm.call.variadic", grtc_vm_parse_call_variadic, NULL),
    GRTC_VM_CUSTOM("vm.call.yieldable", grtc_vm_parse_call_yieldable, NULL),
    GRTC_VM_CUSTOM("vm.call.variadic.yieldable", grtc_vm_parse_call_variadic, "yieldable"),
    GRTC_VM_CUSTOM("vm.yield", grtc_vm_parse_branch, NULL),
    GRTC_VM_CUSTOM("vm.return", grtc_parse_return_syntax, NULL),
    // Every other vm op: operands [: types [-> types]].
    GRTC_VM_OPERANDS("vm.*", grtc_vm_plain),
    GRTC_VM_OPERANDS("vm.const.*", grtc_vm_const),
    GRTC_VM_OPERANDS("vm.global.load.*", grtc_vm_global_access),
    GRTC_VM_OPERANDS("vm.global.store.*", grtc_vm_global_access),
    GRTC_VM_OPERANDS("vm.import.resolved", grtc_vm_import_resolved),
    GRTC_VM_OPERANDS("vm.cmp.*", grtc_vm_compare),
    GRTC_VM_OPERANDS("vm.buffer.compare", grtc_vm_compare),
    GRTC_VM_OPERANDS("vm.check.*", grtc_vm_message),
    GRTC_VM_OPERANDS("vm.fail", grtc_vm_message),
    GRTC_VM_OPERANDS("vm.cond_fail", grtc_vm_message),
    GRTC_VM_OPERANDS("vm.cast.any.ref", grtc_vm_message),
    GRTC_VM_OPERANDS("vm.print", grtc_vm_message),
    GRTC_VM_OPERANDS("vm.trace", grtc_vm_message),
    // IREE's vm tests keep values alive with these util ops.
    GRTC_VM_OPERANDS("util.do_not_optimize", grtc_vm_plain),
    GRTC_VM_OPERANDS("util.optimization_barrier", grtc_vm_plain),
};

const grtc_dialect_syntax_t grtc_vm_dialect_syntax = {
    grtc_vm_ops, sizeof(grtc_vm_ops) / sizeof(grtc_vm_ops[0]), NULL, NULL};
