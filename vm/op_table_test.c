// Op table: internal consistency (decode/lookup round trips, well-formed
// operand strings, prefixes) and docs/vm-isa.md's opcode table matching it
// row for row.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/source_file_test_util.h"
#include "vm/op_table.h"
#include "vm/test_support.h"

//===----------------------------------------------------------------------===//
// The table itself
//===----------------------------------------------------------------------===//

static void test_decode_and_lookup_round_trip(void** state) {
  (void)state;
  for (int i = 0; i < GRT_VM_OP_COUNT; ++i) {
    const grt_vm_op_info_t* info = grt_vm_op_info((grt_vm_op_t)i);
    uint8_t code[2];
    size_t size = 0;
    if (info->prefix != GRT_VM_PREFIX_NONE) {
      code[size++] = grt_vm_prefix_info(info->prefix)->byte;
    }
    code[size++] = info->byte;
    grt_vm_op_t op;
    size_t opcode_size = 0;
    assert_true(grt_vm_op_decode(code, size, &op, &opcode_size));
    assert_int_equal(op, i);
    assert_int_equal(opcode_size, size);
    // A prefixed op cut after its prefix does not decode.
    if (size == 2) assert_false(grt_vm_op_decode(code, 1, &op, &opcode_size));
    assert_true(
        grt_vm_op_lookup(grt_make_cstring_view(info->mnemonic), &op));
    assert_int_equal(op, i);
  }
  grt_vm_op_t op;
  size_t size = 0;
  assert_false(grt_vm_op_lookup(grt_make_cstring_view("add.i33"), &op));
  assert_false(grt_vm_op_decode(NULL, 0, &op, &size));
  const uint8_t unused[] = {0xFF};
  assert_false(grt_vm_op_decode(unused, 1, &op, &size));
  const uint8_t unused_f32[] = {0xE0, 0xFF};
  assert_false(grt_vm_op_decode(unused_f32, 2, &op, &size));
}

// Operand strings use only the documented characters; L is followed by a
// register type; results are registers or lists (and a final successor);
// at most one '>'.
// The compact tables the interpreter and the verifier read agree with the
// info table, and an op's encoding text names its bytes.
static void test_compact_tables_match_the_infos(void** state) {
  (void)state;
  // The table's own operand literals, not the characters both read.
  static const char* const operand_literals[GRT_VM_OP_COUNT] = {
#define OPERAND_LITERAL(name, mnemonic, prefix, byte, operands, meaning) \
  operands,
      GRT_VM_OP_TABLE(OPERAND_LITERAL)
#undef OPERAND_LITERAL
  };
  char buffer[GRT_VM_OP_MNEMONIC_BUFFER];
  for (int i = 0; i < GRT_VM_OP_COUNT; ++i) {
    const grt_vm_op_info_t* info = grt_vm_op_info((grt_vm_op_t)i);
    assert_string_equal(grt_vm_op_operands((grt_vm_op_t)i),
                        operand_literals[i]);
    assert_string_equal(info->operands, operand_literals[i]);
    assert_int_equal(grt_vm_op_prefix((grt_vm_op_t)i), info->prefix);
    assert_int_equal(grt_vm_op_byte((grt_vm_op_t)i), info->byte);
    assert_int_equal(grt_vm_op_code((grt_vm_op_t)i),
                     info->prefix * 256 + info->byte);
    assert_string_equal(grt_vm_op_mnemonic((grt_vm_op_t)i, buffer),
                        info->mnemonic);
    char expected[GRT_VM_OP_MNEMONIC_BUFFER];
    if (info->prefix == GRT_VM_PREFIX_NONE) {
      snprintf(expected, sizeof(expected), "opcode 0x%02X", info->byte);
    } else {
      snprintf(expected, sizeof(expected), "opcode 0x%02X 0x%02X",
               grt_vm_prefix_info(info->prefix)->byte, info->byte);
    }
    assert_string_equal(grt_vm_op_encoding_text((grt_vm_op_t)i, buffer),
                        expected);
  }
  assert_string_equal(grt_vm_op_encoding_text(GRT_VM_OP_BR, buffer),
                      "opcode 0x01");
  grt_vm_op_t op = GRT_VM_OP_BLOCK;
  assert_true(grt_vm_op_lookup(grt_make_cstring_view("add.f64"), &op));
  assert_string_equal(grt_vm_op_encoding_text(op, buffer), "opcode 0xE1 0x10");
}

