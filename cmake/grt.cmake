# Shared build rules: warnings, sanitizers, and the grt_cc_* helpers every
# folder uses so that libraries and tests are declared the same way.
include_guard(GLOBAL)

set(GRT_SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/..")
get_filename_component(GRT_SOURCE_DIR "${GRT_SOURCE_DIR}" ABSOLUTE)

set(GRT_C_WARNINGS -Wall -Wextra -Wshadow -Wstrict-prototypes
    -Wmissing-prototypes -Wno-unused-parameter)
if(GRT_WERROR)
  list(APPEND GRT_C_WARNINGS -Werror)
endif()

if(GRT_SANITIZE)
  set(GRT_SANITIZE_FLAGS -fsanitize=${GRT_SANITIZE} -fno-omit-frame-pointer
      -fno-sanitize-recover=all)
  add_compile_options(${GRT_SANITIZE_FLAGS})
  add_link_options(${GRT_SANITIZE_FLAGS})
endif()

# MinSizeRel builds with -Oz where the compiler has it (GCC 12 and later,
# Clang): it picks the shorter encoding even where it runs slower (on
# x86-64 a push and pop load a small constant, `and $0` stores a zero):
# 1.7% less text than -Os on x86-64, the same code on aarch64 (GCC 12). It
# comes after CMake's -Os on the command line, so it is the one that counts;
# it defines __OPTIMIZE_SIZE__ as -Os does (the VM's compact interpreter).
include(CheckCCompilerFlag)
check_c_compiler_flag(-Oz GRT_HAVE_OZ)
if(GRT_HAVE_OZ)
  add_compile_options($<$<CONFIG:MinSizeRel>:-Oz>)
endif()

# libFuzzer steers by the coverage of the code under test, so every library
# gets coverage instrumentation (fuzz targets add -fsanitize=fuzzer for
# libFuzzer's main).
if(GRT_BUILD_FUZZERS AND CMAKE_C_COMPILER_ID MATCHES "Clang")
  add_compile_options(-fsanitize=fuzzer-no-link)
  add_link_options(-fsanitize=fuzzer-no-link)  # the coverage callbacks' runtime
endif()

# POSIX.1-2008 (posix_memalign, mmap, clock_gettime, pthreads) on top of
# strict C11; files that need more define it themselves.
add_compile_definitions(_POSIX_C_SOURCE=200809L)

# cmocka is looked up only for the tests, and a build with tests is a
# configure error without it.
if(GRT_BUILD_TESTS)
  find_path(CMOCKA_INCLUDE_DIR cmocka.h)
  find_library(CMOCKA_LIBRARY cmocka)
  if(NOT CMOCKA_LIBRARY OR NOT CMOCKA_INCLUDE_DIR)
    message(FATAL_ERROR "GRT_BUILD_TESTS needs cmocka: run scripts/install-deps.sh "
                        "(apt-get install libcmocka-dev), or configure with "
                        "-DGRT_BUILD_TESTS=OFF")
  endif()
endif()

# Module signatures (schemas/module_signature.h) need Ed25519 from
# libsodium. AUTO builds them when libsodium-dev is found (a cross build
# looks in its sysroot only); ON makes its absence a configure error; OFF,
# or AUTO without it, builds a grt that reads signature blocks but refuses
# to sign or verify (UNIMPLEMENTED naming this option), and no grt-sign.
set(GRT_HAVE_LIBSODIUM OFF)
if(NOT GRT_MODULE_SIGNING MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "GRT_MODULE_SIGNING must be AUTO, ON or OFF, got "
                      "'${GRT_MODULE_SIGNING}'")
endif()
if(NOT GRT_MODULE_SIGNING STREQUAL "OFF")
  find_path(GRT_LIBSODIUM_INCLUDE_DIR sodium.h)
  find_library(GRT_LIBSODIUM_LIBRARY sodium)
  if(GRT_LIBSODIUM_INCLUDE_DIR AND GRT_LIBSODIUM_LIBRARY)
    set(GRT_HAVE_LIBSODIUM ON)
  elseif(GRT_MODULE_SIGNING STREQUAL "ON")
    message(FATAL_ERROR "GRT_MODULE_SIGNING=ON needs libsodium: run "
                        "scripts/install-deps.sh (apt-get install "
                        "libsodium-dev), or configure with "
                        "-DGRT_MODULE_SIGNING=OFF")
  endif()
endif()
message(STATUS "Module signing (libsodium): ${GRT_HAVE_LIBSODIUM}")

# Without op names the assembler (which looks ops up by mnemonic) cannot
# work, and the tests check messages that name ops.
if(NOT GRT_VM_OP_NAMES AND (GRT_BUILD_COMPILER OR GRT_BUILD_TESTS))
  message(FATAL_ERROR "GRT_VM_OP_NAMES=OFF is for runtime-only builds: also "
                      "set -DGRT_BUILD_COMPILER=OFF -DGRT_BUILD_TESTS=OFF "
                      "(the assembler looks ops up by name and the tests "
                      "check messages that name them)")
endif()

# Without messages a failure says its code only (base/status.h): the
# compiler's diagnostics are messages, and the tests check them.
# GRT_STATUS_MESSAGES=0 reaches every grt source (base/status.h reads it).
if(NOT GRT_STATUS_MESSAGES)
  if(GRT_BUILD_COMPILER OR GRT_BUILD_TESTS)
    message(FATAL_ERROR "GRT_STATUS_MESSAGES=OFF is for runtime-only builds: "
                        "also set -DGRT_BUILD_COMPILER=OFF -DGRT_BUILD_TESTS=OFF "
                        "(the compiler's diagnostics are status messages and "
                        "the tests check them)")
  endif()
  add_compile_definitions(GRT_STATUS_MESSAGES=0)
endif()

# The unit tests exercise the dlopen loader as well as grt's own.
if(NOT GRT_ENABLE_DLOPEN_LOADER AND GRT_BUILD_TESTS)
  message(FATAL_ERROR "GRT_ENABLE_DLOPEN_LOADER=OFF needs -DGRT_BUILD_TESTS=OFF "
                      "(the unit tests exercise the dlopen loader as well as "
                      "grt's own ELF loader)")
endif()

# Without grt's ELF loader only cpu-static kernels run: the dlopen loader
# (which shares its header checks) and the tests (which load kernel
# objects) need it, as grt-check and the tests need the check module.
if(NOT GRT_ENABLE_ELF_LOADER AND (GRT_ENABLE_DLOPEN_LOADER OR GRT_BUILD_TESTS))
  message(FATAL_ERROR "GRT_ENABLE_ELF_LOADER=OFF needs -DGRT_ENABLE_DLOPEN_LOADER=OFF "
                      "-DGRT_BUILD_TESTS=OFF (the dlopen loader checks kernel "
                      "objects with the ELF loader's header checks, and the "
                      "tests load kernel objects)")
endif()
if(NOT GRT_ENABLE_CHECK_MODULE AND (GRT_BUILD_TOOLS OR GRT_BUILD_TESTS))
  message(FATAL_ERROR "GRT_ENABLE_CHECK_MODULE=OFF needs -DGRT_BUILD_TOOLS=OFF "
                      "-DGRT_BUILD_TESTS=OFF (grt-check and the tests run "
                      "modules that import check.*)")
endif()

# Without trace points grt_trace_attach fails: grt-run --trace and
# --print_statistics and the tests need them. GRT_TRACING=0 reaches every
# grt source (base/trace.h reads it).
if(NOT GRT_ENABLE_TRACING)
  if(GRT_BUILD_TOOLS OR GRT_BUILD_TESTS)
    message(FATAL_ERROR "GRT_ENABLE_TRACING=OFF needs -DGRT_BUILD_TOOLS=OFF "
                        "-DGRT_BUILD_TESTS=OFF (grt-run --trace and "
                        "--print_statistics and the tests attach trace sinks)")
  endif()
  add_compile_definitions(GRT_TRACING=0)
endif()

# GRT_HAL_DRIVERS: checked here, resolved in hal/drivers/CMakeLists.txt.
# GRT_HAL_DRIVERS_EXPLICIT is true when the user named the list, so that a
# named driver whose dependency is missing is an error rather than dropped.
set(GRT_HAL_DRIVER_NAMES local-sync local-task vulkan cuda)
if(GRT_HAL_DRIVERS)
  set(GRT_HAL_DRIVERS_EXPLICIT ON)
  foreach(driver ${GRT_HAL_DRIVERS})
    if(NOT driver IN_LIST GRT_HAL_DRIVER_NAMES)
      message(FATAL_ERROR "GRT_HAL_DRIVERS: unknown driver '${driver}'; "
                          "expected a list from local-sync, local-task, "
                          "vulkan, cuda")
    endif()
  endforeach()
  # The suites run everything on both CPU drivers.
  if(GRT_BUILD_TESTS AND (NOT "local-sync" IN_LIST GRT_HAL_DRIVERS OR
                          NOT "local-task" IN_LIST GRT_HAL_DRIVERS))
    message(FATAL_ERROR "GRT_HAL_DRIVERS='${GRT_HAL_DRIVERS}': the tests run on "
                        "local-sync and local-task, so the list must name both, "
                        "or configure with -DGRT_BUILD_TESTS=OFF")
  endif()
else()
  set(GRT_HAL_DRIVERS_EXPLICIT OFF)
endif()
# The GPU drivers open their system libraries (libvulkan, libcuda) with
# dlopen, so a build without dlopen has the CPU drivers only.
set(GRT_HAL_DLOPEN_DRIVERS vulkan cuda)
if(NOT GRT_ENABLE_DLOPEN_LOADER)
  foreach(driver ${GRT_HAL_DLOPEN_DRIVERS})
    if(driver IN_LIST GRT_HAL_DRIVERS)
      message(FATAL_ERROR "GRT_HAL_DRIVERS names ${driver}, which loads its "
                          "system library with dlopen; GRT_ENABLE_DLOPEN_LOADER=OFF "
                          "builds without dlopen (name local-sync and local-task only)")
    endif()
  endforeach()
endif()

# grt_hal_driver_wanted(<name> <out_var>): whether driver <name>
# (local-sync ...) is to be built: named in GRT_HAL_DRIVERS, or every driver
# when the list is empty (without dlopen: every CPU driver).
function(grt_hal_driver_wanted name out_var)
  if(NOT GRT_ENABLE_DLOPEN_LOADER AND name IN_LIST GRT_HAL_DLOPEN_DRIVERS)
    set(${out_var} OFF PARENT_SCOPE)
  elseif(NOT GRT_HAL_DRIVERS OR name IN_LIST GRT_HAL_DRIVERS)
    set(${out_var} ON PARENT_SCOPE)
  else()
    set(${out_var} OFF PARENT_SCOPE)
  endif()
endfunction()

# Tests exercise out-of-memory paths with impossible sizes; under ASan those
# must come back as NULL (and so as a status), not abort the process.
function(grt_sanitizer_test_environment test_name)
  if(GRT_SANITIZE)
    set_tests_properties(${test_name} PROPERTIES ENVIRONMENT
      "ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1;UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
  endif()
endfunction()

# grt_lit_tests(DIR <folder> PREFIX <ctest name prefix> OUTPUTS <folder>
#               [LABELS <labels...>] [FIXTURES_REQUIRED <fixtures...>]
#               [SUBST <NAME=VALUE>...])
# One ctest per <folder>/*.test file, named PREFIX + the file's name without
# .test, run by tests/tools/lit.sh (format: tests/tools/README.md) with
# %NAME standing for VALUE and %outputs for OUTPUTS/<name>, a scratch folder
# emptied before the test. The folder is globbed, so a new file is a new
# test. A file with "# REQUIRES: NAME" is added only where SUBST gives NAME
# a non-empty value.
function(grt_lit_tests)
  cmake_parse_arguments(ARG "" "DIR;PREFIX;OUTPUTS"
                        "LABELS;FIXTURES_REQUIRED;SUBST" ${ARGN})
  set(defines)
  set(known)
  foreach(pair IN LISTS ARG_SUBST)
    list(APPEND defines -D "${pair}")
    if(pair MATCHES "^([a-z][a-z0-9-]*)=(.+)$")
      list(APPEND known "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  file(GLOB files CONFIGURE_DEPENDS "${ARG_DIR}/*.test")
  if(NOT files)
    message(FATAL_ERROR "grt_lit_tests: no .test file in ${ARG_DIR}")
  endif()
  foreach(file IN LISTS files)
    get_filename_component(stem "${file}" NAME_WLE)
    set(name "${ARG_PREFIX}${stem}")
    file(STRINGS "${file}" requires REGEX "^# REQUIRES: ")
    set(missing OFF)
    foreach(line IN LISTS requires)
      string(REGEX REPLACE "^# REQUIRES: " "" required "${line}")
      if(NOT required IN_LIST known)
        set(missing ON)
      endif()
    endforeach()
    if(missing)
      continue()
    endif()
    add_test(NAME ${name}
             COMMAND bash "${GRT_SOURCE_DIR}/tests/tools/lit.sh"
                     --outputs "${ARG_OUTPUTS}/${stem}" ${defines} "${file}")
    if(ARG_LABELS)
      set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}")
    endif()
    if(ARG_FIXTURES_REQUIRED)
      set_tests_properties(${name} PROPERTIES
                           FIXTURES_REQUIRED "${ARG_FIXTURES_REQUIRED}")
    endif()
    grt_sanitizer_test_environment(${name})
  endforeach()
endfunction()

# grt_cc_library(NAME <target> SRCS <files...> [DEPS <targets...>])
function(grt_cc_library)
  cmake_parse_arguments(ARG "" "NAME" "SRCS;DEPS" ${ARGN})
  add_library(${ARG_NAME} STATIC ${ARG_SRCS})
  # Installed, the headers are under include/grt (cmake/grt_install.cmake).
  target_include_directories(${ARG_NAME} PUBLIC
                             "$<BUILD_INTERFACE:${GRT_SOURCE_DIR}>"
                             "$<INSTALL_INTERFACE:include/grt>")
  target_compile_options(${ARG_NAME} PRIVATE ${GRT_C_WARNINGS})
  if(ARG_DEPS)
    target_link_libraries(${ARG_NAME} PUBLIC ${ARG_DEPS})
  endif()
endfunction()

# grt_cc_binary(NAME <target> SRCS <files...> [DEPS <targets...>])
# Lands in build/bin/.
function(grt_cc_binary)
  cmake_parse_arguments(ARG "" "NAME" "SRCS;DEPS" ${ARGN})
  add_executable(${ARG_NAME} ${ARG_SRCS})
  target_compile_options(${ARG_NAME} PRIVATE ${GRT_C_WARNINGS})
  target_link_libraries(${ARG_NAME} PRIVATE ${ARG_DEPS})
endfunction()

# grt_kernel_object(<target> <sources...>): a CPU kernel object for tests,
# an ELF shared object built the way grt-compile builds them
# (compiler/target/cpu/build.c) so grt's own loader takes it
# (hal/local/elf_loader.h): standalone (-nostdlib, libgcc linked in), no
# stack canary, fortified calls or sanitizer instrumentation (which would
# import from the C library), exporting only what its source marks visible.
function(grt_kernel_object target)
  add_library(${target} MODULE ${ARGN})
  target_include_directories(${target} PRIVATE "${GRT_SOURCE_DIR}")
  target_compile_options(${target} PRIVATE ${GRT_C_WARNINGS} -fvisibility=hidden
                         -fno-stack-protector -U_FORTIFY_SOURCE -fno-sanitize=all)
  target_link_options(${target} PRIVATE -nostdlib -fno-sanitize=all)
  target_link_libraries(${target} PRIVATE gcc)
endfunction()

# grt_cc_fuzzer(NAME <target> SRCS <files...> DEPS <targets...>
#               [CORPUS <dir> SECONDS <n> LABELS <labels...> DICT <file>])
# A libFuzzer binary, built only with clang and GRT_BUILD_FUZZERS. With
# CORPUS, a ctest of the same name runs it for SECONDS over a scratch copy
# of the seed corpus (libFuzzer adds what it finds to the directory it is
# given, and the sources must stay clean).
function(grt_cc_fuzzer)
  if(NOT GRT_BUILD_FUZZERS OR NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    return()
  endif()
  cmake_parse_arguments(ARG "" "NAME;CORPUS;SECONDS;DICT" "SRCS;DEPS;LABELS"
                        ${ARGN})
  grt_cc_binary(NAME ${ARG_NAME} SRCS ${ARG_SRCS} DEPS ${ARG_DEPS})
  target_compile_options(${ARG_NAME} PRIVATE -fsanitize=fuzzer)
  target_link_options(${ARG_NAME} PRIVATE -fsanitize=fuzzer)
  if(NOT GRT_BUILD_TESTS OR NOT ARG_CORPUS)
    return()
  endif()
  set(work "${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME}_corpus_work")
  set(dict "")
  if(ARG_DICT)
    set(dict "-dict=${ARG_DICT}")
  endif()
  add_test(NAME ${ARG_NAME}
           COMMAND sh -c "rm -rf \"$1\" && cp -r \"$2\" \"$1\" && exec \"$0\" -max_total_time=${ARG_SECONDS} -timeout=10 -rss_limit_mb=2048 ${dict} \"$1\""
                   $<TARGET_FILE:${ARG_NAME}> "${work}" "${ARG_CORPUS}")
  set_tests_properties(${ARG_NAME} PROPERTIES LABELS "${ARG_LABELS}")
  grt_sanitizer_test_environment(${ARG_NAME})
endfunction()

# grt_cc_test(NAME <target> SRCS <files...> [DEPS <targets...>]
#             [ARGS <args...>] [LABELS <labels...>])
# A cmocka test registered with ctest. Binaries land in build/tests/.
function(grt_cc_test)
  if(NOT GRT_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "NAME" "SRCS;DEPS;ARGS;LABELS" ${ARGN})
  add_executable(${ARG_NAME} ${ARG_SRCS})
  target_include_directories(${ARG_NAME} PRIVATE ${CMOCKA_INCLUDE_DIR})
  target_compile_options(${ARG_NAME} PRIVATE ${GRT_C_WARNINGS})
  target_link_libraries(${ARG_NAME} PRIVATE ${ARG_DEPS} ${CMOCKA_LIBRARY})
  set_target_properties(${ARG_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY
                        "${CMAKE_BINARY_DIR}/tests")
  add_test(NAME ${ARG_NAME} COMMAND ${ARG_NAME} ${ARG_ARGS})
  if(ARG_LABELS)
    set_tests_properties(${ARG_NAME} PROPERTIES LABELS "${ARG_LABELS}")
  endif()
  grt_sanitizer_test_environment(${ARG_NAME})
endfunction()

# Every foo_test.c beside the code in the calling folder becomes test
# <prefix>_foo_test linked against DEPS, except the stems named in EXCLUDE.
function(grt_cc_tests_in_folder)
  cmake_parse_arguments(ARG "" "PREFIX" "DEPS;LABELS;EXCLUDE" ${ARGN})
  file(GLOB test_srcs CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*_test.c")
  foreach(src ${test_srcs})
    get_filename_component(stem "${src}" NAME_WE)
    if(stem IN_LIST ARG_EXCLUDE)
      continue()
    endif()
    grt_cc_test(NAME ${ARG_PREFIX}_${stem} SRCS "${src}" DEPS ${ARG_DEPS}
                LABELS ${ARG_LABELS})
  endforeach()
endfunction()
