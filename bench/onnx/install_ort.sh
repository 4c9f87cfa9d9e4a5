#!/usr/bin/env bash
# Installs ONNX Runtime for Node (onnxruntime-node, CPU, from npm) under
# BUILD_DIR/bench/onnx/ort unless it is there already, and prints that npm
# prefix (what ort_bench.js takes as --ort).
#
#   bench/onnx/install_ort.sh BUILD_DIR
#
# ONNXRUNTIME_NODE_INSTALL=skip keeps the package's install script from
# fetching GPU runtimes: the CPU libraries ship in the package itself.
set -euo pipefail

build=${1:?usage: bench/onnx/install_ort.sh BUILD_DIR}
prefix="$build/bench/onnx/ort"
if [ ! -f "$prefix/node_modules/onnxruntime-node/package.json" ]; then
  command -v npm >/dev/null || {
    echo "bench/onnx: npm not found; it installs onnxruntime-node" >&2
    exit 1
  }
  mkdir -p "$prefix"
  echo "bench/onnx: installing onnxruntime-node into $prefix" >&2
  ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix "$prefix" \
    --no-audit --no-fund onnxruntime-node >&2
fi
echo "$prefix"
