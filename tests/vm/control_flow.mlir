// Branches: cond_br both ways, block arguments (including a swap, which
// needs the parallel-copy semantics), loops, and br_table.
vm.module @control_flow {
  vm.export @test_cond_br_both_ways
  vm.func @test_cond_br_both_ways() {
    %one = vm.const.i32 1
    %zero = vm.const.i32 0
    %a = vm.call @pick(%one) : (i32) -> i32
    %c10 = vm.const.i32 10
    vm.check.eq %a, %c10, "taken" : i32
    %b = vm.call @pick(%zero) : (i32) -> i32
    %c20 = vm.const.i32 20
    vm.check.eq %b, %c20, "not taken" : i32
    vm.return
  }

  vm.func private @pick(%cond : i32) -> i32 {
    %c10 = vm.const.i32 10
    %c20 = vm.const.i32 20
    vm.cond_br %cond, ^yes(%c10 : i32), ^no(%c20 : i32)
  ^yes(%x : i32):
    vm.return %x : i32
  ^no(%y : i32):
    vm.return %y : i32
  }

  // Passing (b, a) to a block whose arguments are (a, b) must swap them.
  vm.export @test_block_arguments_swap
  vm.func @test_block_arguments_swap() {
    %c1 = vm.const.i32 1
    %c2 = vm.const.i32 2
    %c3 = vm.const.i32 3
    vm.br ^loop(%c1, %c2, %c3 : i32, i32, i32)
  ^loop(%a : i32, %b : i32, %n : i32):
    %zero = vm.const.i32 0
    %done = vm.cmp.eq.i32 %n, %zero : i32
    vm.cond_br %done, ^exit, ^body
  ^body:
    %one = vm.const.i32 1
    %n1 = vm.sub.i32 %n, %one : i32
    vm.br ^loop(%b, %a, %n1 : i32, i32, i32)
  ^exit:
    // Three swaps leave (a, b) = (2, 1).
    vm.check.eq %a, %c2, "a after three swaps" : i32
    vm.check.eq %b, %c1, "b after three swaps" : i32
    vm.return
  }

  vm.export @test_counted_loop
  vm.func @test_counted_loop() {
    %n = vm.const.i32 100
    %sum = vm.call @sum_below(%n) : (i32) -> i32
    %e = vm.const.i32 4950
    vm.check.eq %sum, %e, "0 + 1 + ... + 99" : i32
    vm.return
  }

  vm.func private @sum_below(%n : i32) -> i32 {
    %zero = vm.const.i32 0
    vm.br ^loop(%zero, %zero : i32, i32)
  ^loop(%i : i32, %acc : i32):
    %more = vm.cmp.lt.i32.s %i, %n : i32
    vm.cond_br %more, ^body, ^exit(%acc : i32)
  ^body:
    %one = vm.const.i32 1
    %acc1 = vm.add.i32 %acc, %i : i32
    %i1 = vm.add.i32 %i, %one : i32
    vm.br ^loop(%i1, %acc1 : i32, i32)
  ^exit(%result : i32):
    vm.return %result : i32
  }

  vm.func private @classify(%index : i32) -> i32 {
    %c100 = vm.const.i32 100
    %c200 = vm.const.i32 200
    vm.br_table %index {
      default: ^other(%index : i32),
      0: ^case(%c100 : i32),
      1: ^case(%c200 : i32),
      2: ^two
    }
  ^case(%v : i32):
    vm.return %v : i32
  ^two:
    %c300 = vm.const.i32 300
    vm.return %c300 : i32
  ^other(%x : i32):
    %m1 = vm.const.i32 -1
    %r = vm.mul.i32 %x, %m1 : i32
    vm.return %r : i32
  }

  vm.export @test_br_table
  vm.func @test_br_table() {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %c2 = vm.const.i32 2
    %c9 = vm.const.i32 9
    %cm5 = vm.const.i32 -5
    %r0 = vm.call @classify(%c0) : (i32) -> i32
    %e0 = vm.const.i32 100
    vm.check.eq %r0, %e0, "case 0" : i32
    %r1 = vm.call @classify(%c1) : (i32) -> i32
    %e1 = vm.const.i32 200
    vm.check.eq %r1, %e1, "case 1" : i32
    %r2 = vm.call @classify(%c2) : (i32) -> i32
    %e2 = vm.const.i32 300
    vm.check.eq %r2, %e2, "case 2" : i32
    %r9 = vm.call @classify(%c9) : (i32) -> i32
    %e9 = vm.const.i32 -9
    vm.check.eq %r9, %e9, "past the end takes the default" : i32
    %rm5 = vm.call @classify(%cm5) : (i32) -> i32
    %em5 = vm.const.i32 5
    vm.check.eq %rm5, %em5, "a negative index takes the default" : i32
    vm.return
  }
}
