// The shared command-line flag parser of the grt tools (see flags.h).
#include "tools/flags.h"

#include <string.h>

#include "base/string_view.h"

static grt_status_t grt_flag_list_append(grt_flag_list_t* list,
                                         const char* value,
                                         grt_allocator_t allocator) {
  if (list->count == list->capacity) {
    size_t new_capacity = list->capacity ? list->capacity * 2 : 4;
    void* values = (void*)list->values;
    GRT_RETURN_IF_ERROR(grt_allocator_realloc(
        allocator, list->capacity * sizeof(*list->values),
        new_capacity * sizeof(*list->values), &values));
    list->values = (const char**)values;
    list->capacity = new_capacity;
  }
  list->values[list->count++] = value;
  return grt_ok_status();
}

// Writes "--a, --b, --help" into |buffer| for the unknown-flag message.
static void grt_flags_format_names(const grt_flags_spec_t* spec, char* buffer,
                                   size_t capacity) {
  size_t used = 0;
  buffer[0] = '\0';
  for (size_t i = 0; i <= spec->flag_count && used < capacity; ++i) {
    const char* name = i < spec->flag_count ? spec->flags[i].name : "help";
    int n = snprintf(buffer + used, capacity - used, "%s--%s",
                     i ? ", " : "", name);
    if (n < 0) break;
    used += (size_t)n;
  }
}

static grt_status_t grt_flags_unknown(const grt_flags_spec_t* spec,
                                      const char* arg, size_t arg_length) {
  char names[1024];
  grt_flags_format_names(spec, names, sizeof(names));
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "unknown flag '%.*s'; valid flags: %s",
                         (int)arg_length, arg, names);
}

static const grt_flag_t* grt_flags_find(const grt_flags_spec_t* spec,
                                        grt_string_view_t name) {
  for (size_t i = 0; i < spec->flag_count; ++i) {
    if (grt_string_view_equal_cstring(name, spec->flags[i].name)) {
      return &spec->flags[i];
    }
  }
  return NULL;
}

static const grt_flag_t* grt_flags_find_short(const grt_flags_spec_t* spec,
                                              char short_name) {
  for (size_t i = 0; i < spec->flag_count; ++i) {
    if (spec->flags[i].short_name && spec->flags[i].short_name == short_name) {
      return &spec->flags[i];
    }
  }
  return NULL;
}

// Stores |value| (NUL-terminated, from argv) into |flag|'s destination.
static grt_status_t grt_flags_store(const grt_flag_t* flag, const char* value,
                                    grt_allocator_t allocator) {
  switch (flag->kind) {
    case GRT_FLAG_STRING:
      *(const char**)flag->value = value;
      return grt_ok_status();
    case GRT_FLAG_INT:
      return grt_status_annotate(
          grt_string_view_parse_i64(grt_make_cstring_view(value),
                                    (int64_t*)flag->value),
          "flag '--%s'", flag->name);
    case GRT_FLAG_FLOAT:
      return grt_status_annotate(
          grt_string_view_parse_f64(grt_make_cstring_view(value),
                                    (double*)flag->value),
          "flag '--%s'", flag->name);
    case GRT_FLAG_BOOL: {
      static const struct {
        const char* text;
        bool value;
      } spellings[] = {{"true", true}, {"1", true}, {"false", false},
                       {"0", false}};
      for (size_t i = 0; i < sizeof(spellings) / sizeof(spellings[0]); ++i) {
        if (strcmp(value, spellings[i].text) == 0) {
          *(bool*)flag->value = spellings[i].value;
          return grt_ok_status();
        }
      }
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "flag '--%s' takes true or false, got '%s'",
                             flag->name, value);
    }
    case GRT_FLAG_LIST:
      return grt_flag_list_append((grt_flag_list_t*)flag->value, value,
                                  allocator);
  }
  return grt_make_status(GRT_STATUS_INTERNAL, "flag '--%s' has kind %d",
                         flag->name, (int)flag->kind);
}

static grt_status_t grt_flags_missing_value(const grt_flag_t* flag) {
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "flag '--%s' needs a value: --%s=%s", flag->name,
                         flag->name, flag->value_name ? flag->value_name : "VALUE");
}

