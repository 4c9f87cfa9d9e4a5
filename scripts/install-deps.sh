#!/usr/bin/env bash
# Installs the Debian packages grt needs to build and test, if any are
# missing. As root it runs apt-get; otherwise it prints the exact command to
# run and fails, so `make` never half-builds on a machine that lacks them.
set -euo pipefail

# package            why
PACKAGES=(
  cmake               # the build
  ninja-build         # fast parallel builds
  make                # the thin wrapper users type
  gcc                 # primary compiler
  clang               # second compiler; builds the sanitizer tree
  g++                 # compiles the CUDA C kernels on the CPU (compiler/target/cuda/emulate_test.c)
  libclang-rt-14-dev  # ASan/UBSan runtimes for clang
  libcmocka-dev       # unit tests
  flatbuffers-compiler # flatc: cross-checks our FlatBuffers against the reference
  lua5.4              # the anchor bench/vm times the VM interpreter against
  python3-numpy       # cross-checks our .npy reader/writer against numpy
  libopenblas-dev     # the sgemm anchor bench/matmul times the MATMUL kernel against
  libvulkan-dev       # Vulkan headers (hal/drivers/vulkan; the loader is dlopen()ed)
  mesa-vulkan-drivers # lavapipe: a CPU Vulkan device, so Vulkan tests run without a GPU
  vulkan-validationlayers # VK_LAYER_KHRONOS_validation: tests fail on any message
  glslang-tools       # glslangValidator: the conformance suite's GLSL kernels -> SPIR-V
  spirv-tools         # spirv-val: checks SPIR-V before it is embedded
  libshaderc-dev      # shaderc: grt-compile --target=vulkan compiles GLSL to SPIR-V
  glslang-dev         # the static glslang that shaderc_combined.a needs
  libprotobuf-c-dev   # ONNX input: the protobuf runtime compiler/onnx decodes models with
  protobuf-c-compiler # protoc-c: generates the ONNX reader from onnx.proto at build time
  libonnx-dev         # /usr/include/onnx/onnx.proto, the ONNX schema
  libonnx-testdata    # ONNX's backend node tests, run by tests/onnx
  python3-onnx        # tests/onnx: reads the test data, builds test models
  python3-mpmath      # scripts/fit_chlo_erf.py: the reference erf for the CHLO fits
  python3-torch       # tests/onnx: PyTorch models exported to ONNX and their outputs
  python3-torchvision # tests/onnx: ResNet-18 and MobileNetV2 definitions
  pkgconf             # pkg-config: tests/install links a consumer with grt.pc
  gcc-aarch64-linux-gnu # the cross compiler of cmake/toolchains/aarch64-linux-gnu.cmake
  libc6-dev-arm64-cross # the aarch64 C library and headers that cross builds link against
  qemu-user-static    # qemu-aarch64-static: runs the aarch64 cross-built binaries on x86-64
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "grt needs these Debian packages: ${missing[*]}" >&2
  echo "install them with:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi

echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
