// Logging: one process-wide hook that every grt layer reports through, so an
// embedding application can route messages into its own logs.
//
// Messages go to a sink (stderr by default) when their level is at or below
// the current level. The level starts from the GRT_LOG_LEVEL environment
// variable (a name such as "debug" or a number 0-5, read once, on first use)
// and defaults to WARNING. Logging is for people; errors a caller must act on
// travel as grt_status_t, never only as a log line.
#ifndef GRT_BASE_LOG_H_
#define GRT_BASE_LOG_H_

#include <stdbool.h>

#include "base/status.h"
#include "base/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

// One row per level, least verbose first: enum suffix, name, letter that
// prefixes stderr lines.
#define GRT_LOG_LEVEL_LIST(X) \
  X(OFF, "off", '-')          \
  X(ERROR, "error", 'E')      \
  X(WARNING, "warning", 'W')  \
  X(INFO, "info", 'I')        \
  X(DEBUG, "debug", 'D')      \
  X(TRACE, "trace", 'T')

typedef enum grt_log_level_e {
#define GRT_LOG_LEVEL_ENUM(name, text, letter) GRT_LOG_LEVEL_##name,
  GRT_LOG_LEVEL_LIST(GRT_LOG_LEVEL_ENUM)
#undef GRT_LOG_LEVEL_ENUM
  GRT_LOG_LEVEL_COUNT
} grt_log_level_t;

// Longer messages are cut to this many bytes (NUL included), ending in
// "...": formatting happens on the stack so logging never allocates.
#define GRT_LOG_MESSAGE_CAPACITY 1024

// Receives each enabled message. |file| and |line| are the call site;
// |message| is formatted, without a trailing newline, valid only during the
// call. May be called from several threads at once.
typedef void (*grt_log_sink_fn_t)(void* user_data, grt_log_level_t level,
                                  const char* file, int line,
                                  const char* message);

// Routes messages to |sink|; NULL restores the stderr sink. Safe to call
// while other threads log: each message goes to either the old or the new
// sink with that sink's own |user_data|. A thread may still be inside the
// old sink when this returns, so keep its user_data alive until logging
// has quiesced.
void grt_log_set_sink(grt_log_sink_fn_t sink, void* user_data);

void grt_log_set_level(grt_log_level_t level);
grt_log_level_t grt_log_get_level(void);
bool grt_log_is_enabled(grt_log_level_t level);

// "error", "warning", ...; "unknown" outside the enum.
const char* grt_log_level_name(grt_log_level_t level);

// Accepts a level name in any case or its number (0 = off .. 5 = trace),
// as GRT_LOG_LEVEL and command-line flags spell them.
grt_status_t grt_log_level_parse(grt_string_view_t text,
                                 grt_log_level_t* out_level) GRT_MUST_USE;

// Formats and delivers one message if |level| is enabled. Prefer the
// macros, which skip evaluating the arguments when it is not.
void grt_log_write(grt_log_level_t level, const char* file, int line,
                   const char* format, ...) GRT_PRINTF_LIKE(4, 5);

#define GRT_LOG(level, ...)                                  \
  do {                                                       \
    if (grt_log_is_enabled(level)) {                         \
      grt_log_write((level), __FILE__, __LINE__, __VA_ARGS__); \
    }                                                        \
  } while (0)

#define GRT_LOG_ERROR(...) GRT_LOG(GRT_LOG_LEVEL_ERROR, __VA_ARGS__)
#define GRT_LOG_WARNING(...) GRT_LOG(GRT_LOG_LEVEL_WARNING, __VA_ARGS__)
#define GRT_LOG_INFO(...) GRT_LOG(GRT_LOG_LEVEL_INFO, __VA_ARGS__)
#define GRT_LOG_DEBUG(...) GRT_LOG(GRT_LOG_LEVEL_DEBUG, __VA_ARGS__)
#define GRT_LOG_TRACE(...) GRT_LOG(GRT_LOG_LEVEL_TRACE, __VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif  // GRT_BASE_LOG_H_
