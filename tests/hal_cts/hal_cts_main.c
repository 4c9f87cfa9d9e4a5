// The HAL conformance suite's runner: runs every test group against the one
// device named by --device, e.g.
//   build/tests/hal_cts/hal_cts --device=local-task [--filter=test_dispatch*]
//       [--kernel_format=cpu-static]
// A device whose driver cannot run on this machine (the registry answers
// UNAVAILABLE or NOT_FOUND) is not a failure: the runner prints
// "hal_cts: skipped: <reason>", reports every test skipped and exits 77.
// Tests listed for the device's driver in exceptions.txt are skipped with
// their reason.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "base/file.h"
#include "tests/hal_cts/cts.h"
#include "tests/hal_cts/exceptions.h"

#ifndef GRT_HAL_CTS_EXCEPTIONS_PATH
#error "GRT_HAL_CTS_EXCEPTIONS_PATH must name tests/hal_cts/exceptions.txt"
#endif

static const grt_hal_cts_group_t* const kGroups[] = {
    &grt_hal_cts_buffer_group,   &grt_hal_cts_buffer_view_group,
    &grt_hal_cts_command_buffer_group, &grt_hal_cts_dispatch_group,
    &grt_hal_cts_reusable_group, &grt_hal_cts_semaphore_group,
    &grt_hal_cts_queue_group,
};
#define GRT_HAL_CTS_GROUP_COUNT (sizeof(kGroups) / sizeof(kGroups[0]))

typedef struct flags_t {
  const char* device;
  const char* filter;
  const char* exceptions;
  const char* kernel_format;
  bool list;
} flags_t;

static const char kUsage[] =
    "usage: hal_cts --device=<uri> [--filter=<pattern>] "
    "[--kernel_format=<format>] [--exceptions=<file>] [--list]";

// Returns false (having printed why) when the command line is bad.
static bool parse_flags(int argc, char** argv, flags_t* flags) {
  flags->exceptions = GRT_HAL_CTS_EXCEPTIONS_PATH;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    if (strncmp(arg, "--device=", 9) == 0) {
      flags->device = arg + 9;
    } else if (strncmp(arg, "--filter=", 9) == 0) {
      flags->filter = arg + 9;
    } else if (strncmp(arg, "--exceptions=", 13) == 0) {
      flags->exceptions = arg + 13;
    } else if (strncmp(arg, "--kernel_format=", 16) == 0) {
      flags->kernel_format = arg + 16;
    } else if (strcmp(arg, "--list") == 0) {
      flags->list = true;
    } else {
      fprintf(stderr,
              "hal_cts: unknown flag '%s'; expected --device=<uri>, "
              "--filter=<pattern>, --kernel_format=<format>, "
              "--exceptions=<file> or --list\n%s\n",
              arg, kUsage);
      return false;
    }
  }
  if (!flags->list && (!flags->device || !flags->device[0])) {
    fprintf(stderr,
            "hal_cts: missing --device=<uri> (for example "
            "--device=local-task)\n%s\n",
            kUsage);
    return false;
  }
  return true;
}

static grt_status_t load_exceptions(const char* path,
                                    grt_hal_cts_exceptions_t* out) {
  grt_file_contents_t contents;
  GRT_RETURN_IF_ERROR(
      grt_file_read_contents(path, grt_allocator_system(), &contents));
  grt_status_t status = grt_hal_cts_exceptions_parse(
      grt_make_string_view((const char*)contents.data, contents.size), path,
      grt_allocator_system(), out);
  grt_file_contents_free(&contents);
  if (!grt_status_is_ok(status)) return status;
  const char* names[256];
  size_t count = 0;
  for (size_t g = 0; g < GRT_HAL_CTS_GROUP_COUNT; ++g) {
    for (size_t t = 0; t < kGroups[g]->count && count < 256; ++t) {
      names[count++] = kGroups[g]->tests[t].name;
    }
  }
  status = grt_hal_cts_exceptions_check_tests(out, path, names, count);
  if (!grt_status_is_ok(status)) grt_hal_cts_exceptions_free(out);
  return status;
}

// Stands in for a test that does not run here; its state is the reason.
static void not_run(void** state) {
  printf("hal_cts: not run on %s: %s\n", grt_hal_cts.driver_name,
         (const char*)*state);
  skip();
}

static int run_groups(const grt_hal_cts_exceptions_t* exceptions,
                      const char* skip_reason) {
  int failures = 0;
  for (size_t g = 0; g < GRT_HAL_CTS_GROUP_COUNT; ++g) {
    const grt_hal_cts_group_t* group = kGroups[g];
    struct CMUnitTest tests[128];
    size_t count = group->count < 128 ? group->count : 128;
    for (size_t t = 0; t < count; ++t) {
      tests[t] = group->tests[t];
      const grt_hal_cts_exception_t* exception = grt_hal_cts_exceptions_find(
          exceptions, grt_hal_cts.driver_name, tests[t].name);
      if (skip_reason || exception) {
        tests[t].test_func = not_run;
        tests[t].setup_func = NULL;
        tests[t].teardown_func = NULL;
        tests[t].initial_state =
            (void*)(skip_reason ? skip_reason : exception->reason);
      }
    }
    failures += _cmocka_run_group_tests(group->name, tests, count, NULL, NULL);
  }
  return failures;
}

int main(int argc, char** argv) {
  flags_t flags;
  memset(&flags, 0, sizeof(flags));
  if (!parse_flags(argc, argv, &flags)) return 2;

  grt_hal_cts_exceptions_t exceptions;
  grt_status_t status = load_exceptions(flags.exceptions, &exceptions);
  if (!grt_status_is_ok(status)) {
    fprintf(stderr, "hal_cts: bad exceptions list: ");
    grt_status_fprint(stderr, status);
    grt_status_free(status);
    return 2;
  }

  if (flags.list) {
    for (size_t g = 0; g < GRT_HAL_CTS_GROUP_COUNT; ++g) {
      for (size_t t = 0; t < kGroups[g]->count; ++t) {
        printf("%s\n", kGroups[g]->tests[t].name);
      }
    }
    grt_hal_cts_exceptions_free(&exceptions);
    return 0;
  }
  if (flags.filter) cmocka_set_test_filter(flags.filter);

  char skip_reason[512];
  const char* skip = NULL;
  status = grt_hal_cts_initialize(flags.device, flags.kernel_format);
  if (!grt_status_is_ok(status)) {
    grt_status_code_t code = grt_status_code(status);
    if (code != GRT_STATUS_UNAVAILABLE && code != GRT_STATUS_NOT_FOUND) {
      fprintf(stderr, "hal_cts: cannot set up device '%s': ", flags.device);
      grt_status_fprint(stderr, status);
      grt_status_free(status);
      grt_hal_cts_deinitialize();
      grt_hal_cts_exceptions_free(&exceptions);
      return 1;
    }
    snprintf(skip_reason, sizeof(skip_reason), "device %s is not usable here: %s",
             flags.device, grt_status_message(status));
    grt_status_free(status);
    printf("hal_cts: skipped: %s\n", skip_reason);
    skip = skip_reason;
  } else {
    printf("hal_cts: device %s, kernels %s\n", flags.device,
           grt_hal_cts.kernel_format ? grt_hal_cts.kernel_format->format()
                                     : grt_hal_cts.kernel_problem);
  }

  int failures = run_groups(&exceptions, skip);
  grt_hal_cts_deinitialize();
  grt_hal_cts_exceptions_free(&exceptions);
  if (failures) return 1;
  // ctest's SKIP_RETURN_CODE: the device is absent, nothing ran.
  return skip ? 77 : 0;
}
