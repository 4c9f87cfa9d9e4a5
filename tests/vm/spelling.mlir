// Every op that no other file here uses, spelled as IREE's vm dialect
// spells it (VMOps.td assembly formats), each checked against a known value:
// so a program written for IREE assembles unchanged and runs right.
vm.module @spelling {
  vm.export @test_select_switch_wide
  vm.func @test_select_switch_wide() {
    %one = vm.const.i32 1
    %zero = vm.const.i32 0
    %a = vm.const.i64 10
    %b = vm.const.i64 20
    %s = vm.select.i64 %zero, %a, %b : i64
    vm.check.eq %s, %b, "select.i64(0, a, b) = b" : i64
    %w = vm.switch.i64 %one[%a, %b] else %a : i64
    vm.check.eq %w, %b, "switch.i64 index 1" : i64
    %fa = vm.const.f32 1.5
    %fb = vm.const.f32 2.5
    %wf = vm.switch.f32 %zero[%fa, %fb] else %fb : f32
    vm.check.eq %wf, %fa, "switch.f32 index 0" : f32
    %da = vm.const.f64 1.5
    %db = vm.const.f64 2.5
    %sd = vm.select.f64 %one, %da, %db : f64
    vm.check.eq %sd, %da, "select.f64(1, a, b) = a" : f64
    %c9 = vm.const.i32 9
    %wd = vm.switch.f64 %c9[%da] else %db : f64
    vm.check.eq %wd, %db, "switch.f64 out of range takes the default" : f64
    %length = vm.const.i64 16
    %align = vm.const.i32 16
    %buf_a = vm.buffer.alloc %length, %align : !vm.buffer
    %buf_b = vm.buffer.alloc %length, %align : !vm.buffer
    %null = vm.const.ref.zero : !vm.buffer
    %r = vm.switch.ref %one[%buf_a, %buf_b] else %null : !vm.buffer
    %same = vm.cmp.eq.ref %r, %buf_b : !vm.buffer
    vm.check.eq %same, %one, "switch.ref index 1" : i32
    vm.return
  }

  vm.export @test_buffer_fills_hash_and_narrow_loads
  vm.func @test_buffer_fills_hash_and_narrow_loads() {
    %length = vm.const.i64 32
    %align = vm.const.i32 8
    %buf = vm.buffer.alloc %length, %align : !vm.buffer
    %c0 = vm.const.i64 0
    %c1 = vm.const.i64 1
    %c2 = vm.const.i64 2
    %c4 = vm.const.i64 4
    %x80 = vm.const.i32 0x80
    vm.buffer.fill.i8 %buf, %c0, %c2, %x80 : i32 -> !vm.buffer
    %xf000 = vm.const.i32 0xF000
    vm.buffer.fill.i16 %buf, %c1, %c1, %xf000 : i32 -> !vm.buffer
    %h16 = vm.buffer.load.i16.s %buf[%c1] : !vm.buffer -> i32
    %e16 = vm.const.i32 -4096
    vm.check.eq %h16, %e16, "buffer.load.i16.s sign-extends" : i32
    %big = vm.const.i64 0x0102030405060708
    vm.buffer.fill.i64 %buf, %c1, %c1, %big : i64 -> !vm.buffer
    %w64 = vm.buffer.load.i64 %buf[%c1] : !vm.buffer -> i64
    vm.check.eq %w64, %big, "buffer.fill.i64" : i64
    %half = vm.const.f32 0.5
    vm.buffer.fill.f32 %buf, %c4, %c2, %half : f32 -> !vm.buffer
    %f = vm.buffer.load.f32 %buf[%c4] : !vm.buffer -> f32
    vm.check.eq %f, %half, "buffer.fill.f32" : f32
    %quarter = vm.const.f64 0.25
    vm.buffer.fill.f64 %buf, %c2, %c1, %quarter : f64 -> !vm.buffer
    %d = vm.buffer.load.f64 %buf[%c2] : !vm.buffer -> f64
    vm.check.eq %d, %quarter, "buffer.fill.f64" : f64
    %other = vm.buffer.alloc %length, %align : !vm.buffer
    vm.buffer.copy %buf, %c0, %other, %c0, %length : !vm.buffer -> !vm.buffer
    %h1 = vm.buffer.hash %buf, %c0, %length : !vm.buffer -> i64
    %h2 = vm.buffer.hash %other, %c0, %length : !vm.buffer -> i64
    vm.check.eq %h1, %h2, "equal bytes hash equal" : i64
    vm.buffer.fill.i8 %other, %c0, %c1, %x80 : i32 -> !vm.buffer
    %zero8 = vm.const.i32 0
    vm.buffer.fill.i8 %other, %c0, %c1, %zero8 : i32 -> !vm.buffer
    %h3 = vm.buffer.hash %other, %c0, %length : !vm.buffer -> i64
    vm.check.ne %h1, %h3, "different bytes hash differently" : i64
    vm.return
  }

  vm.export @test_debug_ops_and_barriers
  vm.func @test_debug_ops_and_barriers() {
    %a = vm.const.i32 7
    %b = vm.const.f64 0.5
    vm.print "spelling.mlir print: "(%a, %b) : i32, f64
    vm.trace "spelling.mlir trace"(%a) : i32
    %kept = util.optimization_barrier %a : i32
    vm.check.eq %kept, %a, "optimization_barrier is a no-op" : i32
    %length = vm.const.i64 8
    %align = vm.const.i32 8
    %buf = vm.buffer.alloc %length, %align : !vm.buffer
    vm.discard.refs %buf : !vm.buffer
    vm.return
  }

  vm.export @test_i64_arithmetic
  vm.func @test_i64_arithmetic() {
    %v1 = vm.const.i64 7
    %v2 = vm.const.i64 4
    %v3 = vm.rem.i64.u %v1, %v2 : i64
    %v4 = vm.const.i64 3
    vm.check.eq %v3, %v4, "rem.i64.u(7, 4) = 3" : i64
    %v5 = vm.const.i64 2
    %v6 = vm.const.i64 3
    %v7 = vm.const.i64 4
    %v8 = vm.fma.i64 %v5, %v6, %v7 : i64
    %v9 = vm.const.i64 10
    vm.check.eq %v8, %v9, "fma.i64(2, 3, 4) = 10" : i64
    %v10 = vm.const.i64 -1
    %v11 = vm.const.i64 2
    %v12 = vm.min.i64.u %v10, %v11 : i64
    %v13 = vm.const.i64 2
    vm.check.eq %v12, %v13, "min.i64.u(-1, 2) = 2" : i64
    %v14 = vm.const.i64 -1
    %v15 = vm.const.i64 2
    %v16 = vm.max.i64.s %v14, %v15 : i64
    %v17 = vm.const.i64 2
    vm.check.eq %v16, %v17, "max.i64.s(-1, 2) = 2" : i64
    %v18 = vm.const.i64 0
    %v19 = vm.not.i64 %v18 : i64
    %v20 = vm.const.i64 -1
    vm.check.eq %v19, %v20, "not.i64(0) = -1" : i64
    %v21 = vm.const.i64 12
    %v22 = vm.const.i64 10
    %v23 = vm.and.i64 %v21, %v22 : i64
    %v24 = vm.const.i64 8
    vm.check.eq %v23, %v24, "and.i64(12, 10) = 8" : i64
    %v25 = vm.const.i64 12
    %v26 = vm.const.i64 10
    %v27 = vm.or.i64 %v25, %v26 : i64
    %v28 = vm.const.i64 14
    vm.check.eq %v27, %v28, "or.i64(12, 10) = 14" : i64
    vm.return
  }

  vm.export @test_integer_comparisons
  vm.func @test_integer_comparisons() {
    %v29 = vm.const.i32 1
    %v30 = vm.const.i32 -1
    %v31 = vm.cmp.lte.i32.u %v29, %v30 : i32
    %v32 = vm.const.i32 1
    vm.check.eq %v31, %v32, "cmp.lte.i32.u(1, -1) = 1" : i32
    %v33 = vm.const.i32 1
    %v34 = vm.const.i32 -1
    %v35 = vm.cmp.gt.i32.s %v33, %v34 : i32
    %v36 = vm.const.i32 1
    vm.check.eq %v35, %v36, "cmp.gt.i32.s(1, -1) = 1" : i32
    %v37 = vm.const.i32 1
    %v38 = vm.const.i32 -1
    %v39 = vm.cmp.gte.i32.u %v37, %v38 : i32
    %v40 = vm.const.i32 0
    vm.check.eq %v39, %v40, "cmp.gte.i32.u(1, -1) = 0" : i32
    %v41 = vm.const.i64 1
    %v42 = vm.const.i64 2
    %v43 = vm.cmp.ne.i64 %v41, %v42 : i64
    %v44 = vm.const.i32 1
    vm.check.eq %v43, %v44, "cmp.ne.i64(1, 2) = 1" : i32
    %v45 = vm.const.i64 1
    %v46 = vm.const.i64 -1
    %v47 = vm.cmp.lt.i64.u %v45, %v46 : i64
    %v48 = vm.const.i32 1
    vm.check.eq %v47, %v48, "cmp.lt.i64.u(1, -1) = 1" : i32
    %v49 = vm.const.i64 -1
    %v50 = vm.const.i64 1
    %v51 = vm.cmp.lte.i64.s %v49, %v50 : i64
    %v52 = vm.const.i32 1
    vm.check.eq %v51, %v52, "cmp.lte.i64.s(-1, 1) = 1" : i32
    %v53 = vm.const.i64 -1
    %v54 = vm.const.i64 1
    %v55 = vm.cmp.lte.i64.u %v53, %v54 : i64
    %v56 = vm.const.i32 0
    vm.check.eq %v55, %v56, "cmp.lte.i64.u(-1, 1) = 0" : i32
    %v57 = vm.const.i64 1
    %v58 = vm.const.i64 -1
    %v59 = vm.cmp.gt.i64.s %v57, %v58 : i64
    %v60 = vm.const.i32 1
    vm.check.eq %v59, %v60, "cmp.gt.i64.s(1, -1) = 1" : i32
    %v61 = vm.const.i64 1
    %v62 = vm.const.i64 1
    %v63 = vm.cmp.gte.i64.s %v61, %v62 : i64
    %v64 = vm.const.i32 1
    vm.check.eq %v63, %v64, "cmp.gte.i64.s(1, 1) = 1" : i32
    %v65 = vm.const.i64 1
    %v66 = vm.const.i64 -1
    %v67 = vm.cmp.gte.i64.u %v65, %v66 : i64
    %v68 = vm.const.i32 0
    vm.check.eq %v67, %v68, "cmp.gte.i64.u(1, -1) = 0" : i32
    %v69 = vm.const.i32 98304
    %v70 = vm.ext.i16.i32.u %v69 : i32
    %v71 = vm.const.i32 32768
    vm.check.eq %v70, %v71, "ext.i16.i32.u(98304) = 32768" : i32
    vm.return
  }

  vm.export @test_float_comparisons
  vm.func @test_float_comparisons() {
    %v72 = vm.const.f32 1.0
    %v73 = vm.const.f32 2.0
    %v74 = vm.cmp.ne.f32.o %v72, %v73 : f32
    %v75 = vm.const.i32 1
    vm.check.eq %v74, %v75, "cmp.ne.f32.o(1.0, 2.0) = 1" : i32
    %v76 = vm.const.f32 1.0
    %v77 = vm.const.f32 1.0
    %v78 = vm.cmp.ne.f32.u %v76, %v77 : f32
    %v79 = vm.const.i32 0
    vm.check.eq %v78, %v79, "cmp.ne.f32.u(1.0, 1.0) = 0" : i32
    %v80 = vm.const.f32 1.0
    %v81 = vm.const.f32 2.0
    %v82 = vm.cmp.lt.f32.u %v80, %v81 : f32
    %v83 = vm.const.i32 1
    vm.check.eq %v82, %v83, "cmp.lt.f32.u(1.0, 2.0) = 1" : i32
    %v84 = vm.const.f32 2.0
    %v85 = vm.const.f32 2.0
    %v86 = vm.cmp.lte.f32.o %v84, %v85 : f32
    %v87 = vm.const.i32 1
    vm.check.eq %v86, %v87, "cmp.lte.f32.o(2.0, 2.0) = 1" : i32
    %v88 = vm.const.f32 3.0
    %v89 = vm.const.f32 2.0
    %v90 = vm.cmp.lte.f32.u %v88, %v89 : f32
    %v91 = vm.const.i32 0
    vm.check.eq %v90, %v91, "cmp.lte.f32.u(3.0, 2.0) = 0" : i32
    %v92 = vm.const.f32 1.0
    %v93 = vm.const.f32 2.0
    %v94 = vm.cmp.gt.f32.u %v92, %v93 : f32
    %v95 = vm.const.i32 0
    vm.check.eq %v94, %v95, "cmp.gt.f32.u(1.0, 2.0) = 0" : i32
    %v96 = vm.const.f32 1.0
    %v97 = vm.const.f32 2.0
    %v98 = vm.cmp.gte.f32.o %v96, %v97 : f32
    %v99 = vm.const.i32 0
    vm.check.eq %v98, %v99, "cmp.gte.f32.o(1.0, 2.0) = 0" : i32
    %v100 = vm.const.f32 2.0
    %v101 = vm.const.f32 2.0
    %v102 = vm.cmp.gte.f32.u %v100, %v101 : f32
    %v103 = vm.const.i32 1
    vm.check.eq %v102, %v103, "cmp.gte.f32.u(2.0, 2.0) = 1" : i32
    %v104 = vm.const.f64 1.0
    %v105 = vm.const.f64 1.0
    %v106 = vm.cmp.eq.f64.o %v104, %v105 : f64
    %v107 = vm.const.i32 1
    vm.check.eq %v106, %v107, "cmp.eq.f64.o(1.0, 1.0) = 1" : i32
    %v108 = vm.const.f64 1.0
    %v109 = vm.const.f64 2.0
    %v110 = vm.cmp.eq.f64.u %v108, %v109 : f64
    %v111 = vm.const.i32 0
    vm.check.eq %v110, %v111, "cmp.eq.f64.u(1.0, 2.0) = 0" : i32
    %v112 = vm.const.f64 1.0
    %v113 = vm.const.f64 1.0
    %v114 = vm.cmp.ne.f64.u %v112, %v113 : f64
    %v115 = vm.const.i32 0
    vm.check.eq %v114, %v115, "cmp.ne.f64.u(1.0, 1.0) = 0" : i32
    %v116 = vm.const.f64 1.0
    %v117 = vm.const.f64 2.0
    %v118 = vm.cmp.lt.f64.o %v116, %v117 : f64
    %v119 = vm.const.i32 1
    vm.check.eq %v118, %v119, "cmp.lt.f64.o(1.0, 2.0) = 1" : i32
    %v120 = vm.const.f64 2.0
    %v121 = vm.const.f64 1.0
    %v122 = vm.cmp.lt.f64.u %v120, %v121 : f64
    %v123 = vm.const.i32 0
    vm.check.eq %v122, %v123, "cmp.lt.f64.u(2.0, 1.0) = 0" : i32
    %v124 = vm.const.f64 1.0
    %v125 = vm.const.f64 1.0
    %v126 = vm.cmp.lte.f64.u %v124, %v125 : f64
    %v127 = vm.const.i32 1
    vm.check.eq %v126, %v127, "cmp.lte.f64.u(1.0, 1.0) = 1" : i32
    %v128 = vm.const.f64 2.0
    %v129 = vm.const.f64 1.0
    %v130 = vm.cmp.gt.f64.o %v128, %v129 : f64
    %v131 = vm.const.i32 1
    vm.check.eq %v130, %v131, "cmp.gt.f64.o(2.0, 1.0) = 1" : i32
    %v132 = vm.const.f64 1.0
    %v133 = vm.const.f64 2.0
    %v134 = vm.cmp.gt.f64.u %v132, %v133 : f64
    %v135 = vm.const.i32 0
    vm.check.eq %v134, %v135, "cmp.gt.f64.u(1.0, 2.0) = 0" : i32
    %v136 = vm.const.f64 1.0
    %v137 = vm.const.f64 1.0
    %v138 = vm.cmp.gte.f64.o %v136, %v137 : f64
    %v139 = vm.const.i32 1
    vm.check.eq %v138, %v139, "cmp.gte.f64.o(1.0, 1.0) = 1" : i32
    %v140 = vm.const.f64 1.0
    %v141 = vm.const.f64 2.0
    %v142 = vm.cmp.gte.f64.u %v140, %v141 : f64
    %v143 = vm.const.i32 0
    vm.check.eq %v142, %v143, "cmp.gte.f64.u(1.0, 2.0) = 0" : i32
    %v144 = vm.const.f64 1.0
    %v145 = vm.cmp.nz.f64.u %v144 : f64
    %v146 = vm.const.i32 1
    vm.check.eq %v145, %v146, "cmp.nz.f64.u(1.0) = 1" : i32
    %v147 = vm.const.f64 1.0
    %v148 = vm.cmp.nan.f64 %v147 : f64
    %v149 = vm.const.i32 0
    vm.check.eq %v148, %v149, "cmp.nan.f64(1.0) = 0" : i32
    vm.return
  }

  vm.export @test_f32_math
  vm.func @test_f32_math() {
    %v150 = vm.const.f32 7.0
    %v151 = vm.const.f32 4.0
    %v152 = vm.rem.f32 %v150, %v151 : f32
    %v153 = vm.const.f32 -1.0
    vm.check.eq %v152, %v153, "rem.f32(7.0, 4.0) = -1.0 (IEEE remainder)" : f32
    %v154 = vm.const.f32 3.0
    %v155 = vm.exp2.f32 %v154 : f32
    %v156 = vm.const.f32 8.0
    vm.check.nearly_eq %v155, %v156, "exp2.f32(3.0) = 8.0" : f32
    %v157 = vm.const.f32 0.0
    %v158 = vm.expm1.f32 %v157 : f32
    %v159 = vm.const.f32 0.0
    vm.check.nearly_eq %v158, %v159, "expm1.f32(0.0) = 0.0" : f32
    %v160 = vm.const.f32 1.0
    %v161 = vm.log.f32 %v160 : f32
    %v162 = vm.const.f32 0.0
    vm.check.nearly_eq %v161, %v162, "log.f32(1.0) = 0.0" : f32
    %v163 = vm.const.f32 100.0
    %v164 = vm.log10.f32 %v163 : f32
    %v165 = vm.const.f32 2.0
    vm.check.nearly_eq %v164, %v165, "log10.f32(100.0) = 2.0" : f32
    %v166 = vm.const.f32 0.0
    %v167 = vm.log1p.f32 %v166 : f32
    %v168 = vm.const.f32 0.0
    vm.check.nearly_eq %v167, %v168, "log1p.f32(0.0) = 0.0" : f32
    %v169 = vm.const.f32 0.0
    %v170 = vm.tanh.f32 %v169 : f32
    %v171 = vm.const.f32 0.0
    vm.check.nearly_eq %v170, %v171, "tanh.f32(0.0) = 0.0" : f32
    %v172 = vm.const.f32 0.0
    %v173 = vm.sin.f32 %v172 : f32
    %v174 = vm.const.f32 0.0
    vm.check.nearly_eq %v173, %v174, "sin.f32(0.0) = 0.0" : f32
    %v175 = vm.const.f32 0.0
    %v176 = vm.cos.f32 %v175 : f32
    %v177 = vm.const.f32 1.0
    vm.check.nearly_eq %v176, %v177, "cos.f32(0.0) = 1.0" : f32
    %v178 = vm.const.f32 0.0
    %v179 = vm.atan.f32 %v178 : f32
    %v180 = vm.const.f32 0.0
    vm.check.nearly_eq %v179, %v180, "atan.f32(0.0) = 0.0" : f32
    %v181 = vm.const.f32 0.0
    %v182 = vm.erf.f32 %v181 : f32
    %v183 = vm.const.f32 0.0
    vm.check.nearly_eq %v182, %v183, "erf.f32(0.0) = 0.0" : f32
    %v184 = vm.const.f32 0.0
    %v185 = vm.const.f32 1.0
    %v186 = vm.atan2.f32 %v184, %v185 : f32
    %v187 = vm.const.f32 0.0
    vm.check.nearly_eq %v186, %v187, "atan2.f32(0.0, 1.0) = 0.0" : f32
    vm.return
  }

  vm.export @test_f64_math
  vm.func @test_f64_math() {
    %v188 = vm.const.f64 2.0
    %v189 = vm.const.f64 3.0
    %v190 = vm.const.f64 4.0
    %v191 = vm.fma.f64 %v188, %v189, %v190 : f64
    %v192 = vm.const.f64 10.0
    vm.check.eq %v191, %v192, "fma.f64(2.0, 3.0, 4.0) = 10.0" : f64
    %v193 = vm.const.f64 -2.0
    %v194 = vm.abs.f64 %v193 : f64
    %v195 = vm.const.f64 2.0
    vm.check.eq %v194, %v195, "abs.f64(-2.0) = 2.0" : f64
    %v196 = vm.const.f64 2.0
    %v197 = vm.neg.f64 %v196 : f64
    %v198 = vm.const.f64 -2.0
    vm.check.eq %v197, %v198, "neg.f64(2.0) = -2.0" : f64
    %v199 = vm.const.f64 1.5
    %v200 = vm.ceil.f64 %v199 : f64
    %v201 = vm.const.f64 2.0
    vm.check.eq %v200, %v201, "ceil.f64(1.5) = 2.0" : f64
    %v202 = vm.const.f64 1.5
    %v203 = vm.floor.f64 %v202 : f64
    %v204 = vm.const.f64 1.0
    vm.check.eq %v203, %v204, "floor.f64(1.5) = 1.0" : f64
    %v205 = vm.const.f64 2.5
    %v206 = vm.round.f64.even %v205 : f64
    %v207 = vm.const.f64 2.0
    vm.check.eq %v206, %v207, "round.f64.even(2.5) = 2.0" : f64
    %v208 = vm.const.f64 4.0
    %v209 = vm.sqrt.f64 %v208 : f64
    %v210 = vm.const.f64 2.0
    vm.check.eq %v209, %v210, "sqrt.f64(4.0) = 2.0" : f64
    %v211 = vm.const.f64 4.0
    %v212 = vm.rsqrt.f64 %v211 : f64
    %v213 = vm.const.f64 0.5
    vm.check.eq %v212, %v213, "rsqrt.f64(4.0) = 0.5" : f64
    %v214 = vm.const.f64 0.0
    %v215 = vm.exp.f64 %v214 : f64
    %v216 = vm.const.f64 1.0
    vm.check.nearly_eq %v215, %v216, "exp.f64(0.0) = 1.0" : f64
    %v217 = vm.const.f64 3.0
    %v218 = vm.exp2.f64 %v217 : f64
    %v219 = vm.const.f64 8.0
    vm.check.nearly_eq %v218, %v219, "exp2.f64(3.0) = 8.0" : f64
    %v220 = vm.const.f64 0.0
    %v221 = vm.expm1.f64 %v220 : f64
    %v222 = vm.const.f64 0.0
    vm.check.nearly_eq %v221, %v222, "expm1.f64(0.0) = 0.0" : f64
    %v223 = vm.const.f64 1.0
    %v224 = vm.log.f64 %v223 : f64
    %v225 = vm.const.f64 0.0
    vm.check.nearly_eq %v224, %v225, "log.f64(1.0) = 0.0" : f64
    %v226 = vm.const.f64 8.0
    %v227 = vm.log2.f64 %v226 : f64
    %v228 = vm.const.f64 3.0
    vm.check.nearly_eq %v227, %v228, "log2.f64(8.0) = 3.0" : f64
    %v229 = vm.const.f64 0.0
    %v230 = vm.log1p.f64 %v229 : f64
    %v231 = vm.const.f64 0.0
    vm.check.nearly_eq %v230, %v231, "log1p.f64(0.0) = 0.0" : f64
    %v232 = vm.const.f64 0.0
    %v233 = vm.atan.f64 %v232 : f64
    %v234 = vm.const.f64 0.0
    vm.check.nearly_eq %v233, %v234, "atan.f64(0.0) = 0.0" : f64
    %v235 = vm.const.f64 0.0
    %v236 = vm.erf.f64 %v235 : f64
    %v237 = vm.const.f64 0.0
    vm.check.nearly_eq %v236, %v237, "erf.f64(0.0) = 0.0" : f64
    %v238 = vm.const.f64 1.0
    %v239 = vm.const.f64 2.0
    %v240 = vm.min.f64 %v238, %v239 : f64
    %v241 = vm.const.f64 1.0
    vm.check.eq %v240, %v241, "min.f64(1.0, 2.0) = 1.0" : f64
    %v242 = vm.const.f64 1.0
    %v243 = vm.const.f64 2.0
    %v244 = vm.max.f64 %v242, %v243 : f64
    %v245 = vm.const.f64 2.0
    vm.check.eq %v244, %v245, "max.f64(1.0, 2.0) = 2.0" : f64
    %v246 = vm.const.f64 2.0
    %v247 = vm.const.f64 10.0
    %v248 = vm.pow.f64 %v246, %v247 : f64
    %v249 = vm.const.f64 1024.0
    vm.check.eq %v248, %v249, "pow.f64(2.0, 10.0) = 1024.0" : f64
    vm.return
  }

  vm.export @test_casts
  vm.func @test_casts() {
    %v250 = vm.const.i32 -1
    %v251 = vm.cast.ui32.f32 %v250 : i32 -> f32
    %v252 = vm.const.f32 4294967296.0
    vm.check.eq %v251, %v252, "cast.ui32.f32(-1) = 4294967296.0" : f32
    %v253 = vm.const.f32 3.7
    %v254 = vm.cast.f32.ui32 %v253 : f32 -> i32
    %v255 = vm.const.i32 4
    vm.check.eq %v254, %v255, "cast.f32.ui32(3.7) = 4" : i32
    %v256 = vm.const.i64 -5
    %v257 = vm.cast.si64.f32 %v256 : i64 -> f32
    %v258 = vm.const.f32 -5.0
    vm.check.eq %v257, %v258, "cast.si64.f32(-5) = -5.0" : f32
    %v259 = vm.const.i64 5
    %v260 = vm.cast.ui64.f32 %v259 : i64 -> f32
    %v261 = vm.const.f32 5.0
    vm.check.eq %v260, %v261, "cast.ui64.f32(5) = 5.0" : f32
    %v262 = vm.const.f32 -5.5
    %v263 = vm.cast.f32.si64 %v262 : f32 -> i64
    %v264 = vm.const.i64 -6
    vm.check.eq %v263, %v264, "cast.f32.si64(-5.5) = -6" : i64
    %v265 = vm.const.f32 5.5
    %v266 = vm.cast.f32.ui64 %v265 : f32 -> i64
    %v267 = vm.const.i64 6
    vm.check.eq %v266, %v267, "cast.f32.ui64(5.5) = 6" : i64
    %v268 = vm.const.i32 -1
    %v269 = vm.cast.ui32.f64 %v268 : i32 -> f64
    %v270 = vm.const.f64 4294967295.0
    vm.check.eq %v269, %v270, "cast.ui32.f64(-1) = 4294967295.0" : f64
    %v271 = vm.const.f64 -2.5
    %v272 = vm.cast.f64.si32 %v271 : f64 -> i32
    %v273 = vm.const.i32 -3
    vm.check.eq %v272, %v273, "cast.f64.si32(-2.5) = -3" : i32
    %v274 = vm.const.f64 2.5
    %v275 = vm.cast.f64.ui32 %v274 : f64 -> i32
    %v276 = vm.const.i32 3
    vm.check.eq %v275, %v276, "cast.f64.ui32(2.5) = 3" : i32
    %v277 = vm.const.i64 7
    %v278 = vm.cast.ui64.f64 %v277 : i64 -> f64
    %v279 = vm.const.f64 7.0
    vm.check.eq %v278, %v279, "cast.ui64.f64(7) = 7.0" : f64
    %v280 = vm.const.f64 -7.9
    %v281 = vm.cast.f64.si64 %v280 : f64 -> i64
    %v282 = vm.const.i64 -8
    vm.check.eq %v281, %v282, "cast.f64.si64(-7.9) = -8" : i64
    %v283 = vm.const.f64 7.9
    %v284 = vm.cast.f64.ui64 %v283 : f64 -> i64
    %v285 = vm.const.i64 8
    vm.check.eq %v284, %v285, "cast.f64.ui64(7.9) = 8" : i64
    %v286 = vm.const.i64 4607182418800017408
    %v287 = vm.bitcast.i64.f64 %v286 : i64 -> f64
    %v288 = vm.const.f64 1.0
    vm.check.eq %v287, %v288, "bitcast.i64.f64(4607182418800017408) = 1.0" : f64
    %v289 = vm.const.f64 2.0
    %v290 = vm.bitcast.f64.i64 %v289 : f64 -> i64
    %v291 = vm.const.i64 4611686018427387904
    vm.check.eq %v290, %v291, "bitcast.f64.i64(2.0) = 4611686018427387904" : i64
    vm.return
  }
}
