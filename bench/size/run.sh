#!/usr/bin/env bash
# bench/size/run.sh BUILD_DIR [ARCH...]
#
# How many bytes the runtime adds to an application, in the smallest
# deployment: grt configured runtime-only (local-sync, static kernels only:
# no dlopen or ELF loader, no op names, no check module, no trace points;
# MinSizeRel, -ffunction-sections/-fdata-sections, no unwind tables) for
# each ARCH (default: x86_64 aarch64), installed to a scratch
# prefix, and samples/static_embedding (its module and kernels linked in as
# c-static, written by BUILD_DIR's grt-compile) linked against it with the
# same flags, -Os and --gc-sections, then stripped. grt is C and never
# unwinds, so -fno-asynchronous-unwind-tables -fno-unwind-tables drop only
# .eh_frame: the program file shrinks, grt's text does not. The link map
# says which bytes came from grt's libraries (libgrt*.a): text, rodata,
# relro (pointer tables), data, bss. The anchor
# is IREE's runtime at about 62 KB of text (its published minimal-build
# figure; it cannot be built here), and the goal 48 KB.
#
# aarch64 uses cmake/toolchains/aarch64-linux-gnu.cmake (gcc-aarch64-linux-gnu)
# and runs the program under qemu-aarch64-static to show it works.
# Each architecture is measured twice: as above (messages ON: the issue's
# minimal configuration, failures with their messages), and with
# GRT_STATUS_MESSAGES=OFF on top (messages OFF: a failure reports its
# status code alone, and no message format strings are compiled in).
# MESSAGES="ON OFF" (the default) picks which.
# WORK (default BUILD_DIR/bench/size) keeps the trees between runs
# (WORK/ARCH for messages ON, WORK/ARCH-codes for OFF).
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: bench/size/run.sh BUILD_DIR [x86_64|aarch64]..." >&2
  exit 2
fi
build=$(cd "$1" && pwd)
shift
archs=("$@")
[ ${#archs[@]} -gt 0 ] || archs=(x86_64 aarch64)
src=$(cd "$(dirname "$0")/../.." && pwd)
work=${WORK:-$build/bench/size}
compile=$build/bin/grt-compile
[ -x "$compile" ] || { echo "bench/size: no $compile (build grt-compile first)" >&2; exit 1; }
iree_text=62
goal_text=48
expected='add([1 2 3 4], [10 20 30 40.5]) = [11 22 33 44.5]'
size_flags="-ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables -fno-unwind-tables"

rows=()
read -r -a variants <<<"${MESSAGES:-ON OFF}"
for arch in "${archs[@]}"; do
  case $arch in
    x86_64) cc=${CC:-cc}; toolchain=(); run=(); cpu_target=() ;;
    aarch64)
      cc=aarch64-linux-gnu-gcc
      toolchain=(-DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchains/aarch64-linux-gnu.cmake")
      run=(qemu-aarch64-static -L /usr/aarch64-linux-gnu)
      cpu_target=(--cpu-target=aarch64-linux-gnu) ;;
    *) echo "bench/size: unknown architecture '$arch' (expected x86_64 or aarch64)" >&2; exit 2 ;;
  esac
  command -v "$cc" >/dev/null || { echo "bench/size: $cc not found (scripts/install-deps.sh installs it)" >&2; exit 1; }
  for messages in "${variants[@]}"; do
    case $messages in
      ON) dir=$work/$arch ;;
      OFF) dir=$work/$arch-codes ;;
      *) echo "bench/size: MESSAGES: unknown value '$messages' (expected ON and/or OFF)" >&2; exit 2 ;;
    esac
    mkdir -p "$dir"
    echo "== $arch, status messages $messages: minimal runtime (local-sync, static kernels only, no op names, no check module, no trace points, MinSizeRel, $size_flags)" >&2
    cmake -S "$src" -B "$dir/build" -G Ninja "${toolchain[@]}" -DCMAKE_BUILD_TYPE=MinSizeRel \
      -DGRT_BUILD_COMPILER=OFF -DGRT_BUILD_TESTS=OFF -DGRT_BUILD_TOOLS=OFF \
      -DGRT_BUILD_PYTHON=OFF -DGRT_HAL_DRIVERS=local-sync -DGRT_ENABLE_DLOPEN_LOADER=OFF \
      -DGRT_VM_OP_NAMES=OFF -DGRT_ENABLE_ELF_LOADER=OFF -DGRT_ENABLE_CHECK_MODULE=OFF \
      -DGRT_ENABLE_TRACING=OFF -DGRT_STATUS_MESSAGES="$messages" \
      -DCMAKE_C_FLAGS="$size_flags" \
      > "$dir/configure.log" || { cat "$dir/configure.log" >&2; exit 1; }
    cmake --build "$dir/build" -j 2 > "$dir/build.log" || { tail -40 "$dir/build.log" >&2; exit 1; }
    rm -rf "$dir/prefix"
    cmake --install "$dir/build" --prefix "$dir/prefix" > "$dir/install.log"
    "$compile" --output-format=c-static --c-static-name=static_add "${cpu_target[@]}" \
      "$src/samples/static_embedding/add.mlir" -o "$dir/static_add.c"
    flags=$(PKG_CONFIG_LIBDIR="$dir/prefix/lib/pkgconfig" PKG_CONFIG_PATH='' \
            pkg-config --cflags --libs --static grt)
    # shellcheck disable=SC2086  # the flags are words
    "$cc" -std=c11 -Os $size_flags -w -o "$dir/app" \
      "$src/samples/static_embedding/static_embedding.c" "$dir/static_add.c" -I"$dir" \
      $flags -Wl,--gc-sections -Wl,-Map="$dir/app.map" -s
    out=$("${run[@]}" "$dir/app" local-sync)
    [ "$out" = "$expected" ] || { echo "bench/size: $arch program printed '$out', expected '$expected'" >&2; exit 1; }
    sizes=$(/usr/bin/python3 "$src/bench/size/section_sizes.py" "$dir/app.map" 'libgrt*.a')
    get() { awk -v k="$1" -v c="$2" '$1 == k { print $c }' <<<"$sizes"; }
    text=$(get text 2) rodata=$(get rodata 2) relro=$(get relro 2) data=$(get data 2) bss=$(get bss 2)
    file=$(stat -c %s "$dir/app")
    rows+=("$(awk -v a="$arch" -v m="$messages" -v t="$text" -v r="$rodata" -v p="$relro" \
      -v d="$data" -v b="$bss" -v f="$file" -v iree="$iree_text" -v goal="$goal_text" 'BEGIN {
        k = 1024; printf "%-8s %-8s %9.1f %9.1f %9.1f %9.1f %9.1f %10.1f %8.2f %8.2f", a, m,
          t / k, r / k, p / k, d / k, b / k, f / k, t / k / iree, t / k / goal }')")
  done
done
echo "grt's share of a stripped static_embedding (KB = 1024 bytes; the program file includes libc)"
echo "(messages ON: the minimal configuration, failures with their messages; OFF: also"
echo " GRT_STATUS_MESSAGES=OFF, failures report their status code alone)"
printf '%-8s %-8s %9s %9s %9s %9s %9s %10s %8s %8s\n' arch messages text rodata relro data \
  bss "file" "/IREE62" "/goal48"
printf '%s\n' "${rows[@]}"
