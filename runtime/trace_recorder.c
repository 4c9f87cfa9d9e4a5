// The in-memory trace recorder (trace_recorder.h).
#include "runtime/trace_recorder.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/file.h"
#include "base/time.h"

// Events are kept in blocks of this many, so growing never moves them.
#define GRT_TRACE_RECORDER_BLOCK_EVENTS 4096

// One event as kept: strings and the thread as interned ids.
typedef struct grt_trace_recorded_event_t {
  int64_t start_ns;
  int64_t end_ns;
  uint64_t first_workgroup;
  uint64_t workgroups;
  uint64_t count;
  uint32_t name;    // string id
  uint32_t detail;  // string id
  uint32_t thread;  // grt_trace_thread_id() of the thread it happened on
  uint32_t worker_id;
  uint32_t workgroup_count[3];
  uint32_t kind;  // grt_trace_event_kind_t
} grt_trace_recorded_event_t;

typedef struct grt_trace_recorder_thread_t {
  uint32_t id;    // grt_trace_thread_id()
  uint32_t name;  // string id
} grt_trace_recorder_thread_t;

struct grt_trace_recorder_t {
  grt_trace_sink_t sink;  // first: the sink pointer is the recorder
  grt_allocator_t allocator;
  size_t max_events;
  grt_time_t origin_ns;
  int pid;
  char process_name[64];

  pthread_mutex_t mutex;  // guards everything below
  grt_trace_recorded_event_t** blocks;
  size_t block_count;
  size_t block_capacity;
  size_t event_count;
  uint64_t dropped;
  // Interned strings: the bytes live in |strings_arena| (NUL-terminated);
  // |strings| indexes them by id; |string_table| is an open-addressing
  // hash table of ids + 1 (0: empty slot) keyed by content.
  grt_arena_t strings_arena;
  grt_string_view_t* strings;
  uint32_t string_count;
  uint32_t string_capacity;
  uint32_t* string_table;
  uint32_t string_table_capacity;  // a power of two, or 0
  grt_trace_recorder_thread_t* threads;
  size_t thread_count;
  size_t thread_capacity;
};

//===----------------------------------------------------------------------===//
// Interning (mutex held)
//===----------------------------------------------------------------------===//

static uint64_t grt_trace_hash(grt_string_view_t text) {
  uint64_t hash = 1469598103934665603ull;  // FNV-1a
  for (size_t i = 0; i < text.size; ++i) {
    hash = (hash ^ (unsigned char)text.data[i]) * 1099511628211ull;
  }
  return hash;
}

static grt_status_t grt_trace_recorder_grow_string_table(
    grt_trace_recorder_t* recorder) {
  uint32_t capacity =
      recorder->string_table_capacity ? recorder->string_table_capacity * 2
                                      : 64;
  uint32_t* table = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      recorder->allocator, (size_t)capacity * sizeof(*table), (void**)&table));
  for (uint32_t id = 0; id < recorder->string_count; ++id) {
    uint32_t slot =
        (uint32_t)grt_trace_hash(recorder->strings[id]) & (capacity - 1);
    while (table[slot]) slot = (slot + 1) & (capacity - 1);
    table[slot] = id + 1;
  }
  grt_allocator_free(recorder->allocator, recorder->string_table);
  recorder->string_table = table;
  recorder->string_table_capacity = capacity;
  return grt_ok_status();
}

