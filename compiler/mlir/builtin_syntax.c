#include "compiler/mlir/builtin_syntax.h"

#include <string.h>

static grt_status_t grtc_parse_optional_visibility(grtc_parser_t* parser,
                                                   grtc_op_state_t* state) {
  static const char* const visibilities[] = {"public", "private", "nested"};
  for (size_t i = 0; i < sizeof(visibilities) / sizeof(visibilities[0]); ++i) {
    bool found = false;
    GRT_RETURN_IF_ERROR(
        grtc_parser_consume_keyword_if(parser, visibilities[i], &found));
    if (found) {
      return grtc_parser_add_attribute(
          parser, &state->attributes, "sym_visibility",
          grtc_parser_string_attr(parser,
                                  grt_make_cstring_view(visibilities[i])));
    }
  }
  return grt_ok_status();
}

static grt_status_t grtc_add_symbol_name(grtc_parser_t* parser,
                                         grtc_op_state_t* state) {
  grt_string_view_t name;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_symbol_name(parser, &name));
  return grtc_parser_add_attribute(parser, &state->attributes, "sym_name",
                                   grtc_parser_string_attr(parser, name));
}

// An argument or result attribute dictionary, or an empty one.
static grt_status_t grtc_parse_optional_dict_attr(
    grtc_parser_t* parser, const grtc_attribute_t** out_dict, bool* any) {
  grt_arena_vec_t entries = {0};
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &entries));
  grtc_attribute_t* dict =
      grt_arena_alloc_zeroed(grtc_parser_arena(parser), sizeof(*dict));
  if (!dict) return grtc_parser_error(parser, "out of memory");
  dict->kind = GRTC_ATTR_DICTIONARY;
  dict->dictionary.count = entries.count;
  dict->dictionary.entries = entries.data;
  if (entries.count) *any = true;
  *out_dict = dict;
  return grt_ok_status();
}

typedef struct grtc_signature_t {
  grt_arena_vec_t args;        // grtc_argument_decl_t
  grt_arena_vec_t arg_types;   // const grtc_type_t*
  grt_arena_vec_t arg_attrs;   // const grtc_attribute_t*
  grt_arena_vec_t variadic;    // const grtc_attribute_t* (bools)
  grt_arena_vec_t result_types;
  grt_arena_vec_t result_attrs;
  bool any_arg_attrs;
  bool any_result_attrs;
  bool any_variadic;
  bool named;  // arguments carry %names
} grtc_signature_t;

static grt_status_t grtc_parse_signature_args(grtc_parser_t* parser,
                                              uint32_t flags,
                                              grtc_signature_t* sig) {
  grt_arena_t* arena = grtc_parser_arena(parser);
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LPAREN,
                                         "to open the argument list"));
  bool done = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_RPAREN, &done));
  bool first = true;
  while (!done) {
    grtc_argument_decl_t arg;
    memset(&arg, 0, sizeof(arg));
    bool named = grtc_parser_at(parser, GRTC_TOKEN_PERCENT_ID);
    if (first) sig->named = named;
    first = false;
    if (named != sig->named) {
      return grtc_parser_error_expected(
          parser, sig->named ? "a named argument (%name : type)"
                             : "an argument type (all arguments or none are named)");
    }
    if (named) {
      arg.name = *grtc_parser_token(parser);
      if (memchr(arg.name.text.data, '#', arg.name.text.size)) {
        return grtc_parser_error(parser, "argument names cannot select a result "
                                 "('#')");
      }
      GRT_RETURN_IF_ERROR(grtc_parser_advance(parser));
      GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON,
                                             "after an argument name"));
    }
    GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &arg.type));
    bool variadic = false;
    if (flags & GRTC_FUNCTION_ALLOW_VARIADIC) {
      GRT_RETURN_IF_ERROR(
          grtc_parser_consume_if(parser, GRTC_TOKEN_ELLIPSIS, &variadic));
    }
    const grtc_attribute_t* flag = NULL;
    {
      grtc_attribute_t* boolean = grt_arena_alloc_zeroed(arena, sizeof(*boolean));
      if (!boolean) return grtc_parser_error(parser, "out of memory");
      boolean->kind = GRTC_ATTR_BOOL;
      boolean->boolean = variadic;
      flag = boolean;
    }
    if (variadic) sig->any_variadic = true;
    const grtc_attribute_t* attrs = NULL;
    GRT_RETURN_IF_ERROR(
        grtc_parse_optional_dict_attr(parser, &attrs, &sig->any_arg_attrs));
    GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_location(parser, &arg.location));
    GRT_RETURN_IF_ERROR(grt_arena_vec_push(arena, &sig->args, &arg, sizeof(arg)));
    GRT_RETURN_IF_ERROR(
        grt_arena_vec_push(arena, &sig->arg_types, &arg.type, sizeof(arg.type)));
    GRT_RETURN_IF_ERROR(grt_arena_vec_push(arena, &sig->arg_attrs, &attrs, sizeof(attrs)));
    GRT_RETURN_IF_ERROR(grt_arena_vec_push(arena, &sig->variadic, &flag, sizeof(flag)));
    bool comma = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
    if (!comma) {
      GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RPAREN,
                                             "to close the argument list"));
      done = true;
    }
  }
  return grt_ok_status();
}

