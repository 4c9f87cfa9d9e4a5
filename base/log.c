#include "base/log.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
  const char* name;
  char letter;
} grt_log_levels[GRT_LOG_LEVEL_COUNT] = {
#define GRT_LOG_LEVEL_ROW(name, text, letter) {text, letter},
    GRT_LOG_LEVEL_LIST(GRT_LOG_LEVEL_ROW)
#undef GRT_LOG_LEVEL_ROW
};

#define GRT_LOG_DEFAULT_LEVEL GRT_LOG_LEVEL_WARNING
// The level before GRT_LOG_LEVEL has been read.
#define GRT_LOG_LEVEL_UNREAD (-1)

static atomic_int grt_log_level_state = GRT_LOG_LEVEL_UNREAD;

// The sink is two words that must change together, so it is published as a
// sequence lock: writers make |sequence| odd while they update and readers
// retry until they saw both words under one even value. A NULL function
// means the stderr sink.
static atomic_uint grt_log_sink_sequence;
static _Atomic(grt_log_sink_fn_t) grt_log_sink_fn;
static _Atomic(void*) grt_log_sink_user_data;

const char* grt_log_level_name(grt_log_level_t level) {
  if ((unsigned)level >= GRT_LOG_LEVEL_COUNT) return "unknown";
  return grt_log_levels[level].name;
}

static bool grt_log_equal_ignoring_case(grt_string_view_t text,
                                        const char* name) {
  size_t length = strlen(name);
  if (text.size != length) return false;
  for (size_t i = 0; i < length; ++i) {
    char c = text.data[i];
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if (c != name[i]) return false;
  }
  return true;
}

grt_status_t grt_log_level_parse(grt_string_view_t text,
                                 grt_log_level_t* out_level) {
  for (int level = 0; level < GRT_LOG_LEVEL_COUNT; ++level) {
    bool is_number = text.size == 1 && text.data[0] == '0' + level;
    if (is_number || grt_log_equal_ignoring_case(text, grt_log_levels[level].name)) {
      *out_level = (grt_log_level_t)level;
      return grt_ok_status();
    }
  }
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "expected a log level (off, error, warning, info, "
                         "debug, trace or 0-%d), got \"%.*s\"",
                         GRT_LOG_LEVEL_COUNT - 1, GRT_SV_ARG(text));
}

void grt_log_set_level(grt_log_level_t level) {
  atomic_store(&grt_log_level_state, (int)level);
}

grt_log_level_t grt_log_get_level(void) {
  int level = atomic_load(&grt_log_level_state);
  if (level != GRT_LOG_LEVEL_UNREAD) return (grt_log_level_t)level;

  grt_log_level_t from_environment = GRT_LOG_DEFAULT_LEVEL;
  grt_status_t status = grt_ok_status();
  const char* text = getenv("GRT_LOG_LEVEL");
  if (text && *text) {
    status = grt_log_level_parse(grt_make_cstring_view(text), &from_environment);
  }
  // Only the first reader installs the environment's level (a set_level
  // that got in first also wins), so the complaint below is made once.
  int expected = GRT_LOG_LEVEL_UNREAD;
  bool installed = atomic_compare_exchange_strong(
      &grt_log_level_state, &expected, (int)from_environment);
  if (installed && !grt_status_is_ok(status)) {
    GRT_LOG_WARNING("GRT_LOG_LEVEL: %s; using %s", grt_status_message(status),
                    grt_log_level_name(from_environment));
  }
  grt_status_free(status);
  return (grt_log_level_t)atomic_load(&grt_log_level_state);
}

bool grt_log_is_enabled(grt_log_level_t level) {
  return level != GRT_LOG_LEVEL_OFF && level <= grt_log_get_level();
}

void grt_log_set_sink(grt_log_sink_fn_t sink, void* user_data) {
  unsigned sequence = atomic_load(&grt_log_sink_sequence);
  for (;;) {
    if (sequence & 1u) {  // another writer is mid-update
      sequence = atomic_load(&grt_log_sink_sequence);
      continue;
    }
    if (atomic_compare_exchange_weak(&grt_log_sink_sequence, &sequence,
                                     sequence + 1)) {
      break;
    }
  }
  atomic_store(&grt_log_sink_fn, sink);
  atomic_store(&grt_log_sink_user_data, user_data);
  atomic_store(&grt_log_sink_sequence, sequence + 2);
}

static void grt_log_load_sink(grt_log_sink_fn_t* out_sink,
                              void** out_user_data) {
  for (;;) {
    unsigned before = atomic_load(&grt_log_sink_sequence);
    if (before & 1u) continue;
    *out_sink = atomic_load(&grt_log_sink_fn);
    *out_user_data = atomic_load(&grt_log_sink_user_data);
    if (atomic_load(&grt_log_sink_sequence) == before) return;
  }
}

static void grt_log_stderr_sink(grt_log_level_t level, const char* file,
                                int line, const char* message) {
  const char* base = strrchr(file, '/');
  base = base ? base + 1 : file;
  char letter = (unsigned)level < GRT_LOG_LEVEL_COUNT
                    ? grt_log_levels[level].letter
                    : '?';
  // One fprintf per line: stdio locks the stream per call, so lines from
  // different threads do not interleave.
  fprintf(stderr, "%c %s:%d] %s\n", letter, base, line, message);
}

void grt_log_write(grt_log_level_t level, const char* file, int line,
                   const char* format, ...) {
  if (!grt_log_is_enabled(level)) return;
  char message[GRT_LOG_MESSAGE_CAPACITY];
  va_list args;
  va_start(args, format);
  int length = vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  if (length < 0) {
    snprintf(message, sizeof(message), "(unformattable log message: %s)",
             format);
  } else if ((size_t)length >= sizeof(message)) {
    memcpy(message + sizeof(message) - 4, "...", 4);
  }
  grt_log_sink_fn_t sink;
  void* user_data;
  grt_log_load_sink(&sink, &user_data);
  if (sink) {
    sink(user_data, level, file, line, message);
  } else {
    grt_log_stderr_sink(level, file, line, message);
  }
}
