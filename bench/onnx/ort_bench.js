#!/usr/bin/env node
// Times one .onnx model through ONNX Runtime (onnxruntime-node, CPU), the
// anchor of bench/onnx/run.sh.
//
//   node ort_bench.js --ort DIR --model M.onnx (--input X.npy | --random SHAPE)
//                     [--threads N] [--runs N] [--warmup N] [--seed N]
//
//   --ort DIR       the npm prefix onnxruntime-node is installed under
//                   (DIR/node_modules/onnxruntime-node)
//   --input X.npy   the model's first input, read from a .npy file
//   --random SHAPE  or made from a fixed seed: 1x3x224x224xf32, 1x16xi64
//                   (floats uniform in [-1, 1), integers in [0, 100))
//   --threads N     intraOpNumThreads (default 1; interOpNumThreads is 1)
//   --runs N        timed runs (default 10) after --warmup N (default 2)
//
// Prints one JSON object: {"model", "threads", "runs", "times_ms",
// "min_ms", "median_ms"}. Each time is one session.run, feeds prepared
// beforehand. Errors go to stderr with exit status 1.
'use strict';

const fs = require('fs');
const path = require('path');

function fail(message) {
  process.stderr.write(`ort_bench: ${message}\n`);
  process.exit(1);
}

function parseArgs(argv) {
  const args = {threads: 1, runs: 10, warmup: 2, seed: 0};
  const numeric = new Set(['threads', 'runs', 'warmup', 'seed']);
  for (let i = 0; i < argv.length; ++i) {
    const m = /^--([a-z]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m) fail(`unexpected argument '${argv[i]}'`);
    const name = m[1];
    if (!['ort', 'model', 'input', 'random', ...numeric].includes(name)) {
      fail(`unknown flag '--${name}'; valid flags: --ort, --model, --input, ` +
           '--random, --threads, --runs, --warmup, --seed');
    }
    let value = m[2];
    if (value === undefined) {
      if (i + 1 >= argv.length) fail(`flag '--${name}' needs a value`);
      value = argv[++i];
    }
    if (numeric.has(name)) {
      const n = Number(value);
      const least = name === 'runs' || name === 'threads' ? 1 : 0;
      if (!Number.isInteger(n) || n < least) {
        fail(`--${name}=${value}: expected a whole number of at least ${least}`);
      }
      args[name] = n;
    } else {
      args[name] = value;
    }
  }
  if (!args.ort) fail('no --ort DIR given (the npm prefix of onnxruntime-node)');
  if (!args.model) fail('no --model FILE.onnx given');
  if (!args.input === !args.random) {
    fail('expected exactly one of --input X.npy and --random SHAPE');
  }
  return args;
}

// numpy dtype -> [ORT tensor type, typed array constructor].
const NPY_TYPES = {
  '<f4': ['float32', Float32Array], '<f8': ['float64', Float64Array],
  '<f2': ['float16', Uint16Array], '<i8': ['int64', BigInt64Array],
  '<i4': ['int32', Int32Array], '<i2': ['int16', Int16Array],
  '|i1': ['int8', Int8Array], '<u8': ['uint64', BigUint64Array],
  '<u4': ['uint32', Uint32Array], '<u2': ['uint16', Uint16Array],
  '|u1': ['uint8', Uint8Array], '|b1': ['bool', Uint8Array],
};

// Reads the first array of a .npy file (format 1.0, 2.0 or 3.0).
function readNpy(file) {
  const bytes = fs.readFileSync(file);
  if (bytes.length < 10 || bytes.toString('latin1', 0, 6) !== '\x93NUMPY') {
    fail(`${file}: not a .npy file (no \\x93NUMPY magic)`);
  }
  const major = bytes[6];
  if (major < 1 || major > 3) fail(`${file}: unsupported .npy version ${major}`);
  const headerLength = major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = bytes.toString('latin1', start, start + headerLength);
  const descr = /'descr':\s*'([^']*)'/.exec(header);
  const order = /'fortran_order':\s*(True|False)/.exec(header);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !order || !shape) fail(`${file}: malformed header ${header}`);
  if (order[1] === 'True') fail(`${file}: fortran_order arrays are not supported`);
  const type = NPY_TYPES[descr[1]];
  if (!type) fail(`${file}: unsupported dtype '${descr[1]}'`);
  const dims = shape[1].split(',').map(s => s.trim()).filter(s => s).map(Number);
  const count = dims.reduce((a, b) => a * b, 1);
  const Array = type[1];
  const dataStart = start + headerLength;
  const need = count * Array.BYTES_PER_ELEMENT;
  if (bytes.length < dataStart + need) {
    fail(`${file}: holds ${bytes.length - dataStart} data bytes, its header ` +
         `declares ${need}`);
  }
  // Copied so the typed array is aligned whatever the header length.
  const data = new Array(count);
  Buffer.from(data.buffer).set(bytes.subarray(dataStart, dataStart + need));
  return {type: type[0], data, dims};
}

// SHAPE such as 1x3x224x224xf32, filled from a fixed-seed generator.
function makeRandom(spec, seed) {
  const parts = spec.split('x');
  const element = parts.pop();
  const dims = parts.map(Number);
  if (!dims.every(d => Number.isInteger(d) && d >= 0)) {
    fail(`--random=${spec}: expected a shape such as 1x3x224x224xf32`);
  }
  const count = dims.reduce((a, b) => a * b, 1);
  let state = (seed >>> 0) || 0x9e3779b9;
  const next = () => {  // xorshift32, in [0, 1)
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state / 4294967296;
  };
  switch (element) {
    case 'f32': {
      const data = new Float32Array(count);
      for (let i = 0; i < count; ++i) data[i] = next() * 2 - 1;
      return {type: 'float32', data, dims};
    }
    case 'i64': {
      const data = new BigInt64Array(count);
      for (let i = 0; i < count; ++i) data[i] = BigInt(Math.floor(next() * 100));
      return {type: 'int64', data, dims};
    }
    case 'i32': {
      const data = new Int32Array(count);
      for (let i = 0; i < count; ++i) data[i] = Math.floor(next() * 100);
      return {type: 'int32', data, dims};
    }
    default:
      fail(`--random=${spec}: element type '${element}' is not one of f32, i64, i32`);
  }
  return null;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const modulePath = path.resolve(args.ort, 'node_modules', 'onnxruntime-node');
  let ort;
  try {
    ort = require(modulePath);
  } catch (e) {
    fail(`cannot load onnxruntime-node from ${modulePath}: ${e.message}`);
  }
  const session = await ort.InferenceSession.create(args.model, {
    intraOpNumThreads: args.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const value = args.input ? readNpy(args.input) : makeRandom(args.random, args.seed);
  const feeds = {};
  feeds[session.inputNames[0]] = new ort.Tensor(value.type, value.data, value.dims);
  for (let i = 0; i < args.warmup; ++i) await session.run(feeds);
  const times = [];
  for (let i = 0; i < args.runs; ++i) {
    const start = process.hrtime.bigint();
    await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  process.stdout.write(JSON.stringify({
    model: args.model, threads: args.threads, runs: args.runs,
    times_ms: times, min_ms: sorted[0], median_ms: median,
  }) + '\n');
  if (session.release) await session.release();
}

main().catch(e => fail(e && e.message ? e.message : String(e)));