static grt_status_t grt_trace_recorder_intern(grt_trace_recorder_t* recorder,
                                              grt_string_view_t text,
                                              uint32_t* out_id) {
  if (!text.data) text = grt_string_view_empty();
  uint64_t hash = grt_trace_hash(text);
  uint32_t mask = recorder->string_table_capacity - 1;
  if (recorder->string_table_capacity) {
    for (uint32_t slot = (uint32_t)hash & mask;
         recorder->string_table[slot]; slot = (slot + 1) & mask) {
      uint32_t id = recorder->string_table[slot] - 1;
      if (grt_string_view_equal(recorder->strings[id], text)) {
        *out_id = id;
        return grt_ok_status();
      }
    }
  }
  // Keep the table at most half full.
  if ((uint64_t)(recorder->string_count + 1) * 2 >
      recorder->string_table_capacity) {
    GRT_RETURN_IF_ERROR(grt_trace_recorder_grow_string_table(recorder));
    mask = recorder->string_table_capacity - 1;
  }
  if (recorder->string_count == recorder->string_capacity) {
    uint32_t capacity =
        recorder->string_capacity ? recorder->string_capacity * 2 : 64;
    GRT_RETURN_IF_ERROR(grt_allocator_realloc(
        recorder->allocator,
        (size_t)recorder->string_capacity * sizeof(*recorder->strings),
        (size_t)capacity * sizeof(*recorder->strings),
        (void**)&recorder->strings));
    recorder->string_capacity = capacity;
  }
  char* copy = grt_arena_strndup(&recorder->strings_arena, text.data, text.size);
  if (!copy) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "out of memory copying a trace string of %zu "
                           "bytes",
                           text.size);
  }
  uint32_t id = recorder->string_count++;
  recorder->strings[id] = grt_make_string_view(copy, text.size);
  uint32_t slot = (uint32_t)hash & mask;
  while (recorder->string_table[slot]) slot = (slot + 1) & mask;
  recorder->string_table[slot] = id + 1;
  *out_id = id;
  return grt_ok_status();
}

// Registers the calling thread (named as it names itself, else "thread N")
// the first time it records.
static grt_status_t grt_trace_recorder_note_thread(
    grt_trace_recorder_t* recorder, uint32_t thread) {
  for (size_t i = 0; i < recorder->thread_count; ++i) {
    if (recorder->threads[i].id == thread) return grt_ok_status();
  }
  if (recorder->thread_count == recorder->thread_capacity) {
    size_t capacity =
        recorder->thread_capacity ? recorder->thread_capacity * 2 : 8;
    GRT_RETURN_IF_ERROR(grt_allocator_realloc(
        recorder->allocator,
        recorder->thread_capacity * sizeof(*recorder->threads),
        capacity * sizeof(*recorder->threads), (void**)&recorder->threads));
    recorder->thread_capacity = capacity;
  }
  char fallback[32];
  const char* name = grt_trace_thread_name();
  if (!name[0]) {
    snprintf(fallback, sizeof(fallback), "thread %u", thread);
    name = fallback;
  }
  grt_trace_recorder_thread_t* entry =
      &recorder->threads[recorder->thread_count];
  entry->id = thread;
  GRT_RETURN_IF_ERROR(grt_trace_recorder_intern(
      recorder, grt_make_cstring_view(name), &entry->name));
  ++recorder->thread_count;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Recording
//===----------------------------------------------------------------------===//

static grt_trace_recorded_event_t* grt_trace_recorder_event_at(
    grt_trace_recorder_t* recorder, size_t index) {
  return &recorder->blocks[index / GRT_TRACE_RECORDER_BLOCK_EVENTS]
                          [index % GRT_TRACE_RECORDER_BLOCK_EVENTS];
}

// Room for one more event (mutex held).
static grt_status_t grt_trace_recorder_reserve(grt_trace_recorder_t* recorder) {
  if (recorder->event_count <
      recorder->block_count * GRT_TRACE_RECORDER_BLOCK_EVENTS) {
    return grt_ok_status();
  }
  if (recorder->block_count == recorder->block_capacity) {
    size_t capacity =
        recorder->block_capacity ? recorder->block_capacity * 2 : 16;
    GRT_RETURN_IF_ERROR(grt_allocator_realloc(
        recorder->allocator,
        recorder->block_capacity * sizeof(*recorder->blocks),
        capacity * sizeof(*recorder->blocks), (void**)&recorder->blocks));
    recorder->block_capacity = capacity;
  }
  grt_trace_recorded_event_t* block = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(
      recorder->allocator,
      GRT_TRACE_RECORDER_BLOCK_EVENTS * sizeof(*block), (void**)&block));
  recorder->blocks[recorder->block_count++] = block;
  return grt_ok_status();
}

