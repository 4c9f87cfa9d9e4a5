// Tests for the POOL2D fast path (max/min/sum pooling on planar NCHW
// inputs over whole output rows): padding (low and high, wider than the
// input), strides, dilation, odd sizes, windows past the unrolled taps, a
// whole-plane (global) window, any constant initial value (including a
// nonzero one that padding taps fold in, and NaN), the tap on either side
// of the op, NaN and infinite inputs, tiles that split channels and rows,
// and the layouts and tiles that must fall back to the generic loops. Each
// kernel has a scaling epilogue, and is compared bit for bit with the same
// kernel without the pattern (the generic loops) and with a reference.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "compiler/target/cpu/cpu_test_util.h"

#define P GRTC_KSECTION_PRE
#define L GRTC_KSECTION_LOOP
#define Q GRTC_KSECTION_POST

typedef struct pool_case_t {
  int64_t n, c, h, w, kh, kw;
  int64_t stride_h, stride_w, pad_h, pad_w, dil_h, dil_w;
  int64_t extra_h, extra_w;  // padding_high - padding_low
  grtc_scalar_op_t op;
  bool tap_first;
  double init;
  double scale;     // the epilogue: result = acc * scale
  bool nhwc;        // input read with NHWC strides (no fast path)
  bool specials;    // NaN and infinities among the inputs
  int64_t tile[4];  // 0: the whole dim
  bool fast;        // the fast path is expected
} pool_case_t;

static int64_t out_size(int64_t in, int64_t k, int64_t stride, int64_t low,
                        int64_t high, int64_t dil) {
  int64_t span = (k - 1) * dil + 1;
  int64_t padded = in + low + high;
  return padded < span ? 0 : (padded - span) / stride + 1;
}

typedef struct pool_geom_t {
  int64_t oh, ow;
  int64_t is[4];  // input strides n, c, h, w
} pool_geom_t;

static pool_geom_t pool_geom(const pool_case_t* c) {
  pool_geom_t g;
  g.oh = out_size(c->h, c->kh, c->stride_h, c->pad_h, c->pad_h + c->extra_h,
                  c->dil_h);
  g.ow = out_size(c->w, c->kw, c->stride_w, c->pad_w, c->pad_w + c->extra_w,
                  c->dil_w);
  if (c->nhwc) {
    int64_t is[4] = {c->h * c->w * c->c, 1, c->w * c->c, c->c};
    memcpy(g.is, is, sizeof(is));
  } else {
    int64_t is[4] = {c->c * c->h * c->w, c->h * c->w, c->w, 1};
    memcpy(g.is, is, sizeof(is));
  }
  return g;
}

// out[n, c, oy, ox] = scale * fold of the window as the dispatch lowering
// writes a reduce_window: out-of-range taps load a clamped index and
// select the initial value.
// |symbolic_n|: the batch is symbolic extent 0 (its value at the call: n).
static void add_pool_as(grtc_kernel_set_t* set, const char* name,
                        const pool_case_t* c, bool pattern, bool symbolic_n) {
  pool_geom_t g = pool_geom(c);
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, symbolic_n ? -1 : c->n * c->c * c->h * c->w,
       GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, symbolic_n ? -1 : c->n * c->c * g.oh * g.ow,
       GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(set, name, 2, bindings);
  int64_t n = c->n;
  if (symbolic_n) {
    uint32_t e = 0;
    GRT_EXPECT_OK(grtc_kernel_add_extent(set, b.k, 3, &e));
    n = GRTC_KDIM_EXTENT(e);
  }
  int64_t dims[4] = {n, c->c, g.oh, g.ow};
  int64_t tile[4];
  for (int d = 0; d < 4; ++d) {
    tile[d] = c->tile[d] ? c->tile[d] : (dims[d] > 0 ? dims[d] : 1);
  }
  kb_space(&b, 4, dims, tile);
  b.k->reduction_rank = 2;
  b.k->reduction_dims[0] = c->kh;
  b.k->reduction_dims[1] = c->kw;
  uint32_t p[4];
  for (uint32_t d = 0; d < 4; ++d) p[d] = kb_index(&b, GRTC_KINST_PINDEX, P, d);
  uint32_t init = kb_cf(&b, P, GRTC_ELEM_F32, c->init);
  uint32_t acc = 0;
  GRT_EXPECT_OK(grtc_kernel_add_acc(set, b.k, GRTC_ELEM_F32, init, &acc));
  uint32_t r[2];
  for (uint32_t d = 0; d < 2; ++d) r[d] = kb_index(&b, GRTC_KINST_RINDEX, L, d);
  const kb_window_t win = {c->stride_h, c->stride_w, c->pad_h, c->pad_w,
                           c->dil_h, c->dil_w, c->h, c->w};
  kb_tap_t t = kb_window_tap(&b, &win, p[2], p[3], r[0], r[1]);
  uint32_t inside = t.inside, iyc = t.iy, ixc = t.ix;
#define I64(v) kb_ci(&b, L, GRTC_ELEM_I64, (v))
#define OP(op, x, y) kb_op(&b, L, GRTC_ELEM_I64, GRTC_SCALAR_##op, (x), (y), 0)
  uint32_t in_index =
      OP(ADD, OP(ADD, OP(MUL, p[0], I64(g.is[0])), OP(MUL, p[1], I64(g.is[1]))),
         OP(ADD, OP(MUL, iyc, I64(g.is[2])), OP(MUL, ixc, I64(g.is[3]))));
#undef I64
#undef OP
  uint32_t tap = kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_SELECT, inside,
                       kb_load(&b, L, 0, in_index), init);
  uint32_t a = kb_acc(&b, L, acc);
  b.k->accs[acc].update =
      kb_op(&b, L, GRTC_ELEM_F32, c->op, c->tap_first ? tap : a,
            c->tap_first ? a : tap, 0);
  uint32_t scaled = kb_op(&b, Q, GRTC_ELEM_F32, GRTC_SCALAR_MUL,
                          kb_acc(&b, Q, acc), kb_cf(&b, Q, GRTC_ELEM_F32, c->scale),
                          0);
