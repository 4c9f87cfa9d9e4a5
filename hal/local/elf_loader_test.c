// grt's ELF loader: real kernel objects built the way grt-compile builds
// them (hal/local/CMakeLists.txt) load, bind their imports and keep their
// pages W^X; and each way an object can be wrong, made by editing one field
// of a real object, is refused with a message naming it.
#define _GNU_SOURCE 1  // <elf.h>'s R_* constants need nothing else

#include "hal/local/elf_loader.h"

#include <elf.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "base/status_matchers.h"

#include "base/file.h"
#include "hal/local/kernel_abi.h"
#include "hal/local/testdata/test_kernels.h"

#define LABEL "executable test"

#if defined(__x86_64__)
#define TEST_R_UNSUPPORTED R_X86_64_PC32
#define TEST_R_UNSUPPORTED_NAME "R_X86_64_PC32"
#define TEST_R_RELATIVE R_X86_64_RELATIVE
#define TEST_R_ABS64 R_X86_64_64
#elif defined(__aarch64__)
#define TEST_R_UNSUPPORTED R_AARCH64_ABS32
#define TEST_R_UNSUPPORTED_NAME "R_AARCH64_ABS32"
#define TEST_R_RELATIVE R_AARCH64_RELATIVE
#define TEST_R_ABS64 R_AARCH64_ABS64
#endif

typedef struct object_t {
  uint8_t* data;
  size_t size;
} object_t;

static object_t object_read(const char* path) {
  grt_file_contents_t contents;
  GRT_EXPECT_OK(grt_file_read_contents(path, grt_allocator_system(), &contents));
  object_t object;
  object.size = contents.size;
  object.data = malloc(contents.size);
  assert_non_null(object.data);
  memcpy(object.data, contents.data, contents.size);
  grt_file_contents_free(&contents);
  return object;
}

static void object_free(object_t* object) {
  free(object->data);
  object->data = NULL;
}

static Elf64_Ehdr* header_of(object_t* object) {
  return (Elf64_Ehdr*)object->data;
}

static Elf64_Phdr* phdr_at(object_t* object, size_t index) {
  Elf64_Ehdr* header = header_of(object);
  assert_true(index < header->e_phnum);
  return (Elf64_Phdr*)(object->data + header->e_phoff +
                       index * sizeof(Elf64_Phdr));
}

// The index of the |nth| (0-based) program header of |type|.
static size_t phdr_index(object_t* object, uint32_t type, int nth) {
  for (size_t i = 0; i < header_of(object)->e_phnum; ++i) {
    if (phdr_at(object, i)->p_type == type && nth-- == 0) return i;
  }
  fail_msg("no program header of type %u", type);
  return 0;
}

// The bytes at file address |vaddr| in the file.
static uint8_t* at_address(object_t* object, uint64_t vaddr) {
  for (size_t i = 0; i < header_of(object)->e_phnum; ++i) {
    Elf64_Phdr* phdr = phdr_at(object, i);
    if (phdr->p_type == PT_LOAD && vaddr >= phdr->p_vaddr &&
        vaddr < phdr->p_vaddr + phdr->p_filesz) {
      return object->data + phdr->p_offset + (vaddr - phdr->p_vaddr);
    }
  }
  fail_msg("address 0x%llx is in no segment", (unsigned long long)vaddr);
  return NULL;
}

static Elf64_Dyn* dynamic_entry(object_t* object, int64_t tag) {
  Elf64_Phdr* dynamic = phdr_at(object, phdr_index(object, PT_DYNAMIC, 0));
  Elf64_Dyn* entries = (Elf64_Dyn*)(object->data + dynamic->p_offset);
  for (size_t i = 0; entries[i].d_tag != DT_NULL; ++i) {
    if (entries[i].d_tag == tag) return &entries[i];
  }
  return NULL;
}

