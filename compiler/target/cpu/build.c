// Building the emitted C into a shared object with the system C compiler
// (a standalone kernel object: -nostdlib, see the compile below):
// a private temporary directory, the compiler run directly (no shell, so
// flags and paths are never reinterpreted), its output captured for the
// error message, the .so read back and every temporary removed.
#define _GNU_SOURCE  // mkdtemp
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compiler/target/cpu/cpu_target.h"

extern char** environ;

#define GRTC_CPU_MAX_ARGS 96
#define GRTC_CPU_MAX_OUTPUT 4096

// An argv under construction; |storage| keeps the split words.
typedef struct grtc_cpu_argv_t {
  char* args[GRTC_CPU_MAX_ARGS + 1];
  uint32_t count;
  char storage[4096];
  size_t storage_used;
  bool overflow;
} grtc_cpu_argv_t;

static void grtc_cpu_argv_push(grtc_cpu_argv_t* argv, const char* word,
                               size_t length) {
  if (argv->count >= GRTC_CPU_MAX_ARGS ||
      argv->storage_used + length + 1 > sizeof(argv->storage)) {
    argv->overflow = true;
    return;
  }
  char* copy = argv->storage + argv->storage_used;
  memcpy(copy, word, length);
  copy[length] = 0;
  argv->storage_used += length + 1;
  argv->args[argv->count++] = copy;
  argv->args[argv->count] = NULL;
}

static void grtc_cpu_argv_add(grtc_cpu_argv_t* argv, const char* word) {
  grtc_cpu_argv_push(argv, word, strlen(word));
}

// Adds each space-separated word of |text|.
static void grtc_cpu_argv_split(grtc_cpu_argv_t* argv, const char* text) {
  while (text && *text) {
    while (*text == ' ' || *text == '\t') ++text;
    const char* end = text;
    while (*end && *end != ' ' && *end != '\t') ++end;
    if (end > text) grtc_cpu_argv_push(argv, text, (size_t)(end - text));
    text = end;
  }
}

static void grtc_cpu_argv_format(const grtc_cpu_argv_t* argv, char* buffer,
                                 size_t capacity) {
  size_t used = 0;
  buffer[0] = 0;
  for (uint32_t i = 0; i < argv->count && used + 1 < capacity; ++i) {
    int n = snprintf(buffer + used, capacity - used, "%s%s", i ? " " : "",
                     argv->args[i]);
    if (n < 0) break;
    used += (size_t)n;
  }
}

