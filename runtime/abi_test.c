// The native modules' ABI tables (runtime/hal_abi.h, runtime/check_abi.h):
// docs/runtime.md's export tables and counts (and docs/status.md's count)
// match them row for row, and the generator of runtime/abi_shim.h reads
// and writes every kind of value where the VM puts it.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/source_file_test_util.h"
#include "base/status_matchers.h"
#include "runtime/abi_shim.h"
#include "runtime/check_abi.h"
#include "runtime/hal_abi.h"
#include "vm/buffer.h"
#include "vm/context.h"
#include "vm/instance.h"
#include "vm/invoke.h"
#include "vm/list.h"
#include "vm/native_module.h"
#include "vm/signature.h"

//===----------------------------------------------------------------------===//
// The rows docs/runtime.md must show
//===----------------------------------------------------------------------===//

// One export as the doc's table shows it: | `name` | `cconv` | arguments →
// results | doc |. Arguments and results are their names; a span is
// "name…", or "name (a, b)…" when its groups hold several values.
typedef struct row_t {
  const char* name;
  const char* cconv;
  const char* doc;
  char signature[512];
} row_t;

typedef struct signature_t {
  char text[512];
  size_t arguments;
  size_t results;
} signature_t;

static void append(signature_t* s, const char* text) {
  size_t used = strlen(s->text);
  snprintf(s->text + used, sizeof(s->text) - used, "%s", text);
}

static void add_argument(signature_t* s, const char* name, const char* const* group) {
  if (s->arguments++) append(s, ", ");
  append(s, name);
  if (!group) return;
  if (group[1]) {
    append(s, " (");
    for (size_t i = 0; group[i]; ++i) {
      if (i) append(s, ", ");
      append(s, group[i]);
    }
    append(s, ")");
  }
  append(s, "…");
}

static void add_result(signature_t* s, const char* name) {
  if (s->results++) {
    append(s, ", ");
  } else {
    append(s, s->arguments ? " → " : "→ ");
  }
  append(s, name);
}

#define SIG_A(name, type) add_argument(&s, #name, NULL);
#define SIG_G(name, type) #name,
#define SIG_S(name, group) add_argument(&s, #name, (const char* const[]){group(SIG_G) NULL});
#define SIG_R(name, type) add_result(&s, #name);
#define ROW(sig, name_, doc_)                                              \
  {                                                                        \
    signature_t s;                                                         \
    memset(&s, 0, sizeof(s));                                              \
    sig(SIG_A, SIG_S, SIG_R) assert_true(*count < capacity);               \
    rows[*count].name = name_;                                             \
    rows[*count].cconv = GRT_ABI_CCONV(sig);                               \
    rows[*count].doc = doc_;                                               \
    snprintf(rows[*count].signature, sizeof(rows[*count].signature), "%s", \
             s.text);                                                      \
    ++*count;                                                              \
  }

static void hal_rows(row_t* rows, size_t capacity, size_t* count) {
  *count = 0;
#define HAL_ROW(id, name, optional, doc) ROW(GRT_HAL_ABI_##id, name, doc)
  GRT_HAL_ABI_EXPORT_LIST(HAL_ROW)
#undef HAL_ROW
}

static void check_rows(row_t* rows, size_t capacity, size_t* count) {
  *count = 0;
#define CHECK_ROW(id, name, optional, doc) ROW(GRT_CHECK_ABI_##id, name, doc)
  GRT_CHECK_ABI_EXPORT_LIST(CHECK_ROW)
#undef CHECK_ROW
}

//===----------------------------------------------------------------------===//
// Reading the doc
//===----------------------------------------------------------------------===//

#define CELL_CAPACITY 512

// Splits a markdown table row into its cells (trimmed, backticks removed,
// "\|" unescaped). Returns the number of cells (at most |capacity|).
static int split_row(const char* line, char cells[][CELL_CAPACITY], int capacity) {
  int n = 0;
  const char* p = strchr(line, '|');
  if (!p) return 0;
  ++p;
  while (*p && *p != '\n' && n < capacity) {
    char* out = cells[n];
    size_t size = 0;
    while (*p && *p != '\n' && *p != '|') {
      if (*p == '\\' && p[1] == '|') ++p;
      if (*p != '`' && size + 1 < CELL_CAPACITY) out[size++] = *p;
      ++p;
    }
    if (*p != '|') break;  // text after the last '|' is not a cell
    ++p;
    while (size && out[size - 1] == ' ') --size;
    out[size] = '\0';
    size_t lead = strspn(out, " ");
    memmove(out, out + lead, size - lead + 1);
    ++n;
  }
  return n;
}