// The first relocation in DT_RELA of |type|.
static Elf64_Rela* relocation_of_type(object_t* object, uint32_t type) {
  Elf64_Dyn* rela = dynamic_entry(object, DT_RELA);
  Elf64_Dyn* size = dynamic_entry(object, DT_RELASZ);
  assert_non_null(rela);
  assert_non_null(size);
  Elf64_Rela* table = (Elf64_Rela*)at_address(object, rela->d_un.d_ptr);
  for (size_t i = 0; i < size->d_un.d_val / sizeof(Elf64_Rela); ++i) {
    if (ELF64_R_TYPE(table[i].r_info) == type) return &table[i];
  }
  fail_msg("no relocation of type %u", type);
  return NULL;
}

static grt_status_t load(const object_t* object,
                         grt_hal_local_elf_image_t** out_image) {
  return grt_hal_local_elf_load(object->data, object->size, LABEL,
                                grt_allocator_system(), out_image);
}

static void load_expecting(const object_t* object, grt_status_code_t code,
                           const char* fragment) {
  grt_hal_local_elf_image_t* image = NULL;
  grt_expect_error(load(object, &image), code, fragment);
  assert_null(image);
}

static void* lookup(grt_hal_local_elf_image_t* image, const char* name) {
  void* address = NULL;
  GRT_EXPECT_OK(grt_hal_local_elf_lookup(image, name, LABEL, &address));
  return address;
}

// No mapping of the image is writable and executable at once, and its code
// is mapped r-x.
static void expect_no_writable_code(const grt_hal_local_elf_image_t* image,
                                    uintptr_t code) {
  FILE* maps = fopen("/proc/self/maps", "r");
  if (!maps) return;  // no /proc: nothing to look at
  char line[512];
  bool found_code = false;
  while (fgets(line, sizeof(line), maps)) {
    unsigned long long start = 0, end = 0;
    char perms[8] = "";
    if (sscanf(line, "%llx-%llx %7s", &start, &end, perms) != 3) continue;
    bool in_image = grt_hal_local_elf_contains_data(image, (uintptr_t)start, 1) ||
                    (code >= start && code < end);
    if (in_image && perms[1] == 'w' && perms[2] == 'x') {
      fail_msg("writable and executable mapping: %s", line);
    }
    if (code >= start && code < end) {
      assert_string_equal(perms, "r-xp");
      found_code = true;
    }
  }
  fclose(maps);
  assert_true(found_code);
  assert_true(grt_hal_local_elf_contains_code(image, code, 1));
}

static void exercise_query(grt_hal_local_elf_image_t* image) {
  void* symbol = lookup(image, GRT_KERNEL_LIBRARY_QUERY_SYMBOL);
  assert_true(grt_hal_local_elf_contains_code(image, (uintptr_t)symbol, 1));
  expect_no_writable_code(image, (uintptr_t)symbol);
  grt_kernel_library_query_fn_t query = NULL;
  memcpy(&query, &symbol, sizeof(query));
  const grt_kernel_library_t* library = query(GRT_KERNEL_ABI_VERSION);
  assert_non_null(library);
  // The table and its names came through relocations into the image.
  assert_true(grt_hal_local_elf_contains_data(image, (uintptr_t)library,
                                              sizeof(*library)));
  assert_int_equal(library->entry_count, GRT_TEST_KERNELS_COUNT);
  assert_true(grt_hal_local_elf_contains_string(image, library->entries[0].name));
  assert_string_equal(library->entries[0].name, "add_f32");
  // Read-only after relocation: not code, and not outside the image.
  assert_false(grt_hal_local_elf_contains_code(image, (uintptr_t)library, 1));
  assert_false(grt_hal_local_elf_contains_data(image, (uintptr_t)&image, 1));
  // add_f32 runs.
  float a[3] = {1, 2, 3}, b[3] = {10, 20, 30}, out[3] = {0, 0, 0};
  void* bindings[3] = {a, b, out};
  size_t lengths[3] = {sizeof(a), sizeof(b), sizeof(out)};
  grt_kernel_dispatch_state_t dispatch = {
      {1, 1, 1}, {64, 1, 1}, 0, NULL, 3, bindings, lengths};
  grt_kernel_workgroup_state_t workgroup = {{0, 0, 0}, 0, NULL, 0};
  const grt_kernel_entry_t* add = &library->entries[GRT_TEST_KERNELS_ADD_F32];
  assert_true(grt_hal_local_elf_contains_code(
      image, (uintptr_t)*(void**)(void*)&add->fn, 1));
  assert_int_equal(add->fn(&dispatch, &workgroup), 0);
  assert_true(out[0] == 11 && out[1] == 22 && out[2] == 33);
}