// Runs |argv| with stdout and stderr into |log_path|; *out_ok is whether it
// exited with status 0.
static grt_status_t grtc_cpu_run(const grtc_cpu_argv_t* argv,
                                 const char* log_path, bool* out_ok) {
  *out_ok = false;
  posix_spawn_file_actions_t actions;
  if (posix_spawn_file_actions_init(&actions) != 0) {
    return grt_make_status(GRT_STATUS_INTERNAL, "posix_spawn setup failed");
  }
  posix_spawn_file_actions_addopen(&actions, 1, log_path,
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  pid_t pid = 0;
  int error = posix_spawnp(&pid, argv->args[0], &actions, NULL, argv->args,
                           environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) {
    return grt_make_status(GRT_STATUS_NOT_FOUND,
                           "cannot run the C compiler '%s': %s", argv->args[0],
                           strerror(error));
  }
  int wait_status = 0;
  while (waitpid(pid, &wait_status, 0) < 0) {
    if (errno != EINTR) {
      return grt_make_status(GRT_STATUS_INTERNAL, "waitpid failed: %s",
                             strerror(errno));
    }
  }
  *out_ok = WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0;
  return grt_ok_status();
}

// Reads up to |capacity|-1 bytes of |path| as text.
static void grtc_cpu_read_text(const char* path, char* buffer,
                               size_t capacity) {
  buffer[0] = 0;
  FILE* file = fopen(path, "rb");
  if (!file) return;
  size_t n = fread(buffer, 1, capacity - 1, file);
  buffer[n] = 0;
  fclose(file);
}

static grt_status_t grtc_cpu_write_file(const char* path, const char* data,
                                        size_t size) {
  FILE* file = fopen(path, "wb");
  if (!file) {
    return grt_make_status(GRT_STATUS_UNAVAILABLE, "cannot write %s: %s", path,
                           strerror(errno));
  }
  bool ok = fwrite(data, 1, size, file) == size;
  ok = fclose(file) == 0 && ok;
  if (!ok) {
    return grt_make_status(GRT_STATUS_UNAVAILABLE, "cannot write %s", path);
  }
  return grt_ok_status();
}

static grt_status_t grtc_cpu_read_binary(const char* path,
                                         grt_allocator_t allocator,
                                         uint8_t** out_data,
                                         size_t* out_size) {
  FILE* file = fopen(path, "rb");
  if (!file) {
    return grt_make_status(GRT_STATUS_UNAVAILABLE, "cannot read %s: %s", path,
                           strerror(errno));
  }
  struct stat info;
  grt_status_t status = grt_ok_status();
  if (fstat(fileno(file), &info) != 0 || info.st_size <= 0) {
    status = grt_make_status(GRT_STATUS_UNAVAILABLE, "cannot size %s", path);
  } else {
    size_t size = (size_t)info.st_size;
    void* data = NULL;
    status = grt_allocator_malloc(allocator, size, &data);
    if (grt_status_is_ok(status)) {
      if (fread(data, 1, size, file) != size) {
        grt_allocator_free(allocator, data);
        status = grt_make_status(GRT_STATUS_UNAVAILABLE, "short read of %s",
                                 path);
      } else {
        *out_data = data;
        *out_size = size;
      }
    }
  }
  fclose(file);
  return status;
}

// The executable format for the compiler's target triple, spelled as
// hal/local/executable.c spells the host's ("cpu-" GRT_HOST_ARCH).
static void grtc_cpu_format_from_triple(const char* triple, char out[32]) {
  static const struct {
    const char* prefix;
    const char* arch;
  } arches[] = {
      {"x86_64", "x86_64"}, {"amd64", "x86_64"},   {"aarch64", "aarch64"},
      {"arm64", "aarch64"}, {"riscv64", "riscv64"}, {"riscv32", "riscv32"},
      {"i386", "x86"},      {"i486", "x86"},       {"i586", "x86"},
      {"i686", "x86"},      {"arm", "arm"},
  };
  for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); ++i) {
    if (strncmp(triple, arches[i].prefix, strlen(arches[i].prefix)) == 0) {
      snprintf(out, 32, "cpu-%s", arches[i].arch);
      return;
    }
  }
  size_t length = strcspn(triple, "-\n");
  snprintf(out, 32, "cpu-%.*s", (int)(length > 20 ? 20 : length), triple);
}

// -march/-m flags for |features| on the compiler's |format|.
static grt_status_t grtc_cpu_feature_flags(const char* features,
                                           const char* format,
                                           grtc_cpu_argv_t* argv) {
  if (!features || strcmp(features, "host") == 0) {
    grtc_cpu_argv_add(argv, "-march=native");
    return grt_ok_status();
  }
  if (strcmp(features, "generic") == 0) return grt_ok_status();
  bool is_arm = strcmp(format, "cpu-aarch64") == 0;
  char arm_march[256] = "-march=armv8-a";
  const char* p = features;
  while (*p) {
    size_t length = strcspn(p, ",");
    if (length == 0 || length > 40 ||
        strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_.-") < length) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "bad CPU feature list '%s': expected 'host', "
                             "'generic' or names like 'avx2,fma'",
                             features);
    }
    if (is_arm) {
      if (!(length == 4 && strncmp(p, "neon", 4) == 0)) {  // baseline
        size_t used = strlen(arm_march);
        snprintf(arm_march + used, sizeof(arm_march) - used, "+%.*s",
                 (int)length, p);
      }
    } else {
      char flag[48];
      snprintf(flag, sizeof(flag), "-m%.*s", (int)length, p);
      grtc_cpu_argv_add(argv, flag);
    }
    p += length;
    if (*p == ',') ++p;
  }
  if (is_arm) grtc_cpu_argv_add(argv, arm_march);
  return grt_ok_status();
}

