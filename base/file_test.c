#include "base/file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

// Each test gets a fresh directory; |dir| is its path.
typedef struct {
  char dir[256];
  char path[512];  // scratch for building paths inside |dir|
} fixture_t;

static const char* path_in(fixture_t* f, const char* name) {
  snprintf(f->path, sizeof(f->path), "%s/%s", f->dir, name);
  return f->path;
}

static int setup(void** state) {
  fixture_t* f = calloc(1, sizeof(*f));
  const char* tmp = getenv("TMPDIR");
  snprintf(f->dir, sizeof(f->dir), "%s/grt_file_test.XXXXXX",
           tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(f->dir)) return -1;
  *state = f;
  return 0;
}

static int count_entries(const char* dir) {
  DIR* d = opendir(dir);
  if (!d) return -1;
  int count = 0;
  struct dirent* entry;
  while ((entry = readdir(d)) != NULL) {
    if (strcmp(entry->d_name, ".") && strcmp(entry->d_name, "..")) ++count;
  }
  closedir(d);
  return count;
}

static int teardown(void** state) {
  fixture_t* f = *state;
  DIR* d = opendir(f->dir);
  struct dirent* entry;
  while (d && (entry = readdir(d)) != NULL) {
    if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, "..")) continue;
    path_in(f, entry->d_name);
    if (unlink(f->path) != 0) rmdir(f->path);
  }
  if (d) closedir(d);
  rmdir(f->dir);
  free(f);
  return 0;
}

static void expect_error(grt_status_t status, grt_status_code_t code,
                         const char* message) {
  assert_non_null(status);
  if (strcmp(grt_status_message(status), message) != 0) {
    fail_msg("got message \"%s\", expected \"%s\"", grt_status_message(status),
             message);
  }
  assert_int_equal(grt_status_code(status), code);
  grt_status_free(status);
}

static void write_file(const char* path, const char* text) {
  assert_null(grt_file_write_contents(path, text, strlen(text)));
}

static void test_write_then_read_and_map(void** state) {
  fixture_t* f = *state;
  const char* path = path_in(f, "a.bin");
  write_file(path, "hello, file");
  grt_allocator_t allocator = grt_allocator_system();

  grt_file_contents_t contents;
  assert_null(grt_file_read_contents(path, allocator, &contents));
  assert_false(contents.mapped);
  assert_int_equal(contents.size, 11);
  assert_memory_equal(contents.data, "hello, file", 11);
  assert_int_equal(((const char*)contents.data)[11], '\0');
  grt_file_contents_free(&contents);
  assert_null(contents.data);

  assert_null(grt_file_map_read_only(path, allocator, &contents));
  assert_true(contents.mapped);
  assert_int_equal(contents.size, 11);
  assert_memory_equal(contents.data, "hello, file", 11);
  grt_file_contents_free(&contents);
  grt_file_contents_free(&contents);  // freeing twice is harmless

  // Replacing with shorter contents leaves no tail of the old ones.
  write_file(path, "bye");
  assert_null(grt_file_read_contents(path, allocator, &contents));
  assert_int_equal(contents.size, 3);
  assert_memory_equal(contents.data, "bye", 3);
  grt_file_contents_free(&contents);
  assert_int_equal(count_entries(f->dir), 1);
}

static void test_new_file_gets_umask_permissions(void** state) {
  fixture_t* f = *state;
  mode_t old_mask = umask(022);
  const char* path = path_in(f, "perm.bin");
  write_file(path, "x");
  umask(old_mask);
  struct stat info;
  assert_int_equal(stat(path, &info), 0);
  assert_int_equal(info.st_mode & 0777, 0644);
}

static void test_empty_file_is_read_not_mapped(void** state) {
  fixture_t* f = *state;
  const char* path = path_in(f, "empty");
  write_file(path, "");
  grt_file_contents_t contents;
  assert_null(grt_file_map_read_only(path, grt_allocator_system(), &contents));
  assert_false(contents.mapped);
  assert_int_equal(contents.size, 0);
  assert_non_null(contents.data);
  grt_file_contents_free(&contents);
}