typedef struct report_t {
  char text[1 << 16];
  size_t used;
  int problems;
} report_t;

static void report(report_t* r, const char* format, ...) GRT_PRINTF_LIKE(2, 3);
static void report(report_t* r, const char* format, ...) {
  ++r->problems;
  if (r->used >= sizeof(r->text)) return;
  va_list args;
  va_start(args, format);
  int n = vsnprintf(r->text + r->used, sizeof(r->text) - r->used, format, args);
  va_end(args);
  if (n > 0) r->used += (size_t)n;
}

#define TABLE_HEADER "| export | calling convention | arguments → results | meaning |"

// Compares the table after |heading| in |doc| with |rows|, and the count
// the section states ("`<module>` has N exports") with |count|.
static void check_section(const char* doc, const char* heading, const char* module,
                          const row_t* rows, size_t count, report_t* r) {
  const char* section = strstr(doc, heading);
  if (!section) {
    report(r, "no '%s' section\n", heading);
    return;
  }
  const char* end = strstr(section + strlen(heading), "\n## ");
  size_t section_size = end ? (size_t)(end - section) : strlen(section);
  char stated[64];
  snprintf(stated, sizeof(stated), "`%s` has ", module);
  const char* claim = strstr(section, stated);
  if (!claim || (size_t)(claim - section) > section_size) {
    report(r, "%s: no sentence '`%s` has N exports'\n", heading, module);
  } else {
    unsigned long n = strtoul(claim + strlen(stated), NULL, 10);
    if (n != count) {
      report(r, "%s: the doc says %lu exports, the table has %zu\n", heading, n, count);
    }
  }
  const char* header = strstr(section, TABLE_HEADER);
  if (!header || (size_t)(header - section) > section_size) {
    report(r, "%s: no table with the header %s\n", heading, TABLE_HEADER);
    return;
  }
  bool* seen = calloc(count ? count : 1, sizeof(bool));
  const char* line = strchr(header, '\n');
  line = line ? strchr(line + 1, '\n') : NULL;  // skip the |---| row
  while (line && line[1] == '|') {
    ++line;
    static char cells[5][CELL_CAPACITY];
    int n = split_row(line, cells, 5);
    size_t i = 0;
    while (i < count && (n < 1 || strcmp(rows[i].name, cells[0]) != 0)) ++i;
    if (n != 4) {
      report(r, "row with %d cells (expected 4): %.60s\n", n, line);
    } else if (i == count) {
      report(r, "%s: in the doc but not in the table\n", cells[0]);
    } else {
      if (seen[i]) report(r, "%s: listed twice\n", cells[0]);
      seen[i] = true;
      if (strcmp(cells[1], rows[i].cconv)) {
        report(r, "%s: calling convention '%s' in the doc, '%s' in the table\n", cells[0],
               cells[1], rows[i].cconv);
      }
      if (strcmp(cells[2], rows[i].signature)) {
        report(r, "%s: arguments '%s' in the doc, '%s' in the table\n", cells[0], cells[2],
               rows[i].signature);
      }
      if (strcmp(cells[3], rows[i].doc)) {
        report(r, "%s: meaning '%s' in the doc, '%s' in the table\n", cells[0], cells[3],
               rows[i].doc);
      }
    }
    line = strchr(line, '\n');
  }
  for (size_t i = 0; i < count; ++i) {
    if (!seen[i]) report(r, "%s: in the table but not in the doc\n", rows[i].name);
  }
  free(seen);
}

static row_t hal[64];
static size_t hal_count;
static row_t check[16];
static size_t check_count;

static void check_runtime_doc(const char* doc, report_t* r) {
  check_section(doc, "## The `hal` module", GRT_HAL_ABI_MODULE, hal, hal_count, r);
  check_section(doc, "## The `check` module", GRT_CHECK_ABI_MODULE, check, check_count, r);
}

