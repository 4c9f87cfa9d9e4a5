// grt-dump: everything a module file holds, for people (an indented
// outline) or for scripts (--json), plus a disassembly of every function
// and, with --extract=DIR, the embedded executable binaries as files.
//
//   grt-dump prog.vmfb [--json] [--extract=DIR]
//
// One walk over the module feeds both renderings through a small outline
// writer, so the text and the JSON can never disagree about what is there.
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/endian.h"
#include "base/file.h"
#include "schemas/module_file.h"
#include "schemas/module_signature.h"
#include "tools/flags.h"
#include "vm/disassembler.h"
#include "vm/op_table.h"

//===----------------------------------------------------------------------===//
// Flags
//===----------------------------------------------------------------------===//

typedef struct grt_dump_flags_t {
  bool json;
  const char* extract_dir;
  grt_flag_list_t positionals;
} grt_dump_flags_t;

static grt_dump_flags_t flags;

static const grt_flag_t grt_dump_flag_table[] = {
    {"json", 0, GRT_FLAG_BOOL, &flags.json, NULL,
     "print the metadata as JSON instead of text"},
    {"extract", 0, GRT_FLAG_STRING, &flags.extract_dir, "DIR",
     "write each executable binary to DIR/<module>_<index>.<ext>"},
};

static const grt_flags_spec_t grt_dump_flags_spec = {
    "grt-dump",
    "prints the metadata, sizes and disassembly of a module file",
    "[flags] MODULE.vmfb", grt_dump_flag_table,
    sizeof(grt_dump_flag_table) / sizeof(grt_dump_flag_table[0]),
    &flags.positionals};

//===----------------------------------------------------------------------===//
// Outline writer: nested objects and arrays of named fields, rendered as
// indented "key: value" text or as JSON.
//===----------------------------------------------------------------------===//

#define GRT_DUMP_MAX_DEPTH 8

typedef struct grt_dump_level_t {
  bool array;
  bool first;        // no member written yet (JSON commas)
  bool pending_dash; // text: the next line starts a list item ("- ")
  int indent;        // text: spaces before this level's members
} grt_dump_level_t;

typedef struct grt_dump_writer_t {
  FILE* out;
  bool json;
  int depth;
  grt_dump_level_t levels[GRT_DUMP_MAX_DEPTH];
} grt_dump_writer_t;

static void grt_dump_json_string(FILE* out, grt_string_view_t text) {
  fputc('"', out);
  for (size_t i = 0; i < text.size; ++i) {
    unsigned char c = (unsigned char)text.data[i];
    if (c == '"' || c == '\\') {
      fprintf(out, "\\%c", c);
    } else if (c == '\n') {
      fputs("\\n", out);
    } else if (c < 0x20) {
      fprintf(out, "\\u%04x", c);
    } else {
      fputc(c, out);
    }
  }
  fputc('"', out);
}

// Starts a member of the current level: separator and indentation, then
// the key (NULL inside arrays).
static void grt_dump_member(grt_dump_writer_t* w, const char* key) {
  grt_dump_level_t* level = &w->levels[w->depth];
  if (w->json) {
    fprintf(w->out, "%s\n%*s", level->first ? "" : ",", 2 * (w->depth + 1),
            "");
    if (key) fprintf(w->out, "\"%s\": ", key);
  } else if (key) {
    if (level->pending_dash) {
      fprintf(w->out, "%*s- %s:", level->indent - 2, "", key);
      level->pending_dash = false;
    } else {
      fprintf(w->out, "%*s%s:", level->indent, "", key);
    }
  }
  level->first = false;
}

static void grt_dump_push(grt_dump_writer_t* w, bool array, bool dash,
                          int indent) {
  grt_dump_level_t* level = &w->levels[++w->depth];
  level->array = array;
  level->first = true;
  level->pending_dash = dash;
  level->indent = indent;
}

// An object: a named member of an object, or (key NULL) an array element.
static void grt_dump_begin_object(grt_dump_writer_t* w, const char* key) {
  int indent = w->levels[w->depth].indent;
  grt_dump_member(w, key);
  if (w->json) fputc('{', w->out);
  if (!w->json && key) fputc('\n', w->out);
  grt_dump_push(w, false, !key, indent + 2);
}

