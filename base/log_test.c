#include "base/log.h"

#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wchar.h>

#include <cmocka.h>

// Records the last message a sink received.
typedef struct {
  int calls;
  grt_log_level_t level;
  const char* file;
  int line;
  char message[GRT_LOG_MESSAGE_CAPACITY];
} capture_t;

static void capture_sink(void* user_data, grt_log_level_t level,
                         const char* file, int line, const char* message) {
  capture_t* capture = user_data;
  ++capture->calls;
  capture->level = level;
  capture->file = file;
  capture->line = line;
  snprintf(capture->message, sizeof(capture->message), "%s", message);
}

static int restore_defaults(void** state) {
  (void)state;
  grt_log_set_sink(NULL, NULL);
  grt_log_set_level(GRT_LOG_LEVEL_WARNING);
  return 0;
}

static void expect_error(grt_status_t status, grt_status_code_t code,
                         const char* message) {
  assert_non_null(status);
  if (strcmp(grt_status_message(status), message) != 0) {
    fail_msg("got message \"%s\", expected \"%s\"", grt_status_message(status),
             message);
  }
  assert_int_equal(grt_status_code(status), code);
  grt_status_free(status);
}

static void test_level_names_and_parsing(void** state) {
  (void)state;
  static const struct {
    const char* text;
    grt_log_level_t level;
  } cases[] = {
      {"off", GRT_LOG_LEVEL_OFF},     {"0", GRT_LOG_LEVEL_OFF},
      {"error", GRT_LOG_LEVEL_ERROR}, {"ERROR", GRT_LOG_LEVEL_ERROR},
      {"Warning", GRT_LOG_LEVEL_WARNING}, {"2", GRT_LOG_LEVEL_WARNING},
      {"info", GRT_LOG_LEVEL_INFO},   {"debug", GRT_LOG_LEVEL_DEBUG},
      {"4", GRT_LOG_LEVEL_DEBUG},     {"trace", GRT_LOG_LEVEL_TRACE},
      {"5", GRT_LOG_LEVEL_TRACE},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    grt_log_level_t level = GRT_LOG_LEVEL_COUNT;
    assert_null(grt_log_level_parse(grt_make_cstring_view(cases[i].text), &level));
    assert_int_equal(level, cases[i].level);
  }
  assert_string_equal(grt_log_level_name(GRT_LOG_LEVEL_WARNING), "warning");
  assert_string_equal(grt_log_level_name(GRT_LOG_LEVEL_TRACE), "trace");
  assert_string_equal(grt_log_level_name(GRT_LOG_LEVEL_COUNT), "unknown");

  static const char* const bad[] = {"verbose", "6", "", "-1", "errors", "00"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
    char expected[160];
    snprintf(expected, sizeof(expected),
             "expected a log level (off, error, warning, info, debug, trace "
             "or 0-5), got \"%s\"",
             bad[i]);
    grt_log_level_t level = GRT_LOG_LEVEL_INFO;
    expect_error(grt_log_level_parse(grt_make_cstring_view(bad[i]), &level),
                 GRT_STATUS_INVALID_ARGUMENT, expected);
    assert_int_equal(level, GRT_LOG_LEVEL_INFO);
  }
}

static void test_enabled_message_reaches_sink(void** state) {
  (void)state;
  capture_t capture = {0};
  grt_log_set_sink(capture_sink, &capture);
  grt_log_set_level(GRT_LOG_LEVEL_INFO);
  assert_int_equal(grt_log_get_level(), GRT_LOG_LEVEL_INFO);
  int line = __LINE__ + 1;
  GRT_LOG_INFO("loaded %d functions from '%s'", 3, "m.vmfb");
  assert_int_equal(capture.calls, 1);
  assert_int_equal(capture.level, GRT_LOG_LEVEL_INFO);
  assert_string_equal(capture.message, "loaded 3 functions from 'm.vmfb'");
  assert_non_null(strstr(capture.file, "log_test.c"));
  assert_int_equal(capture.line, line);
  GRT_LOG_ERROR("e");
  GRT_LOG_WARNING("w");
  assert_int_equal(capture.calls, 3);
  assert_int_equal(capture.level, GRT_LOG_LEVEL_WARNING);
}

