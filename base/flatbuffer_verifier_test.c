// The FlatBuffers builder and verifier together: buffers built by the
// builder verify and read back; then each verifier rule gets a buffer broken
// in exactly that way, and the message is checked. Positions to break are
// found with the reader helpers on the valid buffer, so the cases do not
// depend on the builder's exact layout.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/endian.h"
#include "base/flatbuffer_builder.h"
#include "base/flatbuffer_reader.h"
#include "base/flatbuffer_verifier.h"

// table Inner { name:string (required); value:uint; }
// struct Point { x:uint; y:uint; }
// table Root { id:uint; label:string; items:[Inner]; numbers:[ulong];
//              child:Inner; point:Point; tags:[string]; }
enum { INNER_NAME, INNER_VALUE };
enum { ROOT_ID, ROOT_LABEL, ROOT_ITEMS, ROOT_NUMBERS, ROOT_CHILD, ROOT_POINT,
       ROOT_TAGS };

static const grt_fb_field_desc_t inner_fields[] = {
    {"name", GRT_FB_KIND_STRING, 0, 0, NULL, true},
    {"value", GRT_FB_KIND_SCALAR, 4, 4, NULL, false},
};
static const grt_fb_table_desc_t inner_desc = {"Inner", inner_fields, 2};
static const grt_fb_field_desc_t root_fields[] = {
    {"id", GRT_FB_KIND_SCALAR, 4, 4, NULL, false},
    {"label", GRT_FB_KIND_STRING, 0, 0, NULL, false},
    {"items", GRT_FB_KIND_VECTOR_OF_TABLES, 0, 0, &inner_desc, false},
    {"numbers", GRT_FB_KIND_VECTOR_OF_SCALARS, 8, 8, NULL, false},
    {"child", GRT_FB_KIND_TABLE, 0, 0, &inner_desc, false},
    {"point", GRT_FB_KIND_STRUCT, 8, 4, NULL, false},
    {"tags", GRT_FB_KIND_VECTOR_OF_STRINGS, 0, 0, NULL, false},
};
static const grt_fb_table_desc_t root_desc = {"Root", root_fields, 7};

typedef struct test_buffer_t {
  uint8_t* data;  // 64-byte aligned copy, exactly |size| bytes
  size_t size;
} test_buffer_t;

static grt_fb_ref_t build_inner(grt_fb_builder_t* b, const char* name,
                                uint32_t value) {
  grt_fb_ref_t name_ref = grt_fb_builder_create_string(b, grt_make_cstring_view(name));
  grt_fb_builder_start_table(b);
  grt_fb_builder_add_offset(b, INNER_NAME, name_ref);
  grt_fb_builder_add_scalar(b, INNER_VALUE, value, 0, 4);
  return grt_fb_builder_end_table(b);
}

// A size-prefixed buffer with identifier "TEST" and every kind of field.
static test_buffer_t build_valid(void) {
  grt_fb_builder_t b;
  grt_fb_builder_initialize(grt_allocator_system(), &b);
  grt_fb_ref_t items[3] = {build_inner(&b, "zero", 0), build_inner(&b, "one", 1),
                           build_inner(&b, "two", 2)};
  grt_fb_ref_t items_ref = grt_fb_builder_create_offset_vector(&b, items, 3);
  const uint64_t numbers[2] = {0x1122334455667788ull, 42};
  grt_fb_ref_t numbers_ref = grt_fb_builder_create_vector(&b, numbers, 2, 8, 8);
  grt_fb_ref_t child = build_inner(&b, "child", 9);
  grt_fb_ref_t tags[2] = {
      grt_fb_builder_create_string(&b, grt_make_cstring_view("red")),
      grt_fb_builder_create_string(&b, grt_make_cstring_view("green"))};
  grt_fb_ref_t tags_ref = grt_fb_builder_create_offset_vector(&b, tags, 2);
  grt_fb_ref_t label =
      grt_fb_builder_create_string(&b, grt_make_cstring_view("hello"));
  const uint8_t point[8] = {5, 0, 0, 0, 6, 0, 0, 0};
  grt_fb_builder_start_table(&b);
  grt_fb_builder_add_scalar(&b, ROOT_ID, 77, 0, 4);
  grt_fb_builder_add_offset(&b, ROOT_LABEL, label);
  grt_fb_builder_add_offset(&b, ROOT_ITEMS, items_ref);
  grt_fb_builder_add_offset(&b, ROOT_NUMBERS, numbers_ref);
  grt_fb_builder_add_offset(&b, ROOT_CHILD, child);
  grt_fb_builder_add_struct(&b, ROOT_POINT, point, 8, 4);
  grt_fb_builder_add_offset(&b, ROOT_TAGS, tags_ref);
  grt_fb_ref_t root = grt_fb_builder_end_table(&b);
  grt_const_byte_span_t span;
  assert_null(grt_fb_builder_finish(&b, root, "TEST", true, &span));
  test_buffer_t buffer = {NULL, span.size};
  assert_null(grt_allocator_malloc_aligned(grt_allocator_system(), span.size, 64,
                                           (void**)&buffer.data));
  memcpy(buffer.data, span.data, span.size);
  grt_fb_builder_deinitialize(&b);
  return buffer;
}

