// While loops whose carried tensors change size, for the run_symbolic_while_*
// tests: a public function returning the loop's result (its shape computed
// by the loop), a loop whose changing extent the body also joins to an
// argument's (checked on entry and after each iteration), a caller whose
// result type disagrees with what the callee's loop computes, and an if
// whose branches yield different sizes (returned, and joined to an
// argument's).
module @symbolic_while {
  // Concatenates the carried tensor with itself 3 times: 8n rows.
  func.func public @grows(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %c3 = stablehlo.constant dense<3> : tensor<i32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %acc = %x) : tensor<i32>, tensor<?x4xf32>
     cond {
      %p = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      %a = stablehlo.concatenate %acc, %acc, dim = 0 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
      stablehlo.return %i1, %a : tensor<i32>, tensor<?x4xf32>
    }
    return %r#1 : tensor<?x4xf32>
  }

  // Adds %y to the carried tensor (so its extent must be %y's) and appends
  // a row, %k times: entering with rows other than %y's fails, and so does
  // the first iteration (it yields one row more).
  func.func public @outer(%x: tensor<?x3xf32>, %y: tensor<?x3xf32>, %k: tensor<i32>) -> tensor<?x3xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %row = stablehlo.constant dense<1.0> : tensor<1x3xf32>
    %r:2 = stablehlo.while(%i = %c0, %acc = %x) : tensor<i32>, tensor<?x3xf32>
     cond {
      %p = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      %s = stablehlo.add %acc, %y : tensor<?x3xf32>
      %g = stablehlo.concatenate %s, %row, dim = 0 : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
      stablehlo.return %i1, %g : tensor<i32>, tensor<?x3xf32>
    }
    return %r#1 : tensor<?x3xf32>
  }

  func.func private @append(%x: tensor<?x3xf32>, %k: tensor<i32>) -> tensor<?x3xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %row = stablehlo.constant dense<2.0> : tensor<1x3xf32>
    %r:2 = stablehlo.while(%i = %c0, %acc = %x) : tensor<i32>, tensor<?x3xf32>
     cond {
      %p = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      %g = stablehlo.concatenate %acc, %row, dim = 0 : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
      stablehlo.return %i1, %g : tensor<i32>, tensor<?x3xf32>
    }
    return %r#1 : tensor<?x3xf32>
  }

  // 2 rows and %k appended ones, read as 4 rows: right at %k = 2.
  func.func public @four_rows(%k: tensor<i32>) -> tensor<4x3xf32> {
    %x = stablehlo.constant dense<0.0> : tensor<2x3xf32>
    %r = func.call @append(%x, %k) : (tensor<2x3xf32>, tensor<i32>) -> tensor<4x3xf32>
    return %r : tensor<4x3xf32>
  }

  // %x, or %x twice: the result's rows are the branch's.
  func.func public @either(%p: tensor<i1>, %x: tensor<?x2xf32>) -> tensor<?x2xf32> {
    %r = "stablehlo.if"(%p) ({
      %c = stablehlo.concatenate %x, %x, dim = 0 : (tensor<?x2xf32>, tensor<?x2xf32>) -> tensor<?x2xf32>
      stablehlo.return %c : tensor<?x2xf32>
    }, {
      stablehlo.return %x : tensor<?x2xf32>
    }) : (tensor<i1>) -> tensor<?x2xf32>
    return %r : tensor<?x2xf32>
  }

  // The same if added to %y: each branch must yield %y's rows.
  func.func public @either_add(%p: tensor<i1>, %x: tensor<?x2xf32>, %y: tensor<?x2xf32>) -> tensor<?x2xf32> {
    %r = "stablehlo.if"(%p) ({
      %c = stablehlo.concatenate %x, %x, dim = 0 : (tensor<?x2xf32>, tensor<?x2xf32>) -> tensor<?x2xf32>
      stablehlo.return %c : tensor<?x2xf32>
    }, {
      stablehlo.return %x : tensor<?x2xf32>
    }) : (tensor<i1>) -> tensor<?x2xf32>
    %s = stablehlo.add %r, %y : tensor<?x2xf32>
    return %s : tensor<?x2xf32>
  }
}