static void test_loads_test_kernels(void** state) {
  (void)state;
  const char* paths[] = {GRT_TEST_KERNELS_SO, GRT_TEST_KERNELS_SYSV_HASH_SO};
  for (size_t i = 0; i < 2; ++i) {
    object_t object = object_read(paths[i]);
    grt_hal_local_elf_image_t* image = NULL;
    GRT_EXPECT_OK(load(&object, &image));
    // Nothing of the file is used after the load.
    memset(object.data, 0, object.size);
    object_free(&object);
    exercise_query(image);
    // The load base maps the file's addresses: the query symbol's address
    // in the file plus the base is where it is.
    void* symbol = lookup(image, GRT_KERNEL_LIBRARY_QUERY_SYMBOL);
    uintptr_t base = grt_hal_local_elf_load_base(image);
    assert_true((uintptr_t)symbol - base < ((uintptr_t)1 << 30));
    grt_expect_error(grt_hal_local_elf_lookup(image, "grt_not_there", LABEL,
                                              &symbol),
                     GRT_STATUS_NOT_FOUND,
                     LABEL ": kernel library does not export 'grt_not_there'");
    assert_null(symbol);
    grt_hal_local_elf_unload(image);
  }
  grt_hal_local_elf_unload(NULL);
}

static void test_imports_are_bound(void** state) {
  (void)state;
  object_t object = object_read(GRT_IMPORT_KERNELS_ALLOWED_SO);
  grt_hal_local_elf_image_t* image = NULL;
  GRT_EXPECT_OK(load(&object, &image));
  object_free(&object);
  float (*exp_fn)(float) = NULL;
  void* symbol = lookup(image, "grt_import_kernels_exp");
  memcpy(&exp_fn, &symbol, sizeof(exp_fn));
  volatile float x = 1.25f;
  assert_true(exp_fn(x) == expf(x));
  void (*copy_fn)(void*, const void*, size_t) = NULL;
  symbol = lookup(image, "grt_import_kernels_copy");
  memcpy(&copy_fn, &symbol, sizeof(copy_fn));
  char to[8] = "";
  copy_fn(to, "kernel", 7);
  assert_string_equal(to, "kernel");
  int (*call_own)(int) = NULL;
  symbol = lookup(image, "grt_import_kernels_call_own");
  memcpy(&call_own, &symbol, sizeof(call_own));
  assert_int_equal(call_own(5), 51);
  // An exported object is writable data of the image.
  int* counter = lookup(image, "grt_import_kernels_counter");
  assert_int_equal(*counter, 41);
  *counter = 0;
  assert_int_equal(call_own(5), 10);
  grt_hal_local_elf_unload(image);

  assert_true(grt_hal_local_elf_import_count() > 80);
  bool has_expf = false;
  for (size_t i = 0; i < grt_hal_local_elf_import_count(); ++i) {
    if (strcmp(grt_hal_local_elf_import_name(i), "expf") == 0) has_expf = true;
  }
  assert_true(has_expf);
  assert_null(grt_hal_local_elf_import_name(grt_hal_local_elf_import_count()));
}

