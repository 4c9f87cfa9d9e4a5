// Control flow whose tensors change size at run time: while loops whose
// carried tensors change size from one iteration to the next (concatenate,
// pad, real_dynamic_slice, dynamic_broadcast_in_dim in the body), and
// if/case whose branches yield different sizes, called at several sizes
// (docs/compiler.md "Symbolic shapes": "While loops", "Loops that change
// size"). The host program carries each such extent as a value of the
// loop or of the code after the if/case and allocates those buffers where
// they are made.
//
// Written by hand; the expected values come from numpy. Run by grt-check:
// test_* functions must pass, fail_* functions must fail.
module @e2e_symbolic_control_flow {
  // Appends a row of i + 1 to twice the rows so far, k times.
  func.func private @grow(%x: tensor<?x3xf32>, %k: tensor<i32>) -> tensor<?x3xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %two = stablehlo.constant dense<2.0> : tensor<f32>
    %r:2 = stablehlo.while(%i = %c0, %acc = %x) : tensor<i32>, tensor<?x3xf32>
     cond {
      %p = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      %tb = stablehlo.broadcast_in_dim %two, dims = [] : (tensor<f32>) -> tensor<?x3xf32>
      %d = stablehlo.multiply %acc, %tb : tensor<?x3xf32>
      %f = stablehlo.convert %i1 : (tensor<i32>) -> tensor<f32>
      %row = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<1x3xf32>
      %g = stablehlo.concatenate %d, %row, dim = 0 : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
      stablehlo.return %i1, %g : tensor<i32>, tensor<?x3xf32>
    }
    return %r#1 : tensor<?x3xf32>
  }

  // Drops the first row and halves the rest until one row is left; also
  // returns the column sums of what is left.
  func.func private @shrink(%x: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<3xf32>) {
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %half = stablehlo.constant dense<0.5> : tensor<f32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %r = stablehlo.while(%acc = %x) : tensor<?x3xf32>
     cond {
      %n = stablehlo.get_dimension_size %acc, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
      %p = stablehlo.compare GT, %n, %c1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %n = stablehlo.get_dimension_size %acc, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
      %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
      %c3 = stablehlo.constant dense<3> : tensor<1xi32>
      %lim = stablehlo.concatenate %n1, %c3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
      %st = stablehlo.constant dense<[1, 0]> : tensor<2xi32>
      %one = stablehlo.constant dense<1> : tensor<2xi32>
      %s = stablehlo.real_dynamic_slice %acc, %st, %lim, %one : (tensor<?x3xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x3xf32>
      %hb = stablehlo.broadcast_in_dim %half, dims = [] : (tensor<f32>) -> tensor<?x3xf32>
      %h = stablehlo.multiply %s, %hb : tensor<?x3xf32>
      stablehlo.return %h : tensor<?x3xf32>
    }
    %sum = stablehlo.reduce(%r init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<?x3xf32>, tensor<f32>) -> tensor<3xf32>
    return %r, %sum : tensor<?x3xf32>, tensor<3xf32>
  }

  // Adds 1 and pads two rows of i below, k times.
  func.func private @pad_grow(%x: tensor<?x3xf32>, %k: tensor<i32>) -> tensor<?x3xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %onef = stablehlo.constant dense<1.0> : tensor<f32>
    %r:2 = stablehlo.while(%i = %c0, %acc = %x) : tensor<i32>, tensor<?x3xf32>
     cond {
      %p = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      %ob = stablehlo.broadcast_in_dim %onef, dims = [] : (tensor<f32>) -> tensor<?x3xf32>
      %a = stablehlo.add %acc, %ob : tensor<?x3xf32>
      %f = stablehlo.convert %i : (tensor<i32>) -> tensor<f32>
      %g = stablehlo.pad %a, %f, low = [0, 0], high = [2, 0], interior = [0, 0] : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x3xf32>
      stablehlo.return %i1, %g : tensor<i32>, tensor<?x3xf32>
    }
    return %r#1 : tensor<?x3xf32>
  }

  // Broadcasts the column sums to twice the rows, k times.
  func.func private @double(%x: tensor<?x3xf32>, %k: tensor<i32>) -> tensor<?x3xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %r:2 = stablehlo.while(%i = %c0, %acc = %x) : tensor<i32>, tensor<?x3xf32>
     cond {
      %p = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      %s = stablehlo.reduce(%acc init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<?x3xf32>, tensor<f32>) -> tensor<3xf32>
      %n = stablehlo.get_dimension_size %acc, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
      %c2 = stablehlo.constant dense<2> : tensor<i32>
      %m = stablehlo.multiply %n, %c2 : tensor<i32>
      %m1 = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>
      %c3 = stablehlo.constant dense<3> : tensor<1xi32>
      %shape = stablehlo.concatenate %m1, %c3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
      %b = stablehlo.dynamic_broadcast_in_dim %s, %shape, dims = [1] : (tensor<3xf32>, tensor<2xi32>) -> tensor<?x3xf32>
      stablehlo.return %i1, %b : tensor<i32>, tensor<?x3xf32>
    }
    return %r#1 : tensor<?x3xf32>
  }

  // @grow's result concatenated with itself after the loop.
  func.func private @grow_twice(%x: tensor<?x3xf32>, %k: tensor<i32>) -> tensor<?x3xf32> {
    %r = func.call @grow(%x, %k) : (tensor<?x3xf32>, tensor<i32>) -> tensor<?x3xf32>
    %t = stablehlo.concatenate %r, %r, dim = 0 : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
    return %t : tensor<?x3xf32>
  }

  // An if whose branches yield 2n rows and 1 row; the result doubled.
  func.func private @pick(%p: tensor<i1>, %x: tensor<?x3xf32>) -> tensor<?x3xf32> {
    %r = "stablehlo.if"(%p) ({
      %c = stablehlo.concatenate %x, %x, dim = 0 : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
      stablehlo.return %c : tensor<?x3xf32>
    }, {
      %s = stablehlo.slice %x [0:1, 0:3] : (tensor<?x3xf32>) -> tensor<1x3xf32>
      %n = stablehlo.negate %s : tensor<1x3xf32>
      stablehlo.return %n : tensor<1x3xf32>
    }) : (tensor<i1>) -> tensor<?x3xf32>
    %t = stablehlo.add %r, %r : tensor<?x3xf32>
    return %t : tensor<?x3xf32>
  }

  // An if whose true branch drops x's last element (a real_dynamic_slice
  // whose size n - 1 is computed in the branch) and whose false branch
  // returns x: at n = 0 only the true branch's size is negative, so only
  // p = true fails the call (the size is computed where the branch runs).
  func.func private @drop_last(%p: tensor<i1>, %x: tensor<?xf32>) -> tensor<?xf32> {
    %r = "stablehlo.if"(%p) ({
      %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %m = stablehlo.subtract %n, %one : tensor<i32>
      %m1 = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>
      %z = stablehlo.constant dense<0> : tensor<1xi32>
      %s1 = stablehlo.constant dense<1> : tensor<1xi32>
      %y = stablehlo.real_dynamic_slice %x, %z, %m1, %s1 : (tensor<?xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
      stablehlo.return %y : tensor<?xf32>
    }, {
      stablehlo.return %x : tensor<?xf32>
    }) : (tensor<i1>) -> tensor<?xf32>
    return %r : tensor<?xf32>
  }

  // A case yielding %x, %x and a zero row, or %x padded with a row of 5
  // above and two below (the default); each row's sum broadcast.
  func.func private @choose(%i: tensor<i32>, %x: tensor<?x3xf32>) -> tensor<?x3xf32> {
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %five = stablehlo.constant dense<5.0> : tensor<f32>
    %r = "stablehlo.case"(%i) ({
      stablehlo.return %x : tensor<?x3xf32>
    }, {
      %z = stablehlo.constant dense<0.0> : tensor<1x3xf32>
      %c = stablehlo.concatenate %x, %z, dim = 0 : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
      stablehlo.return %c : tensor<?x3xf32>
    }, {
      %p = stablehlo.pad %x, %five, low = [1, 0], high = [2, 0], interior = [0, 0] : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x3xf32>
      stablehlo.return %p : tensor<?x3xf32>
    }) : (tensor<i32>) -> tensor<?x3xf32>
    %s = stablehlo.reduce(%r init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<?x3xf32>, tensor<f32>) -> tensor<?xf32>
    %b = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<?xf32>) -> tensor<?x3xf32>
    return %b : tensor<?x3xf32>
  }

  // k iterations of a loop whose if appends the last row plus 1 on even
  // iterations and doubles the rows on odd ones.
  func.func private @alternate(%x: tensor<?x3xf32>, %k: tensor<i32>) -> tensor<?x3xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %c2 = stablehlo.constant dense<2> : tensor<i32>
    %onef = stablehlo.constant dense<1.0> : tensor<f32>
    %twof = stablehlo.constant dense<2.0> : tensor<f32>
    %r:2 = stablehlo.while(%i = %c0, %acc = %x) : tensor<i32>, tensor<?x3xf32>
     cond {
      %p = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      %rem = stablehlo.remainder %i, %c2 : tensor<i32>
      %even = stablehlo.compare EQ, %rem, %c0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %g = "stablehlo.if"(%even) ({
        %n = stablehlo.get_dimension_size %acc, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
        %last = stablehlo.subtract %n, %c1 : tensor<i32>
        %row = stablehlo.dynamic_slice %acc, %last, %c0, sizes = [1, 3] : (tensor<?x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x3xf32>
        %ob = stablehlo.broadcast_in_dim %onef, dims = [] : (tensor<f32>) -> tensor<1x3xf32>
        %row1 = stablehlo.add %row, %ob : tensor<1x3xf32>
        %c = stablehlo.concatenate %acc, %row1, dim = 0 : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
        stablehlo.return %c : tensor<?x3xf32>
      }, {
        %tb = stablehlo.broadcast_in_dim %twof, dims = [] : (tensor<f32>) -> tensor<?x3xf32>
        %d = stablehlo.multiply %acc, %tb : tensor<?x3xf32>
        stablehlo.return %d : tensor<?x3xf32>
      }) : (tensor<i1>) -> tensor<?x3xf32>
      stablehlo.return %i1, %g : tensor<i32>, tensor<?x3xf32>
    }
    return %r#1 : tensor<?x3xf32>
  }

  // Nested loops: in outer iteration j the inner loop appends j + 1 rows
  // of j.
  func.func private @tri(%x: tensor<?x2xf32>, %k: tensor<i32>) -> tensor<?x2xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %r:2 = stablehlo.while(%j = %c0, %acc = %x) : tensor<i32>, tensor<?x2xf32>
     cond {
      %p = stablehlo.compare LT, %j, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %j1 = stablehlo.add %j, %c1 : tensor<i32>
      %f = stablehlo.convert %j : (tensor<i32>) -> tensor<f32>
      %row = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<1x2xf32>
      %q:2 = stablehlo.while(%t = %c0, %a = %acc) : tensor<i32>, tensor<?x2xf32>
       cond {
        %p2 = stablehlo.compare LE, %t, %j : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %p2 : tensor<i1>
      } do {
        %t1 = stablehlo.add %t, %c1 : tensor<i32>
        %g = stablehlo.concatenate %a, %row, dim = 0 : (tensor<?x2xf32>, tensor<1x2xf32>) -> tensor<?x2xf32>
        stablehlo.return %t1, %g : tensor<i32>, tensor<?x2xf32>
      }
      stablehlo.return %j1, %q#1 : tensor<i32>, tensor<?x2xf32>
    }
    return %r#1 : tensor<?x2xf32>
  }

  // Rows grow, columns are the argument's (both symbolic): a row of ones
  // per iteration; the result transposed.
  func.func private @widegrow(%x: tensor<?x?xf32>, %k: tensor<i32>) -> tensor<?x?xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %m = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
    %m1 = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>
    %c1v = stablehlo.constant dense<1> : tensor<1xi32>
    %shape = stablehlo.concatenate %c1v, %m1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %row = stablehlo.dynamic_broadcast_in_dim %one, %shape, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<1x?xf32>
    %r:2 = stablehlo.while(%i = %c0, %acc = %x) : tensor<i32>, tensor<?x?xf32>
     cond {
      %p = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      %g = stablehlo.concatenate %acc, %row, dim = 0 : (tensor<?x?xf32>, tensor<1x?xf32>) -> tensor<?x?xf32>
      stablehlo.return %i1, %g : tensor<i32>, tensor<?x?xf32>
    }
    %t = stablehlo.transpose %r#1, dims = [1, 0] : (tensor<?x?xf32>) -> tensor<?x?xf32>
    return %t : tensor<?x?xf32>
  }

  // a while loop appending a row per iteration: 1 rows, 0 iterations.
  func.func public @test_grow_1_0() {
    %0 = util.unfoldable_constant dense<[[6.61966622e-01, -2.78106660e-01, 4.05478597e-01]]> : tensor<1x3xf32>
    %k = util.unfoldable_constant dense<0> : tensor<i32>
    %1 = func.call @grow(%0, %k) : (tensor<1x3xf32>, tensor<i32>) -> tensor<1x3xf32>
    check.expect_almost_eq_const(%1, dense<[[6.61966622e-01, -2.78106660e-01, 4.05478597e-01]]> : tensor<1x3xf32>) : tensor<1x3xf32>
    return
  }

  // a while loop appending a row per iteration: 1 rows, 1 iterations.
  func.func public @test_grow_1_1() {
    %0 = util.unfoldable_constant dense<[[7.20237553e-01, 2.82634974e-01, 9.67264175e-02]]> : tensor<1x3xf32>
    %k = util.unfoldable_constant dense<1> : tensor<i32>
    %1 = func.call @grow(%0, %k) : (tensor<1x3xf32>, tensor<i32>) -> tensor<2x3xf32>
    check.expect_almost_eq_const(%1, dense<[[1.44047511e+00, 5.65269947e-01, 1.93452835e-01], [1.00000000e+00, 1.00000000e+00, 1.00000000e+00]]> : tensor<2x3xf32>) : tensor<2x3xf32>
    return
  }

  // a while loop appending a row per iteration: 1 rows, 5 iterations.
  func.func public @test_grow_1_5() {
    %0 = util.unfoldable_constant dense<[[5.24626851e-01, 4.32628751e-01, -6.56624958e-02]]> : tensor<1x3xf32>
    %k = util.unfoldable_constant dense<5> : tensor<i32>
    %1 = func.call @grow(%0, %k) : (tensor<1x3xf32>, tensor<i32>) -> tensor<6x3xf32>
    check.expect_almost_eq_const(%1, dense<[[1.67880592e+01, 1.38441200e+01, -2.10119987e+00], [1.60000000e+01, 1.60000000e+01, 1.60000000e+01], [1.60000000e+01, 1.60000000e+01, 1.60000000e+01], [1.20000000e+01, 1.20000000e+01, 1.20000000e+01], [8.00000000e+00, 8.00000000e+00, 8.00000000e+00], [5.00000000e+00, 5.00000000e+00, 5.00000000e+00]]> : tensor<6x3xf32>) : tensor<6x3xf32>
    return
  }

  // a while loop appending a row per iteration: 3 rows, 2 iterations.
  func.func public @test_grow_3_2() {
    %0 = util.unfoldable_constant dense<[[1.44917876e-01, 4.92644727e-01, -8.72872174e-01], [2.93752074e-01, 4.72114295e-01, -2.02482313e-01], [1.43650603e-02, -5.42558730e-01, 3.00388366e-01]]> : tensor<3x3xf32>
    %k = util.unfoldable_constant dense<2> : tensor<i32>
    %1 = func.call @grow(%0, %k) : (tensor<3x3xf32>, tensor<i32>) -> tensor<5x3xf32>
    check.expect_almost_eq_const(%1, dense<[[5.79671502e-01, 1.97057891e+00, -3.49148870e+00], [1.17500830e+00, 1.88845718e+00, -8.09929252e-01], [5.74602410e-02, -2.17023492e+00, 1.20155346e+00], [2.00000000e+00, 2.00000000e+00, 2.00000000e+00], [2.00000000e+00, 2.00000000e+00, 2.00000000e+00]]> : tensor<5x3xf32>) : tensor<5x3xf32>
    return
  }

  // a while loop appending a row per iteration: 37 rows, 4 iterations.
  func.func public @test_grow_37_4() {
    %0 = util.unfoldable_constant dense<[[9.42568541e-01, -4.02573824e-01, -7.43384212e-02], [7.83227801e-01, 1.02801755e-01, -1.57070518e-01], [3.36581498e-01, -9.38359559e-01, -6.92407191e-01], [7.42646754e-01, -6.83520317e-01, -9.41066325e-01], [8.52791071e-01, 5.05570114e-01, 9.54861462e-01], [5.19437909e-01, 8.45616758e-01, -3.11173111e-01], [5.09265244e-01, -6.71183228e-01, 6.47780240e-01], [4.64624047e-01, -6.17336035e-01, -6.32065594e-01], [-6.62592351e-01, 6.37746751e-01, 3.28650743e-01], [-4.38364804e-01, 3.08845341e-01, 3.72043252e-01], [3.77764851e-01, 9.91933763e-01, 6.89927399e-01], [-1.40029073e-01, -9.05864418e-01, -5.42809486e-01], [-8.50386679e-01, 5.68901420e-01, 5.86663961e-01], [-5.71465492e-01, 8.96942198e-01, -3.53817761e-01], [-6.81678653e-02, 1.61900029e-01, 9.95948315e-01], [7.93755472e-01, -7.11368799e-01, 7.86978304e-01], [-5.93618155e-01, 6.05998695e-01, 3.42943192e-01], [-6.96814716e-01, -8.92873943e-01, 8.58859181e-01], [-9.90214050e-01, -7.04682767e-01, 9.48980868e-01], [3.93960446e-01, 1.28353164e-01, -9.26923901e-02], [1.44514501e-01, -7.44925365e-02, -8.67832005e-01], [-5.39088011e-01, -3.72148186e-01, -7.61075411e-03], [-2.13010907e-01, 4.43299800e-01, 6.06592298e-01], [5.36965430e-01, -7.82397985e-02, -2.15154588e-01], [-9.53599453e-01, -2.93038040e-01, 5.74114740e-01], [-3.01154107e-01, -4.28317785e-01, -6.74065709e-01], [2.66274780e-01, 1.47973374e-03, -9.07849312e-01], [-5.16359508e-01, -8.46605897e-01, -6.92968309e-01], [-4.84806865e-01, -8.49609256e-01, 9.78319526e-01], [2.67506361e-01, -7.64284074e-01, 5.13260774e-02], [-2.06401378e-01, -6.12597823e-01, -1.74065411e-01], [1.33306459e-01, -8.01504731e-01, 9.09411311e-01], [-7.50842132e-03, -8.45599115e-01, 3.71022403e-01], [8.96028996e-01, -9.67425704e-01, 3.63581985e-01], [6.77443802e-01, -1.08822927e-01, -8.48218024e-01], [5.14969289e-01, -3.33791256e-01, -3.94241750e-01], [5.39877832e-01, -9.90249693e-01, -5.07130146e-01]]> : tensor<37x3xf32>
    %k = util.unfoldable_constant dense<4> : tensor<i32>
    %1 = func.call @grow(%0, %k) : (tensor<37x3xf32>, tensor<i32>) -> tensor<41x3xf32>
    check.expect_almost_eq_const(%1, dense<[[1.50810966e+01, -6.44118118e+00, -1.18941474e+00], [1.25316448e+01, 1.64482808e+00, -2.51312828e+00], [5.38530397e+00, -1.50137529e+01, -1.10785151e+01], [1.18823481e+01, -1.09363251e+01, -1.50570612e+01], [1.36446571e+01, 8.08912182e+00, 1.52777834e+01], [8.31100655e+00, 1.35298681e+01, -4.97876978e+00], [8.14824390e+00, -1.07389317e+01, 1.03644838e+01], [7.43398476e+00, -9.87737656e+00, -1.01130495e+01], [-1.06014776e+01, 1.02039480e+01, 5.25841188e+00], [-7.01383686e+00, 4.94152546e+00, 5.95269203e+00], [6.04423761e+00, 1.58709402e+01, 1.10388384e+01], [-2.24046516e+00, -1.44938307e+01, -8.68495178e+00], [-1.36061869e+01, 9.10242271e+00, 9.38662338e+00], [-9.14344788e+00, 1.43510752e+01, -5.66108418e+00], [-1.09068584e+00, 2.59040046e+00, 1.59351730e+01], [1.27000875e+01, -1.13819008e+01, 1.25916529e+01], [-9.49789047e+00, 9.69597912e+00, 5.48709106e+00], [-1.11490355e+01, -1.42859831e+01, 1.37417469e+01], [-1.58434248e+01, -1.12749243e+01, 1.51836939e+01], [6.30336714e+00, 2.05365062e+00, -1.48307824e+00], [2.31223202e+00, -1.19188058e+00, -1.38853121e+01], [-8.62540817e+00, -5.95437098e+00, -1.21772066e-01], [-3.40817451e+00, 7.09279680e+00, 9.70547676e+00], [8.59144688e+00, -1.25183678e+00, -3.44247341e+00], [-1.52575912e+01, -4.68860865e+00, 9.18583584e+00], [-4.81846571e+00, -6.85308456e+00, -1.07850513e+01], [4.26039648e+00, 2.36757398e-02, -1.45255890e+01], [-8.26175213e+00, -1.35456944e+01, -1.10874929e+01], [-7.75690985e+00, -1.35937481e+01, 1.56531124e+01], [4.28010178e+00, -1.22285452e+01, 8.21217239e-01], [-3.30242205e+00, -9.80156517e+00, -2.78504658e+00], [2.13290334e+00, -1.28240757e+01, 1.45505810e+01], [-1.20134741e-01, -1.35295858e+01, 5.93635845e+00], [1.43364639e+01, -1.54788113e+01, 5.81731176e+00], [1.08391008e+01, -1.74116683e+00, -1.35714884e+01], [8.23950863e+00, -5.34066010e+00, -6.30786800e+00], [8.63804531e+00, -1.58439951e+01, -8.11408234e+00], [8.00000000e+00, 8.00000000e+00, 8.00000000e+00], [8.00000000e+00, 8.00000000e+00, 8.00000000e+00], [6.00000000e+00, 6.00000000e+00, 6.00000000e+00], [4.00000000e+00, 4.00000000e+00, 4.00000000e+00]]> : tensor<41x3xf32>) : tensor<41x3xf32>
    return
  }

  // a while loop dropping the first row (real_dynamic_slice) until one is left: 1 rows.
  func.func public @test_shrink_1() {
    %0 = util.unfoldable_constant dense<[[8.13463509e-01, -6.82236254e-01, -8.55013311e-01]]> : tensor<1x3xf32>
    %1:2 = func.call @shrink(%0) : (tensor<1x3xf32>) -> (tensor<1x3xf32>, tensor<3xf32>)
    check.expect_almost_eq_const(%1#0, dense<[[8.13463509e-01, -6.82236254e-01, -8.55013311e-01]]> : tensor<1x3xf32>) : tensor<1x3xf32>
    check.expect_almost_eq_const(%1#1, dense<[8.13463509e-01, -6.82236254e-01, -8.55013311e-01]> : tensor<3xf32>) : tensor<3xf32>
    return
  }

  // a while loop dropping the first row (real_dynamic_slice) until one is left: 2 rows.
  func.func public @test_shrink_2() {
    %0 = util.unfoldable_constant dense<[[-8.13337862e-01, 3.92056704e-02, -2.51776963e-01], [2.61147022e-02, 8.29815328e-01, -5.17885625e-01]]> : tensor<2x3xf32>
    %1:2 = func.call @shrink(%0) : (tensor<2x3xf32>) -> (tensor<1x3xf32>, tensor<3xf32>)
    check.expect_almost_eq_const(%1#0, dense<[[1.30573511e-02, 4.14907664e-01, -2.58942813e-01]]> : tensor<1x3xf32>) : tensor<1x3xf32>
    check.expect_almost_eq_const(%1#1, dense<[1.30573511e-02, 4.14907664e-01, -2.58942813e-01]> : tensor<3xf32>) : tensor<3xf32>
    return
  }

  // a while loop dropping the first row (real_dynamic_slice) until one is left: 7 rows.
  func.func public @test_shrink_7() {
    %0 = util.unfoldable_constant dense<[[5.37219584e-01, 1.61446869e-01, 2.53274262e-01], [-9.44601834e-01, -9.04618561e-01, -6.96844816e-01], [-1.16122417e-01, -2.68438399e-01, -4.02637094e-01], [7.31393754e-01, 1.33429244e-01, -3.26120853e-01], [2.17414781e-01, 7.40275145e-01, -6.11996710e-01], [-2.00544372e-01, -5.76092482e-01, 2.44166423e-02], [-7.36895382e-01, -3.19997489e-01, 9.91159856e-01]]> : tensor<7x3xf32>
    %1:2 = func.call @shrink(%0) : (tensor<7x3xf32>) -> (tensor<1x3xf32>, tensor<3xf32>)
    check.expect_almost_eq_const(%1#0, dense<[[-1.15139904e-02, -4.99996077e-03, 1.54868728e-02]]> : tensor<1x3xf32>) : tensor<1x3xf32>
    check.expect_almost_eq_const(%1#1, dense<[-1.15139904e-02, -4.99996077e-03, 1.54868728e-02]> : tensor<3xf32>) : tensor<3xf32>
    return
  }

  // a while loop dropping the first row (real_dynamic_slice) until one is left: 33 rows.
  func.func public @test_shrink_33() {
    %0 = util.unfoldable_constant dense<[[8.38936210e-01, -9.73685503e-01, -3.04351926e-01], [6.26176715e-01, 6.76060498e-01, -3.71703893e-01], [3.17758054e-01, 5.26187479e-01, -1.92860216e-01], [-7.70973682e-01, 5.70846081e-01, 4.69533950e-01], [1.23453155e-01, 5.60139477e-01, 9.80215669e-01], [-5.58505416e-01, -9.87230659e-01, 2.49578252e-01], [-6.19919419e-01, 7.34992743e-01, 5.20371437e-01], [-5.82650863e-02, 5.69235444e-01, 8.89651358e-01], [4.46997106e-01, -4.62215811e-01, -8.15318897e-02], [-8.37866843e-01, 2.57048696e-01, -3.39889348e-01], [-7.23668635e-01, -5.29533923e-01, -3.72196138e-01], [6.21116519e-01, -9.61187959e-01, -6.66053057e-01], [-4.70927984e-01, 6.58985376e-01, -7.80678630e-01], [9.69844282e-01, 5.66920280e-01, -1.68205559e-01], [2.48190448e-01, 3.61665785e-01, 5.70651531e-01], [-5.11574566e-01, 7.57910609e-01, 4.33934331e-01], [-8.02131414e-01, -9.71923769e-01, 2.84154385e-01], [6.35647893e-01, 3.37700814e-01, 6.15374565e-01], [-9.94472921e-01, 8.52106214e-01, -2.63747483e-01], [-1.76609263e-01, 5.75280786e-01, 1.36066601e-01], [-1.20369561e-01, -8.17894876e-01, 8.23671579e-01], [1.70588553e-01, -9.53017950e-01, 5.40001653e-02], [3.42926800e-01, -6.70399964e-02, 2.12080687e-01], [-6.31237328e-01, 9.97236371e-01, -2.14976370e-02], [-9.02399004e-01, -4.97202396e-01, 6.96300626e-01], [4.75725502e-01, 1.16215870e-01, -4.91212010e-01], [4.57779795e-01, 6.39179468e-01, -7.73572206e-01], [-8.56359780e-01, 5.15574455e-01, 2.79475570e-01], [5.01833081e-01, -6.28645301e-01, 8.03078949e-01], [-1.00423917e-01, 5.43587744e-01, -5.57397306e-01], [-2.51824170e-01, -2.69699752e-01, -1.75290674e-01], [7.38465190e-01, 1.19124159e-01, 5.96631289e-01], [2.55476892e-01, 5.45367420e-01, -2.70002224e-02]]> : tensor<33x3xf32>
    %1:2 = func.call @shrink(%0) : (tensor<33x3xf32>) -> (tensor<1x3xf32>, tensor<3xf32>)
    check.expect_almost_eq_const(%1#0, dense<[[5.94828492e-11, 1.26978247e-10, -6.28647915e-12]]> : tensor<1x3xf32>) : tensor<1x3xf32>
    check.expect_almost_eq_const(%1#1, dense<[5.94828492e-11, 1.26978247e-10, -6.28647915e-12]> : tensor<3xf32>) : tensor<3xf32>
    return
  }

  // a while loop padding two rows per iteration: 1 rows, 0 iterations.
  func.func public @test_pad_grow_1_0() {
    %0 = util.unfoldable_constant dense<[[-9.43225861e-01, 3.10044363e-02, -7.56841481e-01]]> : tensor<1x3xf32>
    %k = util.unfoldable_constant dense<0> : tensor<i32>
    %1 = func.call @pad_grow(%0, %k) : (tensor<1x3xf32>, tensor<i32>) -> tensor<1x3xf32>
    check.expect_almost_eq_const(%1, dense<[[-9.43225861e-01, 3.10044363e-02, -7.56841481e-01]]> : tensor<1x3xf32>) : tensor<1x3xf32>
    return
  }

  // a while loop padding two rows per iteration: 1 rows, 3 iterations.
  func.func public @test_pad_grow_1_3() {
    %0 = util.unfoldable_constant dense<[[-9.67393160e-01, 6.93746269e-01, 1.13230348e-01]]> : tensor<1x3xf32>
    %k = util.unfoldable_constant dense<3> : tensor<i32>
    %1 = func.call @pad_grow(%0, %k) : (tensor<1x3xf32>, tensor<i32>) -> tensor<7x3xf32>
    check.expect_almost_eq_const(%1, dense<[[2.03260684e+00, 3.69374633e+00, 3.11323023e+00], [2.00000000e+00, 2.00000000e+00, 2.00000000e+00], [2.00000000e+00, 2.00000000e+00, 2.00000000e+00], [2.00000000e+00, 2.00000000e+00, 2.00000000e+00], [2.00000000e+00, 2.00000000e+00, 2.00000000e+00], [2.00000000e+00, 2.00000000e+00, 2.00000000e+00], [2.00000000e+00, 2.00000000e+00, 2.00000000e+00]]> : tensor<7x3xf32>) : tensor<7x3xf32>
    return
  }

  // a while loop padding two rows per iteration: 5 rows, 2 iterations.
  func.func public @test_pad_grow_5_2() {
    %0 = util.unfoldable_constant dense<[[1.16018362e-01, 1.36562392e-01, -1.00723632e-01], [-5.03231466e-01, -7.55657107e-02, 2.48292163e-02], [4.17513341e-01, -1.67201459e-01, -4.89105552e-01], [2.71570563e-01, 3.94791961e-01, -6.34551227e-01], [8.29628289e-01, 5.72091699e-01, -4.28512841e-01]]> : tensor<5x3xf32>
    %k = util.unfoldable_constant dense<2> : tensor<i32>
    %1 = func.call @pad_grow(%0, %k) : (tensor<5x3xf32>, tensor<i32>) -> tensor<9x3xf32>
    check.expect_almost_eq_const(%1, dense<[[2.11601830e+00, 2.13656235e+00, 1.89927638e+00], [1.49676847e+00, 1.92443430e+00, 2.02482939e+00], [2.41751337e+00, 1.83279848e+00, 1.51089442e+00], [2.27157068e+00, 2.39479208e+00, 1.36544871e+00], [2.82962823e+00, 2.57209158e+00, 1.57148719e+00], [1.00000000e+00, 1.00000000e+00, 1.00000000e+00], [1.00000000e+00, 1.00000000e+00, 1.00000000e+00], [1.00000000e+00, 1.00000000e+00, 1.00000000e+00], [1.00000000e+00, 1.00000000e+00, 1.00000000e+00]]> : tensor<9x3xf32>) : tensor<9x3xf32>
    return
  }

  // a while loop broadcasting to twice the rows (dynamic_broadcast_in_dim): 1 rows, 1 iterations.
  func.func public @test_double_1_1() {
    %0 = util.unfoldable_constant dense<[[7.25642562e-01, 4.29711401e-01, -5.10550082e-01]]> : tensor<1x3xf32>
    %k = util.unfoldable_constant dense<1> : tensor<i32>
    %1 = func.call @double(%0, %k) : (tensor<1x3xf32>, tensor<i32>) -> tensor<2x3xf32>
    check.expect_almost_eq_const(%1, dense<[[7.25642562e-01, 4.29711401e-01, -5.10550082e-01], [7.25642562e-01, 4.29711401e-01, -5.10550082e-01]]> : tensor<2x3xf32>) : tensor<2x3xf32>
    return
  }

  // a while loop broadcasting to twice the rows (dynamic_broadcast_in_dim): 3 rows, 3 iterations.
  func.func public @test_double_3_3() {
    %0 = util.unfoldable_constant dense<[[-5.86294830e-01, 9.53353167e-01, 7.29075015e-01], [-8.43595147e-01, -6.93406403e-01, 8.91974986e-01], [3.36966515e-01, 2.30106249e-01, -8.79300416e-01]]> : tensor<3x3xf32>
    %k = util.unfoldable_constant dense<3> : tensor<i32>
    %1 = func.call @double(%0, %k) : (tensor<3x3xf32>, tensor<i32>) -> tensor<24x3xf32>
    check.expect_almost_eq_const(%1, dense<[[-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01], [-7.86904831e+01, 3.52838135e+01, 5.34059677e+01]]> : tensor<24x3xf32>) : tensor<24x3xf32>
    return
  }

  // a while loop broadcasting to twice the rows (dynamic_broadcast_in_dim): 5 rows, 0 iterations.
  func.func public @test_double_5_0() {
    %0 = util.unfoldable_constant dense<[[4.43529725e-01, 7.50701353e-02, 3.62030983e-01], [5.18829346e-01, 3.02983433e-01, 3.09275210e-01], [8.54980290e-01, 4.61644918e-01, -9.53186005e-02], [6.95165634e-01, 4.55219954e-01, 1.95731372e-01], [-2.80179024e-01, -2.73195088e-01, 8.78352046e-01]]> : tensor<5x3xf32>
    %k = util.unfoldable_constant dense<0> : tensor<i32>
    %1 = func.call @double(%0, %k) : (tensor<5x3xf32>, tensor<i32>) -> tensor<5x3xf32>
    check.expect_almost_eq_const(%1, dense<[[4.43529725e-01, 7.50701353e-02, 3.62030983e-01], [5.18829346e-01, 3.02983433e-01, 3.09275210e-01], [8.54980290e-01, 4.61644918e-01, -9.53186005e-02], [6.95165634e-01, 4.55219954e-01, 1.95731372e-01], [-2.80179024e-01, -2.73195088e-01, 8.78352046e-01]]> : tensor<5x3xf32>) : tensor<5x3xf32>
    return
  }

  // the grown result concatenated with itself after the loop: 1 rows, 1 iterations.
  func.func public @test_grow_twice_1_1() {
    %0 = util.unfoldable_constant dense<[[3.24518055e-01, 2.89734811e-01, -3.34310979e-02]]> : tensor<1x3xf32>
    %k = util.unfoldable_constant dense<1> : tensor<i32>
    %1 = func.call @grow_twice(%0, %k) : (tensor<1x3xf32>, tensor<i32>) -> tensor<4x3xf32>
    check.expect_almost_eq_const(%1, dense<[[6.49036109e-01, 5.79469621e-01, -6.68621957e-02], [1.00000000e+00, 1.00000000e+00, 1.00000000e+00], [6.49036109e-01, 5.79469621e-01, -6.68621957e-02], [1.00000000e+00, 1.00000000e+00, 1.00000000e+00]]> : tensor<4x3xf32>) : tensor<4x3xf32>
    return
  }

  // the grown result concatenated with itself after the loop: 4 rows, 3 iterations.
  func.func public @test_grow_twice_4_3() {
    %0 = util.unfoldable_constant dense<[[4.60376501e-01, 9.46213663e-01, -6.43090904e-01], [5.13271801e-02, 3.13347250e-01, -5.35897553e-01], [-2.98917115e-01, -6.66099608e-01, -7.74756134e-01], [5.03544658e-02, -2.04731673e-01, 5.73481321e-01]]> : tensor<4x3xf32>
    %k = util.unfoldable_constant dense<3> : tensor<i32>
    %1 = func.call @grow_twice(%0, %k) : (tensor<4x3xf32>, tensor<i32>) -> tensor<14x3xf32>
    check.expect_almost_eq_const(%1, dense<[[3.68301201e+00, 7.56970930e+00, -5.14472723e+00], [4.10617441e-01, 2.50677800e+00, -4.28718042e+00], [-2.39133692e+00, -5.32879686e+00, -6.19804907e+00], [4.02835727e-01, -1.63785338e+00, 4.58785057e+00], [4.00000000e+00, 4.00000000e+00, 4.00000000e+00], [4.00000000e+00, 4.00000000e+00, 4.00000000e+00], [3.00000000e+00, 3.00000000e+00, 3.00000000e+00], [3.68301201e+00, 7.56970930e+00, -5.14472723e+00], [4.10617441e-01, 2.50677800e+00, -4.28718042e+00], [-2.39133692e+00, -5.32879686e+00, -6.19804907e+00], [4.02835727e-01, -1.63785338e+00, 4.58785057e+00], [4.00000000e+00, 4.00000000e+00, 4.00000000e+00], [4.00000000e+00, 4.00000000e+00, 4.00000000e+00], [3.00000000e+00, 3.00000000e+00, 3.00000000e+00]]> : tensor<14x3xf32>) : tensor<14x3xf32>
    return
  }

  // @grow of 2 rows for 2 iterations read as 3 rows (it makes 4): the call
  // fails naming the callee, its result dimension and the caller's type.
  func.func public @fail_grow_wrong_rows() {
    %0 = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %k = util.unfoldable_constant dense<2> : tensor<i32>
    %1 = func.call @grow(%0, %k) : (tensor<2x3xf32>, tensor<i32>) -> tensor<3x3xf32>
    check.expect_almost_eq_const(%1, dense<0.0> : tensor<3x3xf32>) : tensor<3x3xf32>
    return
  }

  // an if whose branches yield 2n rows and 1 row: n = 1, true.
  func.func public @test_pick_1_true() {
    %p = util.unfoldable_constant dense<true> : tensor<i1>
    %0 = util.unfoldable_constant dense<[[3.85486722e-01, 6.31634235e-01, -3.11186492e-01]]> : tensor<1x3xf32>
    %1 = func.call @pick(%p, %0) : (tensor<i1>, tensor<1x3xf32>) -> tensor<2x3xf32>
    check.expect_almost_eq_const(%1, dense<[[7.70973444e-01, 1.26326847e+00, -6.22372985e-01], [7.70973444e-01, 1.26326847e+00, -6.22372985e-01]]> : tensor<2x3xf32>) : tensor<2x3xf32>
    return
  }

  // an if whose branches yield 2n rows and 1 row: n = 1, false.
  func.func public @test_pick_1_false() {
    %p = util.unfoldable_constant dense<false> : tensor<i1>
    %0 = util.unfoldable_constant dense<[[-9.10323620e-01, 1.43194512e-01, -7.07509160e-01]]> : tensor<1x3xf32>
    %1 = func.call @pick(%p, %0) : (tensor<i1>, tensor<1x3xf32>) -> tensor<1x3xf32>
    check.expect_almost_eq_const(%1, dense<[[1.82064724e+00, -2.86389023e-01, 1.41501832e+00]]> : tensor<1x3xf32>) : tensor<1x3xf32>
    return
  }

  // an if whose branches yield 2n rows and 1 row: n = 2, true.
  func.func public @test_pick_2_true() {
    %p = util.unfoldable_constant dense<true> : tensor<i1>
    %0 = util.unfoldable_constant dense<[[4.37542766e-01, -3.09286982e-01, -8.59806463e-02], [9.51875746e-01, 5.62932074e-01, 6.87580109e-01]]> : tensor<2x3xf32>
    %1 = func.call @pick(%p, %0) : (tensor<i1>, tensor<2x3xf32>) -> tensor<4x3xf32>
    check.expect_almost_eq_const(%1, dense<[[8.75085533e-01, -6.18573964e-01, -1.71961293e-01], [1.90375149e+00, 1.12586415e+00, 1.37516022e+00], [8.75085533e-01, -6.18573964e-01, -1.71961293e-01], [1.90375149e+00, 1.12586415e+00, 1.37516022e+00]]> : tensor<4x3xf32>) : tensor<4x3xf32>
    return
  }

  // an if whose branches yield 2n rows and 1 row: n = 2, false.
  func.func public @test_pick_2_false() {
    %p = util.unfoldable_constant dense<false> : tensor<i1>
    %0 = util.unfoldable_constant dense<[[1.10228769e-01, 8.83242726e-01, -9.63348389e-01], [7.78367817e-01, -2.20483035e-01, -5.36519766e-01]]> : tensor<2x3xf32>
    %1 = func.call @pick(%p, %0) : (tensor<i1>, tensor<2x3xf32>) -> tensor<1x3xf32>
    check.expect_almost_eq_const(%1, dense<[[-2.20457539e-01, -1.76648545e+00, 1.92669678e+00]]> : tensor<1x3xf32>) : tensor<1x3xf32>
    return
  }

  // an if whose branches yield 2n rows and 1 row: n = 5, true.
  func.func public @test_pick_5_true() {
    %p = util.unfoldable_constant dense<true> : tensor<i1>
    %0 = util.unfoldable_constant dense<[[6.87884539e-02, 8.89380574e-01, -3.38003367e-01], [8.17242384e-01, -6.53367713e-02, 9.34575558e-01], [5.28453946e-01, 5.66707671e-01, -2.76945025e-01], [1.75575987e-01, -5.02901673e-01, 6.00277305e-01], [-4.82946783e-01, 3.45219404e-01, -8.49309146e-01]]> : tensor<5x3xf32>
    %1 = func.call @pick(%p, %0) : (tensor<i1>, tensor<5x3xf32>) -> tensor<10x3xf32>
    check.expect_almost_eq_const(%1, dense<[[1.37576908e-01, 1.77876115e+00, -6.76006734e-01], [1.63448477e+00, -1.30673543e-01, 1.86915112e+00], [1.05690789e+00, 1.13341534e+00, -5.53890049e-01], [3.51151973e-01, -1.00580335e+00, 1.20055461e+00], [-9.65893567e-01, 6.90438807e-01, -1.69861829e+00], [1.37576908e-01, 1.77876115e+00, -6.76006734e-01], [1.63448477e+00, -1.30673543e-01, 1.86915112e+00], [1.05690789e+00, 1.13341534e+00, -5.53890049e-01], [3.51151973e-01, -1.00580335e+00, 1.20055461e+00], [-9.65893567e-01, 6.90438807e-01, -1.69861829e+00]]> : tensor<10x3xf32>) : tensor<10x3xf32>
    return
  }

  // an if whose branches yield 2n rows and 1 row: n = 5, false.
  func.func public @test_pick_5_false() {
    %p = util.unfoldable_constant dense<false> : tensor<i1>
    %0 = util.unfoldable_constant dense<[[-5.06260395e-01, -2.83759117e-01, -6.55889094e-01], [-4.79409307e-01, -5.96393526e-01, -9.20472622e-01], [-3.14262003e-01, -6.35006353e-02, -1.65301129e-01], [7.99047828e-01, -8.22251260e-01, 2.47931987e-01], [-3.02526444e-01, -9.48064506e-01, 5.45997024e-01]]> : tensor<5x3xf32>
    %1 = func.call @pick(%p, %0) : (tensor<i1>, tensor<5x3xf32>) -> tensor<1x3xf32>
    check.expect_almost_eq_const(%1, dense<[[1.01252079e+00, 5.67518234e-01, 1.31177819e+00]]> : tensor<1x3xf32>) : tensor<1x3xf32>
    return
  }

  // a case whose branches yield n, n + 1 and n + 3 rows: n = 3, index 0.
  func.func public @test_choose_3_0() {
    %i = util.unfoldable_constant dense<0> : tensor<i32>
    %0 = util.unfoldable_constant dense<[[-1.55971512e-01, 9.52404737e-01, 5.49034894e-01], [7.37608016e-01, 1.31986633e-01, -3.20971429e-01], [7.08776236e-01, -1.73678130e-01, 7.42636681e-01]]> : tensor<3x3xf32>
    %1 = func.call @choose(%i, %0) : (tensor<i32>, tensor<3x3xf32>) -> tensor<3x3xf32>
    check.expect_almost_eq_const(%1, dense<[[1.34546804e+00, 1.34546804e+00, 1.34546804e+00], [5.48623204e-01, 5.48623204e-01, 5.48623204e-01], [1.27773476e+00, 1.27773476e+00, 1.27773476e+00]]> : tensor<3x3xf32>) : tensor<3x3xf32>
    return
  }

  // a case whose branches yield n, n + 1 and n + 3 rows: n = 3, index 1.
  func.func public @test_choose_3_1() {
    %i = util.unfoldable_constant dense<1> : tensor<i32>
    %0 = util.unfoldable_constant dense<[[8.26433539e-01, -2.91735977e-01, 4.50430870e-01], [6.27419114e-01, 9.95748222e-01, -8.50555748e-02], [-5.98575950e-01, -4.83538508e-01, -2.36646011e-01]]> : tensor<3x3xf32>
    %1 = func.call @choose(%i, %0) : (tensor<i32>, tensor<3x3xf32>) -> tensor<4x3xf32>
    check.expect_almost_eq_const(%1, dense<[[9.85128403e-01, 9.85128403e-01, 9.85128403e-01], [1.53811169e+00, 1.53811169e+00, 1.53811169e+00], [-1.31876051e+00, -1.31876051e+00, -1.31876051e+00], [0.00000000e+00, 0.00000000e+00, 0.00000000e+00]]> : tensor<4x3xf32>) : tensor<4x3xf32>
    return
  }

  // a case whose branches yield n, n + 1 and n + 3 rows: n = 3, index 2.
  func.func public @test_choose_3_2() {
    %i = util.unfoldable_constant dense<2> : tensor<i32>
    %0 = util.unfoldable_constant dense<[[-8.57190132e-01, 3.86157066e-01, -8.86288047e-01], [-7.00901523e-02, 9.95984256e-01, -1.93445250e-01], [-5.78926265e-01, -1.82723939e-01, -4.77438569e-01]]> : tensor<3x3xf32>
    %1 = func.call @choose(%i, %0) : (tensor<i32>, tensor<3x3xf32>) -> tensor<6x3xf32>
    check.expect_almost_eq_const(%1, dense<[[1.50000000e+01, 1.50000000e+01, 1.50000000e+01], [-1.35732114e+00, -1.35732114e+00, -1.35732114e+00], [7.32448816e-01, 7.32448816e-01, 7.32448816e-01], [-1.23908877e+00, -1.23908877e+00, -1.23908877e+00], [1.50000000e+01, 1.50000000e+01, 1.50000000e+01], [1.50000000e+01, 1.50000000e+01, 1.50000000e+01]]> : tensor<6x3xf32>) : tensor<6x3xf32>
    return
  }

  // a case whose branches yield n, n + 1 and n + 3 rows: n = 3, index 7.
  func.func public @test_choose_3_7() {
    %i = util.unfoldable_constant dense<7> : tensor<i32>
    %0 = util.unfoldable_constant dense<[[-5.95871568e-01, -4.78255153e-01, -3.87290150e-01], [-8.54427740e-02, -4.33929622e-01, 2.77795970e-01], [7.14672863e-01, -9.51631665e-01, -6.94383383e-02]]> : tensor<3x3xf32>
    %1 = func.call @choose(%i, %0) : (tensor<i32>, tensor<3x3xf32>) -> tensor<6x3xf32>
    check.expect_almost_eq_const(%1, dense<[[1.50000000e+01, 1.50000000e+01, 1.50000000e+01], [-1.46141684e+00, -1.46141684e+00, -1.46141684e+00], [-2.41576433e-01, -2.41576433e-01, -2.41576433e-01], [-3.06397140e-01, -3.06397140e-01, -3.06397140e-01], [1.50000000e+01, 1.50000000e+01, 1.50000000e+01], [1.50000000e+01, 1.50000000e+01, 1.50000000e+01]]> : tensor<6x3xf32>) : tensor<6x3xf32>
    return
  }

  // a case whose branches yield n, n + 1 and n + 3 rows: n = 1, index 1.
  func.func public @test_choose_1_1() {
    %i = util.unfoldable_constant dense<1> : tensor<i32>
    %0 = util.unfoldable_constant dense<[[2.33169734e-01, -5.00262603e-02, 3.21887195e-01]]> : tensor<1x3xf32>
    %1 = func.call @choose(%i, %0) : (tensor<i32>, tensor<1x3xf32>) -> tensor<2x3xf32>
    check.expect_almost_eq_const(%1, dense<[[5.05030632e-01, 5.05030632e-01, 5.05030632e-01], [0.00000000e+00, 0.00000000e+00, 0.00000000e+00]]> : tensor<2x3xf32>) : tensor<2x3xf32>
    return
  }

  // a case whose branches yield n, n + 1 and n + 3 rows: n = 1, index -1.
  func.func public @test_choose_1_m1() {
    %i = util.unfoldable_constant dense<-1> : tensor<i32>
    %0 = util.unfoldable_constant dense<[[-5.89538753e-01, 8.70071173e-01, 9.91823077e-01]]> : tensor<1x3xf32>
    %1 = func.call @choose(%i, %0) : (tensor<i32>, tensor<1x3xf32>) -> tensor<4x3xf32>
    check.expect_almost_eq_const(%1, dense<[[1.50000000e+01, 1.50000000e+01, 1.50000000e+01], [1.27235556e+00, 1.27235556e+00, 1.27235556e+00], [1.50000000e+01, 1.50000000e+01, 1.50000000e+01], [1.50000000e+01, 1.50000000e+01, 1.50000000e+01]]> : tensor<4x3xf32>) : tensor<4x3xf32>
    return
  }

  // a while loop whose body's if appends a row on even iterations: 1 rows, 0 iterations.
  func.func public @test_alternate_1_0() {
    %k = util.unfoldable_constant dense<0> : tensor<i32>
    %0 = util.unfoldable_constant dense<[[6.57821059e-01, 1.69113964e-01, 6.66150630e-01]]> : tensor<1x3xf32>
    %1 = func.call @alternate(%0, %k) : (tensor<1x3xf32>, tensor<i32>) -> tensor<1x3xf32>
    check.expect_almost_eq_const(%1, dense<[[6.57821059e-01, 1.69113964e-01, 6.66150630e-01]]> : tensor<1x3xf32>) : tensor<1x3xf32>
    return
  }

  // a while loop whose body's if appends a row on even iterations: 1 rows, 1 iterations.
  func.func public @test_alternate_1_1() {
    %k = util.unfoldable_constant dense<1> : tensor<i32>
    %0 = util.unfoldable_constant dense<[[3.45807612e-01, 7.31227279e-01, -1.80066423e-03]]> : tensor<1x3xf32>
    %1 = func.call @alternate(%0, %k) : (tensor<1x3xf32>, tensor<i32>) -> tensor<2x3xf32>
    check.expect_almost_eq_const(%1, dense<[[3.45807612e-01, 7.31227279e-01, -1.80066423e-03], [1.34580755e+00, 1.73122728e+00, 9.98199344e-01]]> : tensor<2x3xf32>) : tensor<2x3xf32>
    return
  }

  // a while loop whose body's if appends a row on even iterations: 2 rows, 4 iterations.
  func.func public @test_alternate_2_4() {
    %k = util.unfoldable_constant dense<4> : tensor<i32>
    %0 = util.unfoldable_constant dense<[[-4.35525686e-01, 1.15810789e-01, -8.85915384e-03], [-5.80662608e-01, 3.45924079e-01, 4.61664885e-01]]> : tensor<2x3xf32>
    %1 = func.call @alternate(%0, %k) : (tensor<2x3xf32>, tensor<i32>) -> tensor<4x3xf32>
    check.expect_almost_eq_const(%1, dense<[[-1.74210274e+00, 4.63243157e-01, -3.54366153e-02], [-2.32265043e+00, 1.38369632e+00, 1.84665954e+00], [1.67734957e+00, 5.38369656e+00, 5.84665966e+00], [3.67734957e+00, 7.38369656e+00, 7.84665966e+00]]> : tensor<4x3xf32>) : tensor<4x3xf32>
    return
  }

  // a while loop whose body's if appends a row on even iterations: 9 rows, 5 iterations.
  func.func public @test_alternate_9_5() {
    %k = util.unfoldable_constant dense<5> : tensor<i32>
    %0 = util.unfoldable_constant dense<[[-4.72015291e-01, -6.72614098e-01, 1.62680358e-01], [-8.18236321e-02, 4.49642450e-01, 4.88215894e-01], [-9.61394906e-01, -5.79047203e-01, 7.33009219e-01], [3.44651073e-01, 5.80124855e-01, 4.88475263e-01], [1.88007921e-01, -3.52918059e-01, -4.28468347e-01], [2.41704166e-01, 2.35642567e-01, 8.37100565e-01], [2.51299202e-01, 1.33224115e-01, -9.66336191e-01], [3.20469886e-01, 7.57853270e-01, 2.80931115e-01], [3.92866619e-02, -3.23500514e-01, 9.87436116e-01]]> : tensor<9x3xf32>
    %1 = func.call @alternate(%0, %k) : (tensor<9x3xf32>, tensor<i32>) -> tensor<12x3xf32>
    check.expect_almost_eq_const(%1, dense<[[-1.88806117e+00, -2.69045639e+00, 6.50721431e-01], [-3.27294528e-01, 1.79856980e+00, 1.95286357e+00], [-3.84557962e+00, -2.31618881e+00, 2.93203688e+00], [1.37860429e+00, 2.32049942e+00, 1.95390105e+00], [7.52031684e-01, -1.41167223e+00, -1.71387339e+00], [9.66816664e-01, 9.42570269e-01, 3.34840226e+00], [1.00519681e+00, 5.32896459e-01, -3.86534476e+00], [1.28187954e+00, 3.03141308e+00, 1.12372446e+00], [1.57146648e-01, -1.29400206e+00, 3.94974446e+00], [4.15714645e+00, 2.70599794e+00, 7.94974422e+00], [6.15714645e+00, 4.70599794e+00, 9.94974422e+00], [7.15714645e+00, 5.70599794e+00, 1.09497442e+01]]> : tensor<12x3xf32>) : tensor<12x3xf32>
    return
  }


  // @pick taking the second branch (1 row) read as 4 rows: the call fails.
  func.func public @fail_pick_wrong_rows() {
    %p = util.unfoldable_constant dense<false> : tensor<i1>
    %0 = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %1 = func.call @pick(%p, %0) : (tensor<i1>, tensor<2x3xf32>) -> tensor<4x3xf32>
    check.expect_almost_eq_const(%1, dense<0.0> : tensor<4x3xf32>) : tensor<4x3xf32>
    return
  }

  // nested loops: the inner one appends j + 1 rows in outer iteration j, 3 times.
  func.func public @test_tri() {
    %0 = util.unfoldable_constant dense<[[9.0, 9.0]]> : tensor<1x2xf32>
    %k = util.unfoldable_constant dense<3> : tensor<i32>
    %1 = func.call @tri(%0, %k) : (tensor<1x2xf32>, tensor<i32>) -> tensor<7x2xf32>
    check.expect_almost_eq_const(%1, dense<[[9.0, 9.0], [0.0, 0.0], [1.0, 1.0], [1.0, 1.0], [2.0, 2.0], [2.0, 2.0], [2.0, 2.0]]> : tensor<7x2xf32>) : tensor<7x2xf32>
    return
  }
  // the same, called twice (its result fed back), 2 iterations each.
  func.func public @test_tri_twice() {
    %0 = util.unfoldable_constant dense<[[9.0, 9.0]]> : tensor<1x2xf32>
    %k = util.unfoldable_constant dense<2> : tensor<i32>
    %1 = func.call @tri(%0, %k) : (tensor<1x2xf32>, tensor<i32>) -> tensor<4x2xf32>
    %2 = func.call @tri(%1, %k) : (tensor<4x2xf32>, tensor<i32>) -> tensor<7x2xf32>
    check.expect_almost_eq_const(%2, dense<[[9.0, 9.0], [0.0, 0.0], [1.0, 1.0], [1.0, 1.0], [0.0, 0.0], [1.0, 1.0], [1.0, 1.0]]> : tensor<7x2xf32>) : tensor<7x2xf32>
    return
  }

  // a loop growing the rows of a ?x? tensor whose columns the argument gives, transposed after.
  func.func public @test_wide() {
    %0 = util.unfoldable_constant dense<[[2.0, 3.0, 4.0]]> : tensor<1x3xf32>
    %k = util.unfoldable_constant dense<2> : tensor<i32>
    %1 = func.call @widegrow(%0, %k) : (tensor<1x3xf32>, tensor<i32>) -> tensor<3x3xf32>
    check.expect_almost_eq_const(%1, dense<[[2.0, 1.0, 1.0], [3.0, 1.0, 1.0], [4.0, 1.0, 1.0]]> : tensor<3x3xf32>) : tensor<3x3xf32>
    return
  }

  // @drop_last at n = 0, false: x comes back (0 elements; a 7 appended).
  func.func public @test_drop_last_0_false() {
    %p = util.unfoldable_constant dense<false> : tensor<i1>
    %0 = util.unfoldable_constant dense<> : tensor<0xf32>
    %1 = func.call @drop_last(%p, %0) : (tensor<i1>, tensor<0xf32>) -> tensor<0xf32>
    %7 = stablehlo.constant dense<[7.0]> : tensor<1xf32>
    %2 = stablehlo.concatenate %1, %7, dim = 0 : (tensor<0xf32>, tensor<1xf32>) -> tensor<1xf32>
    check.expect_almost_eq_const(%2, dense<[7.0]> : tensor<1xf32>) : tensor<1xf32>
    return
  }

  // @drop_last at n = 3, true: the first two elements.
  func.func public @test_drop_last_3_true() {
    %p = util.unfoldable_constant dense<true> : tensor<i1>
    %0 = util.unfoldable_constant dense<[0.0, 1.0, 2.0]> : tensor<3xf32>
    %1 = func.call @drop_last(%p, %0) : (tensor<i1>, tensor<3xf32>) -> tensor<2xf32>
    check.expect_almost_eq_const(%1, dense<[0.0, 1.0]> : tensor<2xf32>) : tensor<2xf32>
    return
  }

  // @drop_last at n = 3, false: x.
  func.func public @test_drop_last_3_false() {
    %p = util.unfoldable_constant dense<false> : tensor<i1>
    %0 = util.unfoldable_constant dense<[0.0, 1.0, 2.0]> : tensor<3xf32>
    %1 = func.call @drop_last(%p, %0) : (tensor<i1>, tensor<3xf32>) -> tensor<3xf32>
    check.expect_almost_eq_const(%1, dense<[0.0, 1.0, 2.0]> : tensor<3xf32>) : tensor<3xf32>
    return
  }

  // @drop_last at n = 0, true: the slice's size -1 fails the call
  // (tests/tools/check_symbolic_if_size.test checks the message).
  func.func public @fail_drop_last_0_true() {
    %p = util.unfoldable_constant dense<true> : tensor<i1>
    %0 = util.unfoldable_constant dense<> : tensor<0xf32>
    %1 = func.call @drop_last(%p, %0) : (tensor<i1>, tensor<0xf32>) -> tensor<0xf32>
    %7 = stablehlo.constant dense<[7.0]> : tensor<1xf32>
    %2 = stablehlo.concatenate %1, %7, dim = 0 : (tensor<0xf32>, tensor<1xf32>) -> tensor<1xf32>
    check.expect_almost_eq_const(%2, dense<[7.0]> : tensor<1xf32>) : tensor<1xf32>
    return
  }
}