static int formatted_arguments;
static int count_formatting(void) { return ++formatted_arguments; }

static void test_disabled_levels_are_not_formatted(void** state) {
  (void)state;
  capture_t capture = {0};
  grt_log_set_sink(capture_sink, &capture);
  grt_log_set_level(GRT_LOG_LEVEL_INFO);
  formatted_arguments = 0;
  GRT_LOG_DEBUG("%d", count_formatting());
  GRT_LOG_TRACE("%d", count_formatting());
  assert_int_equal(formatted_arguments, 0);
  assert_int_equal(capture.calls, 0);
  // Calling the function directly is filtered too.
  grt_log_write(GRT_LOG_LEVEL_DEBUG, "f.c", 1, "direct");
  assert_int_equal(capture.calls, 0);

  grt_log_set_level(GRT_LOG_LEVEL_OFF);
  GRT_LOG_ERROR("%d", count_formatting());
  assert_int_equal(formatted_arguments, 0);
  assert_false(grt_log_is_enabled(GRT_LOG_LEVEL_ERROR));
  // OFF is never a message level, even at the most verbose setting.
  grt_log_set_level(GRT_LOG_LEVEL_TRACE);
  assert_false(grt_log_is_enabled(GRT_LOG_LEVEL_OFF));
  GRT_LOG_TRACE("%d", count_formatting());
  assert_int_equal(formatted_arguments, 1);
  assert_int_equal(capture.calls, 1);
}

static void test_long_message_is_truncated(void** state) {
  (void)state;
  capture_t capture = {0};
  grt_log_set_sink(capture_sink, &capture);
  static char text[3000];
  memset(text, 'a', sizeof(text) - 1);
  GRT_LOG_ERROR("%s", text);
  size_t length = strlen(capture.message);
  assert_int_equal(length, GRT_LOG_MESSAGE_CAPACITY - 1);
  assert_string_equal(capture.message + length - 3, "...");
  assert_int_equal(capture.message[length - 4], 'a');
}

static void test_unformattable_message_is_reported(void** state) {
  (void)state;
  capture_t capture = {0};
  grt_log_set_sink(capture_sink, &capture);
  // The C locale cannot encode this wide character, so vsnprintf fails.
  const wchar_t text[] = {(wchar_t)0x263A, 0};
  GRT_LOG_ERROR("%ls", text);
  assert_int_equal(capture.calls, 1);
  assert_string_equal(capture.message, "(unformattable log message: %ls)");
}

static void test_null_sink_restores_stderr(void** state) {
  (void)state;
  capture_t capture = {0};
  grt_log_set_sink(capture_sink, &capture);
  grt_log_set_sink(NULL, NULL);

  char path[] = "/tmp/grt_log_test.XXXXXX";
  int file = mkstemp(path);
  assert_true(file >= 0);
  fflush(stderr);
  int saved_stderr = dup(STDERR_FILENO);
  assert_true(dup2(file, STDERR_FILENO) >= 0);
  int line = __LINE__ + 1;
  GRT_LOG_ERROR("to stderr %d", 7);
  fflush(stderr);
  dup2(saved_stderr, STDERR_FILENO);
  close(saved_stderr);

  char written[256] = {0};
  ssize_t count = pread(file, written, sizeof(written) - 1, 0);
  close(file);
  unlink(path);
  assert_true(count > 0);
  char expected[128];
  snprintf(expected, sizeof(expected), "E log_test.c:%d] to stderr 7\n", line);
  assert_string_equal(written, expected);
  assert_int_equal(capture.calls, 0);
}

// Threads log while the main thread swaps between two sinks; each sink must
// always be handed its own user_data.
typedef struct {
  atomic_int calls;
  atomic_int mismatches;
} shared_counts_t;

typedef struct {
  shared_counts_t* counts;
} sink_context_t;

static sink_context_t sink_context_a;
static sink_context_t sink_context_b;

static void sink_a(void* user_data, grt_log_level_t level, const char* file,
                   int line, const char* message) {
  sink_context_t* context = user_data;
  if (context != &sink_context_a) {
    atomic_fetch_add(&sink_context_a.counts->mismatches, 1);
  }
  atomic_fetch_add(&sink_context_a.counts->calls, 1);
}

