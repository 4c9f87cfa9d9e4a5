// Status records live on the C heap rather than a caller's grt_allocator_t:
// an error must be reportable even when the failure being reported is the
// caller's allocator running dry, and a status may outlive the object whose
// allocator was in use when it was made.
#include "base/status.h"

// This file defines the functions that GRT_STATUS_MESSAGES=0 turns into
// macros (base/status.h), and calls them as functions.
#undef grt_make_status
#undef grt_make_status_v
#undef grt_status_annotate

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct grt_status_record_t {
  grt_status_code_t code;
  size_t length;    // bytes of text, excluding the NUL
  size_t capacity;  // bytes available in text[]
  char text[];
};

// Returned when a record cannot be allocated. Recognized by address so that
// freeing and annotating it are no-ops and its message comes from a constant.
static struct grt_status_record_t grt_oom_status_record = {
    GRT_STATUS_RESOURCE_EXHAUSTED, 0, 0};
static const char grt_oom_status_text[] =
    "out of memory while creating an error status";
#define GRT_OOM_STATUS (&grt_oom_status_record)

static const char* const grt_status_code_names[] = {
#define GRT_STATUS_CODE_STRING(name, str) str,
    GRT_STATUS_CODE_LIST(GRT_STATUS_CODE_STRING)
#undef GRT_STATUS_CODE_STRING
};

const char* grt_status_code_name(grt_status_code_t code) {
  if ((unsigned)code >= GRT_STATUS_CODE_COUNT) return "INVALID_STATUS_CODE";
  return grt_status_code_names[code];
}

grt_status_t grt_make_status_v(grt_status_code_t code, const char* format,
                               va_list args) {
  if (code == GRT_STATUS_OK) code = GRT_STATUS_INTERNAL;  // OK is not a failure
  va_list measure;
  va_copy(measure, args);
  int needed = vsnprintf(NULL, 0, format, measure);
  va_end(measure);
  if (needed < 0) needed = 0;
  size_t capacity = (size_t)needed + 1;
  struct grt_status_record_t* record = malloc(sizeof(*record) + capacity);
  if (!record) return GRT_OOM_STATUS;
  record->code = code;
  record->capacity = capacity;
  vsnprintf(record->text, capacity, format, args);
  record->length = strlen(record->text);
  return record;
}

grt_status_t grt_make_status(grt_status_code_t code, const char* format, ...) {
  va_list args;
  va_start(args, format);
  grt_status_t status = grt_make_status_v(code, format, args);
  va_end(args);
  return status;
}

grt_status_t grt_make_status_code(grt_status_code_t code) {
  if (code == GRT_STATUS_OK) code = GRT_STATUS_INTERNAL;  // OK is not a failure
  struct grt_status_record_t* record = malloc(sizeof(*record) + 1);
  if (!record) return GRT_OOM_STATUS;
  record->code = code;
  record->capacity = 1;
  record->length = 0;
  record->text[0] = 0;
  return record;
}

grt_status_t grt_status_annotate(grt_status_t status, const char* format,
                                 ...) {
  if (status == NULL || status == GRT_OOM_STATUS) return status;
  va_list args;
  va_start(args, format);
  int added = vsnprintf(NULL, 0, format, args);
  va_end(args);
  if (added <= 0) return status;
  size_t needed = status->length + 2 + (size_t)added + 1;
  if (needed > status->capacity) {
    size_t capacity = status->capacity * 2 > needed ? status->capacity * 2 : needed;
    struct grt_status_record_t* grown =
        realloc(status, sizeof(*status) + capacity);
    if (!grown) return status;  // keep the original message rather than lose it
    status = grown;
    status->capacity = capacity;
  }
  memcpy(status->text + status->length, "; ", 2);
  status->length += 2;
  va_start(args, format);
  vsnprintf(status->text + status->length, status->capacity - status->length,
            format, args);
  va_end(args);
  status->length += (size_t)added;
  return status;
}

grt_status_code_t grt_status_code(grt_status_t status) {
  return status ? status->code : GRT_STATUS_OK;
}

const char* grt_status_message(grt_status_t status) {
  if (status == GRT_OOM_STATUS) return grt_oom_status_text;
  return status ? status->text : "";
}

// In a GRT_STATUS_MESSAGES=0 build a status with no message prints as its
// code alone ("INVALID_ARGUMENT", not "INVALID_ARGUMENT: ").
#if GRT_STATUS_MESSAGES
#define GRT_STATUS_PRINTS_CODE_ONLY(status) 0
#else
#define GRT_STATUS_PRINTS_CODE_ONLY(status) (*grt_status_message(status) == 0)
#endif

size_t grt_status_format(grt_status_t status, char* buffer, size_t capacity) {
  int n;
  if (!status) {
    n = snprintf(buffer, capacity, "OK");
  } else if (GRT_STATUS_PRINTS_CODE_ONLY(status)) {
    n = snprintf(buffer, capacity, "%s", grt_status_code_name(status->code));
  } else {
    n = snprintf(buffer, capacity, "%s: %s", grt_status_code_name(status->code),
                 grt_status_message(status));
  }
  return n < 0 ? 0 : (size_t)n;
}

void grt_status_fprint(void* file, grt_status_t status) {
  FILE* f = file ? (FILE*)file : stderr;
  if (!status) {
    fputs("OK\n", f);
  } else if (GRT_STATUS_PRINTS_CODE_ONLY(status)) {
    fprintf(f, "%s\n", grt_status_code_name(status->code));
  } else {
    fprintf(f, "%s: %s\n", grt_status_code_name(status->code),
            grt_status_message(status));
  }
}

void grt_status_free(grt_status_t status) {
  if (status && status != GRT_OOM_STATUS) free(status);
}

grt_status_t grt_status_clone(grt_status_t status) {
  if (status == NULL || status == GRT_OOM_STATUS) return status;
  return grt_make_status(status->code, "%s", status->text);
}

bool grt_status_consume_ok(grt_status_t status) {
  bool ok = status == NULL;
  grt_status_free(status);
  return ok;
}
