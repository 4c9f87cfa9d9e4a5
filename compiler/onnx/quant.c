// ONNX ops: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear and the QLinear ops.
#include "compiler/onnx/internal.h"

const grtc_onnx_op_def_t grtc_onnx_quant_ops[] = {
    {NULL, NULL, 0, 0, 0, 0, 0},
};
