// Command-line flags for the grt tools: one parser every tool shares, driven
// by a static table per tool so that adding a flag is one row and --help is
// generated from the same rows.
//
// Spelling follows IREE's tools: --name=value or --name value; a bool is
// --name (true) or --name=true|false|1|0 and never takes the next argument;
// a list flag may repeat (--input=1 --input=2) and keeps every value in
// order; a row may add a one-letter alias (-o FILE, or as getopt -oFILE,
// -O2). "--" ends the flags.
// --help and -h are always accepted. Values point into argv (not copied).
//
// Errors name the flag and what was expected, and an unknown flag lists the
// valid ones: "unknown flag '--modul'; valid flags: --module, --help".
#ifndef GRT_TOOLS_FLAGS_H_
#define GRT_TOOLS_FLAGS_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/allocator.h"
#include "base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum grt_flag_kind_e {
  GRT_FLAG_STRING,  // value: const char**; the last occurrence wins
  GRT_FLAG_INT,     // value: int64_t*; decimal or 0x hex
  GRT_FLAG_FLOAT,   // value: double*; a decimal number such as 1e-4
  GRT_FLAG_BOOL,    // value: bool*
  GRT_FLAG_LIST,    // value: grt_flag_list_t*; every occurrence appended
} grt_flag_kind_t;

// The values of a repeatable flag (or the positional arguments), in order.
// Grown from the allocator given to the parser; free with
// grt_flags_release.
typedef struct grt_flag_list_t {
  const char** values;
  size_t count;
  size_t capacity;
} grt_flag_list_t;

typedef struct grt_flag_t {
  const char* name;        // without dashes: "module"
  char short_name;         // 'o' accepts -o VALUE; 0 for none
  grt_flag_kind_t kind;
  void* value;             // where the parsed value goes; see the kinds
  const char* value_name;  // shown in help: --module=FILE
  const char* help;        // one line
} grt_flag_t;

typedef struct grt_flags_spec_t {
  const char* program;  // "grt-run"
  const char* summary;  // one line: what the tool does
  const char* usage;    // after the program name: "[flags] MODULE.vmfb"
  const grt_flag_t* flags;
  size_t flag_count;
  // Receives the positional arguments; NULL when the tool takes none.
  grt_flag_list_t* positionals;
} grt_flags_spec_t;

// Parses argv[1..argc) into the table's values. *out_help is set when
// --help or -h was seen (parsing still checks the rest). On failure the
// values parsed so far stay set; release the lists either way.
grt_status_t grt_flags_parse(const grt_flags_spec_t* spec, int argc,
                             char** argv, grt_allocator_t allocator,
                             bool* out_help) GRT_MUST_USE;

// Writes the usage line, summary and one line per flag.
void grt_flags_print_help(const grt_flags_spec_t* spec, FILE* stream);

// Frees the storage of every list in the table and of the positionals.
void grt_flags_release(const grt_flags_spec_t* spec, grt_allocator_t allocator);

// The longest name a tool takes on its command line (a function, a device,
// a module or C name); paths are bounded by the operating system's limits
// (base/file.h).
#define GRT_FLAGS_MAX_NAME_LENGTH 1024

// OK, or INVALID_ARGUMENT naming |flag|, the limit and the given length when
// |name| (|length| bytes) is longer than GRT_FLAGS_MAX_NAME_LENGTH: "--function:
// the name has 5000 bytes, at most 1024 are allowed ('aaaa...')".
grt_status_t grt_flags_check_name_length(const char* flag, const char* name,
                                         size_t length) GRT_MUST_USE;

// What a tool's main does with its arguments: parses them and returns -1
// when the tool should go on, or the exit status main should return: 0
// after printing help to stdout, 2 after printing a usage error (and a hint
// to use --help) to stderr.
int grt_flags_parse_for_main(const grt_flags_spec_t* spec, int argc,
                             char** argv, grt_allocator_t allocator);

#ifdef __cplusplus
}
#endif

#endif  // GRT_TOOLS_FLAGS_H_
