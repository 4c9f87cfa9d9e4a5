// Name lists: the one way VM error messages enumerate what does exist
// ("it exports: a, b, c"), bounded so a huge module cannot blow up a
// message. Internal to vm/.
#ifndef GRT_VM_NAME_LIST_H_
#define GRT_VM_NAME_LIST_H_

#include <stdio.h>
#include <string.h>

#include "base/string_view.h"

// Room for a list in a message; longer lists end in "...".
#define GRT_VM_NAME_LIST_CAPACITY 512

// Starts an empty list in |buffer| (capacity >= 4).
static inline void grt_vm_name_list_begin(char* buffer, size_t capacity) {
  (void)capacity;
  buffer[0] = '\0';
}

// Appends ", name" (or "name" first). Once the list no longer fits it is
// cut and ends in "...".
static inline void grt_vm_name_list_append(char* buffer, size_t capacity,
                                           grt_string_view_t name) {
  size_t used = strlen(buffer);
  if (used >= 3 && strcmp(buffer + used - 3, "...") == 0) return;
  int needed = snprintf(buffer + used, capacity - used, "%s%.*s",
                        used ? ", " : "", GRT_SV_ARG(name));
  if (needed < 0 || (size_t)needed >= capacity - used) {
    memcpy(buffer + capacity - 4, "...", 4);
  }
}

// "(none)" when nothing was appended.
static inline const char* grt_vm_name_list_end(char* buffer, size_t capacity) {
  if (buffer[0] == '\0') snprintf(buffer, capacity, "(none)");
  return buffer;
}

#endif  // GRT_VM_NAME_LIST_H_
