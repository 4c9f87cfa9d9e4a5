// A bytecode module loaded from a file keeps running what it verified when
// the file is then overwritten or truncated: bytecode and tables live in
// private memory (schemas/module_file.h, grt_module_file_open_options_t).
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "vm/test_support.h"

// main(x) = x * 3 + 1000, in enough ops that junk bytecode would crash.
static void build_module(grt_vm_test_module_t* t) {
  grt_vm_test_module_begin(t, "m");
  grt_vm_test_function_begin(t, "main", "0i_i");
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_CONST_I32, TK(1000), TI(1));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_ADD_I32, TI(0), TI(0), TI(2));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_ADD_I32, TI(2), TI(0), TI(2));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_ADD_I32, TI(2), TI(1), TI(2));
  GRT_VM_TEST_EMIT(t, GRT_VM_OP_RETURN, TLIST(TR_I(2)));
  grt_vm_test_function_end(t, 3, 0);
  grt_vm_test_module_finish(t);
}

static void run_after_clobber(size_t copy_limit, bool expect_mapped) {
  grt_vm_test_module_t t;
  build_module(&t);
  char dir[] = "/tmp/grt_vm_module_file_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char path[128];
  snprintf(path, sizeof(path), "%s/m.vmfb", dir);
  FILE* f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(t.file_data, 1, t.file_size, f), t.file_size);
  fclose(f);
  // Swap the in-memory file for the one on disk.
  grt_module_file_release(t.file);
  t.file = NULL;
  grt_module_file_open_options_t options = {copy_limit};
  GRT_EXPECT_OK(grt_module_file_open_path_with_options(path, &options,
                                                       t.allocator, &t.file));
  assert_int_equal(grt_module_file_is_mapped(t.file), expect_mapped);
  GRT_EXPECT_OK(grt_vm_test_module_link(&t, NULL, 0));

  grt_vm_variant_t arg = grt_vm_variant_i32(5);
  grt_vm_variant_t result;
  GRT_EXPECT_OK(grt_vm_test_call(&t, "main", &arg, 1, &result, 1));
  assert_int_equal(result.i32, 1015);

  // Junk over every byte (0xFF is no valid op), then nothing at all.
  int fd = open(path, O_WRONLY);
  assert_true(fd >= 0);
  uint8_t* junk = malloc(t.file_size);
  assert_non_null(junk);
  memset(junk, 0xFF, t.file_size);
  assert_int_equal(pwrite(fd, junk, t.file_size, 0), (ssize_t)t.file_size);
  free(junk);
  arg = grt_vm_variant_i32(7);
  GRT_EXPECT_OK(grt_vm_test_call(&t, "main", &arg, 1, &result, 1));
  assert_int_equal(result.i32, 1021);
  assert_int_equal(ftruncate(fd, 0), 0);
  close(fd);
  arg = grt_vm_variant_i32(-1);
  GRT_EXPECT_OK(grt_vm_test_call(&t, "main", &arg, 1, &result, 1));
  assert_int_equal(result.i32, 997);

  grt_vm_test_module_end(&t);
  unlink(path);
  rmdir(dir);
}

static void test_small_file_copied(void** state) {
  (void)state;
  run_after_clobber(GRT_MODULE_FILE_DEFAULT_COPY_LIMIT, false);
}

static void test_mapped_file_runs_private_bytecode(void** state) {
  (void)state;
  run_after_clobber(0, true);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_small_file_copied),
      cmocka_unit_test(test_mapped_file_runs_private_bytecode),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
