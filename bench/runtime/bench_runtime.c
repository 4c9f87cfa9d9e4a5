// bench_runtime: the runtime's fixed costs, each beside an anchor measured
// in the same run (docs/architecture.md §8).
//
//   bench_runtime NOOP.vmfb [CALLS] [DISPATCHES]
//
// (a) per-call overhead of a trivial export (noop.mlir: returns its i32)
//     through grt_runtime_session_call and grt_runtime_call (which also
//     looks the name up), against a direct C call through a function
//     pointer of the same function;
// (b) per-dispatch overhead of an empty kernel on local-sync and
//     local-task: N dispatches recorded in one command buffer, executed,
//     waited for, divided by N; against calling the same kernel function
//     N times in a C loop.
// Each figure is the best of 5 repetitions. Targets (issue 4): a call
// <= 1 us, a dispatch <= 200 ns on local-sync.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/time.h"
#include "hal/command_buffer.h"
#include "hal/local/executable.h"
#include "hal/semaphore.h"
#include "runtime/session.h"

#define BENCH_REPEAT 5

static int bench_empty_kernel(const grt_kernel_dispatch_state_t* dispatch,
                              const grt_kernel_workgroup_state_t* workgroup) {
  (void)dispatch;
  (void)workgroup;
  return 0;
}

static const grt_kernel_entry_t bench_entries[] = {
    {"empty", bench_empty_kernel, 0, 0, {1, 1, 1}, 0},
};
static const grt_kernel_library_t bench_library = {
    GRT_KERNEL_ABI_VERSION, 1, bench_entries, "bench_runtime_kernels"};

static int32_t bench_noop_c(int32_t x) { return x; }

static double bench_best(double a, double b) { return a < b ? a : b; }

//===----------------------------------------------------------------------===//
// (a) calls
//===----------------------------------------------------------------------===//

static grt_status_t bench_calls(grt_runtime_instance_t* instance,
                                const char* module_path, int64_t calls,
                                double* out_session_ns, double* out_named_ns,
                                double* out_c_ns) {
  grt_allocator_t allocator = grt_runtime_instance_host_allocator(instance);
  grt_hal_device_t* device = NULL;
  GRT_RETURN_IF_ERROR(
      grt_runtime_instance_create_device(instance, "local-sync", NULL, &device));
  grt_runtime_session_t* session = NULL;
  grt_vm_list_t* inputs = NULL;
  grt_vm_list_t* outputs = NULL;
  grt_status_t status = grt_runtime_session_create(instance, device, &session);
  if (grt_status_is_ok(status)) {
    status = grt_runtime_session_append_module_from_file(session, module_path);
  }
  grt_vm_function_t function;
  if (grt_status_is_ok(status)) {
    status = grt_runtime_session_lookup_function(session, "noop", &function);
  }
  if (grt_status_is_ok(status)) {
    status = grt_vm_list_create(grt_vm_type_def_variant(), 1, allocator, &inputs);
  }
  if (grt_status_is_ok(status)) {
    grt_vm_variant_t value = grt_vm_variant_i32(7);
    status = grt_vm_list_push_variant(inputs, &value);
  }
  if (grt_status_is_ok(status)) {
    status =
        grt_vm_list_create(grt_vm_type_def_variant(), 1, allocator, &outputs);
  }
  *out_session_ns = *out_named_ns = *out_c_ns = 1e30;
  for (int r = 0; grt_status_is_ok(status) && r < BENCH_REPEAT; ++r) {
    grt_time_t start = grt_time_now_ns();
    for (int64_t i = 0; grt_status_is_ok(status) && i < calls; ++i) {
      status = grt_vm_list_resize(outputs, 0);
      if (grt_status_is_ok(status)) {
        status = grt_runtime_session_call(session, &function, inputs, outputs);
      }
    }
    grt_time_t middle = grt_time_now_ns();
    for (int64_t i = 0; grt_status_is_ok(status) && i < calls; ++i) {
      status = grt_vm_list_resize(outputs, 0);
      if (grt_status_is_ok(status)) {
        status = grt_runtime_call(session, "bench.noop", inputs, outputs);
      }
    }
    grt_time_t end = grt_time_now_ns();
    *out_session_ns =
        bench_best(*out_session_ns, (double)(middle - start) / (double)calls);
    *out_named_ns =
        bench_best(*out_named_ns, (double)(end - middle) / (double)calls);
  }
  int32_t result = -1;
  if (grt_status_is_ok(status)) status = grt_vm_list_get_i32(outputs, 0, &result);
  if (grt_status_is_ok(status) && result != 7) {
    status = grt_make_status(GRT_STATUS_INTERNAL,
                             "noop returned %" PRId32 ", expected 7", result);
  }
  // The anchor: the same function in C, through a pointer the compiler
  // cannot see through, so each call is a real indirect call.
  int32_t (*volatile fn)(int32_t) = bench_noop_c;
  volatile int32_t sink = 0;
  for (int r = 0; grt_status_is_ok(status) && r < BENCH_REPEAT; ++r) {
    grt_time_t start = grt_time_now_ns();
    for (int64_t i = 0; i < calls; ++i) sink = fn((int32_t)i);
    grt_time_t end = grt_time_now_ns();
    *out_c_ns = bench_best(*out_c_ns, (double)(end - start) / (double)calls);
  }
  (void)sink;
  if (outputs) grt_vm_list_release(outputs);
  if (inputs) grt_vm_list_release(inputs);
  if (session) grt_runtime_session_release(session);
  grt_hal_device_release(device);
  return status;
}