typedef struct grtc_cpu_temp_t {
  char dir[512];
  char source[600];
  char library[600];
  char log[600];
} grtc_cpu_temp_t;

static void grtc_cpu_temp_remove(grtc_cpu_temp_t* temp) {
  if (!temp->dir[0]) return;
  unlink(temp->source);
  unlink(temp->library);
  unlink(temp->log);
  rmdir(temp->dir);
}

static grt_status_t grtc_cpu_build_in(const grtc_kernel_set_t* kernels,
                                      const grtc_cpu_options_t* options,
                                      grtc_cpu_temp_t* temp,
                                      grt_allocator_t allocator,
                                      uint8_t** out_binary,
                                      size_t* out_binary_size,
                                      char out_format[32]) {
  const char* cc = options->cc;
  if (!cc || !*cc) cc = getenv("CC");
  if (!cc || !*cc) cc = "cc";

  // Which machine the compiler targets decides the format and the flags.
  grtc_cpu_argv_t* argv = calloc(1, sizeof(*argv));
  if (!argv) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  grt_status_t status = grt_ok_status();
  char output[GRTC_CPU_MAX_OUTPUT];
  char command[2048];
  bool ok = false;
  grtc_cpu_argv_split(argv, cc);
  grtc_cpu_argv_add(argv, "-dumpmachine");
  grtc_cpu_argv_format(argv, command, sizeof(command));
  if (argv->count < 2) {
    status = grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "empty C compiler command");
  }
  if (grt_status_is_ok(status)) status = grtc_cpu_run(argv, temp->log, &ok);
  if (grt_status_is_ok(status)) {
    grtc_cpu_read_text(temp->log, output, sizeof(output));
    if (!ok || !output[0]) {
      status = grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                               "C compiler failed: %s\n%s", command, output);
    }
  }
  if (grt_status_is_ok(status)) {
    grtc_cpu_format_from_triple(output, out_format);
  }
  // GCC's -O2 vectorizes only loops whose trip count the vector length
  // divides (its "very cheap" cost model), so a loop along a 14-pixel row
  // ran 2 lanes wide; its dynamic model adds remainder iterations instead.
  // Clang has no such option (and needs none): asked only if accepted.
  bool dynamic_cost_model = false;
  if (grt_status_is_ok(status) && options->optimization_level > 0) {
    memset(argv, 0, sizeof(*argv));
    grtc_cpu_argv_split(argv, cc);
    grtc_cpu_argv_add(argv, "-fvect-cost-model=dynamic");
    grtc_cpu_argv_add(argv, "-E");
    grtc_cpu_argv_add(argv, "-x");
    grtc_cpu_argv_add(argv, "c");
    grtc_cpu_argv_add(argv, "/dev/null");
    status = grtc_cpu_run(argv, temp->log, &dynamic_cost_model);
  }

  // The source.
  grt_string_builder_t source;
  grt_string_builder_init(allocator, &source);
  if (grt_status_is_ok(status)) status = grtc_cpu_emit_c(kernels, NULL, &source);
  if (grt_status_is_ok(status)) {
    status = grtc_cpu_write_file(temp->source, grt_string_builder_cstring(&source),
                                 source.size);
  }
  if (grt_status_is_ok(status) && options->keep_source_path) {
    status = grtc_cpu_write_file(options->keep_source_path,
                                 grt_string_builder_cstring(&source),
                                 source.size);
  }
  grt_string_builder_deinit(&source);

  // The compile.
  if (grt_status_is_ok(status)) {
    memset(argv, 0, sizeof(*argv));
    grtc_cpu_argv_split(argv, cc);
    static const char* const opt_flags[] = {"-O0", "-O2", "-O2", "-O3"};
    int level = options->optimization_level;
    grtc_cpu_argv_add(argv, "-shared");
    grtc_cpu_argv_add(argv, "-fPIC");
    // A kernel object stands alone (hal/local/elf_loader.h): no C library,
    // start files or constructors (-nostdlib), no stack canary or fortified
    // calls that would import from the C library; what it calls of libm
    // and memcpy/memset stays undefined and grt's loader binds it to the
    // runtime's own (its import table); compiler helpers come from libgcc,
    // linked in.
    grtc_cpu_argv_add(argv, "-nostdlib");
    grtc_cpu_argv_add(argv, "-fno-stack-protector");
    grtc_cpu_argv_add(argv, "-U_FORTIFY_SOURCE");
    grtc_cpu_argv_add(argv, opt_flags[level < 0 ? 0 : level > 3 ? 3 : level]);
    grtc_cpu_argv_add(argv, "-fvisibility=hidden");
    grtc_cpu_argv_add(argv, "-fno-math-errno");
    // Kernels never read the FP exception flags, so the compiler may
    // evaluate both arms of a select (if-conversion, hence vectorization
    // of NaN-aware max/min); results are unchanged, unlike -ffast-math.
    grtc_cpu_argv_add(argv, "-fno-trapping-math");
    if (dynamic_cost_model) {
      grtc_cpu_argv_add(argv, "-fvect-cost-model=dynamic");
    }
    status = grtc_cpu_feature_flags(options->features, out_format, argv);
  }
  if (grt_status_is_ok(status)) {
    grtc_cpu_argv_split(argv, options->flags);
    grtc_cpu_argv_add(argv, "-o");
    grtc_cpu_argv_add(argv, temp->library);
    grtc_cpu_argv_add(argv, temp->source);
    grtc_cpu_argv_add(argv, "-lgcc");
    if (argv->overflow) {
      status = grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "C compiler command too long (at most %d "
                               "arguments)",
                               GRTC_CPU_MAX_ARGS);
    }
  }
  if (grt_status_is_ok(status)) {
    grtc_cpu_argv_format(argv, command, sizeof(command));
    status = grtc_cpu_run(argv, temp->log, &ok);
  }
  if (grt_status_is_ok(status) && !ok) {
    grtc_cpu_read_text(temp->log, output, sizeof(output));
    status = grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                             "C compiler failed building the CPU kernels: "
                             "%s\n%s",
                             command, output);
  }
  free(argv);
  if (grt_status_is_ok(status)) {
    status = grtc_cpu_read_binary(temp->library, allocator, out_binary,
                                  out_binary_size);
  }
  return status;
}