static grt_status_t verify(test_buffer_t buffer) {
  return grt_fb_verify_size_prefixed(
      grt_make_const_byte_span(buffer.data, buffer.size), "test buffer", "TEST",
      &root_desc, grt_fb_verify_default_limits(), NULL);
}

static void assert_rejected(test_buffer_t buffer, const char* expected) {
  grt_status_t status = verify(buffer);
  if (!status) fail_msg("accepted; expected \"%s\"", expected);
  if (!strstr(grt_status_message(status), expected)) {
    fail_msg("expected \"%s\", got \"%s\"", expected, grt_status_message(status));
  }
  grt_status_free(status);
  grt_allocator_free(grt_allocator_system(), buffer.data);
}

static grt_fb_table_t root_of(test_buffer_t buffer) {
  return grt_fb_root(buffer.data, buffer.size, 4);
}

static size_t vtable_of(test_buffer_t buffer, size_t table_pos) {
  return (size_t)((int64_t)table_pos -
                  (int32_t)grt_load_le_u32(buffer.data + table_pos));
}

static void test_valid_buffer_reads_back(void** state) {
  (void)state;
  test_buffer_t buffer = build_valid();
  assert_null(verify(buffer));
  assert_int_equal((uintptr_t)buffer.size % 8, 0);  // padded to its alignment
  assert_int_equal(grt_load_le_u32(buffer.data), buffer.size - 4);
  assert_memory_equal(buffer.data + 8, "TEST", 4);
  grt_fb_table_t root = root_of(buffer);
  assert_int_equal(grt_fb_table_u32(root, ROOT_ID, 0), 77);
  assert_true(grt_string_view_equal_cstring(grt_fb_table_string(root, ROOT_LABEL),
                                            "hello"));
  grt_fb_vector_t items = grt_fb_table_vector(root, ROOT_ITEMS, 4);
  assert_int_equal(items.count, 3);
  grt_fb_table_t item0 = grt_fb_vector_table(items, 0);
  grt_fb_table_t item2 = grt_fb_vector_table(items, 2);
  assert_true(grt_string_view_equal_cstring(
      grt_fb_table_string(item2, INNER_NAME), "two"));
  assert_int_equal(grt_fb_table_u32(item2, INNER_VALUE, 0), 2);
  // A scalar equal to its default is omitted and reads as the default.
  assert_false(grt_fb_has_field(item0, INNER_VALUE));
  assert_int_equal(grt_fb_table_u32(item0, INNER_VALUE, 123), 123);
  // Items 1 and 2 have the same shape and share one vtable.
  grt_fb_table_t item1 = grt_fb_vector_table(items, 1);
  assert_int_equal(vtable_of(buffer, item1.pos), vtable_of(buffer, item2.pos));
  assert_int_not_equal(vtable_of(buffer, item0.pos), vtable_of(buffer, item1.pos));
  grt_fb_vector_t numbers = grt_fb_table_vector(root, ROOT_NUMBERS, 8);
  assert_int_equal(numbers.count, 2);
  assert_int_equal(numbers.pos % 8, 0);
  assert_true(grt_load_le_u64(buffer.data + numbers.pos) == 0x1122334455667788ull);
  const uint8_t* point = grt_fb_table_struct(root, ROOT_POINT, 8);
  assert_non_null(point);
  assert_int_equal(grt_load_le_u32(point + 4), 6);
  grt_fb_vector_t tags = grt_fb_table_vector(root, ROOT_TAGS, 4);
  assert_true(grt_string_view_equal_cstring(grt_fb_vector_string(tags, 1), "green"));
  // Out-of-range reads return defaults instead of reading outside.
  assert_int_equal(grt_fb_vector_table(items, 3).pos, 0);
  assert_int_equal(grt_fb_vector_string(tags, 2).size, 0);
  grt_allocator_free(grt_allocator_system(), buffer.data);
}

