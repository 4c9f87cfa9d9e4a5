// The HAL conformance suite's kernels as CUDA C, compiled to PTX at build
// time (nvcc -ptx) for the "cuda-ptx" row of kernels.c. Same names,
// bindings, constants and semantics as cts_kernels.c.
//
// Parameters follow the cuda driver's launch layout
// (hal/drivers/cuda/cuda_command_buffer.c): binding pointers, then the
// push constants as 32-bit words, then one 64-bit byte length per binding.
// Invocations are indexed by the global id flattened x-fastest over the
// whole grid, and every access is checked against its binding's length:
// tests dispatch more invocations than there are elements.
#include <stdint.h>

__device__ static uint64_t global_id() {
  uint64_t block = ((uint64_t)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x +
                   blockIdx.x;
  return block * blockDim.x + threadIdx.x;
}

extern "C" __global__ void fill_index_u32(uint32_t* out, uint32_t c0,
                                          uint64_t out_length) {
  uint64_t i = global_id();
  if (i < out_length / 4) out[i] = (uint32_t)i + c0;
}

extern "C" __global__ void add_f32(const float* a, const float* b, float* out,
                                   uint64_t a_length, uint64_t b_length,
                                   uint64_t out_length) {
  uint64_t i = global_id();
  if (i < a_length / 4 && i < b_length / 4 && i < out_length / 4) {
    out[i] = a[i] + b[i];
  }
}

extern "C" __global__ void scale_f32(const float* in, float* out,
                                     uint32_t scale_bits, uint64_t in_length,
                                     uint64_t out_length) {
  uint64_t i = global_id();
  if (i < in_length / 4 && i < out_length / 4) {
    out[i] = in[i] * __uint_as_float(scale_bits);
  }
}

extern "C" __global__ void accumulate(uint32_t* x, uint64_t x_length) {
  uint64_t i = global_id();
  if (i < x_length / 4) x[i] = x[i] * 2u + 1u;
}

// CUDA kernels cannot return a failure code (a trap would poison the whole
// context), so this one does nothing; exceptions.txt lists the test.
extern "C" __global__ void fail() {}

extern "C" __global__ void noop() {}