//===----------------------------------------------------------------------===//
// (b) dispatches
//===----------------------------------------------------------------------===//

// Records |count| dispatches of the empty kernel, executes and waits.
static grt_status_t bench_dispatch_once(grt_hal_device_t* device,
                                        grt_hal_executable_t* executable,
                                        int64_t count, double* out_ns) {
  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_device_create_command_buffer(
      device, GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0, &command_buffer));
  grt_hal_semaphore_t* semaphore = NULL;
  grt_status_t status = grt_hal_device_create_semaphore(device, 0, &semaphore);
  grt_hal_dispatch_params_t params;
  memset(&params, 0, sizeof(params));
  params.executable = executable;
  params.workgroup_count[0] = params.workgroup_count[1] =
      params.workgroup_count[2] = 1;
  grt_time_t start = grt_time_now_ns();
  if (grt_status_is_ok(status)) status = grt_hal_command_buffer_begin(command_buffer);
  for (int64_t i = 0; grt_status_is_ok(status) && i < count; ++i) {
    status = grt_hal_command_buffer_dispatch(command_buffer, &params);
  }
  if (grt_status_is_ok(status)) status = grt_hal_command_buffer_end(command_buffer);
  uint64_t one = 1;
  if (grt_status_is_ok(status)) {
    grt_hal_semaphore_list_t signal = {1, &semaphore, &one};
    status = grt_hal_device_queue_execute(device, grt_hal_semaphore_list_empty(),
                                          signal, 1, &command_buffer, NULL);
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_semaphore_wait(semaphore, 1, GRT_HAL_TIMEOUT_INFINITE);
  }
  grt_time_t end = grt_time_now_ns();
  *out_ns = (double)(end - start) / (double)count;
  if (semaphore) grt_hal_semaphore_release(semaphore);
  grt_hal_command_buffer_release(command_buffer);
  return status;
}

static grt_status_t bench_dispatches(grt_runtime_instance_t* instance,
                                     const char* uri, int64_t count,
                                     double* out_ns) {
  grt_hal_device_t* device = NULL;
  GRT_RETURN_IF_ERROR(
      grt_runtime_instance_create_device(instance, uri, NULL, &device));
  static const uint8_t digest[GRT_HAL_EXECUTABLE_DIGEST_SIZE] = {1};
  grt_hal_entry_point_info_t entry = {grt_make_cstring_view("empty"), 0, 0,
                                      {1, 1, 1}, NULL, NULL};
  grt_hal_executable_params_t params = {
      grt_make_cstring_view("cpu-static"),
      (const uint8_t*)bench_library.name,
      strlen(bench_library.name),
      digest,
      &entry,
      1};
  grt_hal_executable_t* executable = NULL;
  grt_status_t status = grt_hal_executable_cache_prepare(
      grt_hal_device_executable_cache(device), &params, &executable);
  *out_ns = 1e30;
  for (int r = 0; grt_status_is_ok(status) && r < BENCH_REPEAT; ++r) {
    double ns = 0;
    status = bench_dispatch_once(device, executable, count, &ns);
    *out_ns = bench_best(*out_ns, ns);
  }
  if (executable) grt_hal_executable_release(executable);
  grt_hal_device_release(device);
  return grt_status_annotate(status, "dispatching on %s", uri);
}