static void test_proc_file_reporting_size_zero_is_read(void** state) {
  (void)state;
  struct stat info;
  if (stat("/proc/self/status", &info) != 0) skip();
  assert_int_equal(info.st_size, 0);  // why it needs the fallback
  grt_file_contents_t contents;
  assert_null(grt_file_map_read_only("/proc/self/status",
                                     grt_allocator_system(), &contents));
  assert_false(contents.mapped);
  assert_true(contents.size > 0);
  assert_non_null(strstr(contents.data, "Name:"));
  grt_file_contents_free(&contents);
}

// Makes a FIFO in |f| and forks a writer that puts |size| patterned bytes
// into it, so the reader sees a stream with no size at all.
static const char* make_fifo_with_writer(fixture_t* f, size_t size,
                                         pid_t* out_pid) {
  const char* path = path_in(f, "fifo");
  assert_int_equal(mkfifo(path, 0600), 0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    int fd = open(path, O_WRONLY);
    for (size_t i = 0; i < size && fd >= 0; ++i) {
      unsigned char byte = (unsigned char)(i % 251);
      if (write(fd, &byte, 1) != 1) break;
    }
    _exit(0);
  }
  *out_pid = pid;
  return path;
}

static void test_fifo_is_read_not_mapped(void** state) {
  fixture_t* f = *state;
  // Several times the first buffer so the read loop has to grow.
  const size_t size = 3 * 4096 + 17;
  pid_t writer;
  const char* path = make_fifo_with_writer(f, size, &writer);
  grt_file_contents_t contents;
  assert_null(grt_file_map_read_only(path, grt_allocator_system(), &contents));
  assert_int_equal(waitpid(writer, NULL, 0), writer);
  assert_false(contents.mapped);
  assert_int_equal(contents.size, size);
  const unsigned char* bytes = contents.data;
  for (size_t i = 0; i < size; ++i) assert_int_equal(bytes[i], i % 251);
  grt_file_contents_free(&contents);
}

static void test_missing_file(void** state) {
  fixture_t* f = *state;
  const char* path = path_in(f, "x.vmfb");
  char expected[600];
  snprintf(expected, sizeof(expected),
           "cannot open '%s': No such file or directory", path);
  grt_file_contents_t contents;
  expect_error(grt_file_read_contents(path, grt_allocator_system(), &contents),
               GRT_STATUS_NOT_FOUND, expected);
  assert_null(contents.data);
  expect_error(grt_file_map_read_only(path, grt_allocator_system(), &contents),
               GRT_STATUS_NOT_FOUND, expected);
}

static void test_directory_cannot_be_read(void** state) {
  fixture_t* f = *state;
  char expected[600];
  snprintf(expected, sizeof(expected), "cannot read '%s': Is a directory",
           f->dir);
  grt_file_contents_t contents;
  expect_error(grt_file_read_contents(f->dir, grt_allocator_system(), &contents),
               GRT_STATUS_INVALID_ARGUMENT, expected);
  expect_error(grt_file_map_read_only(f->dir, grt_allocator_system(), &contents),
               GRT_STATUS_INVALID_ARGUMENT, expected);
}

// An allocator whose allocate succeeds |allocations_left| times and whose
// reallocate always fails.
typedef struct {
  int allocations_left;
} stingy_allocator_t;

static void* stingy_allocate(void* self, size_t size, size_t alignment) {
  stingy_allocator_t* stingy = self;
  if (stingy->allocations_left-- <= 0) return NULL;
  return grt_allocator_system().vtable->allocate(NULL, size, alignment);
}
static void* stingy_reallocate(void* self, void* ptr, size_t old_size,
                               size_t new_size, size_t alignment) {
  return NULL;
}
static void stingy_free(void* self, void* ptr) { free(ptr); }
static const grt_allocator_vtable_t stingy_vtable = {
    stingy_allocate, stingy_reallocate, stingy_free};

static void test_out_of_memory_names_the_file(void** state) {
  fixture_t* f = *state;
  const char* path = path_in(f, "data");
  write_file(path, "0123456789");
  stingy_allocator_t stingy = {0};
  grt_allocator_t allocator = {&stingy_vtable, &stingy};
  char expected[600];
  snprintf(expected, sizeof(expected),
           "out of memory allocating 11 bytes (alignment 16); reading '%s'",
           path);
  grt_file_contents_t contents;
  expect_error(grt_file_read_contents(path, allocator, &contents),
               GRT_STATUS_RESOURCE_EXHAUSTED, expected);
}