static void grt_trace_recorder_record(grt_trace_sink_t* sink,
                                      const grt_trace_event_t* event) {
  grt_trace_recorder_t* recorder = (grt_trace_recorder_t*)sink;
  uint32_t thread = grt_trace_thread_id();
  pthread_mutex_lock(&recorder->mutex);
  if (recorder->event_count >= recorder->max_events) {
    ++recorder->dropped;
    pthread_mutex_unlock(&recorder->mutex);
    return;
  }
  uint32_t name = 0, detail = 0;
  grt_status_t status = grt_trace_recorder_reserve(recorder);
  if (grt_status_is_ok(status)) {
    status = grt_trace_recorder_intern(recorder, event->name, &name);
  }
  if (grt_status_is_ok(status)) {
    status = grt_trace_recorder_intern(recorder, event->detail, &detail);
  }
  if (grt_status_is_ok(status)) {
    status = grt_trace_recorder_note_thread(recorder, thread);
  }
  if (grt_status_is_ok(status)) {
    grt_trace_recorded_event_t* kept =
        grt_trace_recorder_event_at(recorder, recorder->event_count++);
    kept->start_ns = event->start_ns;
    kept->end_ns = event->end_ns;
    kept->first_workgroup = event->first_workgroup;
    kept->workgroups = event->workgroups;
    kept->count = event->count;
    kept->name = name;
    kept->detail = detail;
    kept->thread = thread;
    kept->worker_id = event->worker_id;
    memcpy(kept->workgroup_count, event->workgroup_count,
           sizeof(kept->workgroup_count));
    kept->kind = (uint32_t)event->kind;
  } else {
    // Nobody to report to on this thread: the count says what was lost.
    grt_status_free(status);
    ++recorder->dropped;
  }
  pthread_mutex_unlock(&recorder->mutex);
}

grt_status_t grt_trace_recorder_create(
    const grt_trace_recorder_options_t* options, grt_allocator_t allocator,
    grt_trace_recorder_t** out_recorder) {
  *out_recorder = NULL;
  grt_trace_recorder_t* recorder = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(allocator, sizeof(*recorder), (void**)&recorder));
  recorder->sink.record = grt_trace_recorder_record;
  recorder->allocator = allocator;
  recorder->max_events = options && options->max_events
                             ? options->max_events
                             : GRT_TRACE_RECORDER_DEFAULT_MAX_EVENTS;
  snprintf(recorder->process_name, sizeof(recorder->process_name), "%s",
           options && options->process_name ? options->process_name : "grt");
  recorder->origin_ns = grt_time_now_ns();
  recorder->pid = (int)getpid();
  pthread_mutex_init(&recorder->mutex, NULL);
  grt_arena_init(allocator, 0, &recorder->strings_arena);
  *out_recorder = recorder;
  return grt_ok_status();
}

void grt_trace_recorder_destroy(grt_trace_recorder_t* recorder) {
  if (!recorder) return;
  grt_trace_detach(&recorder->sink);
  grt_allocator_t allocator = recorder->allocator;
  for (size_t i = 0; i < recorder->block_count; ++i) {
    grt_allocator_free(allocator, recorder->blocks[i]);
  }
  grt_allocator_free(allocator, recorder->blocks);
  grt_allocator_free(allocator, recorder->strings);
  grt_allocator_free(allocator, recorder->string_table);
  grt_allocator_free(allocator, recorder->threads);
  grt_arena_deinit(&recorder->strings_arena);
  pthread_mutex_destroy(&recorder->mutex);
  grt_allocator_free(allocator, recorder);
}

grt_trace_sink_t* grt_trace_recorder_sink(grt_trace_recorder_t* recorder) {
  return &recorder->sink;
}

size_t grt_trace_recorder_event_count(grt_trace_recorder_t* recorder) {
  pthread_mutex_lock(&recorder->mutex);
  size_t count = recorder->event_count;
  pthread_mutex_unlock(&recorder->mutex);
  return count;
}

uint64_t grt_trace_recorder_dropped_count(grt_trace_recorder_t* recorder) {
  pthread_mutex_lock(&recorder->mutex);
  uint64_t dropped = recorder->dropped;
  pthread_mutex_unlock(&recorder->mutex);
  return dropped;
}

//===----------------------------------------------------------------------===//
// Chrome trace-event JSON
//===----------------------------------------------------------------------===//

// The length of the valid UTF-8 sequence at |p| (at most |size| bytes), or
// 0 when it is not one.
static size_t grt_trace_utf8_length(const unsigned char* p, size_t size) {
  size_t length;
  uint32_t minimum;
  uint32_t value;
  if (p[0] < 0x80) return 1;
  if ((p[0] & 0xE0) == 0xC0) {
    length = 2, minimum = 0x80, value = p[0] & 0x1F;
  } else if ((p[0] & 0xF0) == 0xE0) {
    length = 3, minimum = 0x800, value = p[0] & 0x0F;
  } else if ((p[0] & 0xF8) == 0xF0) {
    length = 4, minimum = 0x10000, value = p[0] & 0x07;
  } else {
    return 0;
  }
  if (length > size) return 0;
  for (size_t i = 1; i < length; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    value = (value << 6) | (p[i] & 0x3F);
  }
  if (value < minimum || value > 0x10FFFF ||
      (value >= 0xD800 && value <= 0xDFFF)) {
    return 0;
  }
  return length;
}

