// Name lists: the one way VM error messages enumerate what does exist
// ("it exports: a, b, c"), bounded so a huge module cannot blow up a
// message. Internal to vm/.
#ifndef GRT_VM_NAME_LIST_H_
#define GRT_VM_NAME_LIST_H_

#include <stdio.h>
#include <string.h>

#include "base/string_view.h"

// Room for a list in a message; longer lists are cut after a whole name
// and end in ", ... and N more".
#define GRT_VM_NAME_LIST_CAPACITY 512

// Bytes kept free for the ", ... and N more" ending (any size_t N).
#define GRT_VM_NAME_LIST_ENDING_RESERVE 40

typedef struct grt_vm_name_list_t {
  char* buffer;
  size_t capacity;
  size_t used;
  size_t omitted;  // names that did not fit, counted for the ending
} grt_vm_name_list_t;

// Starts an empty list in |buffer| (|capacity| bytes; lists cut only at
// name boundaries when it exceeds GRT_VM_NAME_LIST_ENDING_RESERVE).
static inline void grt_vm_name_list_begin(grt_vm_name_list_t* list,
                                          char* buffer, size_t capacity) {
  list->buffer = buffer;
  list->capacity = capacity;
  list->used = 0;
  list->omitted = 0;
  if (capacity) buffer[0] = '\0';
}

// Appends ", name" (or "name" first) when it fits with room left for the
// ending; once one name does not fit, it and every later one are counted
// instead, so the list never ends in a partial name.
static inline void grt_vm_name_list_append(grt_vm_name_list_t* list,
                                           grt_string_view_t name) {
  size_t separator = list->used ? 2 : 0;
  size_t reserve = GRT_VM_NAME_LIST_ENDING_RESERVE;
  if (list->omitted == 0 && list->capacity > reserve &&
      list->used + separator + name.size < list->capacity - reserve) {
    snprintf(list->buffer + list->used, list->capacity - list->used,
             "%s%.*s", separator ? ", " : "", GRT_SV_ARG(name));
    list->used += separator + name.size;
    return;
  }
  ++list->omitted;
}

// The list: "(none)" when nothing was appended, and ", ... and N more"
// after the names that fit when some did not.
static inline const char* grt_vm_name_list_end(grt_vm_name_list_t* list) {
  if (list->capacity == 0) return "";
  if (list->omitted) {
    snprintf(list->buffer + list->used, list->capacity - list->used,
             "%s... and %zu more", list->used ? ", " : "", list->omitted);
  } else if (list->used == 0) {
    snprintf(list->buffer, list->capacity, "(none)");
  }
  return list->buffer;
}

#endif  // GRT_VM_NAME_LIST_H_