static void test_out_of_memory_while_growing(void** state) {
  fixture_t* f = *state;
  pid_t writer;
  const char* fifo = make_fifo_with_writer(f, 5000, &writer);
  char path[600];
  snprintf(path, sizeof(path), "%s", fifo);
  stingy_allocator_t stingy = {1};
  grt_allocator_t allocator = {&stingy_vtable, &stingy};
  char expected[700];
  snprintf(expected, sizeof(expected),
           "out of memory growing a block from 4096 to 8192 bytes; "
           "reading '%s'",
           path);
  grt_file_contents_t contents;
  expect_error(grt_file_map_read_only(path, allocator, &contents),
               GRT_STATUS_RESOURCE_EXHAUSTED, expected);
  // The writer may die of SIGPIPE now that nobody reads; either way reap it.
  assert_int_equal(waitpid(writer, NULL, 0), writer);
}

static void test_write_into_missing_directory(void** state) {
  fixture_t* f = *state;
  const char* path = path_in(f, "no/such/dir/out.vmfb");
  char expected[600];
  snprintf(expected, sizeof(expected),
           "cannot write '%s': No such file or directory", path);
  expect_error(grt_file_write_contents(path, "x", 1), GRT_STATUS_NOT_FOUND,
               expected);
}

static void test_write_over_directory_leaves_nothing_behind(void** state) {
  fixture_t* f = *state;
  char target[600];
  snprintf(target, sizeof(target), "%s", path_in(f, "subdir"));
  assert_int_equal(mkdir(target, 0700), 0);
  char expected[700];
  snprintf(expected, sizeof(expected),
           "cannot write '%s': it is a directory, not a file",
           target);
  expect_error(grt_file_write_contents(target, "x", 1),
               GRT_STATUS_INVALID_ARGUMENT, expected);
  grt_file_chunk_t chunk = {"x", 1};
  expect_error(grt_file_write_chunks(target, &chunk, 1, GRT_FILE_WRITE_APPEND),
               GRT_STATUS_INVALID_ARGUMENT, expected);
  // A link to a directory is refused the same way.
  char link[600];
  snprintf(link, sizeof(link), "%s", path_in(f, "dirlink"));
  assert_int_equal(symlink(target, link), 0);
  snprintf(expected, sizeof(expected),
           "cannot write '%s': it is a directory, not a file", link);
  expect_error(grt_file_write_contents(link, "x", 1),
               GRT_STATUS_INVALID_ARGUMENT, expected);
  assert_int_equal(count_entries(f->dir), 2);  // the directory and the link
}

static void test_failed_write_keeps_the_old_file(void** state) {
  fixture_t* f = *state;
  char path[600];
  snprintf(path, sizeof(path), "%s", path_in(f, "out.vmfb"));
  write_file(path, "original");

  // Cap file sizes so the write fails part-way with EFBIG (ignoring the
  // SIGXFSZ that would otherwise kill the test).
  struct rlimit old_limit;
  assert_int_equal(getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  struct rlimit limit = old_limit;
  limit.rlim_cur = 1024;
  void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &limit), 0);
  static char big[8192];
  memset(big, 'z', sizeof(big));
  grt_status_t status = grt_file_write_contents(path, big, sizeof(big));
  setrlimit(RLIMIT_FSIZE, &old_limit);
  signal(SIGXFSZ, old_handler);

  char expected[700];
  snprintf(expected, sizeof(expected), "cannot write '%s': File too large",
           path);
  expect_error(status, GRT_STATUS_RESOURCE_EXHAUSTED, expected);
  grt_file_contents_t contents;
  assert_null(grt_file_read_contents(path, grt_allocator_system(), &contents));
  assert_string_equal(contents.data, "original");
  grt_file_contents_free(&contents);
  assert_int_equal(count_entries(f->dir), 1);
}

