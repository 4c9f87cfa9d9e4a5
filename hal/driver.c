// The driver registry: a growable array of factories, device URI parsing,
// and the listings that --list_devices and unknown-device errors print.
#include "hal/driver.h"

#include <stdio.h>
#include <string.h>

struct grt_hal_driver_registry_t {
  grt_allocator_t host_allocator;
  size_t count;
  size_t capacity;
  grt_hal_driver_factory_t* factories;
};

grt_status_t grt_hal_driver_registry_create(grt_allocator_t host_allocator,
                                            grt_hal_driver_registry_t** out) {
  *out = NULL;
  grt_hal_driver_registry_t* registry = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(host_allocator, sizeof(*registry),
                                           (void**)&registry));
  registry->host_allocator = host_allocator;
  *out = registry;
  return grt_ok_status();
}

void grt_hal_driver_registry_destroy(grt_hal_driver_registry_t* registry) {
  if (!registry) return;
  grt_allocator_free(registry->host_allocator, registry->factories);
  grt_allocator_free(registry->host_allocator, registry);
}

grt_status_t grt_hal_driver_registry_register(
    grt_hal_driver_registry_t* registry,
    const grt_hal_driver_factory_t* factory) {
  if (!factory->name || !factory->name[0] || !factory->create_device ||
      !factory->enumerate_devices) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "driver factory '%s' needs a name, "
                           "enumerate_devices and create_device",
                           factory->name ? factory->name : "");
  }
  if (grt_hal_driver_registry_find(registry,
                                   grt_make_cstring_view(factory->name))) {
    return grt_make_status(GRT_STATUS_ALREADY_EXISTS,
                           "driver '%s' is already registered", factory->name);
  }
  if (registry->count == registry->capacity) {
    size_t capacity = registry->capacity ? registry->capacity * 2 : 4;
    void* factories = registry->factories;
    GRT_RETURN_IF_ERROR(grt_allocator_realloc(
        registry->host_allocator,
        registry->capacity * sizeof(grt_hal_driver_factory_t),
        capacity * sizeof(grt_hal_driver_factory_t), &factories));
    registry->factories = factories;
    registry->capacity = capacity;
  }
  registry->factories[registry->count++] = *factory;
  return grt_ok_status();
}

size_t grt_hal_driver_registry_count(const grt_hal_driver_registry_t* registry) {
  return registry->count;
}

const grt_hal_driver_factory_t* grt_hal_driver_registry_at(
    const grt_hal_driver_registry_t* registry, size_t index) {
  return index < registry->count ? &registry->factories[index] : NULL;
}

const grt_hal_driver_factory_t* grt_hal_driver_registry_find(
    const grt_hal_driver_registry_t* registry, grt_string_view_t name) {
  for (size_t i = 0; i < registry->count; ++i) {
    if (grt_string_view_equal_cstring(name, registry->factories[i].name)) {
      return &registry->factories[i];
    }
  }
  return NULL;
}

// Enumerates into a block from |host_allocator| (caller frees) so drivers
// with many devices are listed completely.
static grt_status_t grt_hal_driver_enumerate(
    const grt_hal_driver_factory_t* factory, grt_allocator_t host_allocator,
    grt_hal_device_info_t** out_infos, size_t* out_count) {
  *out_infos = NULL;
  *out_count = 0;
  size_t capacity = 8;
  for (;;) {
    grt_hal_device_info_t* infos = NULL;
    GRT_RETURN_IF_ERROR(grt_allocator_calloc(
        host_allocator, capacity * sizeof(*infos), (void**)&infos));
    size_t count = 0;
    grt_status_t status = factory->enumerate_devices(
        factory->self, host_allocator, capacity, infos, &count);
    if (!grt_status_is_ok(status)) {
      grt_allocator_free(host_allocator, infos);
      return status;
    }
    if (count <= capacity) {
      *out_infos = infos;
      *out_count = count;
      return grt_ok_status();
    }
    grt_allocator_free(host_allocator, infos);
    capacity = count;
  }
}

// "local-sync, local-task, vulkan (unavailable: no Vulkan device found)".
static void grt_hal_driver_registry_format_available(
    grt_hal_driver_registry_t* registry, char* out, size_t capacity) {
  size_t length = 0;
  out[0] = '\0';
  for (size_t i = 0; i < registry->count && length < capacity; ++i) {
    const grt_hal_driver_factory_t* factory = &registry->factories[i];
    grt_hal_device_info_t* infos = NULL;
    size_t count = 0;
    grt_status_t status =
        grt_hal_driver_enumerate(factory, registry->host_allocator, &infos,
                                 &count);
    grt_allocator_free(registry->host_allocator, infos);
    int n;
    if (grt_status_is_ok(status)) {
      n = snprintf(out + length, capacity - length, "%s%s", i ? ", " : "",
                   factory->name);
    } else {
      n = snprintf(out + length, capacity - length, "%s%s (unavailable: %s)",
                   i ? ", " : "", factory->name, grt_status_message(status));
      grt_status_free(status);
    }
    if (n < 0) break;
    length += (size_t)n;
  }
  if (registry->count == 0) snprintf(out, capacity, "none (no drivers built)");
}