// The row docs/runtime.md should have, for pasting.
static void print_expected(const row_t* rows, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    fprintf(stderr, "| `%s` | `%s` | %s | %s |\n", rows[i].name, rows[i].cconv,
            rows[i].signature, rows[i].doc);
  }
}

static int setup(void** state) {
  (void)state;
  hal_rows(hal, sizeof(hal) / sizeof(hal[0]), &hal_count);
  check_rows(check, sizeof(check) / sizeof(check[0]), &check_count);
  return 0;
}

static void test_runtime_doc_matches_the_tables(void** state) {
  (void)state;
  char* doc = grt_test_read_source_file(GRT_SOURCE_DIR, "docs/runtime.md");
  static report_t r;
  memset(&r, 0, sizeof(r));
  check_runtime_doc(doc, &r);
  if (r.problems) {
    fprintf(stderr, "docs/runtime.md differs from runtime/hal_abi.h / check_abi.h:\n%s", r.text);
    fprintf(stderr, "the tables' rows:\n");
    print_expected(hal, hal_count);
    print_expected(check, check_count);
  }
  assert_int_equal(r.problems, 0);
  free(doc);
}

// docs/status.md states the hal module's export count.
static void test_status_doc_counts_the_exports(void** state) {
  (void)state;
  char* doc = grt_test_read_source_file(GRT_SOURCE_DIR, "docs/status.md");
  const char* claim = strstr(doc, "The `hal` VM module (");
  if (!claim) fail_msg("docs/status.md: no 'The `hal` VM module (N exports' sentence");
  unsigned long n = strtoul(claim + strlen("The `hal` VM module ("), NULL, 10);
  if (n != hal_count) {
    fail_msg("docs/status.md says the hal module has %lu exports; runtime/hal_abi.h has %zu", n,
             hal_count);
  }
  free(doc);
}

// The checker notices a missing row, an extra row, a duplicate, a wrong
// calling convention, argument list and meaning, and a wrong count.
static void test_doc_check_catches_differences(void** state) {
  (void)state;
  char* doc = grt_test_read_source_file(GRT_SOURCE_DIR, "docs/runtime.md");
  size_t size = strlen(doc);
  char* edited = calloc(1, size + 512);
  const char* drop = strstr(doc, "| `buffer.length` |");
  assert_non_null(drop);
  const char* drop_end = strchr(drop, '\n') + 1;
  memcpy(edited, doc, (size_t)(drop - doc));
  strcat(edited, "| `buffer.frob` | `0r_v` | buffer | frobs |\n");
  strcat(edited, "| `fence.signal` | `0r_v` | fence | signals the fence |\n");
  strcat(edited, drop_end);
  char* load = strstr(edited, "| `buffer.load` | `0rIi_i` |");
  assert_non_null(load);
  memcpy(load, "| `buffer.load` | `0rIi_I` |", 28);
  char* assert_row = strstr(edited, "| `buffer_view.rank` | `0r_i` | view");
  assert_non_null(assert_row);
  memcpy(assert_row, "| `buffer_view.rank` | `0r_i` | vieW", 36);
  char* meaning = strstr(edited, "| bit-exact |");
  assert_non_null(meaning);
  memcpy(meaning, "| bit-exacT |", 13);
  char* count = strstr(edited, "`check` has 8 exports");
  assert_non_null(count);
  count[12] = '9';
  static report_t r;
  memset(&r, 0, sizeof(r));
  check_runtime_doc(edited, &r);
  assert_int_equal(r.problems, 7);
  assert_non_null(strstr(r.text, "buffer.length: in the table but not in the doc"));
  assert_non_null(strstr(r.text, "buffer.frob: in the doc but not in the table"));
  assert_non_null(strstr(r.text, "fence.signal: listed twice"));
  assert_non_null(strstr(r.text, "buffer.load: calling convention '0rIi_I' in the doc"));
  assert_non_null(strstr(r.text, "buffer_view.rank: arguments 'vieW → rank' in the doc"));
  assert_non_null(strstr(r.text, "expect_eq: meaning 'bit-exacT' in the doc"));
  assert_non_null(strstr(r.text, "the doc says 9 exports, the table has 8"));
  free(edited);
  free(doc);
}