static void test_path_too_long(void** state) {
  (void)state;
  static char path[8192];
  memset(path, 'p', sizeof(path) - 1);
  char expected[256];
  snprintf(expected, sizeof(expected),
           "cannot write '%.64s...': the path has 8191 bytes, at most %d are "
           "allowed",
           path, PATH_MAX - 1);
  expect_error(grt_file_write_contents(path, "x", 1),
               GRT_STATUS_INVALID_ARGUMENT, expected);
  memcpy(expected, "cannot open ", 12);
  memmove(expected + 12, expected + 13, strlen(expected + 13) + 1);
  grt_file_contents_t contents;
  expect_error(grt_file_map_read_only(path, grt_allocator_system(), &contents),
               GRT_STATUS_INVALID_ARGUMENT, expected);
}

static void test_path_part_too_long(void** state) {
  (void)state;
  char path[400];
  memset(path, 'n', sizeof(path) - 1);
  path[0] = '/';
  path[4] = '/';
  path[sizeof(path) - 1] = '\0';
  char expected[256];
  snprintf(expected, sizeof(expected),
           "cannot open '%.64s...': its part '%.32s...' has 394 bytes, at "
           "most %d are allowed in one name",
           path, path + 5, NAME_MAX);
  grt_file_contents_t contents;
  expect_error(grt_file_read_contents(path, grt_allocator_system(), &contents),
               GRT_STATUS_INVALID_ARGUMENT, expected);
}

static void test_temporary_suffix_too_long(void** state) {
  (void)state;
  // Short enough itself, too long with the temporary's suffix.
  static char path[PATH_MAX];
  memset(path, 'p', PATH_MAX - 4);
  for (size_t i = 200; i < PATH_MAX - 4; i += 201) path[i] = '/';
  grt_status_t status = grt_file_write_contents(path, "x", 1);
  assert_int_equal(grt_status_code(status), GRT_STATUS_INVALID_ARGUMENT);
  assert_non_null(strstr(grt_status_message(status),
                         "': the path with a temporary suffix needs "));
  assert_non_null(strstr(grt_status_message(status), " bytes, at most "));
  grt_status_free(status);
}

static void expect_contents(const char* path, const char* text) {
  grt_file_contents_t contents;
  assert_null(grt_file_read_contents(path, grt_allocator_system(), &contents));
  assert_string_equal(contents.data, text);
  grt_file_contents_free(&contents);
}

static void test_write_through_symlink_keeps_the_link(void** state) {
  fixture_t* f = *state;
  char target[600], link[600];
  snprintf(target, sizeof(target), "%s", path_in(f, "target.vmfb"));
  snprintf(link, sizeof(link), "%s", path_in(f, "link.vmfb"));
  write_file(target, "old contents");
  assert_int_equal(chmod(target, 0640), 0);
  assert_int_equal(symlink("target.vmfb", link), 0);
  write_file(link, "new");
  struct stat info;
  assert_int_equal(lstat(link, &info), 0);
  assert_true(S_ISLNK(info.st_mode));
  expect_contents(target, "new");
  // The replaced target keeps its permissions, and no temporary is left.
  assert_int_equal(stat(target, &info), 0);
  assert_int_equal(info.st_mode & 0777, 0640);
  assert_int_equal(count_entries(f->dir), 2);
}

static void test_write_through_dangling_symlink_creates_target(void** state) {
  fixture_t* f = *state;
  char target[600], link[600];
  snprintf(target, sizeof(target), "%s", path_in(f, "later.bin"));
  snprintf(link, sizeof(link), "%s", path_in(f, "link.bin"));
  assert_int_equal(symlink("later.bin", link), 0);
  write_file(link, "made");
  struct stat info;
  assert_int_equal(lstat(link, &info), 0);
  assert_true(S_ISLNK(info.st_mode));
  expect_contents(target, "made");
}

