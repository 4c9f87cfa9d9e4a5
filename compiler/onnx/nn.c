// ONNX ops: convolutions, pools, normalizations, MatMul, Gemm, Einsum, Resize.
#include "compiler/onnx/internal.h"

const grtc_onnx_op_def_t grtc_onnx_nn_ops[] = {
    {NULL, NULL, 0, 0, 0, 0, 0},
};
