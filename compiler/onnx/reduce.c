// ONNX ops: reductions, Softmax, ArgMax/ArgMin, TopK, CumSum.
#include "compiler/onnx/internal.h"

const grtc_onnx_op_def_t grtc_onnx_reduce_ops[] = {
    {NULL, NULL, 0, 0, 0, 0, 0},
};