// A FIFO (standing in for a device such as /dev/null) is written in place:
// the reader gets the bytes and the FIFO is still a FIFO afterwards.
static void test_write_to_fifo_in_place(void** state) {
  fixture_t* f = *state;
  char fifo[600], link[600];
  snprintf(fifo, sizeof(fifo), "%s", path_in(f, "out.fifo"));
  snprintf(link, sizeof(link), "%s", path_in(f, "fifo.link"));
  assert_int_equal(mkfifo(fifo, 0600), 0);
  assert_int_equal(symlink("out.fifo", link), 0);
  int reader = open(fifo, O_RDONLY | O_NONBLOCK);
  assert_true(reader >= 0);
  grt_file_chunk_t chunks[2] = {{"head-", 5}, {"body", 4}};
  assert_null(grt_file_write_chunks(fifo, chunks, 2, GRT_FILE_WRITE_REPLACE));
  assert_null(grt_file_write_contents(link, "+link", 5));
  char got[32] = {0};
  assert_int_equal(read(reader, got, sizeof(got) - 1), 14);
  assert_string_equal(got, "head-body+link");
  close(reader);
  struct stat info;
  assert_int_equal(lstat(fifo, &info), 0);
  assert_true(S_ISFIFO(info.st_mode));
  assert_int_equal(lstat(link, &info), 0);
  assert_true(S_ISLNK(info.st_mode));
  assert_int_equal(count_entries(f->dir), 2);
}

static void test_append_chunks(void** state) {
  fixture_t* f = *state;
  char path[600];
  snprintf(path, sizeof(path), "%s", path_in(f, "log.bin"));
  grt_file_chunk_t chunks[2] = {{"ab", 2}, {"cd", 2}};
  assert_null(grt_file_write_chunks(path, chunks, 2, GRT_FILE_WRITE_APPEND));
  assert_null(grt_file_write_chunks(path, chunks, 1, GRT_FILE_WRITE_APPEND));
  expect_contents(path, "abcdab");
  assert_null(grt_file_write_chunks(path, chunks + 1, 1,
                                    GRT_FILE_WRITE_REPLACE));
  expect_contents(path, "cd");
}

static void test_dev_null_reads_empty(void** state) {
  (void)state;
  struct stat info;
  if (stat("/dev/null", &info) != 0 || !S_ISCHR(info.st_mode)) skip();
  grt_file_contents_t contents;
  assert_null(grt_file_map_read_only_bounded("/dev/null", 16,
                                             grt_allocator_system(),
                                             &contents));
  assert_int_equal(contents.size, 0);
  grt_file_contents_free(&contents);
}

static void test_endless_stream_is_bounded(void** state) {
  (void)state;
  struct stat info;
  if (stat("/dev/zero", &info) != 0 || !S_ISCHR(info.st_mode)) skip();
  const char* expected =
      "cannot read '/dev/zero': it is not a regular file and holds more than "
      "5000 bytes, the most read from one";
  grt_file_contents_t contents;
  expect_error(grt_file_map_read_only_bounded("/dev/zero", 5000,
                                              grt_allocator_system(),
                                              &contents),
               GRT_STATUS_OUT_OF_RANGE, expected);
  assert_null(contents.data);
  expect_error(grt_file_read_contents_bounded("/dev/zero", 5000,
                                              grt_allocator_system(),
                                              &contents),
               GRT_STATUS_OUT_OF_RANGE, expected);
}

static void test_stream_within_bound_and_regular_beyond_it(void** state) {
  fixture_t* f = *state;
  pid_t writer;
  const char* fifo = make_fifo_with_writer(f, 5000, &writer);
  grt_file_contents_t contents;
  assert_null(grt_file_read_contents_bounded(fifo, 5000,
                                             grt_allocator_system(),
                                             &contents));
  assert_int_equal(waitpid(writer, NULL, 0), writer);
  assert_int_equal(contents.size, 5000);
  grt_file_contents_free(&contents);
  // The bound is for streams: a regular file reports its size.
  char path[600];
  snprintf(path, sizeof(path), "%s", path_in(f, "big"));
  write_file(path, "more than four bytes");
  assert_null(grt_file_map_read_only_bounded(path, 4, grt_allocator_system(),
                                             &contents));
  assert_int_equal(contents.size, 20);
  grt_file_contents_free(&contents);
}

static void test_read_exactly(void** state) {
  fixture_t* f = *state;
  char path[600];
  snprintf(path, sizeof(path), "%s", path_in(f, "six"));
  write_file(path, "abcdef");
  int fd = open(path, O_RDONLY);
  assert_true(fd >= 0);
  char buffer[8] = {0};
  size_t got = 0;
  assert_null(grt_file_read_exactly(fd, path, buffer, 4, &got));
  assert_int_equal(got, 4);
  assert_memory_equal(buffer, "abcd", 4);
  char expected[700];
  snprintf(expected, sizeof(expected),
           "cannot read '%s': wanted 4 bytes, it ended after 2", path);
  expect_error(grt_file_read_exactly(fd, path, buffer, 4, &got),
               GRT_STATUS_OUT_OF_RANGE, expected);
  assert_int_equal(got, 2);
  close(fd);
}

