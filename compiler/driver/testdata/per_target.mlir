// Kernels a CPU and a GPU tile differently (compiler/driver/per_target_test.sh):
// the matmul's (m, n) tiles are 78x256 on the CPU (8 workgroups) and
// 128x128 with CUDA (12); the 200x500 elementwise kernel covers 64K
// elements a workgroup on the CPU (2) and 8K with CUDA (13).
func.func @main(%a: tensor<300x200xf32>, %b: tensor<200x500xf32>, %c: tensor<200x500xf32>) -> (tensor<300x500xf32>, tensor<200x500xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<300x200xf32>, tensor<200x500xf32>) -> tensor<300x500xf32>
  %1 = stablehlo.multiply %c, %c : tensor<200x500xf32>
  return %0, %1 : tensor<300x500xf32>, tensor<200x500xf32>
}