#define QI(v) kb_ci(&b, Q, GRTC_ELEM_I64, (v))
#define QOP(op, x, y) kb_op(&b, Q, GRTC_ELEM_I64, GRTC_SCALAR_##op, (x), (y), 0)
  uint32_t oi = QOP(ADD, QOP(MUL, QOP(ADD, QOP(MUL, QOP(ADD, QOP(MUL, p[0], QI(c->c)),
                                                          p[1]),
                                               QI(g.oh)),
                                      p[2]),
                             QI(g.ow)),
                    p[3]);
#undef QI
#undef QOP
  kb_store(&b, 1, oi, scaled, GRTC_KINST_NONE);
  if (pattern) {
    b.k->pattern = GRTC_KPATTERN_POOL2D;
    grtc_kpool_t* pl = &b.k->pool;
    *pl = (grtc_kpool_t){
        .input_binding = 0, .op = c->op, .tap_first = c->tap_first,
        .n = n, .c = c->c, .h = c->h, .w = c->w, .kh = c->kh, .kw = c->kw,
        .oh = g.oh, .ow = g.ow, .stride_h = c->stride_h,
        .stride_w = c->stride_w, .pad_h = c->pad_h, .pad_w = c->pad_w,
        .dilation_h = c->dil_h, .dilation_w = c->dil_w,
        .elem = GRTC_ELEM_F32};
    memcpy(pl->input_strides, g.is, sizeof(g.is));
  }
}

static void add_pool(grtc_kernel_set_t* set, const char* name,
                     const pool_case_t* c, bool pattern) {
  add_pool_as(set, name, c, pattern, false);
}

// The scalar semantics (compiler/kernel/scalar.h): max/min propagate NaN
// and order -0 below +0.
static float fold(grtc_scalar_op_t op, float a, float b) {
  if (op == GRTC_SCALAR_ADD) return a + b;
  if (isnan(a) || isnan(b)) return a + b;
  if (a == b) {
    bool pick_a = op == GRTC_SCALAR_MAX ? !signbit(a) : signbit(a);
    return pick_a ? a : b;
  }
  return op == GRTC_SCALAR_MAX ? (a > b ? a : b) : (a < b ? a : b);
}

static bool same_float(float x, float y) {
  return (isnan(x) && isnan(y)) || memcmp(&x, &y, sizeof(x)) == 0;
}