static void grt_trace_append_json_string(grt_string_builder_t* out,
                                         grt_string_view_t text) {
  grt_string_builder_append_cstring(out, "\"");
  const unsigned char* p = (const unsigned char*)text.data;
  size_t size = text.size;
  while (size > 0) {
    unsigned char c = *p;
    if (c == '"' || c == '\\') {
      char escaped[3] = {'\\', (char)c, '\0'};
      grt_string_builder_append_cstring(out, escaped);
      ++p, --size;
    } else if (c < 0x20 || c == 0x7F) {
      grt_string_builder_appendf(out, "\\u%04x", c);
      ++p, --size;
    } else {
      size_t length = grt_trace_utf8_length(p, size);
      if (length == 0) {
        grt_string_builder_append_cstring(out, "\\ufffd");
        length = 1;
      } else {
        grt_string_builder_append(out, grt_make_string_view((const char*)p, length));
      }
      p += length, size -= length;
    }
  }
  grt_string_builder_append_cstring(out, "\"");
}

static const char* grt_trace_kind_category(uint32_t kind) {
  switch (kind) {
    case GRT_TRACE_EVENT_DISPATCH: return "dispatch";
    case GRT_TRACE_EVENT_TRANSFER: return "transfer";
    case GRT_TRACE_EVENT_SUBMIT: return "submit";
    case GRT_TRACE_EVENT_EXECUTE: return "execute";
    case GRT_TRACE_EVENT_WAIT: return "wait";
    case GRT_TRACE_EVENT_CALL: return "call";
    default: return "other";
  }
}

// Nanoseconds as microseconds with three decimals, exactly (no floating
// point: a long trace's timestamps keep their last digit).
static void grt_trace_append_us(grt_string_builder_t* out, int64_t ns) {
  if (ns < 0) {
    grt_string_builder_append_cstring(out, "-");
    ns = ns == INT64_MIN ? INT64_MAX : -ns;
  }
  grt_string_builder_appendf(out, "%" PRId64 ".%03d", ns / 1000,
                             (int)(ns % 1000));
}

static void grt_trace_append_event(grt_trace_recorder_t* recorder,
                                   const grt_trace_recorded_event_t* event,
                                   grt_string_builder_t* out) {
  grt_string_builder_append_cstring(out, "{\"name\": ");
  grt_trace_append_json_string(out, recorder->strings[event->name]);
  grt_string_builder_appendf(out, ", \"cat\": \"%s\", \"ph\": \"X\", \"ts\": ",
                             grt_trace_kind_category(event->kind));
  grt_trace_append_us(out, event->start_ns - recorder->origin_ns);
  grt_string_builder_append_cstring(out, ", \"dur\": ");
  grt_trace_append_us(out, event->end_ns >= event->start_ns
                               ? event->end_ns - event->start_ns
                               : 0);
  grt_string_builder_appendf(out, ", \"pid\": %d, \"tid\": %u, \"args\": {",
                             recorder->pid, event->thread);
  grt_string_view_t detail = recorder->strings[event->detail];
  switch (event->kind) {
    case GRT_TRACE_EVENT_DISPATCH:
      grt_string_builder_append_cstring(out, "\"location\": ");
      grt_trace_append_json_string(out, detail);
      grt_string_builder_appendf(
          out,
          ", \"workgroup_count\": [%u, %u, %u], \"first_workgroup\": %" PRIu64
          ", \"workgroups\": %" PRIu64 ", \"worker\": %u",
          event->workgroup_count[0], event->workgroup_count[1],
          event->workgroup_count[2], event->first_workgroup,
          event->workgroups, event->worker_id);
      break;
    case GRT_TRACE_EVENT_TRANSFER:
      grt_string_builder_appendf(out, "\"bytes\": %" PRIu64, event->count);
      break;
    case GRT_TRACE_EVENT_SUBMIT:
    case GRT_TRACE_EVENT_EXECUTE:
      grt_string_builder_append_cstring(out, "\"device\": ");
      grt_trace_append_json_string(out, detail);
      grt_string_builder_appendf(out, ", \"command_buffers\": %" PRIu64,
                                 event->count);
      break;
    case GRT_TRACE_EVENT_WAIT:
      grt_string_builder_appendf(out, "\"semaphores\": %" PRIu64,
                                 event->count);
      break;
    case GRT_TRACE_EVENT_CALL:
      grt_string_builder_append_cstring(out, "\"module\": ");
      grt_trace_append_json_string(out, detail);
      break;
    default:
      break;
  }
  grt_string_builder_append_cstring(out, "}}");
}