static void test_check_writable(void** state) {
  fixture_t* f = *state;
  char path[600];
  // A new file in an existing directory, an existing file, a device: OK,
  // and nothing is created.
  snprintf(path, sizeof(path), "%s", path_in(f, "new.json"));
  assert_null(grt_file_check_writable(path));
  assert_int_equal(count_entries(f->dir), 0);
  write_file(path, "old");
  assert_null(grt_file_check_writable(path));
  assert_null(grt_file_check_writable("/dev/null"));
  char expected[1400];
  // A directory.
  snprintf(expected, sizeof(expected),
           "cannot write '%s': it is a directory, not a file", f->dir);
  expect_error(grt_file_check_writable(f->dir), GRT_STATUS_INVALID_ARGUMENT,
               expected);
  // A missing directory, and a file where a directory should be.
  char missing[600];
  snprintf(missing, sizeof(missing), "%s", path_in(f, "no/such/t.json"));
  snprintf(expected, sizeof(expected),
           "cannot write '%s': its directory '%s/no/such' does not exist",
           missing, f->dir);
  expect_error(grt_file_check_writable(missing), GRT_STATUS_NOT_FOUND,
               expected);
  char under_file[700];
  snprintf(under_file, sizeof(under_file), "%s/t.json", path);
  snprintf(expected, sizeof(expected),
           "cannot write '%s': '%s' is not a directory", under_file, path);
  expect_error(grt_file_check_writable(under_file), GRT_STATUS_NOT_FOUND,
               expected);
  expect_error(grt_file_check_writable(""), GRT_STATUS_INVALID_ARGUMENT,
               "cannot write '': the path is empty");
  // A directory without write permission (root writes anywhere: skipped).
  if (geteuid() != 0) {
    char readonly[600];
    snprintf(readonly, sizeof(readonly), "%s", path_in(f, "ro"));
    assert_int_equal(mkdir(readonly, 0500), 0);
    char inside[700];
    snprintf(inside, sizeof(inside), "%s/t.json", readonly);
    snprintf(expected, sizeof(expected),
             "cannot write '%s': its directory '%s' is not writable: "
             "Permission denied",
             inside, readonly);
    expect_error(grt_file_check_writable(inside),
                 GRT_STATUS_PERMISSION_DENIED, expected);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
#define FILE_TEST(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
      FILE_TEST(test_write_then_read_and_map),
      FILE_TEST(test_new_file_gets_umask_permissions),
      FILE_TEST(test_empty_file_is_read_not_mapped),
      FILE_TEST(test_proc_file_reporting_size_zero_is_read),
      FILE_TEST(test_fifo_is_read_not_mapped),
      FILE_TEST(test_missing_file),
      FILE_TEST(test_directory_cannot_be_read),
      FILE_TEST(test_out_of_memory_names_the_file),
      FILE_TEST(test_out_of_memory_while_growing),
      FILE_TEST(test_write_into_missing_directory),
      FILE_TEST(test_write_over_directory_leaves_nothing_behind),
      FILE_TEST(test_failed_write_keeps_the_old_file),
      FILE_TEST(test_path_too_long),
      FILE_TEST(test_temporary_suffix_too_long),
      FILE_TEST(test_path_part_too_long),
      FILE_TEST(test_write_through_symlink_keeps_the_link),
      FILE_TEST(test_write_through_dangling_symlink_creates_target),
      FILE_TEST(test_write_to_fifo_in_place),
      FILE_TEST(test_append_chunks),
      FILE_TEST(test_dev_null_reads_empty),
      FILE_TEST(test_endless_stream_is_bounded),
      FILE_TEST(test_stream_within_bound_and_regular_beyond_it),
      FILE_TEST(test_read_exactly),
      FILE_TEST(test_check_writable),
#undef FILE_TEST
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
