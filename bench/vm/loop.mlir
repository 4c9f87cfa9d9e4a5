// Benchmark: a counted loop, sum = 0 + 1 + ... + (n - 1) in i64. Each
// iteration is one compare, one branch, two adds and a branch back with two
// block arguments -- the same work as loop.lua's while loop.
vm.module @bench_loop {
  vm.export @sum
  vm.func @sum(%n : i64) -> i64 {
    %zero = vm.const.i64 0
    %one = vm.const.i64 1
    vm.br ^loop(%zero, %zero : i64, i64)
  ^loop(%i : i64, %acc : i64):
    %more = vm.cmp.lt.i64.s %i, %n : i64
    vm.cond_br %more, ^body, ^done
  ^body:
    %acc1 = vm.add.i64 %acc, %i : i64
    %i1 = vm.add.i64 %i, %one : i64
    vm.br ^loop(%i1, %acc1 : i64, i64)
  ^done:
    vm.return %acc : i64
  }
}
