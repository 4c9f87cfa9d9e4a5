// A matmul big enough to be split into several workgroups: with a GPU
// target its (m, n) tiles are 128x128 (driver CLI test cuda_matmul_tiles).
func.func @main(%a: tensor<300x200xf32>, %b: tensor<200x500xf32>) -> tensor<300x500xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<300x200xf32>, tensor<200x500xf32>) -> tensor<300x500xf32>
  return %0 : tensor<300x500xf32>
}
