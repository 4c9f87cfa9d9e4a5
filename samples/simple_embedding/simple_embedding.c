// simple_embedding: the smallest application of the grt runtime. It loads
// a .vmfb, calls a function with data from host memory and prints the
// result read back to host memory; copy it as the start of your own.
//
//   simple_embedding MODULE.vmfb [DEVICE]      (DEVICE: local-sync default)
//
// The module must export add(tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// (samples/simple_embedding/add.mlir is one).
#include <stdio.h>

#include "hal/transfer.h"
#include "runtime/session.h"

static grt_status_t run(const char* module_path, const char* device_uri) {
  // One instance per process: the VM's types and the registry of drivers.
  grt_runtime_instance_t* instance = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_instance_create(NULL, &instance));
  grt_hal_device_t* device = NULL;
  grt_runtime_session_t* session = NULL;
  grt_hal_buffer_view_t* inputs[2] = {NULL, NULL};
  grt_hal_buffer_view_t* output = NULL;
  grt_status_t status =
      grt_runtime_instance_create_device(instance, device_uri, NULL, &device);
  // A session holds one program's state; modules are appended to it.
  if (grt_status_is_ok(status)) {
    status = grt_runtime_session_create(instance, device, &session);
  }
  if (grt_status_is_ok(status)) {
    status = grt_runtime_session_append_module_from_file(session, module_path);
  }

  // Host data becomes device buffers; the device may not share memory with
  // the host, so this copies.
  static const float a[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  static const float b[4] = {10.0f, 20.0f, 30.0f, 40.5f};
  const grt_hal_dim_t shape[1] = {4};
  if (grt_status_is_ok(status)) {
    status = grt_hal_buffer_view_allocate_from_host(
        device, shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, a, sizeof(a),
        &inputs[0]);
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_buffer_view_allocate_from_host(
        device, shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, b, sizeof(b),
        &inputs[1]);
  }

  size_t output_count = 0;
  if (grt_status_is_ok(status)) {
    status = grt_runtime_call_buffer_views(session, "add", 2, inputs, 1,
                                           &output, &output_count);
  }
  float result[4];
  if (grt_status_is_ok(status)) {
    status =
        grt_hal_buffer_view_read_to_host(device, output, result, sizeof(result));
  }
  if (grt_status_is_ok(status)) {
    printf("add([1 2 3 4], [10 20 30 40.5]) = [%g %g %g %g]\n", result[0],
           result[1], result[2], result[3]);
  }

  if (output) grt_hal_buffer_view_release(output);
  for (int i = 0; i < 2; ++i) {
    if (inputs[i]) grt_hal_buffer_view_release(inputs[i]);
  }
  if (session) grt_runtime_session_release(session);
  if (device) grt_hal_device_release(device);
  grt_runtime_instance_release(instance);
  return status;
}

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: %s MODULE.vmfb [DEVICE]\n", argv[0]);
    return 2;
  }
  grt_status_t status = run(argv[1], argc == 3 ? argv[2] : "local-sync");
  if (!grt_status_is_ok(status)) {
    fprintf(stderr, "simple_embedding: ");
    grt_status_fprint(stderr, status);
    grt_status_free(status);
    return 1;
  }
  return 0;
}