// An array of |count| elements (text shows an empty one as []).
static void grt_dump_begin_array(grt_dump_writer_t* w, const char* key,
                                 size_t count) {
  int indent = w->levels[w->depth].indent;
  grt_dump_member(w, key);
  if (w->json) {
    fputc('[', w->out);
  } else {
    fputs(count ? "\n" : " []\n", w->out);
  }
  grt_dump_push(w, true, false, indent + 2);
}

static void grt_dump_end(grt_dump_writer_t* w) {
  bool array = w->levels[w->depth].array;
  bool empty = w->levels[w->depth].first;
  --w->depth;
  if (w->json) {
    if (!empty) fprintf(w->out, "\n%*s", 2 * (w->depth + 1), "");
    fputc(array ? ']' : '}', w->out);
  }
}

static void grt_dump_string(grt_dump_writer_t* w, const char* key,
                            grt_string_view_t value) {
  grt_dump_member(w, key);
  if (w->json) {
    grt_dump_json_string(w->out, value);
  } else {
    fprintf(w->out, " %.*s\n", GRT_SV_ARG(value));
  }
}

static void grt_dump_cstring(grt_dump_writer_t* w, const char* key,
                             const char* value) {
  grt_dump_string(w, key, grt_make_cstring_view(value));
}

static void grt_dump_u64(grt_dump_writer_t* w, const char* key,
                         uint64_t value) {
  grt_dump_member(w, key);
  fprintf(w->out, w->json ? "%" PRIu64 : " %" PRIu64 "\n", value);
}

static void grt_dump_bool(grt_dump_writer_t* w, const char* key, bool value) {
  grt_dump_member(w, key);
  fprintf(w->out, w->json ? "%s" : " %s\n", value ? "true" : "false");
}

// Multi-line text (a disassembly): a JSON string, or an indented block.
static void grt_dump_text_block(grt_dump_writer_t* w, const char* key,
                                const char* text) {
  if (w->json) {
    grt_dump_string(w, key, grt_make_cstring_view(text));
    return;
  }
  grt_dump_member(w, key);
  fputs(" |\n", w->out);
  int indent = w->levels[w->depth].indent + 2;
  for (const char* line = text; *line;) {
    const char* end = strchr(line, '\n');
    size_t length = end ? (size_t)(end - line) : strlen(line);
    fprintf(w->out, "%*s%.*s\n", indent, "", (int)length, line);
    line += length + (end ? 1 : 0);
  }
}

//===----------------------------------------------------------------------===//
// The module
//===----------------------------------------------------------------------===//

// Executable formats and the file extension --extract gives their binaries,
// first match wins; prefix rows end in '-'.
static const struct {
  const char* format;
  const char* extension;
} grt_dump_extensions[] = {
    {"cpu-", "so"},
    {"cuda-ptx", "ptx"},
    {"vulkan-spirv", "spv"},
};

static const char* grt_dump_extension_for(grt_string_view_t format) {
  for (size_t i = 0;
       i < sizeof(grt_dump_extensions) / sizeof(grt_dump_extensions[0]); ++i) {
    grt_string_view_t row = grt_make_cstring_view(grt_dump_extensions[i].format);
    bool prefix = row.size && row.data[row.size - 1] == '-';
    if (prefix ? grt_string_view_starts_with(format, row)
               : grt_string_view_equal(format, row)) {
      return grt_dump_extensions[i].extension;
    }
  }
  return "bin";
}

static void grt_dump_features(grt_dump_writer_t* w, uint64_t features) {
  char names[256] = "";
  size_t used = 0;
  uint64_t known = 0;
  for (int p = GRT_VM_PREFIX_NONE + 1; p < GRT_VM_PREFIX_COUNT; ++p) {
    const grt_vm_prefix_info_t* info = grt_vm_prefix_info((grt_vm_prefix_t)p);
    known |= info->feature;
    if (!(features & info->feature)) continue;
    int n = snprintf(names + used, sizeof(names) - used, "%s%s",
                     used ? " " : "", info->name);
    if (n > 0 && (size_t)n < sizeof(names) - used) used += (size_t)n;
  }
  if (features & ~known) {
    snprintf(names + used, sizeof(names) - used, "%sunknown:0x%" PRIx64,
             used ? " " : "", features & ~known);
  }
  grt_dump_u64(w, "features", features);
  grt_dump_cstring(w, "feature_names", names);
}