static bool grt_hal_parse_index(grt_string_view_t text, size_t* out_index) {
  if (text.size == 0 || text.size > 9) return false;
  size_t value = 0;
  for (size_t i = 0; i < text.size; ++i) {
    if (text.data[i] < '0' || text.data[i] > '9') return false;
    value = value * 10 + (size_t)(text.data[i] - '0');
  }
  *out_index = value;
  return true;
}

grt_status_t grt_hal_driver_registry_create_device(
    grt_hal_driver_registry_t* registry, const char* uri,
    const grt_hal_device_options_t* options, grt_allocator_t host_allocator,
    grt_hal_device_t** out_device) {
  *out_device = NULL;
  grt_string_view_t text = grt_make_cstring_view(uri);
  grt_string_view_t scheme = text;
  grt_string_view_t path = grt_string_view_empty();
  size_t colon = grt_string_view_find_char(text, ':', 0);
  if (colon != GRT_STRING_VIEW_NPOS) {
    scheme = grt_string_view_substr(text, 0, colon);
    grt_string_view_t rest = grt_string_view_substr(text, colon, SIZE_MAX);
    if (!grt_string_view_starts_with(rest, grt_make_cstring_view("://"))) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "bad device URI '%s': expected '<driver>' or "
                             "'<driver>://<index or name>'",
                             uri);
    }
    path = grt_string_view_substr(rest, 3, SIZE_MAX);
  }
  const grt_hal_driver_factory_t* factory =
      grt_hal_driver_registry_find(registry, scheme);
  if (!factory || scheme.size == 0) {
    char available[512];
    grt_hal_driver_registry_format_available(registry, available,
                                             sizeof(available));
    return grt_make_status(GRT_STATUS_NOT_FOUND,
                           "unknown device '%s'; available: %s", uri,
                           available);
  }
  grt_hal_device_options_t default_options;
  if (!options) {
    memset(&default_options, 0, sizeof(default_options));
    options = &default_options;
  }
  grt_hal_device_info_t* infos = NULL;
  size_t count = 0;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_hal_driver_enumerate(factory, host_allocator, &infos, &count),
      "while creating device '%s'", uri);
  grt_status_t status = grt_ok_status();
  // Paths are matched first so a driver whose device paths are names (or
  // non-sequential numbers) is addressed as it lists them.
  const grt_hal_device_info_t* chosen = NULL;
  if (path.size == 0) {
    if (count == 0) {
      status = grt_make_status(GRT_STATUS_NOT_FOUND,
                               "device '%s' not found; %s has no devices", uri,
                               factory->name);
    }
  } else {
    for (size_t i = 0; i < count && !chosen; ++i) {
      if (grt_string_view_equal_cstring(path, infos[i].path)) {
        chosen = &infos[i];
      }
    }
    size_t index = 0;
    if (!chosen && grt_hal_parse_index(path, &index) && index < count) {
      chosen = &infos[index];
    }
    if (!chosen) {
      status = grt_make_status(GRT_STATUS_NOT_FOUND,
                               "device '%s' not found; %s has %zu device%s",
                               uri, factory->name, count,
                               count == 1 ? "" : "s");
    }
  }
  if (grt_status_is_ok(status)) {
    grt_string_view_t device_path =
        chosen ? grt_make_cstring_view(chosen->path) : path;
    status = factory->create_device(factory->self, device_path, uri, options,
                                    host_allocator, out_device);
    status = grt_status_annotate(status, "while creating device '%s'", uri);
  }
  grt_allocator_free(host_allocator, infos);
  return status;
}

size_t grt_hal_driver_registry_format_devices(
    grt_hal_driver_registry_t* registry, char* out, size_t capacity) {
  size_t length = 0;
  if (capacity) out[0] = '\0';
  // Appends while there is room and always counts what was needed.
#define GRT_APPEND(...)                                                   \
  do {                                                                    \
    int n_ = snprintf(length < capacity ? out + length : NULL,            \
                      length < capacity ? capacity - length : 0,          \
                      __VA_ARGS__);                                       \
    if (n_ > 0) length += (size_t)n_;                                     \
  } while (0)
  for (size_t i = 0; i < registry->count; ++i) {
    const grt_hal_driver_factory_t* factory = &registry->factories[i];
    grt_hal_device_info_t* infos = NULL;
    size_t count = 0;
    grt_status_t status = grt_hal_driver_enumerate(
        factory, registry->host_allocator, &infos, &count);
    if (!grt_status_is_ok(status)) {
      GRT_APPEND("%s\tunavailable: %s\n", factory->name,
                 grt_status_message(status));
      grt_status_free(status);
      continue;
    }
    for (size_t j = 0; j < count; ++j) {
      GRT_APPEND("%s://%s\t%s\t%s\t%s\n", factory->name, infos[j].path,
                 infos[j].name, infos[j].type, infos[j].driver_version);
    }
    grt_allocator_free(registry->host_allocator, infos);
  }
#undef GRT_APPEND
  return length;
}
