// ONNX ops: If, Loop, Scan and the recurrent ops (LSTM, GRU, RNN).
#include "compiler/onnx/internal.h"

const grtc_onnx_op_def_t grtc_onnx_control_ops[] = {
    {NULL, NULL, 0, 0, 0, 0, 0},
};
