// static_embedding: simple_embedding for platforms that forbid loading code
// at run time (iOS, some embedded Linux): the module and its CPU kernels are
// compiled into the application with grt-compile --output-format=c-static,
//
//   grt-compile --output-format=c-static --c-static-name=static_add
//       add.mlir -o static_add.c        (writes static_add.h beside it)
//
// so the runtime may be built with GRT_ENABLE_DLOPEN_LOADER=OFF.
//
//   static_embedding [DEVICE]      (DEVICE: local-sync default)
#include <stdio.h>

#include "hal/transfer.h"
#include "runtime/session.h"
#include "static_add.h"  // generated: static_add_vmfb, _size, _register

static grt_status_t run(const char* device_uri) {
  // The kernels first: the module's executable names this library.
  GRT_RETURN_IF_ERROR(static_add_register());

  grt_runtime_instance_t* instance = NULL;
  GRT_RETURN_IF_ERROR(grt_runtime_instance_create(NULL, &instance));
  grt_hal_device_t* device = NULL;
  grt_runtime_session_t* session = NULL;
  grt_hal_buffer_view_t* inputs[2] = {NULL, NULL};
  grt_hal_buffer_view_t* output = NULL;
  grt_status_t status =
      grt_runtime_instance_create_device(instance, device_uri, NULL, &device);
  if (grt_status_is_ok(status)) {
    status = grt_runtime_session_create(instance, device, &session);
  }
  // The module's bytes are used in place (static_add_vmfb is aligned).
  if (grt_status_is_ok(status)) {
    status = grt_runtime_session_append_module_from_memory(
        session, grt_make_const_byte_span(static_add_vmfb, static_add_vmfb_size));
  }

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
  if (argc > 2) {
    fprintf(stderr, "usage: static_embedding [DEVICE]\n");
    return 2;
  }
  grt_status_t status = run(argc > 1 ? argv[1] : "local-sync");
  if (!grt_status_is_ok(status)) {
    fputs("static_embedding: ", stderr);
    grt_status_fprint(stderr, status);
    grt_status_free(status);
    return 1;
  }
  return 0;
}