static void test_refused_objects(void** state) {
  (void)state;
  object_t object = object_read(GRT_IMPORT_KERNELS_UNLISTED_SO);
  load_expecting(&object, GRT_STATUS_NOT_FOUND,
                 LABEL ": kernel object imports 'grt_import_kernels_not_"
                       "provided', which is not in grt's import table");
  object_free(&object);
  object = object_read(GRT_IMPORT_KERNELS_CONSTRUCTOR_SO);
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 LABEL ": kernel object has constructor code (DT_INIT_ARRAY), "
                       "which grt's loader never runs");
  object_free(&object);
  object = object_read(GRT_IMPORT_KERNELS_NEEDED_SO);
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 LABEL ": kernel object needs the library 'libm.so.6' "
                       "(DT_NEEDED)");
  object_free(&object);
}

static void test_truncated(void** state) {
  (void)state;
  object_t object = object_read(GRT_TEST_KERNELS_SO);
  grt_hal_local_elf_image_t* image = NULL;
  grt_expect_error(grt_hal_local_elf_load(object.data, 0, LABEL,
                                          grt_allocator_system(), &image),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "not an ELF shared object (expected the magic 7f 45 4c 46, "
                   "got an empty binary)");
  grt_expect_error(grt_hal_local_elf_load(object.data, 12, LABEL,
                                          grt_allocator_system(), &image),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "ELF binary is truncated: 12 bytes, the header needs at "
                   "least 20");
  grt_expect_error(grt_hal_local_elf_load(object.data, 40, LABEL,
                                          grt_allocator_system(), &image),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "ELF binary is truncated: 40 bytes, the ELF header needs "
                   "64");
  grt_expect_error(grt_hal_local_elf_load(object.data, 64, LABEL,
                                          grt_allocator_system(), &image),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "ELF program headers (offset 0x40, ");
  // Cut inside the last segment's file bytes.
  Elf64_Phdr* last = phdr_at(&object, phdr_index(&object, PT_LOAD, 0));
  for (size_t i = 0; i < header_of(&object)->e_phnum; ++i) {
    if (phdr_at(&object, i)->p_type == PT_LOAD) last = phdr_at(&object, i);
  }
  size_t cut = (size_t)(last->p_offset + last->p_filesz - 1);
  grt_expect_error(grt_hal_local_elf_load(object.data, cut, LABEL,
                                          grt_allocator_system(), &image),
                   GRT_STATUS_INVALID_ARGUMENT, "runs past the end of the");
  assert_null(image);
  object_free(&object);
}

static void test_bad_identification(void** state) {
  (void)state;
  struct {
    size_t offset;
    uint8_t value;
    grt_status_code_t code;
    const char* fragment;
  } cases[] = {
      {0, 0x7e, GRT_STATUS_INVALID_ARGUMENT, "expected the magic 7f 45 4c 46, got 7e 45 4c 46"},
      {4, 1, GRT_STATUS_INCOMPATIBLE, "ELF class 1 (32-bit) does not match this host (64-bit)"},
      {5, 2, GRT_STATUS_INCOMPATIBLE, "ELF byte order 2 (big-endian) does not match"},
      {6, 2, GRT_STATUS_INVALID_ARGUMENT, "ELF version 2/1, expected 1"},
      {16, 2, GRT_STATUS_INVALID_ARGUMENT, "(ELF type 2, expected 3 ET_DYN)"},
      {18, 40, GRT_STATUS_INCOMPATIBLE, "ELF machine 40 (arm) does not match this host"},
      {54, 32, GRT_STATUS_INVALID_ARGUMENT, "ELF program header entries are 32 bytes, expected 56"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    object_t object = object_read(GRT_TEST_KERNELS_SO);
    object.data[cases[i].offset] = cases[i].value;
    load_expecting(&object, cases[i].code, cases[i].fragment);
    object_free(&object);
  }
  object_t object = object_read(GRT_TEST_KERNELS_SO);
  header_of(&object)->e_phnum = 0;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "kernel object has 0 program headers, expected 1 to 64");
  header_of(&object)->e_phnum = 65;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "kernel object has 65 program headers, expected 1 to 64");
  object_free(&object);
}