static double bench_kernel_anchor(int64_t count) {
  grt_kernel_fn_t volatile fn = bench_empty_kernel;
  grt_kernel_dispatch_state_t dispatch;
  memset(&dispatch, 0, sizeof(dispatch));
  grt_kernel_workgroup_state_t workgroup;
  memset(&workgroup, 0, sizeof(workgroup));
  volatile int sink = 0;
  double best = 1e30;
  for (int r = 0; r < BENCH_REPEAT; ++r) {
    grt_time_t start = grt_time_now_ns();
    for (int64_t i = 0; i < count; ++i) sink = fn(&dispatch, &workgroup);
    grt_time_t end = grt_time_now_ns();
    best = bench_best(best, (double)(end - start) / (double)count);
  }
  (void)sink;
  return best;
}

static grt_status_t bench_main(const char* module_path, int64_t calls,
                               int64_t dispatches) {
  GRT_RETURN_IF_ERROR(grt_hal_local_register_static_library(&bench_library));
  grt_runtime_instance_t* instance = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_instance_create(NULL, &instance));
  double session_ns = 0, named_ns = 0, c_ns = 0;
  double sync_ns = 0, task_ns = 0;
  grt_status_t status = bench_calls(instance, module_path, calls, &session_ns,
                                    &named_ns, &c_ns);
  if (grt_status_is_ok(status)) {
    status = bench_dispatches(instance, "local-sync", dispatches, &sync_ns);
  }
  if (grt_status_is_ok(status)) {
    status = bench_dispatches(instance, "local-task", dispatches, &task_ns);
  }
  grt_runtime_instance_release(instance);
  GRT_RETURN_IF_ERROR(status);
  double kernel_ns = bench_kernel_anchor(dispatches);
  printf("%-44s %12s %12s %10s\n", "benchmark", "ns/op", "anchor ns/op",
         "ratio");
  printf("%-44s %12.1f %12.2f %10.1f\n", "call noop via grt_runtime_session_call",
         session_ns, c_ns, session_ns / c_ns);
  printf("%-44s %12.1f %12.2f %10.1f\n", "call noop via grt_runtime_call (by name)",
         named_ns, c_ns, named_ns / c_ns);
  printf("%-44s %12.1f %12.2f %10.1f\n", "dispatch empty kernel on local-sync",
         sync_ns, kernel_ns, sync_ns / kernel_ns);
  printf("%-44s %12.1f %12.2f %10.1f\n", "dispatch empty kernel on local-task",
         task_ns, kernel_ns, task_ns / kernel_ns);
  printf("anchors: a direct C call through a function pointer (calls); the "
         "kernel called in a C loop (dispatches)\n");
  printf("targets (issue 4): call <= 1000 ns: %s; local-sync dispatch <= 200 "
         "ns: %s\n",
         session_ns <= 1000 ? "met" : "MISSED",
         sync_ns <= 200 ? "met" : "MISSED");
  return grt_ok_status();
}

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    fprintf(stderr, "usage: %s NOOP.vmfb [CALLS] [DISPATCHES]\n", argv[0]);
    return 2;
  }
  int64_t calls = argc > 2 ? strtoll(argv[2], NULL, 10) : 1000000;
  int64_t dispatches = argc > 3 ? strtoll(argv[3], NULL, 10) : 1000000;
  if (calls <= 0 || dispatches <= 0) {
    fprintf(stderr, "bench_runtime: CALLS and DISPATCHES must be positive\n");
    return 2;
  }
  grt_status_t status = bench_main(argv[1], calls, dispatches);
  if (!grt_status_is_ok(status)) {
    fprintf(stderr, "bench_runtime: ");
    grt_status_fprint(stderr, status);
    grt_status_free(status);
    return 1;
  }
  return 0;
}
