// async_pipeline: a pipelined loop over grt_runtime_session_call_async. Each
// frame's call is queued at once and returns; while the session's call
// thread runs it, the host prepares the next frame, and only then waits for
// the previous frame's signal fence and reads that frame's result. The
// calls are chained through fences on one host timeline semaphore: frame i
// waits for value i (frame i-1 done) and signals value i + 1.
//
//   async_pipeline MODULE.vmfb [DEVICE] [FRAMES]   (local-sync, 4 frames)
//
// The module must export add(tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// (samples/simple_embedding/add.mlir is one).
#include <stdio.h>
#include <stdlib.h>

#include "hal/semaphore.h"
#include "hal/transfer.h"
#include "runtime/hal_module.h"
#include "runtime/session.h"

#define MAX_FRAMES 64

typedef struct frame_t {
  grt_vm_list_t* inputs;
  grt_vm_list_t* outputs;
  grt_hal_fence_t* wait;  // the previous frame done (NULL for frame 0)
  grt_hal_fence_t* done;
} frame_t;

static void frame_release(frame_t* frame) {
  if (frame->inputs) grt_vm_list_release(frame->inputs);
  if (frame->outputs) grt_vm_list_release(frame->outputs);
  if (frame->wait) grt_hal_fence_release(frame->wait);
  if (frame->done) grt_hal_fence_release(frame->done);
}

// Frame i's inputs: a = [i, i+1, i+2, i+3], b = [10, 20, 30, 40].
static grt_status_t frame_prepare(grt_hal_device_t* device,
                                  grt_hal_semaphore_t* timeline, int i,
                                  frame_t* frame) {
  grt_allocator_t allocator = grt_allocator_system();
  const float a[4] = {(float)i, (float)i + 1, (float)i + 2, (float)i + 3};
  const float b[4] = {10, 20, 30, 40};
  const grt_hal_dim_t shape[1] = {4};
  GRT_RETURN_IF_ERROR(grt_vm_list_create(grt_vm_type_def_variant(), 2, allocator,
                                         &frame->inputs));
  GRT_RETURN_IF_ERROR(grt_vm_list_create(grt_vm_type_def_variant(), 1, allocator,
                                         &frame->outputs));
  const float* data[2] = {a, b};
  for (int k = 0; k < 2; ++k) {
    grt_hal_buffer_view_t* view = NULL;
    GRT_RETURN_IF_ERROR(grt_hal_buffer_view_allocate_from_host(
        device, shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, data[k], sizeof(a), &view));
    grt_vm_ref_t ref = grt_runtime_buffer_view_ref_retain(view);
    grt_hal_buffer_view_release(view);
    grt_vm_variant_t value = grt_vm_variant_ref_move(&ref);
    grt_status_t status = grt_vm_list_push_variant(frame->inputs, &value);
    grt_vm_variant_reset(&value);
    GRT_RETURN_IF_ERROR(status);
  }
  if (i > 0) {
    GRT_RETURN_IF_ERROR(
        grt_hal_fence_create_at(timeline, (uint64_t)i, allocator, &frame->wait));
  }
  return grt_hal_fence_create_at(timeline, (uint64_t)i + 1, allocator, &frame->done);
}

// Waits for frame i and prints its result.
static grt_status_t frame_finish(grt_hal_device_t* device, int i, frame_t* frame) {
  GRT_RETURN_IF_ERROR(grt_hal_fence_wait(frame->done, GRT_DURATION_INFINITE));
  grt_vm_variant_t value = grt_vm_variant_empty();
  GRT_RETURN_IF_ERROR(grt_vm_list_get_variant_assign(frame->outputs, 0, &value));
  grt_hal_buffer_view_t* view =
      value.type == GRT_VM_VALUE_TYPE_REF
          ? grt_vm_ref_as(&value.ref, &grt_runtime_hal_buffer_view_type)
          : NULL;
  grt_status_t status =
      view ? grt_ok_status()
           : grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "frame %d: add returned something other than a "
                             "buffer view",
                             i);
  float result[4];
  if (grt_status_is_ok(status)) {
    status = grt_hal_buffer_view_read_to_host(device, view, result, sizeof(result));
  }
  if (grt_status_is_ok(status)) {
    printf("frame %d: [%g %g %g %g]\n", i, result[0], result[1], result[2],
           result[3]);
  }
  grt_vm_variant_reset(&value);
  return status;
}

static grt_status_t run(const char* module_path, const char* device_uri,
                        int frame_count) {
  grt_runtime_instance_t* instance = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_instance_create(NULL, &instance));
  grt_hal_device_t* device = NULL;
  grt_runtime_session_t* session = NULL;
  grt_hal_semaphore_t* timeline = NULL;
  frame_t frames[MAX_FRAMES] = {{0}};
  grt_vm_function_t add;
  grt_status_t status =
      grt_runtime_instance_create_device(instance, device_uri, NULL, &device);
  if (grt_status_is_ok(status)) {
    status = grt_runtime_session_create(instance, device, &session);
  }
  if (grt_status_is_ok(status)) {
    status = grt_runtime_session_append_module_from_file(session, module_path);
  }
  if (grt_status_is_ok(status)) {
    status = grt_runtime_session_lookup_function(session, "add", &add);
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_host_semaphore_create(0, grt_allocator_system(), &timeline);
  }
  // The pipeline: queue frame i, then finish frame i - 1 while i runs.
  for (int i = 0; i < frame_count && grt_status_is_ok(status); ++i) {
    status = frame_prepare(device, timeline, i, &frames[i]);
    if (grt_status_is_ok(status)) {
      status = grt_runtime_session_call_async(session, &add, frames[i].inputs,
                                              frames[i].wait, frames[i].done,
                                              frames[i].outputs);
    }
    if (grt_status_is_ok(status) && i > 0) {
      status = frame_finish(device, i - 1, &frames[i - 1]);
    }
  }
  if (grt_status_is_ok(status) && frame_count > 0) {
    status = frame_finish(device, frame_count - 1, &frames[frame_count - 1]);
  }
  // Releasing the session first cancels any call still queued (after a
  // failure), so the lists are no longer in use when they go.
  if (session) grt_runtime_session_release(session);
  for (int i = 0; i < frame_count; ++i) frame_release(&frames[i]);
  if (timeline) grt_hal_semaphore_release(timeline);
  if (device) grt_hal_device_release(device);
  grt_runtime_instance_release(instance);
  return status;
}

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    fprintf(stderr, "usage: %s MODULE.vmfb [DEVICE] [FRAMES]\n", argv[0]);
    return 2;
  }
  int frame_count = argc == 4 ? atoi(argv[3]) : 4;
  if (frame_count < 1 || frame_count > MAX_FRAMES) {
    fprintf(stderr, "async_pipeline: FRAMES must be 1 to %d, got '%s'\n", MAX_FRAMES,
            argv[3]);
    return 2;
  }
  grt_status_t status =
      run(argv[1], argc >= 3 ? argv[2] : "local-sync", frame_count);
  if (grt_status_code(status) == GRT_STATUS_UNAVAILABLE) {
    // The driver is built in but this machine cannot run it (no GPU): the
    // tests count exit status 77 as skipped.
    fprintf(stderr, "async_pipeline: skipped: ");
    grt_status_fprint(stderr, status);
    grt_status_free(status);
    return 77;
  }
  if (!grt_status_is_ok(status)) {
    fprintf(stderr, "async_pipeline: ");
    grt_status_fprint(stderr, status);
    grt_status_free(status);
    return 1;
  }
  return 0;
}