static void test_bad_segments(void** state) {
  (void)state;
  object_t object = object_read(GRT_TEST_KERNELS_SO);
  size_t first = phdr_index(&object, PT_LOAD, 0);
  size_t second = phdr_index(&object, PT_LOAD, 1);
  Elf64_Phdr saved = *phdr_at(&object, first);
  Elf64_Phdr saved_second = *phdr_at(&object, second);

  phdr_at(&object, first)->p_offset = object.size;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "runs past the end of the");
  phdr_at(&object, first)->p_offset = UINT64_MAX - 4;  // wraps
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "runs past the end of the");
  *phdr_at(&object, first) = saved;

  phdr_at(&object, first)->p_memsz = saved.p_filesz - 1;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "bytes in the file but only");
  *phdr_at(&object, first) = saved;

  // An executable segment shorter in the file than in memory (its tail
  // would be zero-filled code): the tamper suite's re-hashed object with
  // the text segment's p_filesz low byte flipped.
  size_t text = SIZE_MAX;
  for (size_t i = 0; i < header_of(&object)->e_phnum; ++i) {
    if (phdr_at(&object, i)->p_type == PT_LOAD && (phdr_at(&object, i)->p_flags & PF_X)) {
      text = i;
    }
  }
  assert_true(text != SIZE_MAX);
  Elf64_Phdr saved_text = *phdr_at(&object, text);
  phdr_at(&object, text)->p_filesz = saved_text.p_filesz - 9;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "bytes in the file and 0x");
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "in memory; code must come whole from the file");
  *phdr_at(&object, text) = saved_text;
  phdr_at(&object, first)->p_memsz = (uint64_t)1 << 40;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "bytes) is larger than the 1073741824 bytes a kernel object "
                 "may use");
  phdr_at(&object, first)->p_memsz = saved.p_memsz;
  phdr_at(&object, first)->p_vaddr = UINT64_MAX - 16;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "a kernel object may use");
  *phdr_at(&object, first) = saved;

  // The first and last segments far apart: the span is too large.
  size_t last = 0;
  for (size_t i = 0; i < header_of(&object)->e_phnum; ++i) {
    if (phdr_at(&object, i)->p_type == PT_LOAD) last = i;
  }
  Elf64_Phdr saved_last = *phdr_at(&object, last);
  phdr_at(&object, last)->p_vaddr += (uint64_t)1 << 31;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "kernel object's segments span");
  *phdr_at(&object, last) = saved_last;

  phdr_at(&object, second)->p_vaddr = saved.p_vaddr;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "overlaps or precedes the segment before it");
  *phdr_at(&object, second) = saved_second;

  phdr_at(&object, first)->p_flags = PF_R | PF_W | PF_X;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "is both writable and executable");
  *phdr_at(&object, first) = saved;

  // Two segments on one page, one writable and one executable.
  size_t code = phdr_index(&object, PT_LOAD, 1);
  assert_true(phdr_at(&object, code)->p_flags & PF_X);
  Elf64_Phdr saved_code = *phdr_at(&object, code);
  phdr_at(&object, first)->p_flags = PF_R | PF_W;
  phdr_at(&object, code)->p_vaddr = saved.p_vaddr + saved.p_memsz;
  phdr_at(&object, code)->p_align = 1;  // no offset/address rule
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "would be writable and executable (segment");
  *phdr_at(&object, code) = saved_code;
  *phdr_at(&object, first) = saved;

  // A segment shifted against its file offset (a re-hashed object whose
  // code would land elsewhere), and an alignment that is no power of two.
  assert_true(saved_code.p_align > 1);
  phdr_at(&object, code)->p_offset += 1;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "expected a power-of-two alignment that the offset and the "
                 "address agree modulo");
  *phdr_at(&object, code) = saved_code;
  phdr_at(&object, code)->p_vaddr += 16;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "the offset and the address agree modulo");
  *phdr_at(&object, code) = saved_code;
  phdr_at(&object, code)->p_align = 3 * saved_code.p_align;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "expected a power-of-two alignment");
  *phdr_at(&object, code) = saved_code;

  size_t dynamic = phdr_index(&object, PT_DYNAMIC, 0);
  phdr_at(&object, dynamic)->p_type = PT_NULL;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "kernel object has no PT_DYNAMIC segment");
  phdr_at(&object, dynamic)->p_type = PT_TLS;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "thread-local storage (PT_TLS)");
  phdr_at(&object, dynamic)->p_type = PT_INTERP;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "names a program interpreter (PT_INTERP)");
  phdr_at(&object, dynamic)->p_type = PT_DYNAMIC;
  phdr_at(&object, dynamic)->p_vaddr = (uint64_t)1 << 32;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "kernel object's dynamic section (0x100000000, ");
  object_free(&object);

  object = object_read(GRT_TEST_KERNELS_SO);
  for (size_t i = 0; i < header_of(&object)->e_phnum; ++i) {
    if (phdr_at(&object, i)->p_type == PT_LOAD) phdr_at(&object, i)->p_type = PT_NOTE;
  }
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "kernel object has no PT_LOAD segment");
  object_free(&object);
}