static grt_status_t grtc_parse_signature_results(grtc_parser_t* parser,
                                                 grtc_signature_t* sig) {
  grt_arena_t* arena = grtc_parser_arena(parser);
  bool arrow = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_ARROW, &arrow));
  if (!arrow) return grt_ok_status();
  bool paren = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_LPAREN, &paren));
  bool done = paren && grtc_parser_at(parser, GRTC_TOKEN_RPAREN);
  while (!done) {
    const grtc_type_t* type = NULL;
    GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type));
    const grtc_attribute_t* attrs = NULL;
    if (paren) {
      GRT_RETURN_IF_ERROR(
          grtc_parse_optional_dict_attr(parser, &attrs, &sig->any_result_attrs));
    } else {
      // Without parentheses a '{' after the type opens the body, so the
      // result has no attributes.
      grtc_attribute_t* empty = grt_arena_alloc_zeroed(arena, sizeof(*empty));
      if (!empty) return grtc_parser_error(parser, "out of memory");
      empty->kind = GRTC_ATTR_DICTIONARY;
      attrs = empty;
    }
    GRT_RETURN_IF_ERROR(grt_arena_vec_push(arena, &sig->result_types, &type, sizeof(type)));
    GRT_RETURN_IF_ERROR(grt_arena_vec_push(arena, &sig->result_attrs, &attrs, sizeof(attrs)));
    bool comma = false;
    if (paren) {
      GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
    }
    done = !comma;
  }
  if (paren) {
    GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RPAREN,
                                           "to close the result list"));
  }
  return grt_ok_status();
}