static void grt_dump_sizes(grt_dump_writer_t* w, const grt_module_file_t* file,
                           grt_const_byte_span_t contents) {
  const grt_module_file_info_t* info = grt_module_file_info(file);
  uint64_t rodata = 0, executables = 0;
  for (uint32_t i = 0; i < info->rodata_count; ++i) {
    rodata += grt_module_file_rodata(file, i).data.size;
  }
  for (uint32_t i = 0; i < info->executable_count; ++i) {
    executables += grt_module_file_executable(file, i).binary.size;
  }
  grt_dump_begin_object(w, "sizes");
  grt_dump_u64(w, "file", contents.size);
  // The file starts with the FlatBuffer's u32 size (module_file.h).
  grt_dump_u64(w, "flatbuffer", grt_load_le_u32(contents.data));
  grt_dump_u64(w, "bytecode", info->bytecode.size);
  grt_dump_u64(w, "rodata", rodata);
  grt_dump_u64(w, "executables", executables);
  grt_dump_end(w);
}

static void grt_dump_imports_exports(grt_dump_writer_t* w,
                                     const grt_module_file_t* file) {
  const grt_module_file_info_t* info = grt_module_file_info(file);
  grt_dump_begin_array(w, "imports", info->import_count);
  for (uint32_t i = 0; i < info->import_count; ++i) {
    grt_module_import_t import = grt_module_file_import(file, i);
    grt_dump_begin_object(w, NULL);
    grt_dump_string(w, "name", import.full_name);
    grt_dump_string(w, "calling_convention", import.calling_convention);
    grt_dump_bool(w, "optional", import.optional);
    grt_dump_end(w);
  }
  grt_dump_end(w);
  grt_dump_begin_array(w, "exports", info->export_count);
  for (uint32_t i = 0; i < info->export_count; ++i) {
    grt_module_export_t export_def = grt_module_file_export(file, i);
    grt_dump_begin_object(w, NULL);
    grt_dump_string(w, "name", export_def.name);
    grt_dump_u64(w, "function", export_def.function_ordinal);
    grt_dump_end(w);
  }
  grt_dump_end(w);
}

// The disassembly of function |ordinal| into |builder|; a malformed op ends
// it with the disassembler's note, which is still worth showing.
static grt_status_t grt_dump_disassemble(const grt_module_file_t* file,
                                         uint32_t ordinal,
                                         grt_vm_string_builder_t* builder) {
  const grt_module_file_info_t* info = grt_module_file_info(file);
  grt_module_function_t function = grt_module_file_function(file, ordinal);
  grt_vm_disassembly_names_t names;
  grt_vm_disassembly_names_for_module_file(file, ordinal, &names);
  grt_const_byte_span_t code = grt_make_const_byte_span(
      info->bytecode.data + function.bytecode_offset, function.bytecode_length);
  return grt_vm_disassemble_function(code, &names,
                                     grt_vm_string_builder_sink(builder));
}