static void test_bad_dynamic(void** state) {
  (void)state;
  object_t object = object_read(GRT_TEST_KERNELS_SO);
  Elf64_Dyn* gnu_hash = dynamic_entry(&object, DT_GNU_HASH);
  assert_non_null(gnu_hash);
  gnu_hash->d_tag = DT_DEBUG;
  // Clang links with both hash tables.
  Elf64_Dyn* sysv_hash = dynamic_entry(&object, DT_HASH);
  if (sysv_hash) sysv_hash->d_tag = DT_DEBUG;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "kernel object has neither DT_HASH nor DT_GNU_HASH");
  gnu_hash->d_tag = DT_TEXTREL;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "kernel object has text relocations (DT_TEXTREL)");
  gnu_hash->d_tag = DT_INIT;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "kernel object has constructor code (DT_INIT)");
  gnu_hash->d_tag = DT_FINI_ARRAYSZ;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "kernel object has destructor code (DT_FINI_ARRAY)");
  gnu_hash->d_tag = DT_FLAGS;
  gnu_hash->d_un.d_val = DF_STATIC_TLS;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "thread-local storage (DF_STATIC_TLS)");
  gnu_hash->d_tag = DT_RELSZ;
  gnu_hash->d_un.d_val = 16;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "kernel object has DT_REL relocations");
  object_free(&object);
  object = object_read(GRT_TEST_KERNELS_SO);
  dynamic_entry(&object, DT_SYMENT)->d_un.d_val = 16;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "kernel object's symbols are 16 bytes (DT_SYMENT), expected 24");
  object_free(&object);

  object = object_read(GRT_TEST_KERNELS_SO);
  dynamic_entry(&object, DT_SYMTAB)->d_tag = DT_DEBUG;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "kernel object has no dynamic symbol table");
  object_free(&object);

  object = object_read(GRT_TEST_KERNELS_SO);
  dynamic_entry(&object, DT_STRSZ)->d_un.d_val = (uint64_t)1 << 32;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "kernel object's dynamic string table (");
  object_free(&object);

  // A GNU hash table whose chain never ends.
  object = object_read(GRT_TEST_KERNELS_SO);
  uint32_t* gnu = (uint32_t*)at_address(
      &object, dynamic_entry(&object, DT_GNU_HASH)->d_un.d_ptr);
  gnu[1] = 0xfffffff0u;  // symoffset above every bucket
  Elf64_Dyn* sysv = dynamic_entry(&object, DT_HASH);
  if (sysv) sysv->d_tag = DT_DEBUG;  // so the GNU table is the one read
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "below its first hashed symbol");
  gnu[0] = 0x7fffffffu;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "DT_GNU_HASH has 2147483647 buckets, more than the 65536");
  object_free(&object);

  // A System V hash table claiming too many symbols.
  object = object_read(GRT_TEST_KERNELS_SYSV_HASH_SO);
  uint32_t* sysv_table = (uint32_t*)at_address(
      &object, dynamic_entry(&object, DT_HASH)->d_un.d_ptr);
  sysv_table[1] = 0x7fffffffu;  // nchain
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "kernel object has 2147483647 dynamic symbols, more than the "
                 "65536");
  sysv_table[1] = 1u << 14;  // fits the limit, not the segment
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "kernel object's dynamic symbol table (");
  object_free(&object);

  // No DT_NULL: every entry made an ignored tag.
  object = object_read(GRT_TEST_KERNELS_SO);
  Elf64_Phdr* dynamic = phdr_at(&object, phdr_index(&object, PT_DYNAMIC, 0));
  Elf64_Dyn* entries = (Elf64_Dyn*)(object.data + dynamic->p_offset);
  for (size_t i = 0; i < dynamic->p_filesz / sizeof(Elf64_Dyn); ++i) {
    if (entries[i].d_tag == DT_NULL) entries[i].d_tag = DT_DEBUG;
  }
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "kernel object's dynamic section has no DT_NULL end");
  object_free(&object);
}

