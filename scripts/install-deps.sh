#!/usr/bin/env bash
# What grt needs to build and test, checked by what is there (a command, a
# header, a data folder, a Python module), not by asking a package
# manager, so a machine that already has everything builds without root
# and without dpkg. Only when something is missing does it name the
# Debian packages; as root on a Debian-like machine it installs them with
# apt-get, otherwise it prints the exact command and fails, so `make` never
# half-builds. `make deps` runs it; `make run` and `make test` call it first.
#
#   scripts/install-deps.sh           check, install what is missing
#   scripts/install-deps.sh --check   check only: list what is missing
#
# Optional entries (the benchmark anchors) are installed when possible, but
# their absence only prints a note: the benchmarks say the anchor is
# missing and still run.
set -euo pipefail

check_only=0
case "${1:-}" in
  "") ;;
  --check) check_only=1 ;;
  *) echo "install-deps.sh: unknown argument '$1' (expected --check or nothing)" >&2; exit 2 ;;
esac

PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

has_cmd() { command -v "$1" >/dev/null 2>&1; }
has_file() { local f; for f in "$@"; do [ -e "$f" ] && return 0; done; return 1; }
# Found without importing it (importing torch takes seconds).
has_py() {
  "$PY" -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('$1') is None)" \
    >/dev/null 2>&1
}

# package | required or optional | probe (a bash command) | why
ENTRIES=(
  "cmake|required|has_cmd cmake|the build"
  "ninja-build|required|has_cmd ninja|fast parallel builds"
  "make|required|has_cmd make|the thin wrapper users type"
  "gcc|required|has_cmd gcc|primary compiler"
  "clang|required|has_cmd clang|second compiler; builds the sanitizer tree"
  "g++|required|has_cmd g++|compiles the CUDA C kernels on the CPU (compiler/target/cuda/emulate_test.c)"
  "libclang-rt-14-dev|required|has_file /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.asan-*.a|ASan/UBSan and libFuzzer runtimes for clang"
  "libcmocka-dev|required|has_file /usr/include/cmocka.h /usr/local/include/cmocka.h|unit tests"
  "flatbuffers-compiler|required|has_cmd flatc|flatc: cross-checks our FlatBuffers against the reference"
  "python3|required|has_cmd $PY|the test scripts and checkers"
  "python3-numpy|required|has_py numpy|cross-checks our .npy reader/writer against numpy"
  "libvulkan-dev|required|has_file /usr/include/vulkan/vulkan.h|Vulkan headers (hal/drivers/vulkan; the loader is dlopen()ed)"
  "mesa-vulkan-drivers|required|has_file /usr/share/vulkan/icd.d/lvp_icd*.json|lavapipe: a CPU Vulkan device, so Vulkan tests run without a GPU"
  "vulkan-validationlayers|required|has_file /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json|VK_LAYER_KHRONOS_validation: tests fail on any message"
  "glslang-tools|required|has_cmd glslangValidator|glslangValidator: the conformance suite's GLSL kernels -> SPIR-V"
  "spirv-tools|required|has_cmd spirv-val|spirv-val: checks SPIR-V before it is embedded"
  "libshaderc-dev|required|has_file /usr/include/shaderc/shaderc.h|shaderc: grt-compile --target=vulkan compiles GLSL to SPIR-V"
  "glslang-dev|required|has_file /usr/lib/*/libglslang.a /usr/lib/libglslang.a|the static glslang that shaderc_combined.a needs"
  "libprotobuf-c-dev|required|has_file /usr/include/protobuf-c/protobuf-c.h|ONNX input: the protobuf runtime compiler/onnx decodes models with"
  "protobuf-c-compiler|required|has_cmd protoc-c|protoc-c: generates the ONNX reader from onnx.proto at build time"
  "libonnx-dev|required|has_file /usr/include/onnx/onnx.proto|/usr/include/onnx/onnx.proto, the ONNX schema"
  "libonnx-testdata|required|has_file /usr/share/libonnx-testdata/data/node|ONNX's backend node tests, run by tests/onnx"
  "python3-onnx|required|has_py onnx|tests/onnx: reads the test data, builds test models"
  "python3-mpmath|required|has_py mpmath|scripts/fit_chlo_erf.py: the reference erf for the CHLO fits"
  "python3-torch|required|has_py torch|tests/onnx: PyTorch models exported to ONNX and their outputs"
  "python3-torchvision|required|has_py torchvision|tests/onnx: ResNet-18 and MobileNetV2 definitions"
  "libsodium-dev|required|has_file /usr/include/sodium.h|Ed25519 module signatures (grt-sign, grt-compile --sign-key, grt-run --trusted-key)"
  "pkgconf|required|has_cmd pkg-config|pkg-config: tests/install links a consumer with grt.pc"
  "gcc-aarch64-linux-gnu|required|has_cmd aarch64-linux-gnu-gcc|the cross compiler of cmake/toolchains/aarch64-linux-gnu.cmake"
  "libc6-dev-arm64-cross|required|has_file /usr/aarch64-linux-gnu/include/stdio.h|the aarch64 C library and headers that cross builds link against"
  "qemu-user-static|required|has_cmd qemu-aarch64-static|qemu-aarch64-static: runs the aarch64 cross-built binaries on x86-64"
  "valgrind|optional|has_cmd valgrind|runtime_tamper_suite_valgrind: the tamper suite under memcheck (skipped without it)"
  "lua5.4|optional|has_cmd lua5.4|the anchor bench/vm times the VM interpreter against"
  "libopenblas-dev|optional|has_file /usr/include/*/cblas.h /usr/include/cblas.h /usr/include/openblas/cblas.h|the sgemm anchor bench/matmul and bench_compiler time kernels against"
)

missing=()
missing_optional=()
for entry in "${ENTRIES[@]}"; do
  IFS='|' read -r pkg kind probe why <<<"$entry"
  if ! eval "$probe"; then
    if [ "$kind" = required ]; then
      missing+=("$pkg")
    else
      missing_optional+=("$pkg")
    fi
    echo "install-deps: missing ${kind} ${pkg}: ${why}" >&2
  fi
done

if [ ${#missing[@]} -eq 0 ] && [ ${#missing_optional[@]} -eq 0 ]; then
  exit 0
fi
if [ "$check_only" -eq 1 ]; then
  [ ${#missing[@]} -eq 0 ]
  exit $?
fi

all=("${missing[@]}" "${missing_optional[@]}")
can_install=0
if [ "$(id -u)" -eq 0 ] && has_cmd apt-get; then
  can_install=1
fi
if [ "$can_install" -eq 0 ]; then
  if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: only optional benchmark anchors are missing (${missing_optional[*]}); building without them" >&2
    exit 0
  fi
  echo "grt needs these Debian packages: ${missing[*]}" >&2
  echo "install them with:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${all[*]}" >&2
  echo "(or provide what each line above names by other means)" >&2
  exit 1
fi

echo "installing: ${all[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" ${missing_optional[@]+"${missing_optional[@]}"}; then
  # An optional anchor that this distribution lacks must not stop the build.
  [ ${#missing[@]} -eq 0 ] || apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