grt_status_t grtc_parse_function_op(grtc_parser_t* parser,
                                    grtc_op_state_t* state, uint32_t flags) {
  GRT_RETURN_IF_ERROR(grtc_parse_optional_visibility(parser, state));
  if (flags & GRTC_FUNCTION_ALLOW_OPTIONAL) {
    bool optional = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_keyword_if(parser, "optional", &optional));
    if (optional) {
      GRT_RETURN_IF_ERROR(grtc_parser_add_attribute(
          parser, &state->attributes, "optional", grtc_parser_unit_attr(parser)));
    }
  }
  GRT_RETURN_IF_ERROR(grtc_add_symbol_name(parser, state));
  grtc_signature_t sig;
  memset(&sig, 0, sizeof(sig));
  GRT_RETURN_IF_ERROR(grtc_parse_signature_args(parser, flags, &sig));
  GRT_RETURN_IF_ERROR(grtc_parse_signature_results(parser, &sig));
  GRT_RETURN_IF_ERROR(grtc_parser_add_attribute(
      parser, &state->attributes, "function_type",
      grtc_parser_function_type_attr(parser, sig.arg_types.data, sig.arg_types.count,
                                     sig.result_types.data, sig.result_types.count)));
  if (sig.any_arg_attrs) {
    GRT_RETURN_IF_ERROR(grtc_parser_add_attribute(
        parser, &state->attributes, "arg_attrs",
        grtc_parser_array_attr(parser, sig.arg_attrs.data, sig.arg_attrs.count)));
  }
  if (sig.any_result_attrs) {
    GRT_RETURN_IF_ERROR(grtc_parser_add_attribute(
        parser, &state->attributes, "res_attrs",
        grtc_parser_array_attr(parser, sig.result_attrs.data, sig.result_attrs.count)));
  }
  if (sig.any_variadic) {
    GRT_RETURN_IF_ERROR(grtc_parser_add_attribute(
        parser, &state->attributes, "is_variadic",
        grtc_parser_array_attr(parser, sig.variadic.data, sig.variadic.count)));
  }
  GRT_RETURN_IF_ERROR(
      grtc_parser_parse_optional_attributes_keyword(parser, &state->attributes));
  if ((flags & GRTC_FUNCTION_ALLOW_BODY) && grtc_parser_at(parser, GRTC_TOKEN_LBRACE)) {
    if (!sig.named && sig.args.count) {
      return grtc_parser_error(parser, "a function with a body must name its "
                               "arguments (%%name : type)");
    }
    grtc_region_t* body = NULL;
    GRT_RETURN_IF_ERROR(grtc_parser_parse_region(
        parser, sig.args.data, sig.args.count, &body));
    GRT_RETURN_IF_ERROR(grt_arena_vec_push(grtc_parser_arena(parser),
                                            &state->regions, &body, sizeof(body)));
  } else if (sig.named && sig.args.count && !(flags & GRTC_FUNCTION_ALLOW_VARIADIC)) {
    return grtc_parser_error_expected(parser, "'{' to open the body of a "
                                      "function with named arguments");
  }
  return grt_ok_status();
}

grt_status_t grtc_parse_call_op(grtc_parser_t* parser, grtc_op_state_t* state) {
  grt_arena_t* arena = grtc_parser_arena(parser);
  grt_string_view_t callee;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_symbol_name(parser, &callee));
  GRT_RETURN_IF_ERROR(grtc_parser_add_attribute(parser, &state->attributes, "callee",
                                                grtc_parser_symbol_attr(parser, callee)));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_LPAREN,
                                         "to open the call arguments"));
  bool done = false;
  GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_RPAREN, &done));
  while (!done) {
    grtc_value_t* value = NULL;
    GRT_RETURN_IF_ERROR(grtc_parser_parse_operand(parser, &value));
    GRT_RETURN_IF_ERROR(grt_arena_vec_push(arena, &state->operands, &value, sizeof(value)));
    bool comma = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
    if (!comma) {
      GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_RPAREN,
                                             "to close the call arguments"));
      done = true;
    }
  }
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON,
                                         "and the callee's function type"));
  grtc_token_t type_token = *grtc_parser_token(parser);
  const grtc_type_t* type = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_type(parser, &type));
  if (type->kind != GRTC_TYPE_FUNCTION) {
    return grtc_parser_error_at(parser, &type_token,
                                "expected the callee's function type "
                                "(inputs) -> results");
  }
  if (type->function.input_count != state->operands.count) {
    return grtc_parser_error_at(parser, &type_token,
                                "call passes %u arguments but the type lists %u",
                                state->operands.count, type->function.input_count);
  }
  for (uint32_t i = 0; i < type->function.result_count; ++i) {
    const grtc_type_t* result = type->function.types[type->function.input_count + i];
    GRT_RETURN_IF_ERROR(
        grt_arena_vec_push(arena, &state->result_types, &result, sizeof(result)));
  }
  return grt_ok_status();
}