grt_status_t grtc_cpu_build(const grtc_kernel_set_t* kernels,
                            const grtc_cpu_options_t* options,
                            grt_allocator_t allocator, uint8_t** out_binary,
                            size_t* out_binary_size, char out_format[32]) {
  *out_binary = NULL;
  *out_binary_size = 0;
  out_format[0] = 0;
  grtc_cpu_options_t defaults = {0};
  if (!options) {
    defaults.optimization_level = 3;
    options = &defaults;
  }
  const char* root = options->temp_dir;
  if (!root || !*root) root = getenv("TMPDIR");
  if (!root || !*root) root = "/tmp";
  grtc_cpu_temp_t temp;
  memset(&temp, 0, sizeof(temp));
  snprintf(temp.dir, sizeof(temp.dir), "%s/grtc-cpu-XXXXXX", root);
  if (!mkdtemp(temp.dir)) {
    grt_status_t status = grt_make_status(
        GRT_STATUS_UNAVAILABLE, "cannot create a temporary directory in %s: %s",
        root, strerror(errno));
    temp.dir[0] = 0;
    return status;
  }
  snprintf(temp.source, sizeof(temp.source), "%s/kernels.c", temp.dir);
  snprintf(temp.library, sizeof(temp.library), "%s/kernels.so", temp.dir);
  snprintf(temp.log, sizeof(temp.log), "%s/cc.log", temp.dir);
  grt_status_t status =
      grtc_cpu_build_in(kernels, options, &temp, allocator, out_binary,
                        out_binary_size, out_format);
  grtc_cpu_temp_remove(&temp);
  if (!grt_status_is_ok(status)) out_format[0] = 0;
  return status;
}
