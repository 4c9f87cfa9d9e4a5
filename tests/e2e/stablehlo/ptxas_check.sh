#!/usr/bin/env bash
# One StableHLO file through the CUDA target: compile it with grt-compile
# --target=cuda (once as given, once with --cuda-allow-tf32 so f32 matmuls
# take the tensor-core path), extract the PTX with grt-dump --extract and
# assemble every module with ptxas for sm_80 and sm_90.
#
#   ptxas_check.sh GRT_COMPILE GRT_DUMP PTXAS SOURCE.mlir WORKDIR
#
# Prints "skipped: <reason>" and exits 77 (ctest's SKIP_RETURN_CODE) when NVRTC
# cannot be loaded, or when PTXAS is empty (after compiling).
set -u
compile=$1 dump=$2 ptxas=$3 source=$4 work=$5
rm -rf "$work"
mkdir -p "$work"
assembled=0
for variant in default tf32; do
  flags=()
  [ "$variant" = tf32 ] && flags=(--cuda-allow-tf32)
  vmfb="$work/$variant.vmfb"
  if ! out=$("$compile" --target=cuda ${flags[@]+"${flags[@]}"} "$source" -o "$vmfb" 2>&1); then
    if grep -q "cuda target needs NVRTC" <<<"$out"; then
      echo "skipped: $out"
      exit 77
    fi
    echo "$out" >&2
    echo "FAILED: grt-compile --target=cuda ${flags[*]+${flags[*]}} could not compile $source" >&2
    exit 1
  fi
  if ! "$dump" --extract="$work/$variant" "$vmfb" >/dev/null 2>"$work/$variant.log"; then
    cat "$work/$variant.log" >&2
    echo "FAILED: grt-dump --extract on $vmfb" >&2
    exit 1
  fi
  # A module without kernels has no executable; one with kernels must
  # carry exactly the PTX.
  written=$(grep -c "grt-dump: wrote" "$work/$variant.log")
  shopt -s nullglob
  modules=("$work/$variant"/*.ptx)
  shopt -u nullglob
  if [ "$written" -ne "${#modules[@]}" ]; then
    cat "$work/$variant.log" >&2
    echo "FAILED: $vmfb holds executables other than cuda-ptx" >&2
    exit 1
  fi
  [ -n "$ptxas" ] || continue
  for ptx in ${modules[@]+"${modules[@]}"}; do
    for arch in sm_80 sm_90; do
      if ! log=$("$ptxas" -arch=$arch -o /dev/null "$ptx" 2>&1); then
        echo "$log" >&2
        echo "FAILED: ptxas -arch=$arch rejects $ptx ($variant, from $source)" >&2
        exit 1
      fi
      assembled=$((assembled + 1))
    done
  done
done
if [ -z "$ptxas" ]; then
  echo "skipped: ptxas not found (the PTX was compiled by NVRTC but not assembled)"
  exit 77
fi
echo "ok: $assembled ptxas runs for $(basename "$source")"
