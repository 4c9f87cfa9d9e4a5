// The conformance suite's kernels for the "vulkan-spirv" format: the same
// bindings, constants and semantics as cts_kernels.c. CMake compiles this
// file once per kernel with -D<KERNEL> (glslangValidator -V), giving one
// SPIR-V module with entry point "main" per kernel.
//
// Elements are indexed by the global invocation id flattened x-fastest
// over the whole grid, and every access is checked against the binding's
// length (the descriptor range): tests dispatch more invocations than
// there are elements.
#version 450

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

uint global_index() {
  uvec3 id = gl_WorkGroupID;
  uvec3 count = gl_NumWorkGroups;
  uint linear = (id.z * count.y + id.y) * count.x + id.x;
  return linear * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
}

#if defined(FILL_INDEX_U32)
// out[i] = i + constants[0]
layout(set = 0, binding = 0) buffer Out { uint values[]; } out_buffer;
layout(push_constant) uniform Constants { uint base; } constants;
void main() {
  uint i = global_index();
  if (i < uint(out_buffer.values.length())) out_buffer.values[i] = i + constants.base;
}
#elif defined(ADD_F32)
// out[i] = a[i] + b[i]
layout(set = 0, binding = 0) readonly buffer A { float values[]; } a;
layout(set = 0, binding = 1) readonly buffer B { float values[]; } b;
layout(set = 0, binding = 2) buffer Out { float values[]; } out_buffer;
void main() {
  uint i = global_index();
  uint n = min(min(uint(a.values.length()), uint(b.values.length())),
               uint(out_buffer.values.length()));
  if (i < n) out_buffer.values[i] = a.values[i] + b.values[i];
}
#elif defined(SCALE_F32)
// out[i] = in[i] * scale, the scale's bits in constants[0]
layout(set = 0, binding = 0) readonly buffer In { float values[]; } in_buffer;
layout(set = 0, binding = 1) buffer Out { float values[]; } out_buffer;
layout(push_constant) uniform Constants { uint scale_bits; } constants;
void main() {
  uint i = global_index();
  uint n = min(uint(in_buffer.values.length()), uint(out_buffer.values.length()));
  if (i < n) {
    out_buffer.values[i] = in_buffer.values[i] * uintBitsToFloat(constants.scale_bits);
  }
}
#elif defined(ACCUMULATE)
// x = x * 2 + 1
layout(set = 0, binding = 0) buffer InOut { uint values[]; } buffer_;
void main() {
  uint i = global_index();
  if (i < uint(buffer_.values.length())) buffer_.values[i] = buffer_.values[i] * 2u + 1u;
}
#elif defined(FAIL) || defined(NOOP)
// A shader cannot report a failure code: "fail" is a no-op here, and the
// test that needs a failing kernel is listed in exceptions.txt.
void main() {}
#else
#error "define one kernel: FILL_INDEX_U32, ADD_F32, SCALE_F32, ACCUMULATE, FAIL, NOOP"
#endif
