// The tools' flag parser: every spelling it accepts and every error it
// reports, against one table shaped like a real tool's.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tools/flags.h"

typedef struct test_flags_t {
  const char* module;
  int64_t limit;
  bool stats;
  grt_flag_list_t inputs;
  grt_flag_list_t positionals;
  grt_flag_t table[4];
  grt_flags_spec_t spec;
} test_flags_t;

static void test_flags_init(test_flags_t* t, bool positionals) {
  memset(t, 0, sizeof(*t));
  const grt_flag_t table[] = {
      {"module", 'm', GRT_FLAG_STRING, &t->module, "FILE", "module file"},
      {"limit", 0, GRT_FLAG_INT, &t->limit, "N", "a number"},
      {"print_statistics", 0, GRT_FLAG_BOOL, &t->stats, NULL, "timings"},
      {"input", 0, GRT_FLAG_LIST, &t->inputs, "VALUE", "an argument"},
  };
  memcpy(t->table, table, sizeof(table));
  t->spec.program = "grt-test";
  t->spec.summary = "tests flags";
  t->spec.usage = "[flags] FILE";
  t->spec.flags = t->table;
  t->spec.flag_count = 4;
  t->spec.positionals = positionals ? &t->positionals : NULL;
}

// Parses a NULL-terminated argument list (program name first).
static grt_status_t parse(test_flags_t* t, bool* help, const char** args) {
  int argc = 0;
  while (args[argc]) ++argc;
  return grt_flags_parse(&t->spec, argc, (char**)args, grt_allocator_system(),
                         help);
}

static void expect_error(grt_status_t status, const char* message) {
  assert_non_null(status);
  if (strcmp(grt_status_message(status), message) != 0) {
    fprintf(stderr, "got:    %s\nwanted: %s\n", grt_status_message(status),
            message);
    grt_status_free(status);
    fail();
  }
  grt_status_free(status);
}

static void test_all_spellings(void** state) {
  test_flags_t t;
  test_flags_init(&t, true);
  bool help = true;
  const char* args[] = {"grt-test", "--module=a.vmfb", "--limit", "0x10",
                        "--print_statistics", "--input=1", "--input", "-2",
                        "file1", "--", "--not-a-flag", "-", NULL};
  assert_null(parse(&t, &help, args));
  assert_false(help);
  assert_string_equal(t.module, "a.vmfb");
  assert_int_equal(t.limit, 16);
  assert_true(t.stats);
  assert_int_equal(t.inputs.count, 2);
  assert_string_equal(t.inputs.values[0], "1");
  assert_string_equal(t.inputs.values[1], "-2");
  assert_int_equal(t.positionals.count, 3);
  assert_string_equal(t.positionals.values[0], "file1");
  assert_string_equal(t.positionals.values[1], "--not-a-flag");
  assert_string_equal(t.positionals.values[2], "-");
  grt_flags_release(&t.spec, grt_allocator_system());
  assert_int_equal(t.inputs.count, 0);
}

static void test_short_alias_last_wins_and_bool_values(void** state) {
  test_flags_t t;
  test_flags_init(&t, false);
  bool help = false;
  const char* args[] = {"grt-test", "-m", "x", "--module=y=z",
                        "--print_statistics=true", "--print_statistics=0",
                        "--input=", NULL};
  assert_null(parse(&t, &help, args));
  assert_string_equal(t.module, "y=z");
  assert_false(t.stats);
  assert_int_equal(t.inputs.count, 1);
  assert_string_equal(t.inputs.values[0], "");
  grt_flags_release(&t.spec, grt_allocator_system());
}

static void test_short_alias_attached_value(void** state) {
  test_flags_t t;
  test_flags_init(&t, false);
  t.table[1].short_name = 'O';
  t.table[2].short_name = 's';
  bool help = false;
  const char* args[] = {"grt-test", "-mfile.vmfb", "-O3", NULL};
  assert_null(parse(&t, &help, args));
  assert_string_equal(t.module, "file.vmfb");
  assert_int_equal(t.limit, 3);
  const char* bool_value[] = {"grt-test", "-s1", NULL};
  expect_error(parse(&t, &help, bool_value),
               "flag '-s' (--print_statistics) takes no value, got '-s1'");
  const char* bad_int[] = {"grt-test", "-Ox", NULL};
  expect_error(parse(&t, &help, bad_int),
               "expected an integer, got \"x\"; flag '--limit'");
  grt_flags_release(&t.spec, grt_allocator_system());
}