//===----------------------------------------------------------------------===//
// The generator
//===----------------------------------------------------------------------===//

// A made-up module with every value kind, a span of one value, a span of
// tuples, several results and none.
#define TEST_ABI_EXPORT_LIST(X)                    \
  X(echo, "echo", 0, "every argument back")        \
  X(nothing, "nothing", 0, "no values")            \
  X(sum, "sum", 0, "the sums of its spans")
#define test_abi_ints(G) G(value, i64)
#define test_abi_pairs(G) G(a, i32) G(b, f64)
#define TEST_ABI_echo(A, S, R)                                             \
  A(i, i32) A(big, i64) A(f, f32) A(d, f64) A(ref, vm_buffer)              \
  R(i, i32) R(big, i64) R(f, f32) R(d, f64) R(ref, vm_buffer)
#define TEST_ABI_nothing(A, S, R)
#define TEST_ABI_sum(A, S, R)                                              \
  A(first, i32) S(ints, test_abi_ints) S(pairs, test_abi_pairs)            \
  A(last, i32) R(ints, i64) R(pairs, f64) R(ends, i32)

typedef struct test_data_t {
  int calls;
} test_data_t;

GRT_RUNTIME_ABI_GROUP(test_abi_ints)
GRT_RUNTIME_ABI_GROUP(test_abi_pairs)
#define TEST_DECLARE(id, name, optional, doc) \
  GRT_RUNTIME_ABI_EXPORT(test_abi, TEST_ABI_##id, id, test_data_t)
TEST_ABI_EXPORT_LIST(TEST_DECLARE)
#undef TEST_DECLARE

static grt_status_t test_abi_echo(test_data_t* data, const test_abi_echo_args_t* in,
                                  test_abi_echo_results_t* out) {
  ++data->calls;
  out->i = in->i;
  out->big = in->big;
  out->f = in->f;
  out->d = in->d;
  out->ref = *in->ref;
  grt_vm_ref_retain(&out->ref);
  return grt_ok_status();
}

static grt_status_t test_abi_nothing(test_data_t* data, const test_abi_nothing_args_t* in,
                                     test_abi_nothing_results_t* out) {
  ++data->calls;
  return grt_ok_status();
}

static grt_status_t test_abi_sum(test_data_t* data, const test_abi_sum_args_t* in,
                                 test_abi_sum_results_t* out) {
  ++data->calls;
  test_abi_ints_span_t ints = in->ints;
  for (int32_t i = 0; i < ints.count; ++i) {
    test_abi_ints_t group;
    test_abi_ints_next(&ints, &group);
    out->ints += group.value;
  }
  test_abi_pairs_span_t pairs = in->pairs;
  for (int32_t i = 0; i < pairs.count; ++i) {
    test_abi_pairs_t group;
    test_abi_pairs_next(&pairs, &group);
    out->pairs += group.a * group.b;
  }
  out->ends = in->first * 1000 + in->last;
  return grt_ok_status();
}

static const grt_vm_native_export_t test_exports[] = {
#define TEST_ROW(id, name, optional, doc) GRT_RUNTIME_ABI_EXPORT_ROW(test_abi, TEST_ABI_##id, id, name)
    TEST_ABI_EXPORT_LIST(TEST_ROW)
#undef TEST_ROW
};

// Each value type's calling-convention character is the VM's for its
// kind, and refs are spelled as vm dialect ref types.
static void test_value_types_agree_with_the_vm(void** state) {
  (void)state;
  int count = 0;
#define CHECK_TYPE(type)                                                    \
  {                                                                         \
    grt_vm_value_type_t kind =                                              \
        GRT_ABI_CAT(GRT_VM_VALUE_TYPE_, GRT_ABI_KIND_OF(type));             \
    const char* cconv = GRT_ABI_CCONV_OF(type);                             \
    const char* spelling = GRT_ABI_SPELLING_OF(type);                       \
    assert_int_equal(strlen(cconv), 1);                                     \
    assert_int_equal(cconv[0], grt_vm_value_type_cconv_char(kind));         \
    assert_int_equal(spelling[0] == '!', kind == GRT_VM_VALUE_TYPE_REF);    \
    if (kind != GRT_VM_VALUE_TYPE_REF) {                                    \
      assert_string_equal(spelling, grt_vm_value_type_name(kind));          \
    }                                                                       \
    ++count;                                                                \
  }
  GRT_ABI_TYPE_LIST(CHECK_TYPE)
#undef CHECK_TYPE
  assert_true(count > 0);
}

static void test_generated_calling_conventions(void** state) {
  (void)state;
  assert_string_equal(test_exports[0].calling_convention, "0iIfFr_iIfFr");
  assert_string_equal(test_exports[1].calling_convention, "0v_v");
  assert_string_equal(test_exports[2].calling_convention, "0iCIDCiFDi_IFi");
  // Spot checks of the real tables against the strings they replaced.
  assert_string_equal(GRT_ABI_CCONV(GRT_HAL_ABI_command_buffer_dispatch),
                      "0rriiiiCiDCirIID_v");
  assert_string_equal(GRT_ABI_CCONV(GRT_HAL_ABI_device_query_i64), "0rrr_iI");
  assert_string_equal(GRT_ABI_CCONV(GRT_HAL_ABI_devices_count), "0v_i");
  assert_string_equal(GRT_ABI_CCONV(GRT_CHECK_ABI_expect_almost_eq), "0rrrff_v");
}

static void push(grt_vm_list_t* list, grt_vm_variant_t value) {
  GRT_EXPECT_OK(grt_vm_list_push_variant(list, &value));
  grt_vm_variant_reset(&value);
}

static grt_vm_variant_t get(const grt_vm_list_t* list, size_t index) {
  grt_vm_variant_t value = grt_vm_variant_empty();
  GRT_EXPECT_OK(grt_vm_list_get_variant_assign(list, index, &value));
  return value;
}

// Through the VM's own packing (grt_vm_invoke): every value kind lands
// where the generated reader looks and comes back where the VM reads.
static void test_generated_shims_through_invoke(void** state) {
  (void)state;
  grt_allocator_t allocator = grt_allocator_system();
  static const grt_vm_native_module_descriptor_t descriptor = {
      "t", test_exports, sizeof(test_exports) / sizeof(test_exports[0]), NULL, NULL, NULL};
  test_data_t data = {0};
  grt_vm_instance_t* instance = NULL;
  GRT_EXPECT_OK(grt_vm_instance_create(allocator, &instance));
  grt_vm_module_t* module = NULL;
  GRT_EXPECT_OK(grt_vm_native_module_create(&descriptor, &data, allocator, &module));
  grt_vm_context_t* context = NULL;
  GRT_EXPECT_OK(grt_vm_context_create(instance, &module, 1, allocator, &context));
  grt_vm_list_t* inputs = NULL;
  grt_vm_list_t* outputs = NULL;
  GRT_EXPECT_OK(grt_vm_list_create(grt_vm_type_def_variant(), 8, allocator, &inputs));
  GRT_EXPECT_OK(grt_vm_list_create(grt_vm_type_def_variant(), 8, allocator, &outputs));

  grt_vm_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_create(GRT_VM_BUFFER_ACCESS_MUTABLE, 8, 0, allocator, &buffer));
  push(inputs, grt_vm_variant_i32(-7));
  push(inputs, grt_vm_variant_i64(INT64_C(1) << 40));
  push(inputs, grt_vm_variant_f32(1.5f));
  push(inputs, grt_vm_variant_f64(-2.25));
  grt_vm_ref_t ref = grt_vm_ref_wrap_retain(buffer, grt_vm_buffer_type());
  push(inputs, grt_vm_variant_ref_move(&ref));
  grt_vm_function_t function;
  GRT_EXPECT_OK(grt_vm_context_resolve_function(context, grt_make_cstring_view("t.echo"),
                                                &function));
  GRT_EXPECT_OK(grt_vm_invoke(context, &function, inputs, outputs, allocator));
  assert_int_equal(grt_vm_list_size(outputs), 5);
  grt_vm_variant_t value = get(outputs, 0);
  assert_int_equal(value.i32, -7);
  value = get(outputs, 1);
  assert_true(value.i64 == (INT64_C(1) << 40));
  value = get(outputs, 2);
  assert_true(value.f32 == 1.5f);
  value = get(outputs, 3);
  assert_true(value.f64 == -2.25);
  value = get(outputs, 4);
  assert_ptr_equal(value.ref.ptr, buffer);
  grt_vm_variant_reset(&value);

  GRT_EXPECT_OK(grt_vm_list_resize(inputs, 0));
  GRT_EXPECT_OK(grt_vm_list_resize(outputs, 0));
  GRT_EXPECT_OK(grt_vm_context_resolve_function(context, grt_make_cstring_view("t.nothing"),
                                                &function));
  GRT_EXPECT_OK(grt_vm_invoke(context, &function, inputs, outputs, allocator));
  assert_int_equal(grt_vm_list_size(outputs), 0);
  assert_int_equal(data.calls, 2);

  grt_vm_buffer_release(buffer);
  grt_vm_list_release(inputs);
  grt_vm_list_release(outputs);
  grt_vm_context_release(context);
  grt_vm_module_release(module);
  grt_vm_instance_release(instance);
}