static void sink_b(void* user_data, grt_log_level_t level, const char* file,
                   int line, const char* message) {
  sink_context_t* context = user_data;
  if (context != &sink_context_b) {
    atomic_fetch_add(&sink_context_b.counts->mismatches, 1);
  }
  atomic_fetch_add(&sink_context_b.counts->calls, 1);
}

enum { kThreads = 4, kMessagesPerThread = 2000 };

static void* logging_thread(void* arg) {
  for (int i = 0; i < kMessagesPerThread; ++i) GRT_LOG_ERROR("message %d", i);
  return arg;
}

static void test_sink_swaps_are_safe_across_threads(void** state) {
  (void)state;
  shared_counts_t counts;
  atomic_init(&counts.calls, 0);
  atomic_init(&counts.mismatches, 0);
  sink_context_a.counts = &counts;
  sink_context_b.counts = &counts;
  grt_log_set_level(GRT_LOG_LEVEL_ERROR);
  grt_log_set_sink(sink_a, &sink_context_a);

  pthread_t threads[kThreads];
  for (int i = 0; i < kThreads; ++i) {
    assert_int_equal(pthread_create(&threads[i], NULL, logging_thread, NULL), 0);
  }
  for (int i = 0; i < 2000; ++i) {
    if (i % 2) {
      grt_log_set_sink(sink_a, &sink_context_a);
    } else {
      grt_log_set_sink(sink_b, &sink_context_b);
    }
  }
  for (int i = 0; i < kThreads; ++i) pthread_join(threads[i], NULL);
  assert_int_equal(atomic_load(&counts.mismatches), 0);
  assert_int_equal(atomic_load(&counts.calls), kThreads * kMessagesPerThread);
}

// The environment is read once per process, so each case runs in a fresh
// copy of this program (see main).
static void run_environment_case(const char* value, const char* level,
                                 const char* warning) {
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    if (value) {
      setenv("GRT_LOG_LEVEL", value, 1);
    } else {
      unsetenv("GRT_LOG_LEVEL");
    }
    execl("/proc/self/exe", "log_test", "--environment-case", level,
          warning ? warning : "", (char*)NULL);
    _exit(127);
  }
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 0);
}

static int environment_case_main(const char* level, const char* warning) {
  capture_t capture = {0};
  grt_log_set_sink(capture_sink, &capture);
  const char* got = grt_log_level_name(grt_log_get_level());
  const char* got_warning = capture.calls ? capture.message : "";
  grt_log_get_level();  // a second read must not complain again
  if (strcmp(got, level) != 0 || strcmp(got_warning, warning) != 0 ||
      capture.calls > 1) {
    fprintf(stderr, "level %s (expected %s), %d warnings, last \"%s\" "
            "(expected \"%s\")\n", got, level, capture.calls, got_warning,
            warning);
    return 1;
  }
  return 0;
}

static void test_level_from_environment(void** state) {
  (void)state;
  run_environment_case(NULL, "warning", NULL);
  run_environment_case("", "warning", NULL);
  run_environment_case("debug", "debug", NULL);
  run_environment_case("3", "info", NULL);
  run_environment_case("OFF", "off", NULL);
  run_environment_case(
      "loud", "warning",
      "GRT_LOG_LEVEL: expected a log level (off, error, warning, info, debug, "
      "trace or 0-5), got \"loud\"; using warning");
}

int main(int argc, char** argv) {
  if (argc == 4 && strcmp(argv[1], "--environment-case") == 0) {
    return environment_case_main(argv[2], argv[3]);
  }
  const struct CMUnitTest tests[] = {
#define LOG_TEST(name) cmocka_unit_test_teardown(name, restore_defaults)
      LOG_TEST(test_level_names_and_parsing),
      LOG_TEST(test_enabled_message_reaches_sink),
      LOG_TEST(test_disabled_levels_are_not_formatted),
      LOG_TEST(test_long_message_is_truncated),
      LOG_TEST(test_unformattable_message_is_reported),
      LOG_TEST(test_null_sink_restores_stderr),
      LOG_TEST(test_sink_swaps_are_safe_across_threads),
      LOG_TEST(test_level_from_environment),
#undef LOG_TEST
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