static void test_bad_relocations(void** state) {
  (void)state;
  object_t object = object_read(GRT_TEST_KERNELS_SO);
  Elf64_Rela* relative = relocation_of_type(&object, TEST_R_RELATIVE);
  Elf64_Rela saved = *relative;

  relative->r_info = ELF64_R_INFO(0, TEST_R_UNSUPPORTED);
  load_expecting(&object, GRT_STATUS_UNIMPLEMENTED,
                 "kernel object has a " TEST_R_UNSUPPORTED_NAME
                 " relocation, which grt's loader does not apply");
  relative->r_info = ELF64_R_INFO(0, 9999);
  load_expecting(&object, GRT_STATUS_UNIMPLEMENTED,
                 "kernel object has a relocation of unknown type 9999");
  relative->r_info = ELF64_R_INFO(123456, TEST_R_ABS64);
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "relocation names symbol 123456, outside its");
  *relative = saved;

  relative->r_offset = (uint64_t)1 << 36;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "patches 0x1000000000, outside its writable segments");
  relative->r_offset = UINT64_MAX - 3;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "outside its writable segments");
  // Into the code: a text relocation.
  size_t code = phdr_index(&object, PT_LOAD, 1);
  relative->r_offset = phdr_at(&object, code)->p_vaddr;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "outside its writable segments");
  *relative = saved;

  Elf64_Dyn* size = dynamic_entry(&object, DT_RELASZ);
  uint64_t saved_size = size->d_un.d_val;
  size->d_un.d_val = saved_size + 1;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "not a whole number of 24-byte entries");
  size->d_un.d_val = (uint64_t)24 << 32;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "kernel object's relocation table (DT_RELA) (");
  size->d_un.d_val = saved_size;
  dynamic_entry(&object, DT_RELAENT)->d_un.d_val = 16;
  load_expecting(&object, GRT_STATUS_INVALID_ARGUMENT,
                 "relocations are 16 bytes (DT_RELAENT), expected 24");
  object_free(&object);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_loads_test_kernels),
      cmocka_unit_test(test_imports_are_bound),
      cmocka_unit_test(test_refused_objects),
      cmocka_unit_test(test_truncated),
      cmocka_unit_test(test_bad_identification),
      cmocka_unit_test(test_bad_segments),
      cmocka_unit_test(test_bad_dynamic),
      cmocka_unit_test(test_bad_relocations),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