grt_status_t grt_trace_recorder_format_json(grt_trace_recorder_t* recorder,
                                            grt_string_builder_t* out) {
  pthread_mutex_lock(&recorder->mutex);
  grt_string_builder_append_cstring(out, "{\"traceEvents\": [\n");
  grt_string_builder_appendf(out,
                             "{\"name\": \"process_name\", \"ph\": \"M\", "
                             "\"pid\": %d, \"tid\": 0, \"args\": {\"name\": ",
                             recorder->pid);
  grt_trace_append_json_string(
      out, grt_make_cstring_view(recorder->process_name));
  grt_string_builder_append_cstring(out, "}}");
  for (size_t i = 0; i < recorder->thread_count; ++i) {
    const grt_trace_recorder_thread_t* thread = &recorder->threads[i];
    grt_string_builder_appendf(out,
                               ",\n{\"name\": \"thread_name\", \"ph\": \"M\", "
                               "\"pid\": %d, \"tid\": %u, \"args\": {\"name\": ",
                               recorder->pid, thread->id);
    grt_trace_append_json_string(out, recorder->strings[thread->name]);
    grt_string_builder_append_cstring(out, "}}");
  }
  for (size_t i = 0; i < recorder->event_count; ++i) {
    grt_string_builder_append_cstring(out, ",\n");
    grt_trace_append_event(recorder, grt_trace_recorder_event_at(recorder, i),
                           out);
  }
  grt_string_builder_appendf(out,
                             "\n],\n\"displayTimeUnit\": \"ns\",\n"
                             "\"otherData\": {\"dropped_events\": %" PRIu64
                             "}}\n",
                             recorder->dropped);
  pthread_mutex_unlock(&recorder->mutex);
  return grt_string_builder_status(out);
}

grt_status_t grt_trace_recorder_write_json(grt_trace_recorder_t* recorder,
                                           const char* path) {
  grt_string_builder_t json;
  grt_string_builder_init(recorder->allocator, &json);
  grt_status_t status = grt_trace_recorder_format_json(recorder, &json);
  if (grt_status_is_ok(status)) {
    grt_string_view_t view = grt_string_builder_view(&json);
    status = grt_file_write_contents(path, view.data, view.size);
  }
  grt_string_builder_deinit(&json);
  return status;
}

//===----------------------------------------------------------------------===//
// Statistics
//===----------------------------------------------------------------------===//

static int grt_trace_compare_kernels(const void* a, const void* b) {
  const grt_trace_kernel_statistics_t* x = a;
  const grt_trace_kernel_statistics_t* y = b;
  if (x->total_ns != y->total_ns) return x->total_ns > y->total_ns ? -1 : 1;
  size_t n = x->name.size < y->name.size ? x->name.size : y->name.size;
  int order = n ? memcmp(x->name.data, y->name.data, n) : 0;
  if (order) return order;
  if (x->name.size != y->name.size) return x->name.size < y->name.size ? -1 : 1;
  n = x->location.size < y->location.size ? x->location.size
                                          : y->location.size;
  order = n ? memcmp(x->location.data, y->location.data, n) : 0;
  if (order) return order;
  return (x->location.size > y->location.size) -
         (x->location.size < y->location.size);
}

// The kernel of (name, location) ids in an open-addressing table of
// kernel indices + 1; grows |*kernels| as kernels appear.
typedef struct grt_trace_kernel_table_t {
  uint64_t* keys;
  uint32_t* values;  // kernel index + 1; 0: empty
  size_t capacity;   // a power of two
  size_t count;
} grt_trace_kernel_table_t;

static uint64_t grt_trace_mix(uint64_t key) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdull;
  key ^= key >> 33;
  return key;
}

