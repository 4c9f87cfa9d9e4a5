# Cross-compiling grt for 64-bit ARM Linux with Debian's cross toolchain
# (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross; scripts/install-deps.sh):
#
#   cmake -S . -B build-aarch64 -G Ninja \
#     -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake \
#     -DGRT_BUILD_COMPILER=OFF -DGRT_BUILD_TESTS=OFF
#
# The compiler is a host tool: build grt-compile in a native tree and give
# it --cpu-cc=aarch64-linux-gnu-gcc for aarch64 kernels (docs/building.md).
# With qemu-user-static installed, binaries of this tree run on an x86-64
# host through CMAKE_CROSSCOMPILING_EMULATOR (and binfmt, where enabled).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(GRT_CROSS_TRIPLE aarch64-linux-gnu)
set(GRT_CROSS_SYSROOT "/usr/${GRT_CROSS_TRIPLE}" CACHE PATH
    "Where the target's libraries and headers are (Debian: libc6-dev-arm64-cross)")

find_program(GRT_CROSS_CC ${GRT_CROSS_TRIPLE}-gcc)
if(NOT GRT_CROSS_CC)
  message(FATAL_ERROR "${GRT_CROSS_TRIPLE}-gcc not found: run "
                      "scripts/install-deps.sh (apt-get install "
                      "gcc-aarch64-linux-gnu libc6-dev-arm64-cross)")
endif()
set(CMAKE_C_COMPILER "${GRT_CROSS_CC}")

# Libraries and headers from the target's tree only (so no x86-64 Vulkan or
# CUDA headers are picked up); programs (protoc-c, flatc) from the host.
set(CMAKE_FIND_ROOT_PATH "${GRT_CROSS_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

find_program(GRT_QEMU_AARCH64 NAMES qemu-aarch64-static qemu-aarch64)
if(GRT_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${GRT_QEMU_AARCH64};-L;${GRT_CROSS_SYSROOT}")
endif()