static grt_status_t grt_dump_functions(grt_dump_writer_t* w,
                                       const grt_module_file_t* file,
                                       grt_allocator_t allocator) {
  const grt_module_file_info_t* info = grt_module_file_info(file);
  grt_dump_begin_array(w, "functions", info->function_count);
  for (uint32_t i = 0; i < info->function_count; ++i) {
    grt_module_function_t function = grt_module_file_function(file, i);
    grt_dump_begin_object(w, NULL);
    grt_dump_string(w, "name", function.name);
    grt_dump_string(w, "calling_convention", function.calling_convention);
    grt_dump_u64(w, "i32_registers", function.i32_register_count);
    grt_dump_u64(w, "ref_registers", function.ref_register_count);
    grt_dump_u64(w, "bytecode_offset", function.bytecode_offset);
    grt_dump_u64(w, "bytecode_length", function.bytecode_length);
    // The compiler's memory plan: peak bytes of the arena one call uses.
    grt_dump_u64(w, "transient_bytes",
                 grt_module_file_function_transient_bytes(file, i));
    // Shape-polymorphic functions: "(?x16xf32) -> ?x4xf32" and the arena
    // in symbolic form.
    grt_string_view_t signature =
        grt_module_file_function_tensor_signature(file, i);
    if (signature.size) grt_dump_string(w, "tensor_signature", signature);
    grt_string_view_t plan = grt_module_file_function_transient_plan(file, i);
    if (plan.size) grt_dump_string(w, "transient_plan", plan);
    grt_vm_string_builder_t builder;
    grt_vm_string_builder_initialize(allocator, &builder);
    grt_status_t status = grt_dump_disassemble(file, i, &builder);
    if (!grt_status_is_ok(status)) {
      // Loading verifies the bytecode, but grt-dump is how people look at
      // modules that do not load: show the text up to the bad op.
      char note[512];
      snprintf(note, sizeof(note), "<disassembly stopped: %s>\n",
               grt_status_message(status));
      grt_status_free(status);
      status = grt_vm_string_builder_append(&builder,
                                            grt_make_cstring_view(note));
    }
    if (grt_status_is_ok(status)) {
      grt_dump_text_block(w, "disassembly",
                          grt_vm_string_builder_cstring(&builder));
    }
    grt_vm_string_builder_deinitialize(&builder);
    grt_dump_end(w);
    GRT_RETURN_IF_ERROR(status);
  }
  grt_dump_end(w);
  return grt_ok_status();
}

// Space-separated per-binding access ("r", "w", "rw") and minimum lengths;
// a list too long for its buffer ends in "...".
static void grt_dump_format_bindings(const grt_module_entry_point_t* entry,
                                     char* access, size_t access_capacity,
                                     char* lengths, size_t lengths_capacity) {
  static const char* const kAccess[4] = {"?", "r", "w", "rw"};
  size_t a = 0;
  size_t l = 0;
  access[0] = '\0';
  lengths[0] = '\0';
  for (uint32_t b = 0; b < entry->binding_count; ++b) {
    if (entry->binding_access && a + 8 < access_capacity) {
      a += (size_t)snprintf(access + a, access_capacity - a, "%s%s", b ? " " : "",
                            kAccess[entry->binding_access[b] & 3]);
    } else if (entry->binding_access && a + 4 <= access_capacity) {
      snprintf(access + a, access_capacity - a, "...");
      a = access_capacity;  // nothing more
    }
    if (entry->binding_min_lengths && l + 24 < lengths_capacity) {
      l += (size_t)snprintf(lengths + l, lengths_capacity - l, "%s%" PRIu64,
                            b ? " " : "",
                            grt_load_le_u64(entry->binding_min_lengths + 8 * b));
    } else if (entry->binding_min_lengths && l + 4 <= lengths_capacity) {
      snprintf(lengths + l, lengths_capacity - l, "...");
      l = lengths_capacity;  // nothing more
    }
  }
}

