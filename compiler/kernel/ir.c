// Kernel IR construction. The verifier and printer live in verify.c and
// printer.c.
#include "compiler/kernel/ir.h"

#include <string.h>

void grtc_kernel_set_init(grt_allocator_t allocator, grtc_kernel_set_t* set) {
  memset(set, 0, sizeof(*set));
  grt_arena_init(allocator, 0, &set->arena);
}

void grtc_kernel_set_deinit(grtc_kernel_set_t* set) {
  grt_arena_deinit(&set->arena);
  memset(set, 0, sizeof(*set));
}

static grt_status_t grtc_kernel_oom(void) {
  return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                         "out of memory building kernels");
}

// Grows |*items| (|count| used of |*capacity|, each |size| bytes) so one
// more fits.
static grt_status_t grtc_kernel_grow(grtc_kernel_set_t* set, void** items,
                                     uint32_t count, uint32_t* capacity,
                                     size_t size) {
  if (count < *capacity) return grt_ok_status();
  uint32_t new_capacity = *capacity ? *capacity * 2 : 16;
  void* grown = grt_arena_alloc_zeroed(&set->arena, new_capacity * size);
  if (!grown) return grtc_kernel_oom();
  if (count) memcpy(grown, *items, count * size);
  *items = grown;
  *capacity = new_capacity;
  return grt_ok_status();
}

// Capacities are not part of the public struct: the arrays are always
// sized to a power of two >= 16 above their count, which this recovers.
static uint32_t grtc_kernel_capacity_of(uint32_t count) {
  if (count == 0) return 0;
  uint32_t capacity = 16;
  while (capacity < count) capacity *= 2;
  return capacity;
}

grt_status_t grtc_kernel_set_add(grtc_kernel_set_t* set, const char* name,
                                 uint32_t binding_count,
                                 grtc_kernel_t** out_kernel,
                                 uint32_t* out_index) {
  *out_kernel = NULL;
  GRT_RETURN_IF_ERROR(grtc_kernel_grow(set, (void**)&set->kernels, set->count,
                                       &set->capacity,
                                       sizeof(grtc_kernel_t*)));
  grtc_kernel_t* kernel = grt_arena_alloc_zeroed(&set->arena, sizeof(*kernel));
  size_t name_length = strlen(name);
  char* name_copy = grt_arena_alloc_zeroed(&set->arena, name_length + 1);
  if (!kernel || !name_copy) return grtc_kernel_oom();
  memcpy(name_copy, name, name_length);
  kernel->name = grt_make_string_view(name_copy, name_length);
  kernel->kind = GRTC_KERNEL_LOOP;
  if (binding_count) {
    kernel->bindings = grt_arena_alloc_zeroed(
        &set->arena, binding_count * sizeof(grtc_kbinding_t));
    if (!kernel->bindings) return grtc_kernel_oom();
  }
  kernel->binding_count = binding_count;
  kernel->workgroup_count = 1;
  set->kernels[set->count] = kernel;
  if (out_index) *out_index = set->count;
  ++set->count;
  *out_kernel = kernel;
  return grt_ok_status();
}

grt_status_t grtc_kernel_add_inst(grtc_kernel_set_t* set,
                                  grtc_kernel_t* kernel,
                                  const grtc_kinst_t* inst, uint32_t* out) {
  uint32_t capacity = grtc_kernel_capacity_of(kernel->inst_count);
  GRT_RETURN_IF_ERROR(grtc_kernel_grow(set, (void**)&kernel->insts,
                                       kernel->inst_count, &capacity,
                                       sizeof(grtc_kinst_t)));
  kernel->insts[kernel->inst_count] = *inst;
  *out = kernel->inst_count++;
  return grt_ok_status();
}

grt_status_t grtc_kernel_add_acc(grtc_kernel_set_t* set, grtc_kernel_t* kernel,
                                 grtc_elem_t type, uint32_t init,
                                 uint32_t* out_index) {
  uint32_t capacity = grtc_kernel_capacity_of(kernel->acc_count);
  GRT_RETURN_IF_ERROR(grtc_kernel_grow(set, (void**)&kernel->accs,
                                       kernel->acc_count, &capacity,
                                       sizeof(grtc_kacc_t)));
  grtc_kacc_t* acc = &kernel->accs[kernel->acc_count];
  acc->type = type;
  acc->init = init;
  acc->update = GRTC_KINST_NONE;
  *out_index = kernel->acc_count++;
  return grt_ok_status();
}

grt_status_t grtc_kernel_add_store(grtc_kernel_set_t* set,
                                   grtc_kernel_t* kernel,
                                   const grtc_kstore_t* store) {
  uint32_t capacity = grtc_kernel_capacity_of(kernel->store_count);
  GRT_RETURN_IF_ERROR(grtc_kernel_grow(set, (void**)&kernel->stores,
                                       kernel->store_count, &capacity,
                                       sizeof(grtc_kstore_t)));
  kernel->stores[kernel->store_count++] = *store;
  return grt_ok_status();
}

