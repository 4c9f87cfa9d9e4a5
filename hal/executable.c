// Executable headers (owned copies of the entry point table), the check
// every implementation runs between what a module expects and what a
// binary provides, and executable cache wrappers.
#include "hal/executable.h"

#include <inttypes.h>
#include <string.h>

grt_status_t grt_hal_executable_initialize(
    const grt_hal_executable_vtable_t* vtable,
    const grt_hal_executable_params_t* params, grt_allocator_t host_allocator,
    grt_hal_executable_t* executable) {
  memset(executable, 0, sizeof(*executable));
  grt_hal_resource_initialize(vtable, &executable->resource);
  executable->host_allocator = host_allocator;
  if (params->digest) {
    memcpy(executable->digest, params->digest, GRT_HAL_EXECUTABLE_DIGEST_SIZE);
  }
  // One block: the infos, their per-binding min lengths, names and access
  // bytes (in that order, so the u64 arrays stay aligned), so the header
  // owns a single allocation whatever the entry point count.
  size_t count = params->entry_point_count;
  size_t total = count * sizeof(grt_hal_entry_point_info_t);
  for (size_t i = 0; i < count; ++i) {
    const grt_hal_entry_point_info_t* entry = &params->entry_points[i];
    if (entry->binding_min_lengths) {
      total += entry->binding_count * sizeof(uint64_t);
    }
  }
  for (size_t i = 0; i < count; ++i) {
    const grt_hal_entry_point_info_t* entry = &params->entry_points[i];
    total += entry->name.size + 1;
    if (entry->binding_access) total += entry->binding_count;
  }
  if (count == 0) return grt_ok_status();
  grt_hal_entry_point_info_t* infos = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_malloc(host_allocator, total, (void**)&infos));
  uint64_t* lengths = (uint64_t*)(infos + count);
  for (size_t i = 0; i < count; ++i) {
    infos[i] = params->entry_points[i];
    if (infos[i].binding_min_lengths) {
      memcpy(lengths, infos[i].binding_min_lengths,
             infos[i].binding_count * sizeof(uint64_t));
      infos[i].binding_min_lengths = lengths;
      lengths += infos[i].binding_count;
    }
  }
  char* names = (char*)lengths;
  for (size_t i = 0; i < count; ++i) {
    grt_string_view_t name = params->entry_points[i].name;
    if (name.size) memcpy(names, name.data, name.size);
    names[name.size] = '\0';
    infos[i].name = grt_make_string_view(names, name.size);
    names += name.size + 1;
    if (infos[i].binding_access) {
      if (infos[i].binding_count) {
        memcpy(names, infos[i].binding_access, infos[i].binding_count);
      }
      infos[i].binding_access = (const uint8_t*)names;
      names += infos[i].binding_count;
    }
  }
  executable->entry_points = infos;
  executable->entry_point_count = count;
  return grt_ok_status();
}

void grt_hal_executable_deinitialize(grt_hal_executable_t* executable) {
  grt_allocator_free(executable->host_allocator, executable->entry_points);
  executable->entry_points = NULL;
  executable->entry_point_count = 0;
}

bool grt_hal_entry_point_info_equal(const grt_hal_entry_point_info_t* a,
                                    const grt_hal_entry_point_info_t* b) {
  if (!grt_string_view_equal(a->name, b->name) ||
      a->binding_count != b->binding_count ||
      a->constant_count != b->constant_count ||
      memcmp(a->workgroup_size, b->workgroup_size,
             sizeof(a->workgroup_size)) != 0 ||
      (a->binding_access == NULL) != (b->binding_access == NULL) ||
      (a->binding_min_lengths == NULL) != (b->binding_min_lengths == NULL)) {
    return false;
  }
  if (a->binding_count == 0) return true;
  if (a->binding_access &&
      memcmp(a->binding_access, b->binding_access, a->binding_count) != 0) {
    return false;
  }
  return !a->binding_min_lengths ||
         memcmp(a->binding_min_lengths, b->binding_min_lengths,
                a->binding_count * sizeof(uint64_t)) == 0;
}

grt_status_t grt_hal_executable_entry_point(
    const grt_hal_executable_t* e, uint32_t ordinal,
    const grt_hal_entry_point_info_t** out) {
  *out = NULL;
  if (ordinal >= e->entry_point_count) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "entry point %" PRIu32
                           " is out of range (executable has %zu)",
                           ordinal, e->entry_point_count);
  }
  *out = &e->entry_points[ordinal];
  return grt_ok_status();
}