static void test_builder_aligns_vectors_to_64(void** state) {
  (void)state;
  grt_fb_builder_t b;
  grt_fb_builder_initialize(grt_allocator_system(), &b);
  uint8_t blob[3] = {1, 2, 3};
  grt_fb_ref_t vector = grt_fb_builder_create_vector(&b, blob, 3, 1, 64);
  grt_fb_builder_start_table(&b);
  grt_fb_builder_add_offset(&b, 0, vector);
  grt_fb_ref_t root = grt_fb_builder_end_table(&b);
  grt_const_byte_span_t span;
  assert_null(grt_fb_builder_finish(&b, root, NULL, true, &span));
  assert_int_equal(span.size % 64, 0);
  assert_int_equal((uintptr_t)span.data % 64, 0);
  grt_fb_table_t table = grt_fb_root(span.data, span.size, 4);
  grt_fb_vector_t bytes = grt_fb_table_vector(table, 0, 1);
  assert_int_equal(bytes.pos % 64, 0);
  assert_int_equal(span.data[bytes.pos + 2], 3);
  grt_fb_builder_deinitialize(&b);
}

static void assert_builder_error(grt_fb_builder_t* b, const char* expected) {
  grt_const_byte_span_t span;
  grt_status_t status = grt_fb_builder_finish(b, 0, NULL, false, &span);
  assert_non_null(status);
  if (!strstr(grt_status_message(status), expected)) {
    fail_msg("expected \"%s\", got \"%s\"", expected, grt_status_message(status));
  }
  grt_status_free(status);
  grt_fb_builder_deinitialize(b);
}

static void test_builder_misuse_is_reported(void** state) {
  (void)state;
  grt_fb_builder_t b;
  grt_fb_builder_initialize(grt_allocator_system(), &b);
  grt_fb_builder_start_table(&b);
  grt_fb_builder_create_string(&b, grt_make_cstring_view("x"));
  assert_builder_error(&b, "cannot be created while a table is open");

  grt_fb_builder_initialize(grt_allocator_system(), &b);
  grt_fb_builder_add_scalar(&b, 0, 1, 0, 4);
  assert_builder_error(&b, "field added outside a table");

  grt_fb_builder_initialize(grt_allocator_system(), &b);
  grt_fb_builder_start_table(&b);
  grt_fb_builder_add_scalar(&b, 2, 1, 0, 4);
  grt_fb_builder_add_scalar(&b, 2, 5, 0, 4);
  grt_fb_builder_end_table(&b);
  assert_builder_error(&b, "field id 2 added twice to one table");

  grt_fb_builder_initialize(grt_allocator_system(), &b);
  grt_fb_builder_create_vector(&b, "abc", 3, 1, 3);
  assert_builder_error(&b, "alignment 3 is not a power of two <= 64");

  grt_fb_builder_initialize(grt_allocator_system(), &b);
  grt_fb_builder_start_table(&b);
  grt_fb_builder_force_scalar(&b, 0, 1, 3);
  assert_builder_error(&b, "scalar size 3 is not 1, 2, 4 or 8");

  grt_fb_builder_initialize(grt_allocator_system(), &b);
  grt_fb_builder_create_offset_vector(&b, (const grt_fb_ref_t[]){999}, 1);
  assert_builder_error(&b, "ref 999 does not name an object built so far");

  grt_fb_builder_initialize(grt_allocator_system(), &b);
  grt_fb_builder_start_table(&b);
  grt_fb_ref_t root = grt_fb_builder_end_table(&b);
  grt_const_byte_span_t span;
  assert_null(grt_fb_builder_finish(&b, root, NULL, false, &span));
  grt_fb_builder_start_table(&b);
  assert_builder_error(&b, "flatbuffer builder used after finish");
}

