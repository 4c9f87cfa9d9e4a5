// Compare-and-branch: every integer compare in the position the assembler
// fuses (its only use is the cond_br right after it) into one cmp_br op --
// gt/gte by swapping operands, cmp.nz.i32 by testing the operand directly --
// checked against the expected truth on signed/unsigned boundary values,
// plus compares that must not fuse (the result is used again, or passed as
// a block argument) and a rotated loop whose test is duplicated at the
// back edge (zero, one and many iterations).
vm.module @compare_branch {
  vm.func private @br_eq_i32(%a : i32, %b : i32) -> i32 {
    %c = vm.cmp.eq.i32 %a, %b : i32
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_eq_i32
  vm.func @test_br_eq_i32() {
    %a0 = vm.const.i32 -1
    %b0 = vm.const.i32 1
    %r0 = vm.call @br_eq_i32(%a0, %b0) : (i32, i32) -> i32
    %e0 = vm.const.i32 0
    vm.check.eq %r0, %e0, "vm.cmp.eq.i32 -1, 1" : i32
    %a1 = vm.const.i32 1
    %b1 = vm.const.i32 -1
    %r1 = vm.call @br_eq_i32(%a1, %b1) : (i32, i32) -> i32
    %e1 = vm.const.i32 0
    vm.check.eq %r1, %e1, "vm.cmp.eq.i32 1, -1" : i32
    %a2 = vm.const.i32 5
    %b2 = vm.const.i32 5
    %r2 = vm.call @br_eq_i32(%a2, %b2) : (i32, i32) -> i32
    %e2 = vm.const.i32 1
    vm.check.eq %r2, %e2, "vm.cmp.eq.i32 5, 5" : i32
    %a3 = vm.const.i32 -2147483648
    %b3 = vm.const.i32 2147483647
    %r3 = vm.call @br_eq_i32(%a3, %b3) : (i32, i32) -> i32
    %e3 = vm.const.i32 0
    vm.check.eq %r3, %e3, "vm.cmp.eq.i32 -2147483648, 2147483647" : i32
    %a4 = vm.const.i32 2147483647
    %b4 = vm.const.i32 -2147483648
    %r4 = vm.call @br_eq_i32(%a4, %b4) : (i32, i32) -> i32
    %e4 = vm.const.i32 0
    vm.check.eq %r4, %e4, "vm.cmp.eq.i32 2147483647, -2147483648" : i32
    %a5 = vm.const.i32 0
    %b5 = vm.const.i32 -1
    %r5 = vm.call @br_eq_i32(%a5, %b5) : (i32, i32) -> i32
    %e5 = vm.const.i32 0
    vm.check.eq %r5, %e5, "vm.cmp.eq.i32 0, -1" : i32
    %a6 = vm.const.i32 7
    %b6 = vm.const.i32 3
    %r6 = vm.call @br_eq_i32(%a6, %b6) : (i32, i32) -> i32
    %e6 = vm.const.i32 0
    vm.check.eq %r6, %e6, "vm.cmp.eq.i32 7, 3" : i32
    vm.return
  }
  vm.func private @br_ne_i32(%a : i32, %b : i32) -> i32 {
    %c = vm.cmp.ne.i32 %a, %b : i32
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_ne_i32
  vm.func @test_br_ne_i32() {
    %a0 = vm.const.i32 -1
    %b0 = vm.const.i32 1
    %r0 = vm.call @br_ne_i32(%a0, %b0) : (i32, i32) -> i32
    %e0 = vm.const.i32 1
    vm.check.eq %r0, %e0, "vm.cmp.ne.i32 -1, 1" : i32
    %a1 = vm.const.i32 1
    %b1 = vm.const.i32 -1
    %r1 = vm.call @br_ne_i32(%a1, %b1) : (i32, i32) -> i32
    %e1 = vm.const.i32 1
    vm.check.eq %r1, %e1, "vm.cmp.ne.i32 1, -1" : i32
    %a2 = vm.const.i32 5
    %b2 = vm.const.i32 5
    %r2 = vm.call @br_ne_i32(%a2, %b2) : (i32, i32) -> i32
    %e2 = vm.const.i32 0
    vm.check.eq %r2, %e2, "vm.cmp.ne.i32 5, 5" : i32
    %a3 = vm.const.i32 -2147483648
    %b3 = vm.const.i32 2147483647
    %r3 = vm.call @br_ne_i32(%a3, %b3) : (i32, i32) -> i32
    %e3 = vm.const.i32 1
    vm.check.eq %r3, %e3, "vm.cmp.ne.i32 -2147483648, 2147483647" : i32
    %a4 = vm.const.i32 2147483647
    %b4 = vm.const.i32 -2147483648
    %r4 = vm.call @br_ne_i32(%a4, %b4) : (i32, i32) -> i32
    %e4 = vm.const.i32 1
    vm.check.eq %r4, %e4, "vm.cmp.ne.i32 2147483647, -2147483648" : i32
    %a5 = vm.const.i32 0
    %b5 = vm.const.i32 -1
    %r5 = vm.call @br_ne_i32(%a5, %b5) : (i32, i32) -> i32
    %e5 = vm.const.i32 1
    vm.check.eq %r5, %e5, "vm.cmp.ne.i32 0, -1" : i32
    %a6 = vm.const.i32 7
    %b6 = vm.const.i32 3
    %r6 = vm.call @br_ne_i32(%a6, %b6) : (i32, i32) -> i32
    %e6 = vm.const.i32 1
    vm.check.eq %r6, %e6, "vm.cmp.ne.i32 7, 3" : i32
    vm.return
  }
  vm.func private @br_lt_i32_s(%a : i32, %b : i32) -> i32 {
    %c = vm.cmp.lt.i32.s %a, %b : i32
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_lt_i32_s
  vm.func @test_br_lt_i32_s() {
    %a0 = vm.const.i32 -1
    %b0 = vm.const.i32 1
    %r0 = vm.call @br_lt_i32_s(%a0, %b0) : (i32, i32) -> i32
    %e0 = vm.const.i32 1
    vm.check.eq %r0, %e0, "vm.cmp.lt.i32.s -1, 1" : i32
    %a1 = vm.const.i32 1
    %b1 = vm.const.i32 -1
    %r1 = vm.call @br_lt_i32_s(%a1, %b1) : (i32, i32) -> i32
    %e1 = vm.const.i32 0
    vm.check.eq %r1, %e1, "vm.cmp.lt.i32.s 1, -1" : i32
    %a2 = vm.const.i32 5
    %b2 = vm.const.i32 5
    %r2 = vm.call @br_lt_i32_s(%a2, %b2) : (i32, i32) -> i32
    %e2 = vm.const.i32 0
    vm.check.eq %r2, %e2, "vm.cmp.lt.i32.s 5, 5" : i32
    %a3 = vm.const.i32 -2147483648
    %b3 = vm.const.i32 2147483647
    %r3 = vm.call @br_lt_i32_s(%a3, %b3) : (i32, i32) -> i32
    %e3 = vm.const.i32 1
    vm.check.eq %r3, %e3, "vm.cmp.lt.i32.s -2147483648, 2147483647" : i32
    %a4 = vm.const.i32 2147483647
    %b4 = vm.const.i32 -2147483648
    %r4 = vm.call @br_lt_i32_s(%a4, %b4) : (i32, i32) -> i32
    %e4 = vm.const.i32 0
    vm.check.eq %r4, %e4, "vm.cmp.lt.i32.s 2147483647, -2147483648" : i32
    %a5 = vm.const.i32 0
    %b5 = vm.const.i32 -1
    %r5 = vm.call @br_lt_i32_s(%a5, %b5) : (i32, i32) -> i32
    %e5 = vm.const.i32 0
    vm.check.eq %r5, %e5, "vm.cmp.lt.i32.s 0, -1" : i32
    %a6 = vm.const.i32 7
    %b6 = vm.const.i32 3
    %r6 = vm.call @br_lt_i32_s(%a6, %b6) : (i32, i32) -> i32
    %e6 = vm.const.i32 0
    vm.check.eq %r6, %e6, "vm.cmp.lt.i32.s 7, 3" : i32
    vm.return
  }
  vm.func private @br_lt_i32_u(%a : i32, %b : i32) -> i32 {
    %c = vm.cmp.lt.i32.u %a, %b : i32
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_lt_i32_u
  vm.func @test_br_lt_i32_u() {
    %a0 = vm.const.i32 -1
    %b0 = vm.const.i32 1
    %r0 = vm.call @br_lt_i32_u(%a0, %b0) : (i32, i32) -> i32
    %e0 = vm.const.i32 0
    vm.check.eq %r0, %e0, "vm.cmp.lt.i32.u -1, 1" : i32
    %a1 = vm.const.i32 1
    %b1 = vm.const.i32 -1
    %r1 = vm.call @br_lt_i32_u(%a1, %b1) : (i32, i32) -> i32
    %e1 = vm.const.i32 1
    vm.check.eq %r1, %e1, "vm.cmp.lt.i32.u 1, -1" : i32
    %a2 = vm.const.i32 5
    %b2 = vm.const.i32 5
    %r2 = vm.call @br_lt_i32_u(%a2, %b2) : (i32, i32) -> i32
    %e2 = vm.const.i32 0
    vm.check.eq %r2, %e2, "vm.cmp.lt.i32.u 5, 5" : i32
    %a3 = vm.const.i32 -2147483648
    %b3 = vm.const.i32 2147483647
    %r3 = vm.call @br_lt_i32_u(%a3, %b3) : (i32, i32) -> i32
    %e3 = vm.const.i32 0
    vm.check.eq %r3, %e3, "vm.cmp.lt.i32.u -2147483648, 2147483647" : i32
    %a4 = vm.const.i32 2147483647
    %b4 = vm.const.i32 -2147483648
    %r4 = vm.call @br_lt_i32_u(%a4, %b4) : (i32, i32) -> i32
    %e4 = vm.const.i32 1
    vm.check.eq %r4, %e4, "vm.cmp.lt.i32.u 2147483647, -2147483648" : i32
    %a5 = vm.const.i32 0
    %b5 = vm.const.i32 -1
    %r5 = vm.call @br_lt_i32_u(%a5, %b5) : (i32, i32) -> i32
    %e5 = vm.const.i32 1
    vm.check.eq %r5, %e5, "vm.cmp.lt.i32.u 0, -1" : i32
    %a6 = vm.const.i32 7
    %b6 = vm.const.i32 3
    %r6 = vm.call @br_lt_i32_u(%a6, %b6) : (i32, i32) -> i32
    %e6 = vm.const.i32 0
    vm.check.eq %r6, %e6, "vm.cmp.lt.i32.u 7, 3" : i32
    vm.return
  }
  vm.func private @br_lte_i32_s(%a : i32, %b : i32) -> i32 {
    %c = vm.cmp.lte.i32.s %a, %b : i32
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_lte_i32_s
  vm.func @test_br_lte_i32_s() {
    %a0 = vm.const.i32 -1
    %b0 = vm.const.i32 1
    %r0 = vm.call @br_lte_i32_s(%a0, %b0) : (i32, i32) -> i32
    %e0 = vm.const.i32 1
    vm.check.eq %r0, %e0, "vm.cmp.lte.i32.s -1, 1" : i32
    %a1 = vm.const.i32 1
    %b1 = vm.const.i32 -1
    %r1 = vm.call @br_lte_i32_s(%a1, %b1) : (i32, i32) -> i32
    %e1 = vm.const.i32 0
    vm.check.eq %r1, %e1, "vm.cmp.lte.i32.s 1, -1" : i32
    %a2 = vm.const.i32 5
    %b2 = vm.const.i32 5
    %r2 = vm.call @br_lte_i32_s(%a2, %b2) : (i32, i32) -> i32
    %e2 = vm.const.i32 1
    vm.check.eq %r2, %e2, "vm.cmp.lte.i32.s 5, 5" : i32
    %a3 = vm.const.i32 -2147483648
    %b3 = vm.const.i32 2147483647
    %r3 = vm.call @br_lte_i32_s(%a3, %b3) : (i32, i32) -> i32
    %e3 = vm.const.i32 1
    vm.check.eq %r3, %e3, "vm.cmp.lte.i32.s -2147483648, 2147483647" : i32
    %a4 = vm.const.i32 2147483647
    %b4 = vm.const.i32 -2147483648
    %r4 = vm.call @br_lte_i32_s(%a4, %b4) : (i32, i32) -> i32
    %e4 = vm.const.i32 0
    vm.check.eq %r4, %e4, "vm.cmp.lte.i32.s 2147483647, -2147483648" : i32
    %a5 = vm.const.i32 0
    %b5 = vm.const.i32 -1
    %r5 = vm.call @br_lte_i32_s(%a5, %b5) : (i32, i32) -> i32
    %e5 = vm.const.i32 0
    vm.check.eq %r5, %e5, "vm.cmp.lte.i32.s 0, -1" : i32
    %a6 = vm.const.i32 7
    %b6 = vm.const.i32 3
    %r6 = vm.call @br_lte_i32_s(%a6, %b6) : (i32, i32) -> i32
    %e6 = vm.const.i32 0
    vm.check.eq %r6, %e6, "vm.cmp.lte.i32.s 7, 3" : i32
    vm.return
  }
  vm.func private @br_lte_i32_u(%a : i32, %b : i32) -> i32 {
    %c = vm.cmp.lte.i32.u %a, %b : i32
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_lte_i32_u
  vm.func @test_br_lte_i32_u() {
    %a0 = vm.const.i32 -1
    %b0 = vm.const.i32 1
    %r0 = vm.call @br_lte_i32_u(%a0, %b0) : (i32, i32) -> i32
    %e0 = vm.const.i32 0
    vm.check.eq %r0, %e0, "vm.cmp.lte.i32.u -1, 1" : i32
    %a1 = vm.const.i32 1
    %b1 = vm.const.i32 -1
    %r1 = vm.call @br_lte_i32_u(%a1, %b1) : (i32, i32) -> i32
    %e1 = vm.const.i32 1
    vm.check.eq %r1, %e1, "vm.cmp.lte.i32.u 1, -1" : i32
    %a2 = vm.const.i32 5
    %b2 = vm.const.i32 5
    %r2 = vm.call @br_lte_i32_u(%a2, %b2) : (i32, i32) -> i32
    %e2 = vm.const.i32 1
    vm.check.eq %r2, %e2, "vm.cmp.lte.i32.u 5, 5" : i32
    %a3 = vm.const.i32 -2147483648
    %b3 = vm.const.i32 2147483647
    %r3 = vm.call @br_lte_i32_u(%a3, %b3) : (i32, i32) -> i32
    %e3 = vm.const.i32 0
    vm.check.eq %r3, %e3, "vm.cmp.lte.i32.u -2147483648, 2147483647" : i32
    %a4 = vm.const.i32 2147483647
    %b4 = vm.const.i32 -2147483648
    %r4 = vm.call @br_lte_i32_u(%a4, %b4) : (i32, i32) -> i32
    %e4 = vm.const.i32 1
    vm.check.eq %r4, %e4, "vm.cmp.lte.i32.u 2147483647, -2147483648" : i32
    %a5 = vm.const.i32 0
    %b5 = vm.const.i32 -1
    %r5 = vm.call @br_lte_i32_u(%a5, %b5) : (i32, i32) -> i32
    %e5 = vm.const.i32 1
    vm.check.eq %r5, %e5, "vm.cmp.lte.i32.u 0, -1" : i32
    %a6 = vm.const.i32 7
    %b6 = vm.const.i32 3
    %r6 = vm.call @br_lte_i32_u(%a6, %b6) : (i32, i32) -> i32
    %e6 = vm.const.i32 0
    vm.check.eq %r6, %e6, "vm.cmp.lte.i32.u 7, 3" : i32
    vm.return
  }
  vm.func private @br_gt_i32_s(%a : i32, %b : i32) -> i32 {
    %c = vm.cmp.gt.i32.s %a, %b : i32
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_gt_i32_s
  vm.func @test_br_gt_i32_s() {
    %a0 = vm.const.i32 -1
    %b0 = vm.const.i32 1
    %r0 = vm.call @br_gt_i32_s(%a0, %b0) : (i32, i32) -> i32
    %e0 = vm.const.i32 0
    vm.check.eq %r0, %e0, "vm.cmp.gt.i32.s -1, 1" : i32
    %a1 = vm.const.i32 1
    %b1 = vm.const.i32 -1
    %r1 = vm.call @br_gt_i32_s(%a1, %b1) : (i32, i32) -> i32
    %e1 = vm.const.i32 1
    vm.check.eq %r1, %e1, "vm.cmp.gt.i32.s 1, -1" : i32
    %a2 = vm.const.i32 5
    %b2 = vm.const.i32 5
    %r2 = vm.call @br_gt_i32_s(%a2, %b2) : (i32, i32) -> i32
    %e2 = vm.const.i32 0
    vm.check.eq %r2, %e2, "vm.cmp.gt.i32.s 5, 5" : i32
    %a3 = vm.const.i32 -2147483648
    %b3 = vm.const.i32 2147483647
    %r3 = vm.call @br_gt_i32_s(%a3, %b3) : (i32, i32) -> i32
    %e3 = vm.const.i32 0
    vm.check.eq %r3, %e3, "vm.cmp.gt.i32.s -2147483648, 2147483647" : i32
    %a4 = vm.const.i32 2147483647
    %b4 = vm.const.i32 -2147483648
    %r4 = vm.call @br_gt_i32_s(%a4, %b4) : (i32, i32) -> i32
    %e4 = vm.const.i32 1
    vm.check.eq %r4, %e4, "vm.cmp.gt.i32.s 2147483647, -2147483648" : i32
    %a5 = vm.const.i32 0
    %b5 = vm.const.i32 -1
    %r5 = vm.call @br_gt_i32_s(%a5, %b5) : (i32, i32) -> i32
    %e5 = vm.const.i32 1
    vm.check.eq %r5, %e5, "vm.cmp.gt.i32.s 0, -1" : i32
    %a6 = vm.const.i32 7
    %b6 = vm.const.i32 3
    %r6 = vm.call @br_gt_i32_s(%a6, %b6) : (i32, i32) -> i32
    %e6 = vm.const.i32 1
    vm.check.eq %r6, %e6, "vm.cmp.gt.i32.s 7, 3" : i32
    vm.return
  }
  vm.func private @br_gt_i32_u(%a : i32, %b : i32) -> i32 {
    %c = vm.cmp.gt.i32.u %a, %b : i32
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_gt_i32_u
  vm.func @test_br_gt_i32_u() {
    %a0 = vm.const.i32 -1
    %b0 = vm.const.i32 1
    %r0 = vm.call @br_gt_i32_u(%a0, %b0) : (i32, i32) -> i32
    %e0 = vm.const.i32 1
    vm.check.eq %r0, %e0, "vm.cmp.gt.i32.u -1, 1" : i32
    %a1 = vm.const.i32 1
    %b1 = vm.const.i32 -1
    %r1 = vm.call @br_gt_i32_u(%a1, %b1) : (i32, i32) -> i32
    %e1 = vm.const.i32 0
    vm.check.eq %r1, %e1, "vm.cmp.gt.i32.u 1, -1" : i32
    %a2 = vm.const.i32 5
    %b2 = vm.const.i32 5
    %r2 = vm.call @br_gt_i32_u(%a2, %b2) : (i32, i32) -> i32
    %e2 = vm.const.i32 0
    vm.check.eq %r2, %e2, "vm.cmp.gt.i32.u 5, 5" : i32
    %a3 = vm.const.i32 -2147483648
    %b3 = vm.const.i32 2147483647
    %r3 = vm.call @br_gt_i32_u(%a3, %b3) : (i32, i32) -> i32
    %e3 = vm.const.i32 1
    vm.check.eq %r3, %e3, "vm.cmp.gt.i32.u -2147483648, 2147483647" : i32
    %a4 = vm.const.i32 2147483647
    %b4 = vm.const.i32 -2147483648
    %r4 = vm.call @br_gt_i32_u(%a4, %b4) : (i32, i32) -> i32
    %e4 = vm.const.i32 0
    vm.check.eq %r4, %e4, "vm.cmp.gt.i32.u 2147483647, -2147483648" : i32
    %a5 = vm.const.i32 0
    %b5 = vm.const.i32 -1
    %r5 = vm.call @br_gt_i32_u(%a5, %b5) : (i32, i32) -> i32
    %e5 = vm.const.i32 0
    vm.check.eq %r5, %e5, "vm.cmp.gt.i32.u 0, -1" : i32
    %a6 = vm.const.i32 7
    %b6 = vm.const.i32 3
    %r6 = vm.call @br_gt_i32_u(%a6, %b6) : (i32, i32) -> i32
    %e6 = vm.const.i32 1
    vm.check.eq %r6, %e6, "vm.cmp.gt.i32.u 7, 3" : i32
    vm.return
  }
  vm.func private @br_gte_i32_s(%a : i32, %b : i32) -> i32 {
    %c = vm.cmp.gte.i32.s %a, %b : i32
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_gte_i32_s
  vm.func @test_br_gte_i32_s() {
    %a0 = vm.const.i32 -1
    %b0 = vm.const.i32 1
    %r0 = vm.call @br_gte_i32_s(%a0, %b0) : (i32, i32) -> i32
    %e0 = vm.const.i32 0
    vm.check.eq %r0, %e0, "vm.cmp.gte.i32.s -1, 1" : i32
    %a1 = vm.const.i32 1
    %b1 = vm.const.i32 -1
    %r1 = vm.call @br_gte_i32_s(%a1, %b1) : (i32, i32) -> i32
    %e1 = vm.const.i32 1
    vm.check.eq %r1, %e1, "vm.cmp.gte.i32.s 1, -1" : i32
    %a2 = vm.const.i32 5
    %b2 = vm.const.i32 5
    %r2 = vm.call @br_gte_i32_s(%a2, %b2) : (i32, i32) -> i32
    %e2 = vm.const.i32 1
    vm.check.eq %r2, %e2, "vm.cmp.gte.i32.s 5, 5" : i32
    %a3 = vm.const.i32 -2147483648
    %b3 = vm.const.i32 2147483647
    %r3 = vm.call @br_gte_i32_s(%a3, %b3) : (i32, i32) -> i32
    %e3 = vm.const.i32 0
    vm.check.eq %r3, %e3, "vm.cmp.gte.i32.s -2147483648, 2147483647" : i32
    %a4 = vm.const.i32 2147483647
    %b4 = vm.const.i32 -2147483648
    %r4 = vm.call @br_gte_i32_s(%a4, %b4) : (i32, i32) -> i32
    %e4 = vm.const.i32 1
    vm.check.eq %r4, %e4, "vm.cmp.gte.i32.s 2147483647, -2147483648" : i32
    %a5 = vm.const.i32 0
    %b5 = vm.const.i32 -1
    %r5 = vm.call @br_gte_i32_s(%a5, %b5) : (i32, i32) -> i32
    %e5 = vm.const.i32 1
    vm.check.eq %r5, %e5, "vm.cmp.gte.i32.s 0, -1" : i32
    %a6 = vm.const.i32 7
    %b6 = vm.const.i32 3
    %r6 = vm.call @br_gte_i32_s(%a6, %b6) : (i32, i32) -> i32
    %e6 = vm.const.i32 1
    vm.check.eq %r6, %e6, "vm.cmp.gte.i32.s 7, 3" : i32
    vm.return
  }
  vm.func private @br_gte_i32_u(%a : i32, %b : i32) -> i32 {
    %c = vm.cmp.gte.i32.u %a, %b : i32
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_gte_i32_u
  vm.func @test_br_gte_i32_u() {
    %a0 = vm.const.i32 -1
    %b0 = vm.const.i32 1
    %r0 = vm.call @br_gte_i32_u(%a0, %b0) : (i32, i32) -> i32
    %e0 = vm.const.i32 1
    vm.check.eq %r0, %e0, "vm.cmp.gte.i32.u -1, 1" : i32
    %a1 = vm.const.i32 1
    %b1 = vm.const.i32 -1
    %r1 = vm.call @br_gte_i32_u(%a1, %b1) : (i32, i32) -> i32
    %e1 = vm.const.i32 0
    vm.check.eq %r1, %e1, "vm.cmp.gte.i32.u 1, -1" : i32
    %a2 = vm.const.i32 5
    %b2 = vm.const.i32 5
    %r2 = vm.call @br_gte_i32_u(%a2, %b2) : (i32, i32) -> i32
    %e2 = vm.const.i32 1
    vm.check.eq %r2, %e2, "vm.cmp.gte.i32.u 5, 5" : i32
    %a3 = vm.const.i32 -2147483648
    %b3 = vm.const.i32 2147483647
    %r3 = vm.call @br_gte_i32_u(%a3, %b3) : (i32, i32) -> i32
    %e3 = vm.const.i32 1
    vm.check.eq %r3, %e3, "vm.cmp.gte.i32.u -2147483648, 2147483647" : i32
    %a4 = vm.const.i32 2147483647
    %b4 = vm.const.i32 -2147483648
    %r4 = vm.call @br_gte_i32_u(%a4, %b4) : (i32, i32) -> i32
    %e4 = vm.const.i32 0
    vm.check.eq %r4, %e4, "vm.cmp.gte.i32.u 2147483647, -2147483648" : i32
    %a5 = vm.const.i32 0
    %b5 = vm.const.i32 -1
    %r5 = vm.call @br_gte_i32_u(%a5, %b5) : (i32, i32) -> i32
    %e5 = vm.const.i32 0
    vm.check.eq %r5, %e5, "vm.cmp.gte.i32.u 0, -1" : i32
    %a6 = vm.const.i32 7
    %b6 = vm.const.i32 3
    %r6 = vm.call @br_gte_i32_u(%a6, %b6) : (i32, i32) -> i32
    %e6 = vm.const.i32 1
    vm.check.eq %r6, %e6, "vm.cmp.gte.i32.u 7, 3" : i32
    vm.return
  }
  vm.func private @br_eq_i64(%a : i64, %b : i64) -> i32 {
    %c = vm.cmp.eq.i64 %a, %b : i64
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_eq_i64
  vm.func @test_br_eq_i64() {
    %a0 = vm.const.i64 -1
    %b0 = vm.const.i64 1
    %r0 = vm.call @br_eq_i64(%a0, %b0) : (i64, i64) -> i32
    %e0 = vm.const.i32 0
    vm.check.eq %r0, %e0, "vm.cmp.eq.i64 -1, 1" : i32
    %a1 = vm.const.i64 1
    %b1 = vm.const.i64 -1
    %r1 = vm.call @br_eq_i64(%a1, %b1) : (i64, i64) -> i32
    %e1 = vm.const.i32 0
    vm.check.eq %r1, %e1, "vm.cmp.eq.i64 1, -1" : i32
    %a2 = vm.const.i64 5
    %b2 = vm.const.i64 5
    %r2 = vm.call @br_eq_i64(%a2, %b2) : (i64, i64) -> i32
    %e2 = vm.const.i32 1
    vm.check.eq %r2, %e2, "vm.cmp.eq.i64 5, 5" : i32
    %a3 = vm.const.i64 -9223372036854775808
    %b3 = vm.const.i64 9223372036854775807
    %r3 = vm.call @br_eq_i64(%a3, %b3) : (i64, i64) -> i32
    %e3 = vm.const.i32 0
    vm.check.eq %r3, %e3, "vm.cmp.eq.i64 -9223372036854775808, 9223372036854775807" : i32
    %a4 = vm.const.i64 9223372036854775807
    %b4 = vm.const.i64 -9223372036854775808
    %r4 = vm.call @br_eq_i64(%a4, %b4) : (i64, i64) -> i32
    %e4 = vm.const.i32 0
    vm.check.eq %r4, %e4, "vm.cmp.eq.i64 9223372036854775807, -9223372036854775808" : i32
    %a5 = vm.const.i64 0
    %b5 = vm.const.i64 -1
    %r5 = vm.call @br_eq_i64(%a5, %b5) : (i64, i64) -> i32
    %e5 = vm.const.i32 0
    vm.check.eq %r5, %e5, "vm.cmp.eq.i64 0, -1" : i32
    %a6 = vm.const.i64 1099511627776
    %b6 = vm.const.i64 3
    %r6 = vm.call @br_eq_i64(%a6, %b6) : (i64, i64) -> i32
    %e6 = vm.const.i32 0
    vm.check.eq %r6, %e6, "vm.cmp.eq.i64 1099511627776, 3" : i32
    vm.return
  }
  vm.func private @br_ne_i64(%a : i64, %b : i64) -> i32 {
    %c = vm.cmp.ne.i64 %a, %b : i64
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_ne_i64
  vm.func @test_br_ne_i64() {
    %a0 = vm.const.i64 -1
    %b0 = vm.const.i64 1
    %r0 = vm.call @br_ne_i64(%a0, %b0) : (i64, i64) -> i32
    %e0 = vm.const.i32 1
    vm.check.eq %r0, %e0, "vm.cmp.ne.i64 -1, 1" : i32
    %a1 = vm.const.i64 1
    %b1 = vm.const.i64 -1
    %r1 = vm.call @br_ne_i64(%a1, %b1) : (i64, i64) -> i32
    %e1 = vm.const.i32 1
    vm.check.eq %r1, %e1, "vm.cmp.ne.i64 1, -1" : i32
    %a2 = vm.const.i64 5
    %b2 = vm.const.i64 5
    %r2 = vm.call @br_ne_i64(%a2, %b2) : (i64, i64) -> i32
    %e2 = vm.const.i32 0
    vm.check.eq %r2, %e2, "vm.cmp.ne.i64 5, 5" : i32
    %a3 = vm.const.i64 -9223372036854775808
    %b3 = vm.const.i64 9223372036854775807
    %r3 = vm.call @br_ne_i64(%a3, %b3) : (i64, i64) -> i32
    %e3 = vm.const.i32 1
    vm.check.eq %r3, %e3, "vm.cmp.ne.i64 -9223372036854775808, 9223372036854775807" : i32
    %a4 = vm.const.i64 9223372036854775807
    %b4 = vm.const.i64 -9223372036854775808
    %r4 = vm.call @br_ne_i64(%a4, %b4) : (i64, i64) -> i32
    %e4 = vm.const.i32 1
    vm.check.eq %r4, %e4, "vm.cmp.ne.i64 9223372036854775807, -9223372036854775808" : i32
    %a5 = vm.const.i64 0
    %b5 = vm.const.i64 -1
    %r5 = vm.call @br_ne_i64(%a5, %b5) : (i64, i64) -> i32
    %e5 = vm.const.i32 1
    vm.check.eq %r5, %e5, "vm.cmp.ne.i64 0, -1" : i32
    %a6 = vm.const.i64 1099511627776
    %b6 = vm.const.i64 3
    %r6 = vm.call @br_ne_i64(%a6, %b6) : (i64, i64) -> i32
    %e6 = vm.const.i32 1
    vm.check.eq %r6, %e6, "vm.cmp.ne.i64 1099511627776, 3" : i32
    vm.return
  }
  vm.func private @br_lt_i64_s(%a : i64, %b : i64) -> i32 {
    %c = vm.cmp.lt.i64.s %a, %b : i64
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_lt_i64_s
  vm.func @test_br_lt_i64_s() {
    %a0 = vm.const.i64 -1
    %b0 = vm.const.i64 1
    %r0 = vm.call @br_lt_i64_s(%a0, %b0) : (i64, i64) -> i32
    %e0 = vm.const.i32 1
    vm.check.eq %r0, %e0, "vm.cmp.lt.i64.s -1, 1" : i32
    %a1 = vm.const.i64 1
    %b1 = vm.const.i64 -1
    %r1 = vm.call @br_lt_i64_s(%a1, %b1) : (i64, i64) -> i32
    %e1 = vm.const.i32 0
    vm.check.eq %r1, %e1, "vm.cmp.lt.i64.s 1, -1" : i32
    %a2 = vm.const.i64 5
    %b2 = vm.const.i64 5
    %r2 = vm.call @br_lt_i64_s(%a2, %b2) : (i64, i64) -> i32
    %e2 = vm.const.i32 0
    vm.check.eq %r2, %e2, "vm.cmp.lt.i64.s 5, 5" : i32
    %a3 = vm.const.i64 -9223372036854775808
    %b3 = vm.const.i64 9223372036854775807
    %r3 = vm.call @br_lt_i64_s(%a3, %b3) : (i64, i64) -> i32
    %e3 = vm.const.i32 1
    vm.check.eq %r3, %e3, "vm.cmp.lt.i64.s -9223372036854775808, 9223372036854775807" : i32
    %a4 = vm.const.i64 9223372036854775807
    %b4 = vm.const.i64 -9223372036854775808
    %r4 = vm.call @br_lt_i64_s(%a4, %b4) : (i64, i64) -> i32
    %e4 = vm.const.i32 0
    vm.check.eq %r4, %e4, "vm.cmp.lt.i64.s 9223372036854775807, -9223372036854775808" : i32
    %a5 = vm.const.i64 0
    %b5 = vm.const.i64 -1
    %r5 = vm.call @br_lt_i64_s(%a5, %b5) : (i64, i64) -> i32
    %e5 = vm.const.i32 0
    vm.check.eq %r5, %e5, "vm.cmp.lt.i64.s 0, -1" : i32
    %a6 = vm.const.i64 1099511627776
    %b6 = vm.const.i64 3
    %r6 = vm.call @br_lt_i64_s(%a6, %b6) : (i64, i64) -> i32
    %e6 = vm.const.i32 0
    vm.check.eq %r6, %e6, "vm.cmp.lt.i64.s 1099511627776, 3" : i32
    vm.return
  }
  vm.func private @br_lt_i64_u(%a : i64, %b : i64) -> i32 {
    %c = vm.cmp.lt.i64.u %a, %b : i64
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_lt_i64_u
  vm.func @test_br_lt_i64_u() {
    %a0 = vm.const.i64 -1
    %b0 = vm.const.i64 1
    %r0 = vm.call @br_lt_i64_u(%a0, %b0) : (i64, i64) -> i32
    %e0 = vm.const.i32 0
    vm.check.eq %r0, %e0, "vm.cmp.lt.i64.u -1, 1" : i32
    %a1 = vm.const.i64 1
    %b1 = vm.const.i64 -1
    %r1 = vm.call @br_lt_i64_u(%a1, %b1) : (i64, i64) -> i32
    %e1 = vm.const.i32 1
    vm.check.eq %r1, %e1, "vm.cmp.lt.i64.u 1, -1" : i32
    %a2 = vm.const.i64 5
    %b2 = vm.const.i64 5
    %r2 = vm.call @br_lt_i64_u(%a2, %b2) : (i64, i64) -> i32
    %e2 = vm.const.i32 0
    vm.check.eq %r2, %e2, "vm.cmp.lt.i64.u 5, 5" : i32
    %a3 = vm.const.i64 -9223372036854775808
    %b3 = vm.const.i64 9223372036854775807
    %r3 = vm.call @br_lt_i64_u(%a3, %b3) : (i64, i64) -> i32
    %e3 = vm.const.i32 0
    vm.check.eq %r3, %e3, "vm.cmp.lt.i64.u -9223372036854775808, 9223372036854775807" : i32
    %a4 = vm.const.i64 9223372036854775807
    %b4 = vm.const.i64 -9223372036854775808
    %r4 = vm.call @br_lt_i64_u(%a4, %b4) : (i64, i64) -> i32
    %e4 = vm.const.i32 1
    vm.check.eq %r4, %e4, "vm.cmp.lt.i64.u 9223372036854775807, -9223372036854775808" : i32
    %a5 = vm.const.i64 0
    %b5 = vm.const.i64 -1
    %r5 = vm.call @br_lt_i64_u(%a5, %b5) : (i64, i64) -> i32
    %e5 = vm.const.i32 1
    vm.check.eq %r5, %e5, "vm.cmp.lt.i64.u 0, -1" : i32
    %a6 = vm.const.i64 1099511627776
    %b6 = vm.const.i64 3
    %r6 = vm.call @br_lt_i64_u(%a6, %b6) : (i64, i64) -> i32
    %e6 = vm.const.i32 0
    vm.check.eq %r6, %e6, "vm.cmp.lt.i64.u 1099511627776, 3" : i32
    vm.return
  }
  vm.func private @br_lte_i64_s(%a : i64, %b : i64) -> i32 {
    %c = vm.cmp.lte.i64.s %a, %b : i64
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_lte_i64_s
  vm.func @test_br_lte_i64_s() {
    %a0 = vm.const.i64 -1
    %b0 = vm.const.i64 1
    %r0 = vm.call @br_lte_i64_s(%a0, %b0) : (i64, i64) -> i32
    %e0 = vm.const.i32 1
    vm.check.eq %r0, %e0, "vm.cmp.lte.i64.s -1, 1" : i32
    %a1 = vm.const.i64 1
    %b1 = vm.const.i64 -1
    %r1 = vm.call @br_lte_i64_s(%a1, %b1) : (i64, i64) -> i32
    %e1 = vm.const.i32 0
    vm.check.eq %r1, %e1, "vm.cmp.lte.i64.s 1, -1" : i32
    %a2 = vm.const.i64 5
    %b2 = vm.const.i64 5
    %r2 = vm.call @br_lte_i64_s(%a2, %b2) : (i64, i64) -> i32
    %e2 = vm.const.i32 1
    vm.check.eq %r2, %e2, "vm.cmp.lte.i64.s 5, 5" : i32
    %a3 = vm.const.i64 -9223372036854775808
    %b3 = vm.const.i64 9223372036854775807
    %r3 = vm.call @br_lte_i64_s(%a3, %b3) : (i64, i64) -> i32
    %e3 = vm.const.i32 1
    vm.check.eq %r3, %e3, "vm.cmp.lte.i64.s -9223372036854775808, 9223372036854775807" : i32
    %a4 = vm.const.i64 9223372036854775807
    %b4 = vm.const.i64 -9223372036854775808
    %r4 = vm.call @br_lte_i64_s(%a4, %b4) : (i64, i64) -> i32
    %e4 = vm.const.i32 0
    vm.check.eq %r4, %e4, "vm.cmp.lte.i64.s 9223372036854775807, -9223372036854775808" : i32
    %a5 = vm.const.i64 0
    %b5 = vm.const.i64 -1
    %r5 = vm.call @br_lte_i64_s(%a5, %b5) : (i64, i64) -> i32
    %e5 = vm.const.i32 0
    vm.check.eq %r5, %e5, "vm.cmp.lte.i64.s 0, -1" : i32
    %a6 = vm.const.i64 1099511627776
    %b6 = vm.const.i64 3
    %r6 = vm.call @br_lte_i64_s(%a6, %b6) : (i64, i64) -> i32
    %e6 = vm.const.i32 0
    vm.check.eq %r6, %e6, "vm.cmp.lte.i64.s 1099511627776, 3" : i32
    vm.return
  }
  vm.func private @br_lte_i64_u(%a : i64, %b : i64) -> i32 {
    %c = vm.cmp.lte.i64.u %a, %b : i64
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_lte_i64_u
  vm.func @test_br_lte_i64_u() {
    %a0 = vm.const.i64 -1
    %b0 = vm.const.i64 1
    %r0 = vm.call @br_lte_i64_u(%a0, %b0) : (i64, i64) -> i32
    %e0 = vm.const.i32 0
    vm.check.eq %r0, %e0, "vm.cmp.lte.i64.u -1, 1" : i32
    %a1 = vm.const.i64 1
    %b1 = vm.const.i64 -1
    %r1 = vm.call @br_lte_i64_u(%a1, %b1) : (i64, i64) -> i32
    %e1 = vm.const.i32 1
    vm.check.eq %r1, %e1, "vm.cmp.lte.i64.u 1, -1" : i32
    %a2 = vm.const.i64 5
    %b2 = vm.const.i64 5
    %r2 = vm.call @br_lte_i64_u(%a2, %b2) : (i64, i64) -> i32
    %e2 = vm.const.i32 1
    vm.check.eq %r2, %e2, "vm.cmp.lte.i64.u 5, 5" : i32
    %a3 = vm.const.i64 -9223372036854775808
    %b3 = vm.const.i64 9223372036854775807
    %r3 = vm.call @br_lte_i64_u(%a3, %b3) : (i64, i64) -> i32
    %e3 = vm.const.i32 0
    vm.check.eq %r3, %e3, "vm.cmp.lte.i64.u -9223372036854775808, 9223372036854775807" : i32
    %a4 = vm.const.i64 9223372036854775807
    %b4 = vm.const.i64 -9223372036854775808
    %r4 = vm.call @br_lte_i64_u(%a4, %b4) : (i64, i64) -> i32
    %e4 = vm.const.i32 1
    vm.check.eq %r4, %e4, "vm.cmp.lte.i64.u 9223372036854775807, -9223372036854775808" : i32
    %a5 = vm.const.i64 0
    %b5 = vm.const.i64 -1
    %r5 = vm.call @br_lte_i64_u(%a5, %b5) : (i64, i64) -> i32
    %e5 = vm.const.i32 1
    vm.check.eq %r5, %e5, "vm.cmp.lte.i64.u 0, -1" : i32
    %a6 = vm.const.i64 1099511627776
    %b6 = vm.const.i64 3
    %r6 = vm.call @br_lte_i64_u(%a6, %b6) : (i64, i64) -> i32
    %e6 = vm.const.i32 0
    vm.check.eq %r6, %e6, "vm.cmp.lte.i64.u 1099511627776, 3" : i32
    vm.return
  }
  vm.func private @br_gt_i64_s(%a : i64, %b : i64) -> i32 {
    %c = vm.cmp.gt.i64.s %a, %b : i64
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_gt_i64_s
  vm.func @test_br_gt_i64_s() {
    %a0 = vm.const.i64 -1
    %b0 = vm.const.i64 1
    %r0 = vm.call @br_gt_i64_s(%a0, %b0) : (i64, i64) -> i32
    %e0 = vm.const.i32 0
    vm.check.eq %r0, %e0, "vm.cmp.gt.i64.s -1, 1" : i32
    %a1 = vm.const.i64 1
    %b1 = vm.const.i64 -1
    %r1 = vm.call @br_gt_i64_s(%a1, %b1) : (i64, i64) -> i32
    %e1 = vm.const.i32 1
    vm.check.eq %r1, %e1, "vm.cmp.gt.i64.s 1, -1" : i32
    %a2 = vm.const.i64 5
    %b2 = vm.const.i64 5
    %r2 = vm.call @br_gt_i64_s(%a2, %b2) : (i64, i64) -> i32
    %e2 = vm.const.i32 0
    vm.check.eq %r2, %e2, "vm.cmp.gt.i64.s 5, 5" : i32
    %a3 = vm.const.i64 -9223372036854775808
    %b3 = vm.const.i64 9223372036854775807
    %r3 = vm.call @br_gt_i64_s(%a3, %b3) : (i64, i64) -> i32
    %e3 = vm.const.i32 0
    vm.check.eq %r3, %e3, "vm.cmp.gt.i64.s -9223372036854775808, 9223372036854775807" : i32
    %a4 = vm.const.i64 9223372036854775807
    %b4 = vm.const.i64 -9223372036854775808
    %r4 = vm.call @br_gt_i64_s(%a4, %b4) : (i64, i64) -> i32
    %e4 = vm.const.i32 1
    vm.check.eq %r4, %e4, "vm.cmp.gt.i64.s 9223372036854775807, -9223372036854775808" : i32
    %a5 = vm.const.i64 0
    %b5 = vm.const.i64 -1
    %r5 = vm.call @br_gt_i64_s(%a5, %b5) : (i64, i64) -> i32
    %e5 = vm.const.i32 1
    vm.check.eq %r5, %e5, "vm.cmp.gt.i64.s 0, -1" : i32
    %a6 = vm.const.i64 1099511627776
    %b6 = vm.const.i64 3
    %r6 = vm.call @br_gt_i64_s(%a6, %b6) : (i64, i64) -> i32
    %e6 = vm.const.i32 1
    vm.check.eq %r6, %e6, "vm.cmp.gt.i64.s 1099511627776, 3" : i32
    vm.return
  }
  vm.func private @br_gt_i64_u(%a : i64, %b : i64) -> i32 {
    %c = vm.cmp.gt.i64.u %a, %b : i64
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_gt_i64_u
  vm.func @test_br_gt_i64_u() {
    %a0 = vm.const.i64 -1
    %b0 = vm.const.i64 1
    %r0 = vm.call @br_gt_i64_u(%a0, %b0) : (i64, i64) -> i32
    %e0 = vm.const.i32 1
    vm.check.eq %r0, %e0, "vm.cmp.gt.i64.u -1, 1" : i32
    %a1 = vm.const.i64 1
    %b1 = vm.const.i64 -1
    %r1 = vm.call @br_gt_i64_u(%a1, %b1) : (i64, i64) -> i32
    %e1 = vm.const.i32 0
    vm.check.eq %r1, %e1, "vm.cmp.gt.i64.u 1, -1" : i32
    %a2 = vm.const.i64 5
    %b2 = vm.const.i64 5
    %r2 = vm.call @br_gt_i64_u(%a2, %b2) : (i64, i64) -> i32
    %e2 = vm.const.i32 0
    vm.check.eq %r2, %e2, "vm.cmp.gt.i64.u 5, 5" : i32
    %a3 = vm.const.i64 -9223372036854775808
    %b3 = vm.const.i64 9223372036854775807
    %r3 = vm.call @br_gt_i64_u(%a3, %b3) : (i64, i64) -> i32
    %e3 = vm.const.i32 1
    vm.check.eq %r3, %e3, "vm.cmp.gt.i64.u -9223372036854775808, 9223372036854775807" : i32
    %a4 = vm.const.i64 9223372036854775807
    %b4 = vm.const.i64 -9223372036854775808
    %r4 = vm.call @br_gt_i64_u(%a4, %b4) : (i64, i64) -> i32
    %e4 = vm.const.i32 0
    vm.check.eq %r4, %e4, "vm.cmp.gt.i64.u 9223372036854775807, -9223372036854775808" : i32
    %a5 = vm.const.i64 0
    %b5 = vm.const.i64 -1
    %r5 = vm.call @br_gt_i64_u(%a5, %b5) : (i64, i64) -> i32
    %e5 = vm.const.i32 0
    vm.check.eq %r5, %e5, "vm.cmp.gt.i64.u 0, -1" : i32
    %a6 = vm.const.i64 1099511627776
    %b6 = vm.const.i64 3
    %r6 = vm.call @br_gt_i64_u(%a6, %b6) : (i64, i64) -> i32
    %e6 = vm.const.i32 1
    vm.check.eq %r6, %e6, "vm.cmp.gt.i64.u 1099511627776, 3" : i32
    vm.return
  }
  vm.func private @br_gte_i64_s(%a : i64, %b : i64) -> i32 {
    %c = vm.cmp.gte.i64.s %a, %b : i64
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_gte_i64_s
  vm.func @test_br_gte_i64_s() {
    %a0 = vm.const.i64 -1
    %b0 = vm.const.i64 1
    %r0 = vm.call @br_gte_i64_s(%a0, %b0) : (i64, i64) -> i32
    %e0 = vm.const.i32 0
    vm.check.eq %r0, %e0, "vm.cmp.gte.i64.s -1, 1" : i32
    %a1 = vm.const.i64 1
    %b1 = vm.const.i64 -1
    %r1 = vm.call @br_gte_i64_s(%a1, %b1) : (i64, i64) -> i32
    %e1 = vm.const.i32 1
    vm.check.eq %r1, %e1, "vm.cmp.gte.i64.s 1, -1" : i32
    %a2 = vm.const.i64 5
    %b2 = vm.const.i64 5
    %r2 = vm.call @br_gte_i64_s(%a2, %b2) : (i64, i64) -> i32
    %e2 = vm.const.i32 1
    vm.check.eq %r2, %e2, "vm.cmp.gte.i64.s 5, 5" : i32
    %a3 = vm.const.i64 -9223372036854775808
    %b3 = vm.const.i64 9223372036854775807
    %r3 = vm.call @br_gte_i64_s(%a3, %b3) : (i64, i64) -> i32
    %e3 = vm.const.i32 0
    vm.check.eq %r3, %e3, "vm.cmp.gte.i64.s -9223372036854775808, 9223372036854775807" : i32
    %a4 = vm.const.i64 9223372036854775807
    %b4 = vm.const.i64 -9223372036854775808
    %r4 = vm.call @br_gte_i64_s(%a4, %b4) : (i64, i64) -> i32
    %e4 = vm.const.i32 1
    vm.check.eq %r4, %e4, "vm.cmp.gte.i64.s 9223372036854775807, -9223372036854775808" : i32
    %a5 = vm.const.i64 0
    %b5 = vm.const.i64 -1
    %r5 = vm.call @br_gte_i64_s(%a5, %b5) : (i64, i64) -> i32
    %e5 = vm.const.i32 1
    vm.check.eq %r5, %e5, "vm.cmp.gte.i64.s 0, -1" : i32
    %a6 = vm.const.i64 1099511627776
    %b6 = vm.const.i64 3
    %r6 = vm.call @br_gte_i64_s(%a6, %b6) : (i64, i64) -> i32
    %e6 = vm.const.i32 1
    vm.check.eq %r6, %e6, "vm.cmp.gte.i64.s 1099511627776, 3" : i32
    vm.return
  }
  vm.func private @br_gte_i64_u(%a : i64, %b : i64) -> i32 {
    %c = vm.cmp.gte.i64.u %a, %b : i64
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_gte_i64_u
  vm.func @test_br_gte_i64_u() {
    %a0 = vm.const.i64 -1
    %b0 = vm.const.i64 1
    %r0 = vm.call @br_gte_i64_u(%a0, %b0) : (i64, i64) -> i32
    %e0 = vm.const.i32 1
    vm.check.eq %r0, %e0, "vm.cmp.gte.i64.u -1, 1" : i32
    %a1 = vm.const.i64 1
    %b1 = vm.const.i64 -1
    %r1 = vm.call @br_gte_i64_u(%a1, %b1) : (i64, i64) -> i32
    %e1 = vm.const.i32 0
    vm.check.eq %r1, %e1, "vm.cmp.gte.i64.u 1, -1" : i32
    %a2 = vm.const.i64 5
    %b2 = vm.const.i64 5
    %r2 = vm.call @br_gte_i64_u(%a2, %b2) : (i64, i64) -> i32
    %e2 = vm.const.i32 1
    vm.check.eq %r2, %e2, "vm.cmp.gte.i64.u 5, 5" : i32
    %a3 = vm.const.i64 -9223372036854775808
    %b3 = vm.const.i64 9223372036854775807
    %r3 = vm.call @br_gte_i64_u(%a3, %b3) : (i64, i64) -> i32
    %e3 = vm.const.i32 1
    vm.check.eq %r3, %e3, "vm.cmp.gte.i64.u -9223372036854775808, 9223372036854775807" : i32
    %a4 = vm.const.i64 9223372036854775807
    %b4 = vm.const.i64 -9223372036854775808
    %r4 = vm.call @br_gte_i64_u(%a4, %b4) : (i64, i64) -> i32
    %e4 = vm.const.i32 0
    vm.check.eq %r4, %e4, "vm.cmp.gte.i64.u 9223372036854775807, -9223372036854775808" : i32
    %a5 = vm.const.i64 0
    %b5 = vm.const.i64 -1
    %r5 = vm.call @br_gte_i64_u(%a5, %b5) : (i64, i64) -> i32
    %e5 = vm.const.i32 0
    vm.check.eq %r5, %e5, "vm.cmp.gte.i64.u 0, -1" : i32
    %a6 = vm.const.i64 1099511627776
    %b6 = vm.const.i64 3
    %r6 = vm.call @br_gte_i64_u(%a6, %b6) : (i64, i64) -> i32
    %e6 = vm.const.i32 1
    vm.check.eq %r6, %e6, "vm.cmp.gte.i64.u 1099511627776, 3" : i32
    vm.return
  }
  vm.func private @br_nz_i32(%a : i32) -> i32 {
    %c = vm.cmp.nz.i32 %a : i32
    vm.cond_br %c, ^yes, ^no
  ^yes:
    %one = vm.const.i32 1
    vm.return %one : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_br_nz_i32
  vm.func @test_br_nz_i32() {
    %zero = vm.const.i32 0
    %one = vm.const.i32 1
    %min = vm.const.i32 -2147483648
    %r0 = vm.call @br_nz_i32(%zero) : (i32) -> i32
    vm.check.eq %r0, %zero, "nz 0" : i32
    %r1 = vm.call @br_nz_i32(%min) : (i32) -> i32
    vm.check.eq %r1, %one, "nz min" : i32
    vm.return
  }

  // The compare's result is returned on one path: it must still be written.
  vm.func private @lt_or_flag(%a : i32, %b : i32) -> i32 {
    %c = vm.cmp.lt.i32.s %a, %b : i32
    vm.cond_br %c, ^yes, ^no
  ^yes:
    vm.return %c : i32
  ^no:
    %seven = vm.const.i32 7
    vm.return %seven : i32
  }
  // The compare's result is also a block argument of the branch.
  vm.func private @lt_as_argument(%a : i32, %b : i32) -> i32 {
    %c = vm.cmp.lt.i32.s %a, %b : i32
    vm.cond_br %c, ^yes(%c : i32), ^no
  ^yes(%x : i32):
    %ten = vm.const.i32 10
    %y = vm.add.i32 %x, %ten : i32
    vm.return %y : i32
  ^no:
    %zero = vm.const.i32 0
    vm.return %zero : i32
  }
  vm.export @test_unfused_compares
  vm.func @test_unfused_compares() {
    %one = vm.const.i32 1
    %two = vm.const.i32 2
    %seven = vm.const.i32 7
    %eleven = vm.const.i32 11
    %zero = vm.const.i32 0
    %a = vm.call @lt_or_flag(%one, %two) : (i32, i32) -> i32
    vm.check.eq %a, %one, "flag returned" : i32
    %b = vm.call @lt_or_flag(%two, %one) : (i32, i32) -> i32
    vm.check.eq %b, %seven, "other path" : i32
    %c = vm.call @lt_as_argument(%one, %two) : (i32, i32) -> i32
    vm.check.eq %c, %eleven, "flag as argument" : i32
    %d = vm.call @lt_as_argument(%two, %one) : (i32, i32) -> i32
    vm.check.eq %d, %zero, "argument path not taken" : i32
    vm.return
  }

  // sum of 0..n-1 with the loop test at the top; the back edge carries its
  // values in place, so the assembler duplicates the test there.
  vm.func private @sum_below(%n : i64) -> i64 {
    %zero = vm.const.i64 0
    %one = vm.const.i64 1
    vm.br ^loop(%zero, %zero : i64, i64)
  ^loop(%i : i64, %acc : i64):
    %more = vm.cmp.gt.i64.s %n, %i : i64
    vm.cond_br %more, ^body, ^done
  ^body:
    %acc1 = vm.add.i64 %acc, %i : i64
    %i1 = vm.add.i64 %i, %one : i64
    vm.br ^loop(%i1, %acc1 : i64, i64)
  ^done:
    vm.return %acc : i64
  }
  vm.export @test_rotated_loop
  vm.func @test_rotated_loop() {
    %zero = vm.const.i64 0
    %one = vm.const.i64 1
    %hundred = vm.const.i64 100
    %r0 = vm.call @sum_below(%zero) : (i64) -> i64
    vm.check.eq %r0, %zero, "no iterations" : i64
    %r1 = vm.call @sum_below(%one) : (i64) -> i64
    vm.check.eq %r1, %zero, "one iteration" : i64
    %r100 = vm.call @sum_below(%hundred) : (i64) -> i64
    %e100 = vm.const.i64 4950
    vm.check.eq %r100, %e100, "a hundred iterations" : i64
    vm.return
  }

  // A wrong expectation: the check after a fused branch must fail.
  vm.export @fail_fused_branch_checked
  vm.func @fail_fused_branch_checked() {
    %one = vm.const.i32 1
    %two = vm.const.i32 2
    %r = vm.call @br_lt_i32_s(%one, %two) : (i32, i32) -> i32
    %zero = vm.const.i32 0
    vm.check.eq %r, %zero, "1 < 2 is taken" : i32
    vm.return
  }
}
