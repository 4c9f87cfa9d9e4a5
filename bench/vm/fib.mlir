// Benchmark: doubly recursive Fibonacci, as fib.lua; fib(n) makes
// 2 * fib(n + 1) - 1 calls.
vm.module @bench_fib {
  vm.export @fib
  vm.func @fib(%n : i32) -> i32 {
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
}