static void run_case_as(const pool_case_t* c, int index, bool symbolic_n) {
  pool_geom_t g = pool_geom(c);
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  add_pool_as(&set, "fast", c, true, symbolic_n);
  add_pool_as(&set, "generic", c, false, symbolic_n);
  GRT_EXPECT_OK(grtc_kernel_verify(set.kernels[0]));
  grt_string_builder_t text;
  grt_string_builder_init(grt_allocator_system(), &text);
  GRT_EXPECT_OK(grtc_cpu_emit_c(&set, NULL, &text));
  bool fast_path = strstr(grt_string_builder_cstring(&text), "float pinit;");
  // Max and min fold each window by columns first (one padded row of
  // column folds per output row); sums keep the rows and the taps in order.
  bool by_columns =
      strstr(grt_string_builder_cstring(&text), "float acc = tap[0];");
  grt_string_builder_deinit(&text);
  if (fast_path != c->fast) {
    fail_msg("case %d: fast path %d, expected %d", index, fast_path, c->fast);
  }
  if (by_columns != (c->fast && c->op != GRTC_SCALAR_ADD)) {
    fail_msg("case %d: folds by columns %d, expected %d", index, by_columns,
             c->fast && c->op != GRTC_SCALAR_ADD);
  }
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  size_t no = (size_t)(c->n * c->c * g.oh * g.ow);
  assert_int_equal(lib.library->entries[0].local_memory_size > 0,
                   c->fast && no > 0);
  size_t ni = (size_t)(c->n * c->c * c->h * c->w);
  float* in = malloc(ni * sizeof(float) + 1);
  float* fast = malloc(no * sizeof(float) + 1);
  float* generic = malloc(no * sizeof(float) + 1);
  for (size_t i = 0; i < ni; ++i) {
    in[i] = (float)((int)(i * 7 % 13) - 6) / 8;
    if (c->specials) {
      if (i % 17 == 3) in[i] = NAN;
      if (i % 11 == 5) in[i] = -INFINITY;
      if (i % 23 == 7) in[i] = INFINITY;
      if (i % 13 == 1) in[i] = -0.0f;
    }
  }
  for (size_t i = 0; i < no; ++i) fast[i] = generic[i] = 12345.0f;
  void* fast_ptrs[] = {in, fast};
  void* generic_ptrs[] = {in, generic};
  const size_t lengths[] = {ni * sizeof(float), no * sizeof(float)};
  assert_int_equal(cpu_run_extents(&lib, &set, 0, fast_ptrs, lengths, &c->n),
                   0);
  assert_int_equal(
      cpu_run_extents(&lib, &set, 1, generic_ptrs, lengths, &c->n), 0);
  if (symbolic_n && no > 0) {
    cpu_expect_batch_past_input(&lib, &set, fast_ptrs, generic_ptrs, lengths,
                                c->n);
  }
  for (int64_t b = 0; b < c->n; ++b) {
    for (int64_t ch = 0; ch < c->c; ++ch) {
      for (int64_t oy = 0; oy < g.oh; ++oy) {
        for (int64_t ox = 0; ox < g.ow; ++ox) {
          float acc = (float)c->init;
          for (int64_t i = 0; i < c->kh; ++i) {
            for (int64_t j = 0; j < c->kw; ++j) {
              int64_t iy = oy * c->stride_h - c->pad_h + i * c->dil_h;
              int64_t ix = ox * c->stride_w - c->pad_w + j * c->dil_w;
              float t = (float)c->init;
              if (iy >= 0 && iy < c->h && ix >= 0 && ix < c->w) {
                t = in[b * g.is[0] + ch * g.is[1] + iy * g.is[2] + ix * g.is[3]];
              }
              acc = c->tap_first ? fold(c->op, t, acc) : fold(c->op, acc, t);
            }
          }
          float want = acc * (float)c->scale;
          size_t at = (size_t)(((b * c->c + ch) * g.oh + oy) * g.ow + ox);
          if (!same_float(fast[at], generic[at]) || !same_float(fast[at], want)) {
            fail_msg("case %d [%lld,%lld,%lld,%lld]: fast %g generic %g want %g",
                     index, (long long)b, (long long)ch, (long long)oy,
                     (long long)ox, fast[at], generic[at], want);
          }
        }
      }
    }
  }
  free(in);
  free(fast);
  free(generic);
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

static void run_case(const pool_case_t* c, int index) {
  run_case_as(c, index, false);
}

static void test_pool_cases(void** state) {
  (void)state;
#define MAX GRTC_SCALAR_MAX
#define MIN GRTC_SCALAR_MIN
#define ADD GRTC_SCALAR_ADD
  static const pool_case_t cases[] = {
      // n c h w kh kw sh sw ph pw dh dw xh xw op tap_first init scale nhwc
      // specials tile fast
      // ResNet's 3x3/2 max pool after the stem, with NaN and infinities.
      {1, 4, 14, 14, 3, 3, 2, 2, 1, 1, 1, 1, 0, 0, MAX, false, -INFINITY, 1,
       false, true, {0}, true},
      // Odd sizes, ceil-mode high padding, two images, channel and row tiles.
      {2, 3, 13, 11, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, MAX, false, -INFINITY, 1,
       false, false, {1, 2, 3, 0}, true},
      // The initial value is any constant: -1 for max (it wins over
      // smaller inputs), NaN (everything NaN).
      {1, 2, 9, 10, 3, 3, 2, 2, 1, 1, 1, 1, 0, 0, MAX, true, -1, 1, false,
       true, {0}, true},
      {1, 1, 5, 6, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0, MAX, false, NAN, 1, false,
       false, {0}, true},
      // Average pooling as a sum and a scale: 2x2/2, and 3x3/1 with padding
      // counted; a nonzero initial value folded in at every padding tap.
      {1, 3, 8, 8, 2, 2, 2, 2, 0, 0, 1, 1, 0, 0, ADD, false, 0, 0.25, false,
       false, {0}, true},
      {1, 2, 7, 9, 3, 3, 1, 1, 1, 1, 1, 1, 0, 0, ADD, true, 0, 1.0 / 9, false,
       false, {0}, true},
      {1, 2, 6, 5, 3, 3, 1, 2, 2, 1, 1, 1, 0, 1, ADD, false, 1.5, 1, false,
       false, {0}, true},
      // Min with the tap first, infinities and NaN.
      {1, 2, 10, 7, 3, 2, 3, 1, 0, 1, 1, 1, 0, 0, MIN, true, INFINITY, 1,
       false, true, {0}, true},
      // Dilation and stride 3; a window wider than the unrolled taps.
      {1, 2, 17, 19, 3, 3, 3, 3, 2, 2, 2, 2, 0, 0, MAX, false, -INFINITY, 1,
       false, true, {0}, true},
      {1, 2, 16, 15, 8, 7, 2, 3, 3, 3, 1, 1, 0, 0, ADD, false, 0, 1, false,
       false, {0}, true},
      // A global window (7x7 plane to 1x1), and padding wider than the input.
      {2, 5, 7, 7, 7, 7, 1, 1, 0, 0, 1, 1, 0, 0, ADD, false, 0, 1.0 / 49,
       false, false, {0}, true},
      {1, 2, 2, 2, 3, 3, 1, 1, 3, 3, 1, 1, 0, 0, MAX, false, -INFINITY, 1,
       false, false, {0}, true},
      // 1x1 window with stride 2 (a subsampling).
      {1, 3, 9, 9, 1, 1, 2, 2, 0, 0, 1, 1, 0, 0, MAX, false, -INFINITY, 1,
       false, false, {0}, true},
      // Fall back to the generic loops: NHWC strides, and tiles that cut
      // output rows.
      {1, 3, 8, 8, 3, 3, 2, 2, 1, 1, 1, 1, 0, 0, MAX, false, -INFINITY, 1,
       true, true, {0}, false},
      {1, 3, 8, 8, 3, 3, 1, 1, 1, 1, 1, 1, 0, 0, MAX, false, -INFINITY, 1,
       false, false, {1, 1, 2, 4}, false},
  };
#undef MAX
#undef MIN
#undef ADD
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    run_case(&cases[i], (int)i);
  }
}

