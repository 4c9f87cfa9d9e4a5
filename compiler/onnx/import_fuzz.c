// libFuzzer target: arbitrary bytes through the ONNX importer and the
// tensor verifier. Any crash, leak or sanitizer report is a bug; errors are
// expected.
#include <stddef.h>
#include <stdint.h>

#include "compiler/onnx/import.h"
#include "compiler/tensor/passes.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  grtc_tmodule_t* module = NULL;
  grt_status_t status =
      grtc_onnx_import(data, size, "fuzz.onnx", NULL, grt_allocator_system(), &module);
  if (grt_status_is_ok(status)) {
    status = grtc_tensor_verify(module);
  }
  grt_status_free(status);
  grtc_tmodule_destroy(module);
  return 0;
}
