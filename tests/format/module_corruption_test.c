// Corrupts a valid module (every kind of field populated) in every way that
// is cheap to enumerate, and opens each variant: truncation to every
// length, every single-bit flip of the FlatBuffer, every 4-byte word of the
// FlatBuffer rewritten with boundary values, and every byte of the
// executable binaries changed. Opening must succeed or fail with a message;
// it must never crash or read out of bounds (the sanitizer build turns any
// stray read into a failure: each variant lives in an allocation of exactly
// its size). Accepted variants are read through every accessor so those are
// exercised on odd-but-valid input too.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/endian.h"
#include "schemas/module_file.h"
#include "schemas/testing/example_module.h"

typedef struct tally_t {
  size_t accepted;
  size_t rejected;
} tally_t;

static uint8_t* original;
static size_t original_size;
static size_t flatbuffer_end;  // size prefix + FlatBuffer

static int setup(void** state) {
  (void)state;
  if (grt_example_module_serialize(grt_allocator_system(), (void**)&original,
                                   &original_size)) {
    return -1;
  }
  flatbuffer_end = 4 + (size_t)grt_load_le_u32(original);
  return 0;
}

static int teardown(void** state) {
  (void)state;
  grt_allocator_free(grt_allocator_system(), original);
  return 0;
}

// Opens |size| bytes of |bytes| from an allocation of exactly that size.
static bool open_variant(const uint8_t* bytes, size_t size, tally_t* tally) {
  uint8_t* copy = NULL;
  assert_null(grt_allocator_malloc_aligned(grt_allocator_system(), size, 64,
                                           (void**)&copy));
  if (size) memcpy(copy, bytes, size);
  grt_module_file_t* file = NULL;
  grt_status_t status = grt_module_file_open_memory(
      grt_make_const_byte_span(copy, size), grt_allocator_system(), &file);
  bool accepted = grt_status_is_ok(status);
  if (accepted) {
    assert_non_null(file);
    volatile unsigned sink = grt_example_module_read_all(file);
    (void)sink;
    grt_module_file_release(file);
    ++tally->accepted;
  } else {
    assert_null(file);
    assert_true(strlen(grt_status_message(status)) > 0);
    grt_status_free(status);
    ++tally->rejected;
  }
  grt_allocator_free(grt_allocator_system(), copy);
  return accepted;
}

static void report(const char* what, tally_t tally) {
  printf("%s: %zu variants, %zu rejected, %zu accepted\n", what,
         tally.accepted + tally.rejected, tally.rejected, tally.accepted);
}

static void test_original_opens(void** state) {
  (void)state;
  tally_t tally = {0, 0};
  assert_true(open_variant(original, original_size, &tally));
}

static void test_every_truncation_is_rejected(void** state) {
  (void)state;
  // The last executable binary ends the file, so no proper prefix can hold
  // a whole module.
  tally_t tally = {0, 0};
  for (size_t length = 0; length < original_size; ++length) {
    if (open_variant(original, length, &tally)) {
      fail_msg("truncation to %zu of %zu bytes was accepted", length,
               original_size);
    }
  }
  report("truncations", tally);
}

static void test_every_bit_flip(void** state) {
  (void)state;
  tally_t tally = {0, 0};
  uint8_t* variant = malloc(original_size);
  assert_non_null(variant);
  memcpy(variant, original, original_size);
  for (size_t byte = 0; byte < flatbuffer_end; ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      variant[byte] ^= (uint8_t)(1u << bit);
      open_variant(variant, original_size, &tally);
      variant[byte] ^= (uint8_t)(1u << bit);
    }
  }
  free(variant);
  report("bit flips", tally);
  // Flips of the size prefix, root offset and identifier alone guarantee
  // rejections; strings' characters and padding give acceptances.
  assert_true(tally.rejected > 0);
  assert_true(tally.accepted > 0);
}

static void test_every_word_rewritten(void** state) {
  (void)state;
  const uint32_t size = (uint32_t)original_size;
  const uint32_t values[] = {0,         0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u,
                             size - 1,  size,        size + 1,    1,
                             4,         0xFFFFu,     0x10000u,    0xFFFFFFFCu};
  tally_t tally = {0, 0};
  uint8_t* variant = malloc(original_size);
  assert_non_null(variant);
  memcpy(variant, original, original_size);
  for (size_t pos = 0; pos + 4 <= flatbuffer_end; pos += 4) {
    uint32_t saved = grt_load_le_u32(variant + pos);
    for (size_t v = 0; v < sizeof(values) / sizeof(values[0]); ++v) {
      grt_store_le_u32(variant + pos, values[v]);
      open_variant(variant, original_size, &tally);
      // Also as an offset nudged by one element either way.
      grt_store_le_u32(variant + pos, saved + (v % 2 ? 4u : (uint32_t)-4));
      open_variant(variant, original_size, &tally);
    }
    grt_store_le_u32(variant + pos, saved);
  }
  free(variant);
  report("word rewrites", tally);
  assert_true(tally.rejected > 0);
}

static void test_every_binary_byte_change_is_rejected(void** state) {
  (void)state;
  grt_module_file_t* file = NULL;
  assert_null(grt_module_file_open_memory(
      grt_make_const_byte_span(original, original_size), grt_allocator_system(),
      &file));
  const grt_module_file_info_t* info = grt_module_file_info(file);
  tally_t tally = {0, 0};
  uint8_t* variant = malloc(original_size);
  assert_non_null(variant);
  memcpy(variant, original, original_size);
  for (uint32_t e = 0; e < info->executable_count; ++e) {
    grt_module_executable_t executable = grt_module_file_executable(file, e);
    size_t start = (size_t)(executable.binary.data - original);
    for (size_t i = 0; i < executable.binary.size; ++i) {
      variant[start + i] ^= 0x01;
      if (open_variant(variant, original_size, &tally)) {
        fail_msg("change at byte %zu of executable %u's binary was accepted",
                 i, e);
      }
      variant[start + i] ^= 0x01;
    }
  }
  free(variant);
  grt_module_file_release(file);
  report("binary changes", tally);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_original_opens),
      cmocka_unit_test(test_every_truncation_is_rejected),
      cmocka_unit_test(test_every_bit_flip),
      cmocka_unit_test(test_every_word_rewritten),
      cmocka_unit_test(test_every_binary_byte_change_is_rejected),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