static void test_operand_strings_are_well_formed(void** state) {
  (void)state;
  for (int i = 0; i < GRT_VM_OP_COUNT; ++i) {
    const grt_vm_op_info_t* info = grt_vm_op_info((grt_vm_op_t)i);
    int arrows = 0;
    bool results = false;
    for (const char* p = info->operands; *p; ++p) {
      if (*p == '>') {
        ++arrows;
        results = true;
        continue;
      }
      if (*p == 'L') {
        ++p;
        if (grt_vm_type_from_operand_char(*p) == GRT_VM_TYPE_COUNT) {
          fail_msg("%s: L followed by '%c'", info->mnemonic, *p);
        }
        continue;
      }
      // A B among the results is a successor taken after them
      // (call.yieldable): the last character, after the Y list.
      if (results && *p == 'B') {
        if (p[1] != '\0' || p[-1] != 'Y') {
          fail_msg("%s: a successor B in the results must follow Y and end "
                   "the string",
                   info->mnemonic);
        }
        continue;
      }
      const char* allowed = results ? "iIfFrYX" : "iIfFrkKgdGRCMBTAWVXS";
      if (!strchr(allowed, *p)) {
        fail_msg("%s: '%c' not allowed %s", info->mnemonic, *p,
                 results ? "in results" : "in operands");
      }
    }
    assert_true(arrows <= 1);
  }
}

static void test_prefixes_and_types(void** state) {
  (void)state;
  for (int p = 1; p < GRT_VM_PREFIX_COUNT; ++p) {
    const grt_vm_prefix_info_t* prefix =
        grt_vm_prefix_info((grt_vm_prefix_t)p);
    // A prefix byte is not also a core op.
    for (int i = 0; i < GRT_VM_OP_COUNT; ++i) {
      const grt_vm_op_info_t* info = grt_vm_op_info((grt_vm_op_t)i);
      if (info->prefix == GRT_VM_PREFIX_NONE) {
        assert_int_not_equal(info->byte, prefix->byte);
      }
    }
    assert_int_not_equal(prefix->feature, 0);
  }
  assert_string_equal(grt_vm_type_name(GRT_VM_TYPE_F64), "f64");
  assert_string_equal(grt_vm_type_name(GRT_VM_TYPE_VARIANT), "variant");
  assert_string_equal(grt_vm_type_name(GRT_VM_TYPE_I16), "i16");
  assert_string_equal(grt_vm_type_name(GRT_VM_TYPE_LIST_ELEMENT_COUNT), "?");
  assert_int_equal(grt_vm_type_from_operand_char('F'), GRT_VM_TYPE_F64);
  assert_int_equal(grt_vm_type_from_operand_char('k'), GRT_VM_TYPE_COUNT);
  assert_int_equal(grt_vm_type_slot_count(GRT_VM_TYPE_I64), 2);
  assert_int_equal(grt_vm_type_slot_count(GRT_VM_TYPE_REF), 1);
}

//===----------------------------------------------------------------------===//
// docs/vm-isa.md
//===----------------------------------------------------------------------===//