static void grt_dump_data(grt_dump_writer_t* w, const grt_module_file_t* file) {
  const grt_module_file_info_t* info = grt_module_file_info(file);
  grt_dump_begin_array(w, "rodata", info->rodata_count);
  for (uint32_t i = 0; i < info->rodata_count; ++i) {
    grt_module_rodata_t rodata = grt_module_file_rodata(file, i);
    grt_dump_begin_object(w, NULL);
    grt_dump_u64(w, "size", rodata.data.size);
    grt_dump_u64(w, "alignment", rodata.alignment);
    grt_dump_bool(w, "external", rodata.external);
    grt_dump_end(w);
  }
  grt_dump_end(w);

  grt_dump_begin_array(w, "executables", info->executable_count);
  for (uint32_t i = 0; i < info->executable_count; ++i) {
    grt_module_executable_t executable = grt_module_file_executable(file, i);
    char digest[2 * GRT_MODULE_DIGEST_SIZE + 1];
    for (size_t b = 0; b < GRT_MODULE_DIGEST_SIZE; ++b) {
      snprintf(digest + 2 * b, 3, "%02x", executable.digest[b]);
    }
    grt_dump_begin_object(w, NULL);
    grt_dump_string(w, "format", executable.format);
    grt_dump_u64(w, "size", executable.binary.size);
    grt_dump_cstring(w, "sha256", digest);
    grt_dump_begin_array(w, "entry_points", executable.entry_point_count);
    for (uint32_t e = 0; e < executable.entry_point_count; ++e) {
      grt_module_entry_point_t entry = grt_module_file_entry_point(file, i, e);
      char workgroup[48];
      snprintf(workgroup, sizeof(workgroup), "%" PRIu32 "x%" PRIu32 "x%" PRIu32,
               entry.workgroup_size[0], entry.workgroup_size[1],
               entry.workgroup_size[2]);
      grt_dump_begin_object(w, NULL);
      grt_dump_string(w, "name", entry.name);
      grt_dump_u64(w, "bindings", entry.binding_count);
      grt_dump_u64(w, "constants", entry.constant_count);
      grt_dump_cstring(w, "workgroup_size", workgroup);
      // Per binding (format 1.1): "r", "w" or "rw", and the minimum bytes.
      if (entry.binding_access || entry.binding_min_lengths) {
        char access[512];
        char lengths[512];
        grt_dump_format_bindings(&entry, access, sizeof(access), lengths,
                                 sizeof(lengths));
        if (entry.binding_access) {
          grt_dump_cstring(w, "binding_access", access);
        }
        if (entry.binding_min_lengths) {
          grt_dump_cstring(w, "binding_min_lengths", lengths);
        }
      }
      grt_dump_end(w);
    }
    grt_dump_end(w);
    grt_dump_end(w);
  }
  grt_dump_end(w);

  grt_dump_begin_object(w, "globals");
  grt_dump_u64(w, "bytes", info->global_bytes);
  grt_dump_u64(w, "refs", info->global_ref_count);
  grt_dump_end(w);
  grt_dump_u64(w, "debug_locations", info->debug_location_count);
}

static grt_status_t grt_dump_module(const grt_module_file_t* file,
                                    grt_const_byte_span_t contents,
                                    grt_allocator_t allocator) {
  const grt_module_file_info_t* info = grt_module_file_info(file);
  grt_dump_writer_t w = {stdout, flags.json, 0, {{false, true, false, 0}}};
  if (w.json) fputc('{', w.out);
  grt_dump_string(&w, "name", info->name);
  grt_dump_u64(&w, "version", info->version);
  char format[32];
  snprintf(format, sizeof(format), "%" PRIu32 ".%" PRIu32,
           info->format_version_major, info->format_version_minor);
  grt_dump_cstring(&w, "format_version", format);
  grt_dump_features(&w, info->features);
  // Signed modules only (so an unsigned module prints as before): the key the
  // signature block names, which grt-dump does not verify (grt-sign verify
  // does).
  const grt_module_signature_t* signature = grt_module_file_signature(file);
  if (signature) {
    grt_module_public_key_t signer;
    memcpy(signer.bytes, signature->public_key, sizeof(signer.bytes));
    char hex[GRT_MODULE_PUBLIC_KEY_HEX_SIZE];
    grt_module_public_key_format(&signer, hex);
    grt_dump_cstring(&w, "signed_by_unverified", hex);
  }
  grt_dump_sizes(&w, file, contents);
  grt_dump_imports_exports(&w, file);
  grt_dump_data(&w, file);
  grt_status_t status = grt_dump_functions(&w, file, allocator);
  if (w.json) fputs("\n}\n", w.out);
  return status;
}

// A name from the module that becomes part of a file name under --extract
// must stay a file name in DIR: no path separator, no "..", not empty and no
// NUL (which would cut the path short). The module file is untrusted input.
static grt_status_t grt_dump_check_file_name(const char* what,
                                             grt_string_view_t name) {
  const char* problem = NULL;
  if (name.size == 0) {
    problem = "it is empty";
  } else if (memchr(name.data, '\0', name.size)) {
    problem = "it contains a NUL byte";
  } else if (memchr(name.data, '/', name.size) ||
             memchr(name.data, '\\', name.size)) {
    problem = "it contains a path separator";
  } else {
    for (size_t i = 0; i + 1 < name.size && !problem; ++i) {
      if (name.data[i] == '.' && name.data[i + 1] == '.') {
        problem = "it contains '..'";
      }
    }
  }
  if (!problem) return grt_ok_status();
  char shown[256];
  size_t needed = grt_string_view_escape(name, shown, sizeof(shown));
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "--extract: refusing %s '%s'%s as part of a file "
                         "name: %s",
                         what, shown, needed >= sizeof(shown) ? "..." : "",
                         problem);
}

