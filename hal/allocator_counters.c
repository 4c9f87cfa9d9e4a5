#include "hal/allocator_counters.h"

void grt_hal_allocator_counters_initialize(
    grt_hal_allocator_counters_t* counters) {
  atomic_init(&counters->bytes_allocated, 0);
  atomic_init(&counters->peak_bytes_allocated, 0);
  atomic_init(&counters->allocation_count, 0);
}

void grt_hal_allocator_counters_allocated(grt_hal_allocator_counters_t* counters,
                                          uint64_t size) {
  uint64_t live = atomic_fetch_add_explicit(&counters->bytes_allocated, size,
                                            memory_order_relaxed) +
                  size;
  uint64_t peak = atomic_load_explicit(&counters->peak_bytes_allocated,
                                       memory_order_relaxed);
  // A failed exchange reloads |peak|; stop once it is at least |live|.
  while (live > peak &&
         !atomic_compare_exchange_weak_explicit(
             &counters->peak_bytes_allocated, &peak, live,
             memory_order_relaxed, memory_order_relaxed)) {
  }
  atomic_fetch_add_explicit(&counters->allocation_count, 1,
                            memory_order_relaxed);
}

void grt_hal_allocator_counters_freed(grt_hal_allocator_counters_t* counters,
                                      uint64_t size) {
  atomic_fetch_sub_explicit(&counters->bytes_allocated, size,
                            memory_order_relaxed);
}

void grt_hal_allocator_counters_query(
    grt_hal_allocator_counters_t* counters,
    grt_hal_allocator_statistics_t* out_statistics) {
  out_statistics->bytes_allocated =
      atomic_load_explicit(&counters->bytes_allocated, memory_order_relaxed);
  out_statistics->peak_bytes_allocated = atomic_load_explicit(
      &counters->peak_bytes_allocated, memory_order_relaxed);
  out_statistics->allocation_count =
      atomic_load_explicit(&counters->allocation_count, memory_order_relaxed);
}
