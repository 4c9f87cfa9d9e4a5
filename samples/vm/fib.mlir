// A first VM program: recursive Fibonacci and a counted loop, written in
// IREE's vm dialect. `make run` assembles it, dumps it and calls both:
//
//   build/bin/grt-compile samples/vm/fib.mlir -o fib.vmfb
//   build/bin/grt-run --module=fib.vmfb --function=fib --input=25
//   build/bin/grt-run --module=fib.vmfb --function=sum --input=1000000
vm.module @sample {
  // fib(n) = n for n < 2, else fib(n - 1) + fib(n - 2).
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

  // sum(n) = 0 + 1 + ... + (n - 1), in i64 so large n does not wrap.
  vm.export @sum
  vm.func @sum(%n : i64) -> i64 {
    %zero = vm.const.i64 0
    vm.br ^loop(%zero, %zero : i64, i64)
  ^loop(%i : i64, %acc : i64):
    %more = vm.cmp.lt.i64.s %i, %n : i64
    vm.cond_br %more, ^body, ^done
  ^body:
    %one = vm.const.i64 1
    %acc1 = vm.add.i64 %acc, %i : i64
    %i1 = vm.add.i64 %i, %one : i64
    vm.br ^loop(%i1, %acc1 : i64, i64)
  ^done:
    vm.return %acc : i64
  }
}