grt_status_t grtc_kernel_add_extent(grtc_kernel_set_t* set,
                                    grtc_kernel_t* kernel, uint32_t symbol,
                                    uint32_t* out_extent) {
  for (uint32_t e = 0; e < kernel->extent_count; ++e) {
    if (kernel->extent_symbols[e] == symbol) {
      *out_extent = e;
      return grt_ok_status();
    }
  }
  uint32_t capacity = grtc_kernel_capacity_of(kernel->extent_count);
  GRT_RETURN_IF_ERROR(grtc_kernel_grow(set, (void**)&kernel->extent_symbols,
                                       kernel->extent_count, &capacity,
                                       sizeof(uint32_t)));
  kernel->extent_symbols[kernel->extent_count] = symbol;
  *out_extent = kernel->extent_count++;
  return grt_ok_status();
}

grt_status_t grtc_kernel_workgroups_for(const grtc_kernel_t* kernel,
                                        const int64_t* extents,
                                        uint32_t* out_count) {
  uint64_t count = 1;
  for (uint32_t d = 0; d < kernel->parallel_rank; ++d) {
    int64_t dim = kernel->parallel_dims[d];
    if (!grtc_kdim_is_static(dim)) {
      uint32_t e = grtc_kdim_extent(dim);
      dim = extents && e < kernel->extent_count ? extents[e] : -1;
      if (dim < 0) {
        return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "kernel %.*s: parallel dimension %u is extent "
                               "%u, which has no value",
                               (int)kernel->name.size, kernel->name.data, d, e);
      }
    }
    int64_t tile = kernel->tile[d];
    if (tile < 1) {
      return grt_make_status(GRT_STATUS_INTERNAL,
                             "kernel %.*s: tile of dimension %u is %lld, "
                             "expected >= 1",
                             (int)kernel->name.size, kernel->name.data, d,
                             (long long)tile);
    }
    uint64_t tiles = dim <= 0 ? 0 : (uint64_t)((dim + tile - 1) / tile);
    count *= tiles;
    if (count > UINT32_MAX) {
      return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                             "kernel %.*s: more than %u workgroups",
                             (int)kernel->name.size, kernel->name.data,
                             UINT32_MAX);
    }
  }
  if (kernel->serial) count = 1;
  *out_count = (uint32_t)count;
  return grt_ok_status();
}

grt_status_t grtc_kernel_finalize_workgroups(grtc_kernel_t* kernel) {
  bool symbolic = false;
  for (uint32_t d = 0; d < kernel->parallel_rank; ++d) {
    if (!grtc_kdim_is_static(kernel->parallel_dims[d])) symbolic = true;
    if (kernel->tile[d] < 1) {
      return grt_make_status(GRT_STATUS_INTERNAL,
                             "kernel %.*s: tile of dimension %u is %lld, "
                             "expected >= 1",
                             (int)kernel->name.size, kernel->name.data, d,
                             (long long)kernel->tile[d]);
    }
  }
  if (symbolic && !kernel->serial) {
    kernel->workgroup_count = 0;
    return grt_ok_status();
  }
  if (symbolic) {
    kernel->workgroup_count = 1;
    return grt_ok_status();
  }
  return grtc_kernel_workgroups_for(kernel, NULL, &kernel->workgroup_count);
}

int64_t grtc_kernel_split_tile(int64_t dim, int64_t split) {
  if (split < 1) split = 1;
  int64_t per = (dim + split - 1) / split;
  int64_t tile = (per + GRTC_KERNEL_SPLIT_STEP - 1) / GRTC_KERNEL_SPLIT_STEP *
                 GRTC_KERNEL_SPLIT_STEP;
  if (tile > dim) tile = dim;
  return tile < 1 ? 1 : tile;
}

int64_t grtc_kernel_split_others(const grtc_kernel_t* kernel) {
  int64_t others = 1;
  for (uint32_t d = 0; d + 1 < kernel->parallel_rank; ++d) {
    int64_t dim = kernel->parallel_dims[d] > 0 ? kernel->parallel_dims[d] : 1;
    int64_t tile = kernel->tile[d] > 0 ? kernel->tile[d] : 1;
    others *= (dim + tile - 1) / tile;
  }
  return others;
}

int64_t grtc_kernel_split_for(const grtc_kernel_t* kernel,
                              int64_t concurrency) {
  int64_t others = grtc_kernel_split_others(kernel);
  if (concurrency < 1) concurrency = 1;
  int64_t split = (concurrency + others - 1) / others;
  if (split > (int64_t)kernel->split_max) split = kernel->split_max;
  if (split < 1) split = 1;
  // Workgroups the workers cannot share evenly (3 row tiles on 2 workers)
  // take one channel tile per worker instead, where that many are allowed.
  if ((others * split) % concurrency != 0 &&
      concurrency <= (int64_t)kernel->split_max) {
    split = concurrency;
  }
  return split;
}

int64_t grtc_kernel_split_workgroups(const grtc_kernel_t* kernel,
                                     int64_t split) {
  if (kernel->parallel_rank == 0) return 1;
  int64_t dim = kernel->parallel_dims[kernel->parallel_rank - 1];
  if (dim <= 0) return 0;
  int64_t tile = grtc_kernel_split_tile(dim, split);
  return grtc_kernel_split_others(kernel) * ((dim + tile - 1) / tile);
}