grt_status_t grtc_parse_return_op(grtc_parser_t* parser, grtc_op_state_t* state) {
  grt_arena_t* arena = grtc_parser_arena(parser);
  grtc_token_t first = *grtc_parser_token(parser);
  while (grtc_parser_at(parser, GRTC_TOKEN_PERCENT_ID)) {
    grtc_value_t* value = NULL;
    GRT_RETURN_IF_ERROR(grtc_parser_parse_operand(parser, &value));
    GRT_RETURN_IF_ERROR(grt_arena_vec_push(arena, &state->operands, &value, sizeof(value)));
    bool comma = false;
    GRT_RETURN_IF_ERROR(grtc_parser_consume_if(parser, GRTC_TOKEN_COMMA, &comma));
    if (!comma) break;
  }
  GRT_RETURN_IF_ERROR(grtc_parser_parse_optional_attribute_dict(parser, &state->attributes));
  if (state->operands.count == 0) return grt_ok_status();
  GRT_RETURN_IF_ERROR(grtc_parser_expect(parser, GRTC_TOKEN_COLON,
                                         "and the types of the returned values"));
  grt_arena_vec_t types = {0};
  GRT_RETURN_IF_ERROR(grtc_parser_parse_type_list(parser, &types));
  if (types.count != state->operands.count) {
    return grtc_parser_error_at(parser, &first,
                                "%u values are returned but %u types are given",
                                state->operands.count, types.count);
  }
  grtc_value_t** values = state->operands.data;
  const grtc_type_t** listed = types.data;
  for (uint32_t i = 0; i < types.count; ++i) {
    if (!grtc_type_equal(values[i]->type, listed[i])) {
      return grtc_parser_error_at(parser, &first,
                                  "returned value #%u '%.*s' does not have the "
                                  "listed type",
                                  i, GRT_SV_ARG(values[i]->name));
    }
  }
  return grt_ok_status();
}

grt_status_t grtc_parse_module_op(grtc_parser_t* parser, grtc_op_state_t* state) {
  GRT_RETURN_IF_ERROR(grtc_parse_optional_visibility(parser, state));
  if (grtc_parser_at(parser, GRTC_TOKEN_AT_ID)) {
    GRT_RETURN_IF_ERROR(grtc_add_symbol_name(parser, state));
  }
  GRT_RETURN_IF_ERROR(
      grtc_parser_parse_optional_attributes_keyword(parser, &state->attributes));
  grtc_region_t* body = NULL;
  GRT_RETURN_IF_ERROR(grtc_parser_parse_region(parser, NULL, 0, &body));
  return grt_arena_vec_push(grtc_parser_arena(parser), &state->regions, &body,
                             sizeof(body));
}

grt_status_t grtc_parse_module_syntax(grtc_parser_t* parser,
                                      const grtc_op_syntax_t* syntax,
                                      grtc_op_state_t* state) {
  return grtc_parse_module_op(parser, state);
}

grt_status_t grtc_parse_func_syntax(grtc_parser_t* parser,
                                    const grtc_op_syntax_t* syntax,
                                    grtc_op_state_t* state) {
  return grtc_parse_function_op(parser, state, GRTC_FUNCTION_ALLOW_BODY);
}

grt_status_t grtc_parse_call_syntax(grtc_parser_t* parser,
                                    const grtc_op_syntax_t* syntax,
                                    grtc_op_state_t* state) {
  return grtc_parse_call_op(parser, state);
}

grt_status_t grtc_parse_return_syntax(grtc_parser_t* parser,
                                      const grtc_op_syntax_t* syntax,
                                      grtc_op_state_t* state) {
  return grtc_parse_return_op(parser, state);
}

static const grtc_op_syntax_t grtc_builtin_ops[] = {
    {"module", "builtin.module", grtc_parse_module_syntax, NULL, NULL},
    {"builtin.module", NULL, grtc_parse_module_syntax, NULL, NULL},
    {"func.func", NULL, grtc_parse_func_syntax, NULL, "func"},
    {"func.return", NULL, grtc_parse_return_syntax, NULL, NULL},
    {"func.call", NULL, grtc_parse_call_syntax, NULL, NULL},
};

const grtc_dialect_syntax_t grtc_builtin_dialect_syntax = {
    grtc_builtin_ops, sizeof(grtc_builtin_ops) / sizeof(grtc_builtin_ops[0]), NULL, NULL};