// The slot of |key|, or the empty slot where it would go.
static size_t grt_trace_kernel_table_find(const grt_trace_kernel_table_t* table,
                                          uint64_t key) {
  size_t slot = (size_t)grt_trace_mix(key) & (table->capacity - 1);
  while (table->values[slot] && table->keys[slot] != key) {
    slot = (slot + 1) & (table->capacity - 1);
  }
  return slot;
}

// Doubles the table (from 64 slots), keeping its entries.
static grt_status_t grt_trace_kernel_table_grow(
    grt_allocator_t allocator, grt_trace_kernel_table_t* table) {
  grt_trace_kernel_table_t grown = {NULL, NULL,
                                    table->capacity ? table->capacity * 2 : 64,
                                    table->count};
  grt_status_t status = grt_allocator_calloc(
      allocator, grown.capacity * sizeof(*grown.keys), (void**)&grown.keys);
  if (grt_status_is_ok(status)) {
    status = grt_allocator_calloc(allocator,
                                  grown.capacity * sizeof(*grown.values),
                                  (void**)&grown.values);
  }
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(allocator, grown.keys);
    return status;
  }
  for (size_t i = 0; i < table->capacity; ++i) {
    if (!table->values[i]) continue;
    size_t slot = grt_trace_kernel_table_find(&grown, table->keys[i]);
    grown.keys[slot] = table->keys[i];
    grown.values[slot] = table->values[i];
  }
  grt_allocator_free(allocator, table->keys);
  grt_allocator_free(allocator, table->values);
  *table = grown;
  return grt_ok_status();
}

grt_status_t grt_trace_recorder_statistics(grt_trace_recorder_t* recorder,
                                           grt_allocator_t allocator,
                                           grt_trace_statistics_t* out_stats) {
  memset(out_stats, 0, sizeof(*out_stats));
  pthread_mutex_lock(&recorder->mutex);
  grt_trace_kernel_table_t table = {NULL, NULL, 0, 0};
  grt_status_t status = grt_trace_kernel_table_grow(allocator, &table);
  size_t kernel_capacity = 0;
  for (size_t i = 0; grt_status_is_ok(status) && i < recorder->event_count;
       ++i) {
    const grt_trace_recorded_event_t* event =
        grt_trace_recorder_event_at(recorder, i);
    int64_t duration =
        event->end_ns > event->start_ns ? event->end_ns - event->start_ns : 0;
    switch (event->kind) {
      case GRT_TRACE_EVENT_TRANSFER:
        ++out_stats->transfers;
        out_stats->transfer_ns += duration;
        continue;
      case GRT_TRACE_EVENT_WAIT:
        ++out_stats->waits;
        out_stats->wait_ns += duration;
        continue;
      case GRT_TRACE_EVENT_CALL:
        ++out_stats->calls;
        out_stats->call_ns += duration;
        continue;
      case GRT_TRACE_EVENT_DISPATCH:
        break;
      default:
        continue;
    }
    uint64_t key = ((uint64_t)event->name << 32) | event->detail;
    size_t slot = grt_trace_kernel_table_find(&table, key);
    if (!table.values[slot] && (table.count + 1) * 2 > table.capacity) {
      status = grt_trace_kernel_table_grow(allocator, &table);
      if (!grt_status_is_ok(status)) break;
      slot = grt_trace_kernel_table_find(&table, key);
    }
    if (!table.values[slot]) {
      if (out_stats->kernel_count == kernel_capacity) {
        size_t capacity = kernel_capacity ? kernel_capacity * 2 : 16;
        status = grt_allocator_realloc(
            allocator, kernel_capacity * sizeof(*out_stats->kernels),
            capacity * sizeof(*out_stats->kernels),
            (void**)&out_stats->kernels);
        if (!grt_status_is_ok(status)) break;
        kernel_capacity = capacity;
      }
      grt_trace_kernel_statistics_t* kernel =
          &out_stats->kernels[out_stats->kernel_count];
      memset(kernel, 0, sizeof(*kernel));
      kernel->name = recorder->strings[event->name];
      kernel->location = recorder->strings[event->detail];
      table.keys[slot] = key;
      table.values[slot] = (uint32_t)++out_stats->kernel_count;
      ++table.count;
    }
    grt_trace_kernel_statistics_t* kernel =
        &out_stats->kernels[table.values[slot] - 1];
    kernel->total_ns += duration;
    out_stats->dispatch_ns += duration;
    if (event->first_workgroup == 0) {
      ++kernel->dispatches;
      ++out_stats->dispatches;
    }
  }
  out_stats->dropped_events = recorder->dropped;
  pthread_mutex_unlock(&recorder->mutex);
  grt_allocator_free(allocator, table.keys);
  grt_allocator_free(allocator, table.values);
  if (!grt_status_is_ok(status)) {
    grt_trace_statistics_deinitialize(allocator, out_stats);
    return status;
  }
  if (out_stats->kernel_count > 1) {
    qsort(out_stats->kernels, out_stats->kernel_count,
          sizeof(*out_stats->kernels), grt_trace_compare_kernels);
  }
  return grt_ok_status();
}