// Handles argv[*inout_index], which starts with '-'; may consume the next
// argument as the value.
static grt_status_t grt_flags_parse_one(const grt_flags_spec_t* spec, int argc,
                                        char** argv, int* inout_index,
                                        grt_allocator_t allocator,
                                        bool* out_help) {
  const char* arg = argv[*inout_index];
  const grt_flag_t* flag = NULL;
  const char* value = NULL;  // set when given inline after '='
  if (arg[1] == '-') {
    grt_string_view_t name, inline_value;
    bool has_value = grt_string_view_split(grt_make_cstring_view(arg + 2), '=',
                                           &name, &inline_value);
    if (grt_string_view_equal_cstring(name, "help") && !has_value) {
      *out_help = true;
      return grt_ok_status();
    }
    flag = grt_flags_find(spec, name);
    if (!flag) return grt_flags_unknown(spec, arg, 2 + name.size);
    if (has_value) value = inline_value.data;
  } else {
    if (arg[1] == 'h' && arg[2] == '\0') {
      *out_help = true;
      return grt_ok_status();
    }
    flag = grt_flags_find_short(spec, arg[1]);
    // As getopt: a value may follow a short name directly (-O2, -ofile).
    if (flag && arg[2] != '\0') {
      if (flag->kind == GRT_FLAG_BOOL) {
        return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "flag '-%c' (--%s) takes no value, got '%s'",
                               arg[1], flag->name, arg);
      }
      value = arg + 2;
    }
    if (!flag) return grt_flags_unknown(spec, arg, strlen(arg));
  }
  if (!value) {
    if (flag->kind == GRT_FLAG_BOOL) {
      *(bool*)flag->value = true;
      return grt_ok_status();
    }
    if (*inout_index + 1 >= argc) return grt_flags_missing_value(flag);
    value = argv[++*inout_index];
  }
  return grt_flags_store(flag, value, allocator);
}

grt_status_t grt_flags_parse(const grt_flags_spec_t* spec, int argc,
                             char** argv, grt_allocator_t allocator,
                             bool* out_help) {
  *out_help = false;
  bool flags_ended = false;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    bool is_flag = !flags_ended && arg[0] == '-' && arg[1] != '\0';
    if (is_flag && strcmp(arg, "--") == 0) {
      flags_ended = true;
      continue;
    }
    if (is_flag) {
      GRT_RETURN_IF_ERROR(
          grt_flags_parse_one(spec, argc, argv, &i, allocator, out_help));
      continue;
    }
    if (!spec->positionals) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "unexpected argument '%s': %s takes only flags",
                             arg, spec->program);
    }
    GRT_RETURN_IF_ERROR(grt_flag_list_append(spec->positionals, arg, allocator));
  }
  return grt_ok_status();
}

void grt_flags_print_help(const grt_flags_spec_t* spec, FILE* stream) {
  fprintf(stream, "%s: %s\n\nusage: %s %s\n\nflags:\n", spec->program,
          spec->summary, spec->program, spec->usage);
  for (size_t i = 0; i <= spec->flag_count; ++i) {
    char left[96];
    if (i == spec->flag_count) {
      snprintf(left, sizeof(left), "-h, --help");
      fprintf(stream, "  %-30s %s\n", left, "print this help and exit");
      break;
    }
    const grt_flag_t* flag = &spec->flags[i];
    char alias[8] = "";
    if (flag->short_name) snprintf(alias, sizeof(alias), "-%c, ", flag->short_name);
    if (flag->kind == GRT_FLAG_BOOL) {
      snprintf(left, sizeof(left), "%s--%s", alias, flag->name);
    } else {
      snprintf(left, sizeof(left), "%s--%s=%s", alias, flag->name,
               flag->value_name ? flag->value_name : "VALUE");
    }
    fprintf(stream, "  %-30s %s%s\n", left, flag->help,
            flag->kind == GRT_FLAG_LIST ? " (repeatable)" : "");
  }
}

void grt_flags_release(const grt_flags_spec_t* spec, grt_allocator_t allocator) {
  for (size_t i = 0; i < spec->flag_count; ++i) {
    if (spec->flags[i].kind != GRT_FLAG_LIST) continue;
    grt_flag_list_t* list = (grt_flag_list_t*)spec->flags[i].value;
    grt_allocator_free(allocator, (void*)list->values);
    memset(list, 0, sizeof(*list));
  }
  if (spec->positionals) {
    grt_allocator_free(allocator, (void*)spec->positionals->values);
    memset(spec->positionals, 0, sizeof(*spec->positionals));
  }
}

grt_status_t grt_flags_check_name_length(const char* flag, const char* name,
                                         size_t length) {
  if (length <= GRT_FLAGS_MAX_NAME_LENGTH) return grt_ok_status();
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "%s: the name has %zu bytes, at most %d are allowed "
                         "('%.32s...')",
                         flag, length, GRT_FLAGS_MAX_NAME_LENGTH, name);
}

int grt_flags_parse_for_main(const grt_flags_spec_t* spec, int argc,
                             char** argv, grt_allocator_t allocator) {
  bool help = false;
  grt_status_t status = grt_flags_parse(spec, argc, argv, allocator, &help);
  if (!grt_status_is_ok(status)) {
    fprintf(stderr, "%s: %s\n(run '%s --help' for usage)\n", spec->program,
            grt_status_message(status), spec->program);
    grt_status_free(status);
    return 2;
  }
  if (help) {
    grt_flags_print_help(spec, stdout);
    return 0;
  }
  return -1;
}
