// Calls: results of several types, several results, recursion (which runs
// on the VM stack, not the C stack) and mutual recursion.
vm.module @calls {
  vm.func private @fib(%n : i32) -> i32 {
    %two = vm.const.i32 2
    %small = vm.cmp.lt.i32.s %n, %two : i32
    vm.cond_br %small, ^base, ^recurse
  ^base:
    vm.return %n : i32
  ^recurse:
    %one = vm.const.i32 1
    %n1 = vm.sub.i32 %n, %one : i32
    %n2 = vm.sub.i32 %n, %two : i32
    %f1 = vm.call @fib(%n1) : (i32) -> i32
    %f2 = vm.call @fib(%n2) : (i32) -> i32
    %sum = vm.add.i32 %f1, %f2 : i32
    vm.return %sum : i32
  }

  vm.export @test_recursive_fib
  vm.func @test_recursive_fib() {
    %n = vm.const.i32 20
    %f = vm.call @fib(%n) : (i32) -> i32
    %e = vm.const.i32 6765
    vm.check.eq %f, %e, "fib(20)" : i32
    vm.return
  }

  vm.func private @divmod(%a : i64, %b : i64) -> (i64, i64) {
    %q = vm.div.i64.s %a, %b : i64
    %r = vm.rem.i64.s %a, %b : i64
    vm.return %q, %r : i64, i64
  }

  vm.export @test_multiple_results
  vm.func @test_multiple_results() {
    %a = vm.const.i64 10000000007
    %b = vm.const.i64 10
    %res:2 = vm.call @divmod(%a, %b) : (i64, i64) -> (i64, i64)
    %e_q = vm.const.i64 1000000000
    %e_r = vm.const.i64 7
    vm.check.eq %res#0, %e_q, "quotient" : i64
    vm.check.eq %res#1, %e_r, "remainder" : i64
    vm.return
  }

  vm.func private @mix(%i : i32, %d : f64, %f : f32, %l : i64) -> (f64, i32) {
    %fd = vm.ext.f32.f64 %f : f32 -> f64
    %sum = vm.add.f64 %d, %fd : f64
    %li = vm.trunc.i64.i32 %l : i64 -> i32
    %isum = vm.add.i32 %i, %li : i32
    vm.return %sum, %isum : f64, i32
  }

  vm.export @test_mixed_argument_types
  vm.func @test_mixed_argument_types() {
    %i = vm.const.i32 3
    %d = vm.const.f64 0.5
    %f = vm.const.f32 0.25
    %l = vm.const.i64 4
    %res:2 = vm.call @mix(%i, %d, %f, %l) : (i32, f64, f32, i64) -> (f64, i32)
    %e_d = vm.const.f64 0.75
    vm.check.eq %res#0, %e_d, "f64 result" : f64
    %e_i = vm.const.i32 7
    vm.check.eq %res#1, %e_i, "i32 result" : i32
    vm.return
  }

  vm.func private @is_even(%n : i32) -> i32 {
    %zero = vm.const.i32 0
    %done = vm.cmp.eq.i32 %n, %zero : i32
    vm.cond_br %done, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %one2 = vm.const.i32 1
    %m = vm.sub.i32 %n, %one2 : i32
    %r = vm.call @is_odd(%m) : (i32) -> i32
    vm.return %r : i32
  }

  vm.func private @is_odd(%n : i32) -> i32 {
    %zero = vm.const.i32 0
    %done = vm.cmp.eq.i32 %n, %zero : i32
    vm.cond_br %done, ^yes, ^no
  ^yes:
    vm.return %zero : i32
  ^no:
    %one = vm.const.i32 1
    %m = vm.sub.i32 %n, %one : i32
    %r = vm.call @is_even(%m) : (i32) -> i32
    vm.return %r : i32
  }

  vm.export @test_mutual_recursion
  vm.func @test_mutual_recursion() {
    %n = vm.const.i32 1001
    %odd = vm.call @is_odd(%n) : (i32) -> i32
    %one = vm.const.i32 1
    vm.check.eq %odd, %one, "1001 is odd, 1001 frames deep" : i32
    vm.return
  }
}