static void test_prefix_and_identifier_rules(void** state) {
  (void)state;
  test_buffer_t buffer = build_valid();
  buffer.size = 3;
  assert_rejected(buffer, "test buffer invalid: 3 bytes is too small for the "
                          "4-byte size prefix");
  buffer = build_valid();
  grt_store_le_u32(buffer.data, (uint32_t)buffer.size);
  assert_rejected(buffer, "size prefix says");
  buffer = build_valid();
  memcpy(buffer.data + 8, "TE\x01T", 4);
  assert_rejected(buffer, "expected file identifier \"TEST\", got \"TE\\x01T\"");
  buffer = build_valid();
  grt_store_le_u32(buffer.data + 4, 0);
  assert_rejected(buffer, "Root: uoffset at offset 4 has invalid value 0");
  buffer = build_valid();
  grt_store_le_u32(buffer.data + 4, 0x80000000u);
  assert_rejected(buffer, "Root: uoffset at offset 4 has invalid value 2147483648");
}

static void test_table_and_vtable_rules(void** state) {
  (void)state;
  test_buffer_t buffer = build_valid();
  grt_store_le_u32(buffer.data + 4, (uint32_t)buffer.size);
  assert_rejected(buffer, "Root: table at offset");
  buffer = build_valid();
  grt_store_le_u32(buffer.data + 4, grt_load_le_u32(buffer.data + 4) + 2);
  assert_rejected(buffer, "is not 4-byte aligned");

  buffer = build_valid();
  size_t root = root_of(buffer).pos;
  grt_store_le_u32(buffer.data + root, (uint32_t)(root + 100));
  assert_rejected(buffer, "lies before the buffer");
  buffer = build_valid();
  grt_store_le_u32(buffer.data + root, (uint32_t)(int32_t)-(int32_t)buffer.size);
  assert_rejected(buffer, "vtable header at offset");

  buffer = build_valid();
  size_t vtable = vtable_of(buffer, root);
  grt_store_le_u16(buffer.data + vtable, 3);
  assert_rejected(buffer, "has invalid size 3 (expected an even size >= 4)");
  buffer = build_valid();
  grt_store_le_u16(buffer.data + vtable, 0xFFFE);
  assert_rejected(buffer, "Root: vtable at offset");
  buffer = build_valid();
  grt_store_le_u16(buffer.data + vtable + 2, 2);
  assert_rejected(buffer, "has invalid size 2 (expected >= 4)");
  buffer = build_valid();
  grt_store_le_u16(buffer.data + vtable + 2, 0xFFFF);
  assert_rejected(buffer, "Root: table at offset");
}

static void test_field_rules(void** state) {
  (void)state;
  test_buffer_t buffer = build_valid();
  size_t root = root_of(buffer).pos;
  size_t vtable = vtable_of(buffer, root);
  size_t table_size = grt_load_le_u16(buffer.data + vtable + 2);
  size_t id_slot = vtable + 4 + 2 * ROOT_ID;
  grt_store_le_u16(buffer.data + id_slot, (uint16_t)table_size);
  assert_rejected(buffer, "Root.id: field at table offset");
  buffer = build_valid();
  grt_store_le_u16(buffer.data + id_slot, 2);
  assert_rejected(buffer, "Root.id: field offset 2 overlaps the table's vtable "
                          "offset");
  buffer = build_valid();
  size_t id_offset = grt_load_le_u16(buffer.data + id_slot);
  grt_store_le_u16(buffer.data + id_slot,
                   (uint16_t)(id_offset + 5 <= table_size ? id_offset + 1
                                                          : id_offset - 1));
  assert_rejected(buffer, "is not 4-byte aligned");

  // A required field missing, named by its path through a vector.
  buffer = build_valid();
  grt_fb_table_t item1 =
      grt_fb_vector_table(grt_fb_table_vector(root_of(buffer), ROOT_ITEMS, 4), 1);
  grt_store_le_u16(buffer.data + vtable_of(buffer, item1.pos) + 4 + 2 * INNER_NAME,
                   0);
  assert_rejected(buffer, "test buffer invalid: Root.items[1].name: required "
                          "field is missing");
}

