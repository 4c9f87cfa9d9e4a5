func.func @main(%a: tensor<3xcomplex<f32>>, %b: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %c = stablehlo.constant dense<[(1.0, 2.0), (-0.5, 0.0), (0.0, 3.0)]> : tensor<3xcomplex<f32>>
  %s = stablehlo.constant dense<(2.5, -1.0)> : tensor<3xcomplex<f32>>
  %0 = stablehlo.multiply %a, %c : tensor<3xcomplex<f32>>
  %1 = stablehlo.divide %0, %b : tensor<3xcomplex<f32>>
  %2 = stablehlo.sqrt %1 : tensor<3xcomplex<f32>>
  %3 = stablehlo.abs %2 : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %4 = stablehlo.real %2 : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %5 = stablehlo.complex %3, %4 : tensor<3xcomplex<f32>>
  %6 = stablehlo.compare EQ, %5, %s : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xi1>
  %7 = stablehlo.select %6, %5, %s : tensor<3xi1>, tensor<3xcomplex<f32>>
  %z = stablehlo.constant dense<(0.0, 0.0)> : tensor<complex<f32>>
  %8 = stablehlo.reduce(%7 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<3xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
  %9 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<complex<f32>>) -> tensor<3xcomplex<f32>>
  %10 = stablehlo.convert %9 : (tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f64>>
  %11 = stablehlo.convert %10 : (tensor<3xcomplex<f64>>) -> tensor<3xcomplex<f32>>
  return %11 : tensor<3xcomplex<f32>>
}