static grt_status_t grt_dump_extract(const grt_module_file_t* file,
                                     const char* dir) {
  const grt_module_file_info_t* module_info = grt_module_file_info(file);
  GRT_RETURN_IF_ERROR(grt_dump_check_file_name("module name",
                                               module_info->name));
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    return grt_make_status(GRT_STATUS_UNAVAILABLE,
                           "--extract: cannot create directory '%s': %s", dir,
                           strerror(errno));
  }
  const grt_module_file_info_t* info = grt_module_file_info(file);
  for (uint32_t i = 0; i < info->executable_count; ++i) {
    grt_module_executable_t executable = grt_module_file_executable(file, i);
    char path[4096];
    int n = snprintf(path, sizeof(path), "%s/%.*s_%" PRIu32 ".%s", dir,
                     GRT_SV_ARG(info->name), i,
                     grt_dump_extension_for(executable.format));
    if (n < 0 || (size_t)n >= sizeof(path)) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "--extract: path for executable %" PRIu32
                             " in '%s' is too long",
                             i, dir);
    }
    GRT_RETURN_IF_ERROR(grt_file_write_contents(path, executable.binary.data,
                                                executable.binary.size));
    fprintf(stderr, "grt-dump: wrote %s (%.*s, %zu bytes)\n", path,
            GRT_SV_ARG(executable.format), executable.binary.size);
  }
  return grt_ok_status();
}

static grt_status_t grt_dump(const char* path, grt_allocator_t allocator) {
  grt_file_contents_t contents;
  grt_status_t read_status = grt_file_map_read_only_bounded(
      path, GRT_MODULE_FILE_MAX_STREAM_SIZE, allocator, &contents);
  if (grt_status_code(read_status) == GRT_STATUS_OUT_OF_RANGE) {
    return grt_status_annotate(read_status,
                               "a module read from a pipe or device may hold "
                               "at most %zu bytes (256 MiB)",
                               GRT_MODULE_FILE_MAX_STREAM_SIZE);
  }
  GRT_RETURN_IF_ERROR(read_status);
  grt_const_byte_span_t span =
      grt_make_const_byte_span(contents.data, contents.size);
  grt_module_file_t* file = NULL;
  grt_status_t status = grt_status_annotate(
      grt_module_file_open_memory(span, allocator, &file), "reading '%s'",
      path);
  if (grt_status_is_ok(status)) status = grt_dump_module(file, span, allocator);
  if (grt_status_is_ok(status) && flags.extract_dir) {
    status = grt_dump_extract(file, flags.extract_dir);
  }
  if (file) grt_module_file_release(file);
  grt_file_contents_free(&contents);
  return status;
}

int main(int argc, char** argv) {
  grt_allocator_t allocator = grt_allocator_system();
  int exit_code =
      grt_flags_parse_for_main(&grt_dump_flags_spec, argc, argv, allocator);
  if (exit_code < 0 && flags.positionals.count != 1) {
    fprintf(stderr,
            "grt-dump: expected one module file, got %zu arguments\n"
            "(run 'grt-dump --help' for usage)\n",
            flags.positionals.count);
    exit_code = 2;
  }
  if (exit_code < 0) {
    grt_status_t status = grt_dump(flags.positionals.values[0], allocator);
    exit_code = 0;
    if (!grt_status_is_ok(status)) {
      fflush(stdout);
      fprintf(stderr, "grt-dump: ");
      grt_status_fprint(stderr, status);
      grt_status_free(status);
      exit_code = 1;
    }
  }
  grt_flags_release(&grt_dump_flags_spec, allocator);
  return exit_code;
}