void grt_trace_statistics_deinitialize(grt_allocator_t allocator,
                                       grt_trace_statistics_t* stats) {
  grt_allocator_free(allocator, stats->kernels);
  memset(stats, 0, sizeof(*stats));
}

static double grt_trace_share(int64_t part, int64_t whole) {
  return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

void grt_trace_statistics_print(const grt_trace_statistics_t* stats,
                                size_t top, const char* indent, FILE* stream) {
  fprintf(stream,
          "%sdispatch_count: %" PRIu64 "\n%sdispatch_total_ns: %" PRId64
          "\n%skernel_count: %zu\n%stransfer_count: %" PRIu64
          "\n%stransfer_total_ns: %" PRId64 "\n%swait_count: %" PRIu64
          "\n%swait_total_ns: %" PRId64 "\n",
          indent, stats->dispatches, indent, stats->dispatch_ns, indent,
          stats->kernel_count, indent, stats->transfers, indent,
          stats->transfer_ns, indent, stats->waits, indent, stats->wait_ns);
  if (stats->dropped_events) {
    fprintf(stream, "%sdropped_events: %" PRIu64 "\n", indent,
            stats->dropped_events);
  }
  if (stats->kernel_count == 0) return;
  size_t shown = stats->kernel_count < top ? stats->kernel_count : top;
  fprintf(stream, "%stop dispatches by total time (%zu of %zu kernel%s):\n",
          indent, shown, stats->kernel_count,
          stats->kernel_count == 1 ? "" : "s");
  fprintf(stream, "%s  %8s %11s %11s %7s  %s\n", indent, "count", "total_ms",
          "mean_us", "share", "kernel [location]");
  for (size_t i = 0; i < shown; ++i) {
    const grt_trace_kernel_statistics_t* kernel = &stats->kernels[i];
    // A kernel whose workgroup 0 was not recorded (tracing turned on
    // mid-dispatch) still has time: its mean is over one dispatch.
    uint64_t dispatches = kernel->dispatches ? kernel->dispatches : 1;
    fprintf(stream, "%s  %8" PRIu64 " %11.3f %11.3f %6.1f%%  %.*s", indent,
            kernel->dispatches, (double)kernel->total_ns / 1e6,
            (double)kernel->total_ns / 1e3 / (double)dispatches,
            grt_trace_share(kernel->total_ns, stats->dispatch_ns),
            (int)kernel->name.size, kernel->name.data);
    if (kernel->location.size) {
      fprintf(stream, " [%.*s]", (int)kernel->location.size,
              kernel->location.data);
    }
    fputc('\n', stream);
  }
  if (shown < stats->kernel_count) {
    int64_t rest = 0;
    uint64_t rest_dispatches = 0;
    for (size_t i = shown; i < stats->kernel_count; ++i) {
      rest += stats->kernels[i].total_ns;
      rest_dispatches += stats->kernels[i].dispatches;
    }
    fprintf(stream,
            "%s  %8" PRIu64 " %11.3f %11s %6.1f%%  (%zu more kernel%s)\n",
            indent, rest_dispatches, (double)rest / 1e6, "",
            grt_trace_share(rest, stats->dispatch_ns),
            stats->kernel_count - shown,
            stats->kernel_count - shown == 1 ? "" : "s");
  }
  fprintf(stream, "%s  %8" PRIu64 " %11.3f %11s %6.1f%%  (all kernels)\n",
          indent, stats->dispatches, (double)stats->dispatch_ns / 1e6, "",
          stats->dispatch_ns > 0 ? 100.0 : 0.0);
}
