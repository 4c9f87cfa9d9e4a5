// libFuzzer target for the StableHLO front-end: any text must parse and
// import, or fail with a diagnostic; never crash, leak or read out of
// bounds. Seeded from compiler/stablehlo/fuzz_corpus/ (see CMakeLists.txt).
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/string_builder.h"
#include "compiler/mlir/printer.h"
#include "compiler/stablehlo/import.h"
#include "compiler/tensor/passes.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  grt_allocator_t allocator = grt_allocator_system();
  grtc_module_t* module = NULL;
  grt_status_t status = grtc_parse_source(
      grt_make_string_view((const char*)data, size), "fuzz.mlir",
      grtc_stablehlo_parse_options(), allocator, &module);
  if (!grt_status_is_ok(status)) {
    grt_status_free(status);
    return 0;
  }
  // Pretty forms build IR by hand (reduce's `applies`), so the generic
  // printer walks what they made.
  char* text = NULL;
  size_t length = 0;
  if (grt_status_consume_ok(grtc_print_module(module, GRTC_PRINT_LOCATIONS,
                                              allocator, &text, &length))) {
    grt_allocator_free(allocator, text);
  }
  volatile bool is_input = grtc_stablehlo_is_input(module);
  (void)is_input;
  grtc_tmodule_t* tmodule = NULL;
  status = grtc_stablehlo_import(module, allocator, &tmodule);
  // The tensor module must not depend on the parsed one.
  grtc_module_destroy(module);
  if (grt_status_is_ok(status)) {
    grt_string_builder_t builder;
    grt_string_builder_init(allocator, &builder);
    grtc_tensor_print(tmodule, &builder);
    grt_string_builder_deinit(&builder);
    grtc_tmodule_destroy(tmodule);
  } else {
    grt_status_free(status);
  }
  return 0;
}