grt_status_t grt_hal_executable_check_entry_points(
    grt_string_view_t format, const grt_hal_entry_point_info_t* expected,
    size_t expected_count, const grt_hal_entry_point_info_t* actual,
    size_t actual_count) {
  // Missing names are reported before a count mismatch: "binary has no
  // entry point 'mul'" says more than "expects 2, has 1".
  for (size_t i = 0; i < expected_count; ++i) {
    const grt_hal_entry_point_info_t* want = &expected[i];
    const grt_hal_entry_point_info_t* have = NULL;
    for (size_t j = 0; j < actual_count; ++j) {
      if (grt_string_view_equal(actual[j].name, want->name)) {
        have = &actual[j];
        break;
      }
    }
    if (!have) {
      return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                             "executable %.*s: binary has no entry point '%.*s'",
                             GRT_SV_ARG(format), GRT_SV_ARG(want->name));
    }
    if (have->binding_count != want->binding_count) {
      return grt_make_status(
          GRT_STATUS_INCOMPATIBLE,
          "executable %.*s: entry point %zu '%.*s': module expects %" PRIu32
          " bindings, binary has %" PRIu32,
          GRT_SV_ARG(format), i, GRT_SV_ARG(want->name), want->binding_count,
          have->binding_count);
    }
    if (have->constant_count != want->constant_count) {
      return grt_make_status(
          GRT_STATUS_INCOMPATIBLE,
          "executable %.*s: entry point %zu '%.*s': module expects %" PRIu32
          " constants, binary has %" PRIu32,
          GRT_SV_ARG(format), i, GRT_SV_ARG(want->name), want->constant_count,
          have->constant_count);
    }
    for (int d = 0; d < 3; ++d) {
      // A zero means "not stated" on either side (e.g. a module that leaves
      // workgroup sizes to the binary).
      if (want->workgroup_size[d] && have->workgroup_size[d] &&
          want->workgroup_size[d] != have->workgroup_size[d]) {
        return grt_make_status(
            GRT_STATUS_INCOMPATIBLE,
            "executable %.*s: entry point %zu '%.*s': module expects "
            "workgroup size %" PRIu32 "x%" PRIu32 "x%" PRIu32
            ", binary has %" PRIu32 "x%" PRIu32 "x%" PRIu32,
            GRT_SV_ARG(format), i, GRT_SV_ARG(want->name),
            want->workgroup_size[0], want->workgroup_size[1],
            want->workgroup_size[2], have->workgroup_size[0],
            have->workgroup_size[1], have->workgroup_size[2]);
      }
    }
  }
  if (expected_count != actual_count) {
    return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                           "executable %.*s: module expects %zu entry points, "
                           "binary has %zu",
                           GRT_SV_ARG(format), expected_count, actual_count);
  }
  return grt_ok_status();
}

bool grt_hal_executable_cache_can_prepare_format(
    grt_hal_executable_cache_t* cache, grt_string_view_t format) {
  return GRT_HAL_VTABLE(cache, grt_hal_executable_cache_vtable_t)
      ->can_prepare_format(cache, format);
}

grt_status_t grt_hal_executable_cache_prepare(
    grt_hal_executable_cache_t* cache, const grt_hal_executable_params_t* params,
    grt_hal_executable_t** out_executable) {
  *out_executable = NULL;
  if (!params->digest) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "executable %.*s has no digest",
                           GRT_SV_ARG(params->format));
  }
  if (!params->binary || params->binary_size == 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "executable %.*s has an empty binary",
                           GRT_SV_ARG(params->format));
  }
  if (params->entry_point_count && !params->entry_points) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "executable %.*s: %zu entry points but no table",
                           GRT_SV_ARG(params->format),
                           params->entry_point_count);
  }
  if (!grt_hal_executable_cache_can_prepare_format(cache, params->format)) {
    return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                           "device cannot run executable format '%.*s'",
                           GRT_SV_ARG(params->format));
  }
  return GRT_HAL_VTABLE(cache, grt_hal_executable_cache_vtable_t)
      ->prepare_executable(cache, params, out_executable);
}