// Splits a markdown table row into its cells (trimmed, backticks removed,
// "\|" unescaped). Returns the number of cells (at most |capacity|).
static int split_row(const char* line, char cells[][160], int capacity) {
  int n = 0;
  const char* p = strchr(line, '|');
  if (!p) return 0;
  ++p;
  while (*p && *p != '\n' && n < capacity) {
    char* out = cells[n];
    size_t size = 0;
    while (*p && *p != '\n' && *p != '|') {
      if (*p == '\\' && p[1] == '|') ++p;
      if (*p != '`' && size + 1 < 160) out[size++] = *p;
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

// Compares the "## Opcodes" table of |doc| with the op table; appends every
// difference, one per line, to |report| and returns how many there were.
static int check_doc(const char* doc, char* report, size_t capacity) {
  int problems = 0;
  size_t used = 0;
  report[0] = '\0';
#define REPORT(...)                                                    \
  do {                                                                 \
    ++problems;                                                        \
    if (used < capacity) {                                             \
      int n_ = snprintf(report + used, capacity - used, __VA_ARGS__);  \
      if (n_ > 0) used += (size_t)n_;                                  \
    }                                                                  \
  } while (0)
  const char* section = strstr(doc, "\n## Opcodes");
  if (!section) {
    REPORT("no '## Opcodes' section\n");
    return problems;
  }
  const char* header = strstr(section, "| mnemonic | prefix | byte | operands | meaning |");
  if (!header) {
    REPORT("no opcode table header\n");
    return problems;
  }
  int seen[GRT_VM_OP_COUNT] = {0};
  const char* line = strchr(header, '\n');
  line = line ? strchr(line + 1, '\n') : NULL;  // skip the |---| row
  while (line && line[1] == '|') {
    ++line;
    char cells[6][160];
    int n = split_row(line, cells, 6);
    grt_vm_op_t op;
    if (n != 5) {
      REPORT("row with %d cells (expected 5): %.40s\n", n, line);
    } else if (!grt_vm_op_lookup(grt_make_cstring_view(cells[0]), &op)) {
      REPORT("%s: in the doc but not in the op table\n", cells[0]);
    } else {
      const grt_vm_op_info_t* info = grt_vm_op_info(op);
      char byte[8];
      snprintf(byte, sizeof(byte), "0x%02X", info->byte);
      const char* prefix = grt_vm_prefix_info(info->prefix)->name;
      if (seen[op]++) REPORT("%s: listed twice\n", cells[0]);
      if (strcmp(cells[1], prefix)) {
        REPORT("%s: prefix '%s' in the doc, '%s' in the table\n", cells[0],
               cells[1], prefix);
      }
      if (strcmp(cells[2], byte)) {
        REPORT("%s: byte '%s' in the doc, '%s' in the table\n", cells[0],
               cells[2], byte);
      }
      if (strcmp(cells[3], info->operands)) {
        REPORT("%s: operands '%s' in the doc, '%s' in the table\n", cells[0],
               cells[3], info->operands);
      }
      if (strcmp(cells[4], info->meaning)) {
        REPORT("%s: meaning '%s' in the doc, '%s' in the table\n", cells[0],
               cells[4], info->meaning);
      }
    }
    line = strchr(line, '\n');
  }
  for (int i = 0; i < GRT_VM_OP_COUNT; ++i) {
    if (!seen[i]) {
      REPORT("%s: in the op table but not in the doc\n",
             grt_vm_op_info((grt_vm_op_t)i)->mnemonic);
    }
  }
#undef REPORT
  return problems;
}

static void test_doc_matches_the_table(void** state) {
  (void)state;
  char* doc = grt_test_read_source_file(GRT_SOURCE_DIR, "docs/vm-isa.md");
  static char report[1 << 16];
  int problems = check_doc(doc, report, sizeof(report));
  if (problems) {
    fprintf(stderr, "docs/vm-isa.md differs from vm/op_table.h:\n%s", report);
  }
  assert_int_equal(problems, 0);
  free(doc);
}

// The checker itself notices a missing row, an extra row, a wrong byte, a
// wrong prefix, different operands and a duplicate.
static void test_doc_check_catches_differences(void** state) {
  (void)state;
  char* doc = grt_test_read_source_file(GRT_SOURCE_DIR, "docs/vm-isa.md");
  size_t size = strlen(doc);
  char* edited = calloc(1, size + 256);
  // Drop the add.i32 row, add a made-up row, duplicate sub.i32, change
  // mul.i32's byte and operands and const.f32's prefix.
  const char* add = strstr(doc, "| `add.i32` |");
  const char* add_end = strchr(add, '\n') + 1;
  size_t head = (size_t)(add - doc);
  memcpy(edited, doc, head);
  strcat(edited, "| `sub.i32` | none | 0x31 | `ii>i` | a - b |\n");
  strcat(edited, "| `frob.i32` | none | 0xFE | `i>i` | frob |\n");
  strcat(edited, add_end);
  char* mul = strstr(edited, "| `mul.i32` | none | 0x32 | `ii>i` |");
  assert_non_null(mul);
  memcpy(mul, "| `mul.i32` | none | 0x33 | `iI>i` |", 36);
  char* cf = strstr(edited, "| `const.f32` | f32 |");
  assert_non_null(cf);
  memcpy(cf, "| `const.f32` | f64 |", 21);
  static char report[1 << 16];
  int problems = check_doc(edited, report, sizeof(report));
  assert_int_equal(problems, 6);
  assert_non_null(strstr(report, "add.i32: in the op table but not in the doc"));
  assert_non_null(strstr(report, "frob.i32: in the doc but not in the op table"));
  assert_non_null(strstr(report, "sub.i32: listed twice"));
  assert_non_null(strstr(report, "mul.i32: byte '0x33' in the doc, '0x32'"));
  assert_non_null(strstr(report, "mul.i32: operands 'iI>i' in the doc"));
  assert_non_null(strstr(report, "const.f32: prefix 'f64' in the doc, 'f32'"));
  assert_int_equal(check_doc("# nothing here\n", report, sizeof(report)), 1);
  assert_non_null(strstr(report, "no '## Opcodes' section"));
  free(edited);
  free(doc);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_decode_and_lookup_round_trip),
      cmocka_unit_test(test_compact_tables_match_the_infos),
      cmocka_unit_test(test_operand_strings_are_well_formed),
      cmocka_unit_test(test_prefixes_and_types),
      cmocka_unit_test(test_doc_matches_the_table),
      cmocka_unit_test(test_doc_check_catches_differences),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