// Spans, laid out by hand as vm/signature.h says: an i32 count, then the
// groups, every value at the next place aligned for it.
static void test_generated_shims_read_spans(void** state) {
  (void)state;
  _Alignas(8) uint8_t args[256];
  memset(args, 0, sizeof(args));
  size_t size = 0;
#define PUT(kind, ctype, v)                                                   \
  do {                                                                        \
    ctype value_ = (v);                                                       \
    memcpy(args + grt_vm_packed_place(&size, GRT_VM_VALUE_TYPE_##kind), &value_, \
           sizeof(value_));                                                   \
  } while (0)
  PUT(I32, int32_t, 3);  // first
  PUT(I32, int32_t, 2);  // ints: 2 groups
  PUT(I64, int64_t, INT64_C(1) << 33);
  PUT(I64, int64_t, 5);
  PUT(I32, int32_t, 2);  // pairs: 2 groups of (i32, f64)
  PUT(I32, int32_t, 2);
  PUT(F64, double, 0.25);
  PUT(I32, int32_t, -1);
  PUT(F64, double, 4.0);
  PUT(I32, int32_t, 9);  // last
#undef PUT
  grt_vm_signature_t signature;
  GRT_EXPECT_OK(grt_vm_signature_parse(grt_make_cstring_view(test_exports[2].calling_convention),
                                       &signature));
  size_t expected_size = 0;
  const int32_t counts[2] = {2, 2};
  GRT_EXPECT_OK(grt_vm_signature_packed_size(signature.arguments, counts, 2, &expected_size));
  assert_int_equal(grt_vm_packed_finish(size), expected_size);

  _Alignas(8) uint8_t results[64];
  memset(results, 0xAB, sizeof(results));
  test_data_t data = {0};
  GRT_EXPECT_OK(test_exports[2].fn(&data, NULL, args, results));
  size_t at = 0;
  int64_t ints;
  double pairs;
  int32_t ends;
  memcpy(&ints, results + grt_vm_packed_place(&at, GRT_VM_VALUE_TYPE_I64), sizeof(ints));
  memcpy(&pairs, results + grt_vm_packed_place(&at, GRT_VM_VALUE_TYPE_F64), sizeof(pairs));
  memcpy(&ends, results + grt_vm_packed_place(&at, GRT_VM_VALUE_TYPE_I32), sizeof(ends));
  assert_true(ints == (INT64_C(1) << 33) + 5);
  assert_true(pairs == 2 * 0.25 + -1 * 4.0);
  assert_int_equal(ends, 3009);
  assert_int_equal(grt_vm_packed_finish(at), signature.result_bytes);
  assert_int_equal(data.calls, 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_runtime_doc_matches_the_tables),
      cmocka_unit_test(test_status_doc_counts_the_exports),
      cmocka_unit_test(test_doc_check_catches_differences),
      cmocka_unit_test(test_value_types_agree_with_the_vm),
      cmocka_unit_test(test_generated_calling_conventions),
      cmocka_unit_test(test_generated_shims_through_invoke),
      cmocka_unit_test(test_generated_shims_read_spans),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