// A symbolic batch, on the fast path and off it: one kernel per case, run
// for batches 1 to 3 (the extent a push constant).
static void test_pool_symbolic_batch(void** state) {
  (void)state;
  static const pool_case_t cases[] = {
      {1, 3, 13, 11, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, GRTC_SCALAR_MAX, false,
       -INFINITY, 1, false, false, {1, 2, 3, 0}, true},
      {1, 3, 8, 8, 3, 3, 2, 2, 1, 1, 1, 1, 0, 0, GRTC_SCALAR_ADD, false, 0,
       0.25, true, false, {1, 0, 0, 0}, false},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    for (int64_t n = 1; n <= 3; ++n) {
      pool_case_t c = cases[i];
      c.n = n;
      run_case_as(&c, (int)(100 + i), true);
    }
  }
}

// The verifier refuses a pool2d pattern that disagrees with its kernel.
static void test_pool_pattern_verified(void** state) {
  (void)state;
  pool_case_t c = {1, 2, 6, 6, 3, 3, 1, 1, 1, 1, 1, 1, 0, 0,
                   GRTC_SCALAR_MAX, false, -INFINITY, 1, false, false, {0},
                   true};
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  add_pool(&set, "k", &c, true);
  grtc_kernel_t* k = set.kernels[0];
  GRT_EXPECT_OK(grtc_kernel_verify(k));
  k->pool.ow = 5;  // the space is 6 wide
  grt_expect_error(grtc_kernel_verify(k), GRT_STATUS_INTERNAL,
                   "pool2d pattern disagrees with the kernel");
  k->pool.ow = 6;
  k->pool.op = GRTC_SCALAR_NEG;  // not a binary op
  grt_expect_error(grtc_kernel_verify(k), GRT_STATUS_INTERNAL,
                   "pool2d pattern disagrees with the kernel");
  k->pool.op = GRTC_SCALAR_MAX;
  k->pool.stride_w = 0;
  grt_expect_error(grtc_kernel_verify(k), GRT_STATUS_INTERNAL,
                   "pool2d pattern disagrees with the kernel");
  grtc_kernel_set_deinit(&set);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pool_cases),
      cmocka_unit_test(test_pool_symbolic_batch),
      cmocka_unit_test(test_pool_pattern_verified),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