static void test_help(void** state) {
  test_flags_t t;
  test_flags_init(&t, false);
  bool help = false;
  const char* args[] = {"grt-test", "--limit=3", "-h", NULL};
  assert_null(parse(&t, &help, args));
  assert_true(help);
  const char* long_args[] = {"grt-test", "--help", NULL};
  help = false;
  assert_null(parse(&t, &help, long_args));
  assert_true(help);

  char* text = NULL;
  size_t size = 0;
  FILE* stream = open_memstream(&text, &size);
  assert_non_null(stream);
  grt_flags_print_help(&t.spec, stream);
  fclose(stream);
  assert_non_null(strstr(text, "grt-test: tests flags\n\nusage: grt-test [flags] FILE\n"));
  assert_non_null(strstr(text, "  -m, --module=FILE"));
  assert_non_null(strstr(text, " module file\n"));
  assert_non_null(strstr(text, "  --print_statistics "));
  assert_non_null(strstr(text, " an argument (repeatable)\n"));
  assert_non_null(strstr(text, "  -h, --help "));
  free(text);
}

static void test_errors(void** state) {
  test_flags_t t;
  test_flags_init(&t, false);
  bool help = false;
  const char* unknown[] = {"grt-test", "--modul=x", NULL};
  expect_error(parse(&t, &help, unknown),
               "unknown flag '--modul'; valid flags: --module, --limit, "
               "--print_statistics, --input, --help");
  const char* unknown_short[] = {"grt-test", "-q", NULL};
  expect_error(parse(&t, &help, unknown_short),
               "unknown flag '-q'; valid flags: --module, --limit, "
               "--print_statistics, --input, --help");
  const char* missing[] = {"grt-test", "--module", NULL};
  expect_error(parse(&t, &help, missing),
               "flag '--module' needs a value: --module=FILE");
  const char* bad_bool[] = {"grt-test", "--print_statistics=yes", NULL};
  expect_error(parse(&t, &help, bad_bool),
               "flag '--print_statistics' takes true or false, got 'yes'");
  const char* bad_int[] = {"grt-test", "--limit=12x", NULL};
  expect_error(parse(&t, &help, bad_int),
               "expected an integer, got \"12x\"; flag '--limit'");
  const char* positional[] = {"grt-test", "stray", NULL};
  expect_error(parse(&t, &help, positional),
               "unexpected argument 'stray': grt-test takes only flags");
  const char* help_with_value[] = {"grt-test", "--help=1", NULL};
  expect_error(parse(&t, &help, help_with_value),
               "unknown flag '--help'; valid flags: --module, --limit, "
               "--print_statistics, --input, --help");
  grt_flags_release(&t.spec, grt_allocator_system());
}

static void test_parse_for_main_exit_codes(void** state) {
  test_flags_t t;
  test_flags_init(&t, true);
  const char* ok_args[] = {"grt-test", "f", NULL};
  assert_int_equal(grt_flags_parse_for_main(&t.spec, 2, (char**)ok_args,
                                            grt_allocator_system()),
                   -1);
  const char* bad_args[] = {"grt-test", "--nope", NULL};
  assert_int_equal(grt_flags_parse_for_main(&t.spec, 2, (char**)bad_args,
                                            grt_allocator_system()),
                   2);
  grt_flags_release(&t.spec, grt_allocator_system());
}

static void test_float_flag(void** state) {
  (void)state;
  double threshold = 0;
  const grt_flag_t table[] = {
      {"threshold", 0, GRT_FLAG_FLOAT, &threshold, "X", "a tolerance"}};
  grt_flags_spec_t spec = {"grt-test", "tests flags", "", table, 1, NULL};
  bool help = false;
  const char* good[] = {"grt-test", "--threshold=1e-3", NULL};
  assert_null(grt_flags_parse(&spec, 2, (char**)good, grt_allocator_system(),
                              &help));
  assert_true(threshold == 1e-3);
  const char* bad[] = {"grt-test", "--threshold", "tiny", NULL};
  grt_status_t status = grt_flags_parse(&spec, 3, (char**)bad,
                                        grt_allocator_system(), &help);
  assert_non_null(status);
  assert_non_null(strstr(grt_status_message(status), "flag '--threshold'"));
  assert_non_null(strstr(grt_status_message(status), "\"tiny\""));
  grt_status_free(status);
}

static void test_name_length(void** state) {
  (void)state;
  static char name[GRT_FLAGS_MAX_NAME_LENGTH + 2];
  memset(name, 'f', sizeof(name) - 1);
  assert_null(grt_flags_check_name_length("--function", name,
                                          GRT_FLAGS_MAX_NAME_LENGTH));
  grt_status_t status = grt_flags_check_name_length(
      "--function", name, GRT_FLAGS_MAX_NAME_LENGTH + 1);
  assert_int_equal(grt_status_code(status), GRT_STATUS_INVALID_ARGUMENT);
  assert_string_equal(grt_status_message(status),
                      "--function: the name has 1025 bytes, at most 1024 are "
                      "allowed ('ffffffffffffffffffffffffffffffff...')");
  grt_status_free(status);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_name_length),
      cmocka_unit_test(test_all_spellings),
      cmocka_unit_test(test_short_alias_last_wins_and_bool_values),
      cmocka_unit_test(test_short_alias_attached_value),
      cmocka_unit_test(test_help),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_parse_for_main_exit_codes),
      cmocka_unit_test(test_float_flag),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