static void test_string_and_vector_rules(void** state) {
  (void)state;
  test_buffer_t buffer = build_valid();
  grt_string_view_t label = grt_fb_table_string(root_of(buffer), ROOT_LABEL);
  size_t label_pos = (size_t)((const uint8_t*)label.data - buffer.data) - 4;
  grt_store_le_u32(buffer.data + label_pos, 0x7FFFFFFF);
  assert_rejected(buffer, "Root.label: string at offset");
  buffer = build_valid();
  buffer.data[label_pos + 4 + 5] = 'x';
  assert_rejected(buffer, "Root.label: string at offset");
  buffer = build_valid();
  buffer.data[label_pos + 4 + 5] = 'x';
  {
    char expected[96];
    snprintf(expected, sizeof(expected),
             "string at offset %zu of length 5 is not NUL-terminated", label_pos);
    assert_rejected(buffer, expected);
  }

  buffer = build_valid();
  grt_fb_vector_t numbers = grt_fb_table_vector(root_of(buffer), ROOT_NUMBERS, 8);
  grt_store_le_u32(buffer.data + numbers.pos - 4, 0x10000000);
  assert_rejected(buffer, "Root.numbers: vector at offset");
  buffer = build_valid();
  grt_store_le_u32(buffer.data + numbers.pos - 4, 0x10000000);
  assert_rejected(buffer, "of 268435456 elements of 8 bytes extends past end of "
                          "buffer");

  buffer = build_valid();
  grt_fb_vector_t tags = grt_fb_table_vector(root_of(buffer), ROOT_TAGS, 4);
  grt_store_le_u32(buffer.data + tags.pos + 4, 0);
  assert_rejected(buffer, "Root.tags[1]: uoffset at offset");
}

static void test_limits(void** state) {
  (void)state;
  test_buffer_t buffer = build_valid();
  grt_fb_verify_limits_t limits = {1, 1000};
  grt_status_t status = grt_fb_verify_size_prefixed(
      grt_make_const_byte_span(buffer.data, buffer.size), "test buffer", "TEST",
      &root_desc, limits, NULL);
  assert_non_null(status);
  assert_non_null(strstr(grt_status_message(status),
                         "Root.items[0]: tables nest deeper than the limit of 1"));
  grt_status_free(status);
  limits.max_depth = 8;
  limits.max_tables = 3;
  status = grt_fb_verify_size_prefixed(
      grt_make_const_byte_span(buffer.data, buffer.size), "test buffer", "TEST",
      &root_desc, limits, NULL);
  assert_non_null(status);
  assert_non_null(strstr(grt_status_message(status),
                         "Root.items[2]: more than the limit of 3 tables"));
  grt_status_free(status);
  grt_allocator_free(grt_allocator_system(), buffer.data);
}

static void test_unprefixed_buffer_too_small(void** state) {
  (void)state;
  static const uint8_t bytes[8] = {0};
  grt_status_t status =
      grt_fb_verify(grt_make_const_byte_span(bytes, 2), "tiny", NULL,
                    &root_desc, grt_fb_verify_default_limits());
  assert_non_null(status);
  assert_string_equal(grt_status_message(status),
                      "tiny invalid: Root: root offset at offset 0 (4 bytes) "
                      "extends past end of buffer (size 2)");
  grt_status_free(status);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_valid_buffer_reads_back),
      cmocka_unit_test(test_builder_aligns_vectors_to_64),
      cmocka_unit_test(test_builder_misuse_is_reported),
      cmocka_unit_test(test_prefix_and_identifier_rules),
      cmocka_unit_test(test_table_and_vtable_rules),
      cmocka_unit_test(test_field_rules),
      cmocka_unit_test(test_string_and_vector_rules),
      cmocka_unit_test(test_limits),
      cmocka_unit_test(test_unprefixed_buffer_too_small),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
