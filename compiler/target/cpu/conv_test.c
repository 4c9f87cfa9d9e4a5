// Tests for the CONV2D fast paths (im2col + GEMM, the planar paths for NCHW
// inputs over whole output rows (GEMM, depthwise, stem), and the direct loop for
// other depthwise convolutions and tiles of few pixels): padding, strides, dilation,
// groups, 1x1, NCHW inputs with OIHW or HWIO filters, several K slices,
// pixel blocks and A blocks, tiles that split groups, and a nonzero
// accumulator init, each with a bias+relu epilogue, the planar cases also
// with their filters prepacked (grtc_cpu_prepack_filter),
// compared with a naive reference and with the same kernel without the
// pattern (which runs the generic loops).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "compiler/host/test_ir.h"
#include "compiler/target/cpu/cpu_test_util.h"

#define P GRTC_KSECTION_PRE
#define L GRTC_KSECTION_LOOP
#define Q GRTC_KSECTION_POST

typedef struct conv_case_t {
  int64_t n, h, w, c, kh, kw, oc;
  int64_t stride_h, stride_w, pad_h, pad_w, dil_h, dil_w, groups;
  int layout;       // one of the LAYOUT_ values
  double init;      // the accumulator's initial value
  int64_t tile[4];  // 0: the whole dim
  int path;         // the expected path, one of the PATH_ values
} conv_case_t;

enum {
  LAYOUT_NHWC_HWIO,
  LAYOUT_NCHW_OIHW,
  LAYOUT_NCHW_HWIO,  // what the ONNX importer makes of a constant filter
};
enum { PATH_DIRECT, PATH_GEMM, PATH_PIXELS, PATH_DEPTHWISE, PATH_STEM };

static int64_t out_size(int64_t in, int64_t k, int64_t stride, int64_t pad,
                        int64_t dil) {
  int64_t span = (k - 1) * dil + 1;
  int64_t padded = in + 2 * pad;
  return padded < span ? 0 : (padded - span) / stride + 1;
}

typedef struct conv_geom_t {
  int64_t oh, ow, cig, ocg;
  int64_t is[4];  // input strides n, h, w, c
  int64_t fs[4];  // filter strides kh, kw, ci, oc
} conv_geom_t;

static conv_geom_t conv_geom(const conv_case_t* c) {
  conv_geom_t g;
  g.oh = out_size(c->h, c->kh, c->stride_h, c->pad_h, c->dil_h);
  g.ow = out_size(c->w, c->kw, c->stride_w, c->pad_w, c->dil_w);
  g.cig = c->c / c->groups;
  g.ocg = c->oc / c->groups;
  if (c->layout == LAYOUT_NCHW_OIHW) {
    int64_t is[4] = {c->c * c->h * c->w, c->w, 1, c->h * c->w};
    int64_t fs[4] = {c->kw, 1, c->kh * c->kw, g.cig * c->kh * c->kw};
    memcpy(g.is, is, sizeof(is));
    memcpy(g.fs, fs, sizeof(fs));
  } else if (c->layout == LAYOUT_NCHW_HWIO) {
    int64_t is[4] = {c->c * c->h * c->w, c->w, 1, c->h * c->w};
    int64_t fs[4] = {c->kw * g.cig * c->oc, g.cig * c->oc, c->oc, 1};
    memcpy(g.is, is, sizeof(is));
    memcpy(g.fs, fs, sizeof(fs));
  } else {
    int64_t is[4] = {c->h * c->w * c->c, c->w * c->c, c->c, 1};
    int64_t fs[4] = {c->kw * g.cig * c->oc, g.cig * c->oc, c->oc, 1};
    memcpy(g.is, is, sizeof(is));
    memcpy(g.fs, fs, sizeof(fs));
  }
  return g;
}

// out[n, oy, ox, o] = relu(init + sum input * filter + bias[o]) as the
// dispatch lowering writes it: out-of-range taps load a clamped index and
// select zero.
// |symbolic_n|: the batch is symbolic extent 0 (its value at the call: n).
// |chain_bias|: the bias is a select chain over the output channel (the
// importer's form of a small constant) instead of a load, with the same
// values.
static void add_conv_as(grtc_kernel_set_t* set, const char* name,
                        const conv_case_t* c, bool pattern, bool symbolic_n,
                        bool chain_bias) {
  conv_geom_t g = conv_geom(c);
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, symbolic_n ? -1 : c->n * c->h * c->w * c->c,
       GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, c->kh * c->kw * g.cig * c->oc, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, c->oc, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, symbolic_n ? -1 : c->n * g.oh * g.ow * c->oc,
       GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(set, name, 4, bindings);
  int64_t n = c->n;
  if (symbolic_n) {
    uint32_t e = 0;
    GRT_EXPECT_OK(grtc_kernel_add_extent(set, b.k, 3, &e));
    n = GRTC_KDIM_EXTENT(e);
  }
  int64_t dims[4] = {n, g.oh, g.ow, c->oc};
  int64_t tile[4];
  for (int d = 0; d < 4; ++d) {
    tile[d] = c->tile[d] ? c->tile[d] : (dims[d] > 0 ? dims[d] : 1);
  }
  kb_space(&b, 4, dims, tile);
  b.k->reduction_rank = 3;
  b.k->reduction_dims[0] = c->kh;
  b.k->reduction_dims[1] = c->kw;
  b.k->reduction_dims[2] = g.cig;
  uint32_t p[4];
  for (uint32_t d = 0; d < 4; ++d) p[d] = kb_index(&b, GRTC_KINST_PINDEX, P, d);
  uint32_t acc = 0;
  GRT_EXPECT_OK(grtc_kernel_add_acc(set, b.k, GRTC_ELEM_F32,
                                    kb_cf(&b, P, GRTC_ELEM_F32, c->init), &acc));
  uint32_t r[3];
  for (uint32_t d = 0; d < 3; ++d) r[d] = kb_index(&b, GRTC_KINST_RINDEX, L, d);
  const kb_window_t win = {c->stride_h, c->stride_w, c->pad_h, c->pad_w,
                           c->dil_h, c->dil_w, c->h, c->w};
  kb_tap_t tap = kb_window_tap(&b, &win, p[1], p[2], r[0], r[1]);
  uint32_t inside = tap.inside, iyc = tap.iy, ixc = tap.ix;
#define I64(v) kb_ci(&b, L, GRTC_ELEM_I64, (v))
#define OP(op, x, y) kb_op(&b, L, GRTC_ELEM_I64, GRTC_SCALAR_##op, (x), (y), 0)
  uint32_t ci = OP(ADD, OP(MUL, OP(DIV, p[3], I64(g.ocg)), I64(g.cig)), r[2]);
  uint32_t in_index =
      OP(ADD, OP(ADD, OP(MUL, p[0], I64(g.is[0])), OP(MUL, iyc, I64(g.is[1]))),
         OP(ADD, OP(MUL, ixc, I64(g.is[2])), OP(MUL, ci, I64(g.is[3]))));
  uint32_t f_index =
      OP(ADD, OP(ADD, OP(MUL, r[0], I64(g.fs[0])), OP(MUL, r[1], I64(g.fs[1]))),
         OP(ADD, OP(MUL, r[2], I64(g.fs[2])), OP(MUL, p[3], I64(g.fs[3]))));
#undef I64
#undef OP
  uint32_t x = kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_SELECT, inside,
                     kb_load(&b, L, 0, in_index), kb_cf(&b, L, GRTC_ELEM_F32, 0));
  uint32_t prod = kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_MUL, x,
                        kb_load(&b, L, 1, f_index), 0);
  b.k->accs[acc].update = kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_ADD,
                                kb_acc(&b, L, acc), prod, 0);
  // bias[o] = o % 3 - 1 (fill_inputs) as select(o % 3 == 0, -1,
  // select(o % 3 == 1, 0, 1)) when the case asks for a chain.
  uint32_t bias = GRTC_KINST_NONE;
  if (chain_bias) {
    uint32_t rem = kb_op(&b, Q, GRTC_ELEM_I64, GRTC_SCALAR_REM, p[3],
                         kb_ci(&b, Q, GRTC_ELEM_I64, 3), 0);
    uint32_t inner = kb_op(
        &b, Q, GRTC_ELEM_F32, GRTC_SCALAR_SELECT,
        kb_cmp(&b, Q, GRTC_CMP_EQ, GRTC_CMP_TYPE_SIGNED, rem,
               kb_ci(&b, Q, GRTC_ELEM_I64, 1)),
        kb_cf(&b, Q, GRTC_ELEM_F32, 0), kb_cf(&b, Q, GRTC_ELEM_F32, 1));
    bias = kb_op(&b, Q, GRTC_ELEM_F32, GRTC_SCALAR_SELECT,
                 kb_cmp(&b, Q, GRTC_CMP_EQ, GRTC_CMP_TYPE_SIGNED, rem,
                        kb_ci(&b, Q, GRTC_ELEM_I64, 0)),
                 kb_cf(&b, Q, GRTC_ELEM_F32, -1), inner);
  } else {
    bias = kb_load(&b, Q, 2, p[3]);
  }
  uint32_t biased = kb_op(&b, Q, GRTC_ELEM_F32, GRTC_SCALAR_ADD,
                          kb_acc(&b, Q, acc), bias, 0);
  uint32_t relu = kb_op(&b, Q, GRTC_ELEM_F32, GRTC_SCALAR_MAX, biased,
                        kb_cf(&b, Q, GRTC_ELEM_F32, 0), 0);
#define QI(v) kb_ci(&b, Q, GRTC_ELEM_I64, (v))
#define QOP(op, x, y) kb_op(&b, Q, GRTC_ELEM_I64, GRTC_SCALAR_##op, (x), (y), 0)
  uint32_t oi = QOP(ADD, QOP(MUL, QOP(ADD, QOP(MUL, QOP(ADD, QOP(MUL, p[0], QI(g.oh)),
                                                          p[1]),
                                               QI(g.ow)),
                                      p[2]),
                             QI(c->oc)),
                    p[3]);
#undef QI
#undef QOP
  kb_store(&b, 3, oi, relu, GRTC_KINST_NONE);
  if (pattern) {
    b.k->pattern = GRTC_KPATTERN_CONV2D;
    grtc_kconv_t* cv = &b.k->conv;
    *cv = (grtc_kconv_t){
        .input_binding = 0, .filter_binding = 1,
        .n = n, .h = c->h, .w = c->w, .c = c->c,
        .kh = c->kh, .kw = c->kw, .oc = c->oc, .oh = g.oh, .ow = g.ow,
        .stride_h = c->stride_h, .stride_w = c->stride_w,
        .pad_h = c->pad_h, .pad_w = c->pad_w,
        .dilation_h = c->dil_h, .dilation_w = c->dil_w, .groups = c->groups,
        .input_elem = GRTC_ELEM_F32, .filter_elem = GRTC_ELEM_F32,
        .acc_elem = GRTC_ELEM_F32};
    memcpy(cv->input_strides, g.is, sizeof(g.is));
    memcpy(cv->filter_strides, g.fs, sizeof(g.fs));
  }
}

static void add_conv(grtc_kernel_set_t* set, const char* name,
                     const conv_case_t* c, bool pattern) {
  add_conv_as(set, name, c, pattern, false, false);
}

// The inputs every case runs on: formulas of the element index.
static void fill_inputs(const conv_case_t* c, float* in, float* filter,
                        float* bias) {
  conv_geom_t g = conv_geom(c);
  size_t ni = (size_t)(c->n * c->h * c->w * c->c);
  size_t nf = (size_t)(c->kh * c->kw * g.cig * c->oc);
  for (size_t i = 0; i < ni; ++i) in[i] = (float)((int)(i * 7 % 13) - 6) / 8;
  for (size_t i = 0; i < nf; ++i) filter[i] = (float)((int)(i * 5 % 11) - 4) / 4;
  for (int64_t i = 0; i < c->oc; ++i) bias[i] = (float)(i % 3) - 1;
}

// Both outputs |x| and |y| (named |x_name|, |y_name|) against a naive
// double-precision reference of the case's convolution + bias + relu.
static void expect_reference(const conv_case_t* c, const float* in,
                             const float* filter, const float* bias,
                             const float* x, const float* y,
                             const char* x_name, const char* y_name) {
  conv_geom_t g = conv_geom(c);
  for (int64_t b = 0; b < c->n; ++b) {
    for (int64_t oy = 0; oy < g.oh; ++oy) {
      for (int64_t ox = 0; ox < g.ow; ++ox) {
        for (int64_t o = 0; o < c->oc; ++o) {
          double want = c->init;
          int64_t grp = o / g.ocg;
          for (int64_t i = 0; i < c->kh; ++i) {
            for (int64_t j = 0; j < c->kw; ++j) {
              int64_t iy = oy * c->stride_h - c->pad_h + i * c->dil_h;
              int64_t ix = ox * c->stride_w - c->pad_w + j * c->dil_w;
              if (iy < 0 || iy >= c->h || ix < 0 || ix >= c->w) continue;
              for (int64_t ci = 0; ci < g.cig; ++ci) {
                want += (double)in[b * g.is[0] + iy * g.is[1] + ix * g.is[2] +
                                   (grp * g.cig + ci) * g.is[3]] *
                        filter[i * g.fs[0] + j * g.fs[1] + ci * g.fs[2] +
                               o * g.fs[3]];
              }
            }
          }
          want += bias[o];
          if (want < 0) want = 0;
          size_t at = (size_t)(((b * g.oh + oy) * g.ow + ox) * c->oc + o);
          double tolerance =
              1e-5 * (1 + fabs(want)) * (double)(c->kh * c->kw * g.cig + 1);
          if (!(fabs(x[at] - want) <= tolerance) ||
              !(fabs(y[at] - want) <= tolerance)) {
            fail_msg("[%lld,%lld,%lld,%lld]: %s %g %s %g want %g",
                     (long long)b, (long long)oy, (long long)ox, (long long)o,
                     x_name, x[at], y_name, y[at], want);
          }
        }
      }
    }
  }
}

static void run_case_as(const conv_case_t* c, bool symbolic_n,
                        bool chain_bias) {
  conv_geom_t g = conv_geom(c);
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  add_conv_as(&set, "fast", c, true, symbolic_n, chain_bias);
  add_conv_as(&set, "generic", c, false, symbolic_n, chain_bias);
  grt_string_builder_t text;
  grt_string_builder_init(grt_allocator_system(), &text);
  GRT_EXPECT_OK(grtc_cpu_emit_c(&set, NULL, &text));
  const char* source = grt_string_builder_cstring(&text);
  int path = strstr(source, "grt_gemm_block(col")        ? PATH_GEMM
             : strstr(source, "grt_gemm_pack_a_koff(F") ? PATH_PIXELS
             : strstr(source, "float wt[KH][KW]")       ? PATH_DEPTHWISE
             : strstr(source, "enum { OCB = ")          ? PATH_STEM
                                                         : PATH_DIRECT;
  if (path != c->path) {
    fail_msg("case %dx%dx%dx%d k%dx%d oc %d: path %d, expected %d",
             (int)c->n, (int)c->h, (int)c->w, (int)c->c, (int)c->kh,
             (int)c->kw, (int)c->oc, path, c->path);
  }
  // A 1x1 stride-1 unpadded filter copies input rows into the B panels.
  bool direct = c->kh == 1 && c->kw == 1 && c->stride_h == 1 &&
                c->stride_w == 1 && c->pad_h == 0 && c->pad_w == 0;
  if (path == PATH_PIXELS &&
      !strstr(source, direct ? "DIRECT = 1," : "DIRECT = 0,")) {
    fail_msg("case %dx%dx%dx%d k%dx%d: expected DIRECT = %d", (int)c->n,
             (int)c->h, (int)c->w, (int)c->c, (int)c->kh, (int)c->kw, direct);
  }
  // The epilogue (bias, ReLU, the store at the pixel's row-major index)
  // of the planar GEMM and depthwise paths runs along the block's (the
  // tile's) pixels as one loop, except in a bounds-checked
  // kernel (a symbolic batch).
  if ((path == PATH_PIXELS || path == PATH_DEPTHWISE || path == PATH_STEM) &&
      !strstr(source, symbolic_n ? "ROWS1 = 0 }" : "ROWS1 = 1 }")) {
    fail_msg("case %dx%dx%dx%d k%dx%d: expected ROWS1 = %d", (int)c->n,
             (int)c->h, (int)c->w, (int)c->c, (int)c->kh, (int)c->kw,
             !symbolic_n);
  }
  grt_string_builder_deinit(&text);
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  size_t no = (size_t)(c->n * g.oh * g.ow * c->oc);
  // The pattern kernel took a fast path (both need scratch), unless the
  // output is empty.
  assert_int_equal(lib.library->entries[0].local_memory_size > 0, no > 0);
  assert_int_equal(lib.library->entries[1].local_memory_size, 0);
  size_t ni = (size_t)(c->n * c->h * c->w * c->c);
  size_t nf = (size_t)(c->kh * c->kw * g.cig * c->oc);
  float* in = malloc(ni * sizeof(float) + 1);
  float* filter = malloc(nf * sizeof(float) + 1);
  float* bias = malloc((size_t)c->oc * sizeof(float) + 1);
  float* fast = malloc(no * sizeof(float) + 1);
  float* generic = malloc(no * sizeof(float) + 1);
  fill_inputs(c, in, filter, bias);
  for (size_t i = 0; i < no; ++i) fast[i] = generic[i] = NAN;
  void* fast_ptrs[] = {in, filter, bias, fast};
  void* generic_ptrs[] = {in, filter, bias, generic};
  const size_t lengths[] = {ni * sizeof(float), nf * sizeof(float),
                            (size_t)c->oc * sizeof(float), no * sizeof(float)};
  assert_int_equal(cpu_run_extents(&lib, &set, 0, fast_ptrs, lengths, &c->n),
                   0);
  assert_int_equal(
      cpu_run_extents(&lib, &set, 1, generic_ptrs, lengths, &c->n), 0);
  expect_reference(c, in, filter, bias, fast, generic, "fast", "generic");
  if (symbolic_n && no > 0) {
    cpu_expect_batch_past_input(&lib, &set, fast_ptrs, generic_ptrs, lengths,
                                c->n);
  }
  free(in);
  free(filter);
  free(bias);
  free(fast);
  free(generic);
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

static void run_case(const conv_case_t* c) { run_case_as(c, false, false); }

// A planar-path case with its filter prepacked (grtc_cpu_prepack_filter):
// the fast path reading the panels, and the same kernel without its
// pattern (the generic loops reading the panels through the rewritten
// index), against the unpacked fast path (bit for bit: the same GEMM) and
// a reference.
static void run_packed_case(const conv_case_t* c) {
  conv_geom_t g = conv_geom(c);
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  add_conv(&set, "packed", c, true);
  add_conv(&set, "packed_loops", c, true);
  add_conv(&set, "unpacked", c, true);
  size_t ni = (size_t)(c->n * c->h * c->w * c->c);
  size_t nf = (size_t)(c->kh * c->kw * g.cig * c->oc);
  size_t no = (size_t)(c->n * g.oh * g.ow * c->oc);
  float* in = malloc(ni * sizeof(float) + 1);
  float* filter = malloc(nf * sizeof(float) + 1);
  float* bias = malloc((size_t)c->oc * sizeof(float) + 1);
  fill_inputs(c, in, filter, bias);
  for (uint32_t k = 0; k < 2; ++k) {
    assert_true(grtc_cpu_filter_prepackable(set.kernels[k]));
  }
  int64_t np = grtc_cpu_packed_filter_size(set.kernels[0]);
  int64_t ocp = (g.ocg + 5) / 6 * 6;
  assert_int_equal(np, c->groups * c->kh * c->kw * g.cig * ocp);
  float* packed = malloc((size_t)np * sizeof(float) + 1);
  float* packed2 = malloc((size_t)np * sizeof(float) + 1);
  GRT_EXPECT_OK(grtc_cpu_prepack_filter(&set, set.kernels[0], filter, packed));
  GRT_EXPECT_OK(grtc_cpu_prepack_filter(&set, set.kernels[1], filter, packed2));
  assert_memory_equal(packed, packed2, (size_t)np * sizeof(float));
  assert_true(set.kernels[0]->conv.filter_packed);
  assert_int_equal(set.kernels[0]->bindings[1].element_count, np);
  // Packed once, a kernel is not packed again.
  assert_false(grtc_cpu_filter_prepackable(set.kernels[0]));
  set.kernels[1]->pattern = GRTC_KPATTERN_NONE;
  GRT_EXPECT_OK(grtc_kernel_verify(set.kernels[1]));
  grt_string_builder_t text;
  grt_string_builder_init(grt_allocator_system(), &text);
  GRT_EXPECT_OK(grtc_cpu_emit_c(&set, NULL, &text));
  assert_non_null(strstr(grt_string_builder_cstring(&text), "enum { PACKED = 1, DIRECT = "));
  grt_string_builder_deinit(&text);
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  float* out[3];
  for (int k = 0; k < 3; ++k) {
    out[k] = malloc(no * sizeof(float) + 1);
    for (size_t i = 0; i < no; ++i) out[k][i] = NAN;
  }
  void* ptrs[3][4] = {{in, packed, bias, out[0]},
                      {in, packed, bias, out[1]},
                      {in, filter, bias, out[2]}};
  for (uint32_t k = 0; k < 3; ++k) {
    assert_int_equal(cpu_run(&lib, k, ptrs[k], 4, set.kernels[k]->workgroup_count), 0);
  }
  assert_memory_equal(out[0], out[2], no * sizeof(float));
  expect_reference(c, in, filter, bias, out[0], out[1], "packed fast", "packed loops");
  for (int k = 0; k < 3; ++k) free(out[k]);
  free(in);
  free(filter);
  free(bias);
  free(packed);
  free(packed2);
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

static void test_conv_cases(void** state) {
  (void)state;
  static const conv_case_t cases[] = {
      // n h  w  c  kh kw oc  sh sw ph pw dh dw groups layout init tile path
#define NHWC LAYOUT_NHWC_HWIO
#define OIHW LAYOUT_NCHW_OIHW
#define HWIO LAYOUT_NCHW_HWIO
#define DIRECT PATH_DIRECT
#define GEMM PATH_GEMM
#define PIXELS PATH_PIXELS
#define DEPTHWISE PATH_DEPTHWISE
#define STEM PATH_STEM
      {2, 7, 7, 5, 3, 3, 19, 1, 1, 1, 1, 1, 1, 1, NHWC, 0, {1, 2, 4, 8}, DIRECT},
      {2, 7, 7, 5, 3, 3, 19, 1, 1, 1, 1, 1, 1, 1, NHWC, 0, {1, 4, 0, 8}, GEMM},
      {1, 9, 8, 6, 3, 2, 10, 2, 2, 2, 1, 2, 2, 2, NHWC, 0, {1, 3, 0, 4}, DIRECT},
      // Groups straddled by the oc tile, on both paths.
      {1, 10, 10, 6, 3, 3, 10, 1, 1, 1, 1, 1, 1, 2, NHWC, 0, {1, 5, 0, 4}, GEMM},
      {1, 10, 10, 6, 3, 3, 10, 1, 1, 1, 1, 1, 1, 2, NHWC, 0, {1, 1, 3, 4}, DIRECT},
      {1, 8, 8, 8, 3, 3, 8, 2, 2, 1, 1, 1, 1, 8, NHWC, 0, {0}, DIRECT},  // dw
      {2, 6, 5, 4, 3, 3, 8, 1, 1, 1, 1, 1, 2, 4, NHWC, 0.5, {1, 1, 0, 3}, DIRECT},
      {1, 5, 5, 33, 1, 1, 40, 1, 1, 0, 0, 1, 1, 1, NHWC, 0, {0}, GEMM},  // 1x1
      {2, 6, 7, 6, 3, 3, 9, 2, 1, 1, 2, 1, 1, 3, OIHW, 0, {1, 2, 3, 0}, DIRECT},
      {1, 8, 8, 6, 3, 3, 9, 1, 1, 1, 1, 1, 1, 3, OIHW, 0, {0}, PIXELS},  // NCHW
      {1, 8, 8, 3, 2, 2, 6, 1, 1, 1, 1, 1, 1, 3, OIHW, 0, {0}, DEPTHWISE},  // NCHW dw
      {1, 16, 16, 64, 3, 3, 20, 1, 1, 1, 1, 1, 1, 1, NHWC, 0, {0}, GEMM},  // K > KC
      {1, 16, 16, 64, 3, 3, 20, 1, 1, 1, 1, 1, 1, 1, NHWC, 0, {1, 1, 1, 0}, DIRECT},
      {1, 3, 3, 2, 2, 2, 3, 1, 1, 3, 3, 1, 1, 1, NHWC, -0.25, {0}, GEMM},  // pads
      {1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, NHWC, 0, {0}, DIRECT},
      {1, 2, 2, 3, 3, 3, 4, 1, 1, 0, 0, 1, 1, 1, NHWC, 0, {0}, DIRECT},  // empty
      // The planar path (NCHW input, whole output rows): two images, two
      // pixel blocks (12 + 8 rows), an initial value.
      {2, 20, 20, 5, 3, 3, 7, 1, 1, 1, 1, 1, 1, 1, HWIO, 0.5, {0}, PIXELS},
      // A 7x7 stride-2 filter on odd sizes over 5 input channels (4 or
      // fewer take the stem path, below).
      {1, 23, 21, 5, 7, 7, 10, 2, 2, 3, 3, 1, 1, 1, HWIO, 0, {0}, PIXELS},
      // Dilation with stride 2 across, row tiles.
      {1, 11, 13, 5, 3, 3, 8, 1, 2, 2, 2, 2, 2, 1, HWIO, 0, {1, 4, 0, 0}, PIXELS},
      // The stem path (at most 4 input channels, stride 2 across): a 7x7/2
      // on odd sizes with 10 output channels (a block of 8 and one of 2);
      // a 3x3/2 with an initial value, OIHW and tiles of 3 rows; one input
      // channel, stride 3 down, a 5x4 filter, two images and oc tiles of 4
      // (blocks that start off the multiples of 8); dilation 2 (every tap
      // in phase 0) and 3 (taps in both phases); padding wider than the
      // input; rows in several chunks (15 rows of 100, 4 channels, 7x7);
      // a filter wider than the taps spelled out (17).
      {1, 23, 21, 3, 7, 7, 10, 2, 2, 3, 3, 1, 1, 1, HWIO, 0, {0}, STEM},
      {1, 17, 15, 3, 3, 3, 16, 2, 2, 1, 1, 1, 1, 1, OIHW, 0.5, {1, 3, 0, 0}, STEM},
      {2, 9, 40, 1, 5, 4, 7, 3, 2, 0, 2, 1, 1, 1, HWIO, 0, {1, 0, 0, 4}, STEM},
      {1, 11, 13, 4, 3, 3, 8, 1, 2, 2, 2, 2, 2, 1, HWIO, 0, {1, 4, 0, 0}, STEM},
      {1, 12, 31, 2, 3, 3, 9, 2, 2, 1, 4, 1, 3, 1, OIHW, 0, {0}, STEM},
      {1, 3, 5, 2, 3, 3, 5, 2, 2, 4, 4, 1, 1, 1, HWIO, -0.25, {0}, STEM},
      {1, 30, 199, 4, 7, 7, 9, 2, 2, 3, 3, 1, 1, 1, HWIO, 0, {0}, STEM},
      {1, 6, 60, 1, 2, 17, 3, 1, 2, 0, 8, 1, 1, 1, HWIO, 0, {0}, STEM},
      // 40 or more output channels in the tile: blocks of 5 channels by two
      // vectors of pixels (43 channels: 9 blocks, the last of 3; 19 pixels
      // a row: a step past the row's end), and oc tiles of 48 (the second
      // tile 16 channels).
      {1, 19, 37, 3, 7, 7, 43, 2, 2, 3, 3, 1, 1, 1, HWIO, 0.25, {0}, STEM},
      {1, 14, 15, 3, 3, 3, 64, 2, 2, 1, 1, 1, 1, 1, OIHW, 0, {1, 0, 0, 48}, STEM},
      // K > KC, more output channels than one A block (GRT_MC), an oc tile
      // straddling the two groups, OIHW's strided filter rows.
      {1, 9, 9, 64, 3, 3, 200, 1, 1, 1, 1, 1, 1, 2, HWIO, 0, {1, 0, 0, 150}, PIXELS},
      {1, 9, 9, 64, 3, 3, 200, 1, 1, 1, 1, 1, 1, 2, OIHW, 0, {1, 0, 0, 150}, PIXELS},
      // Output channel tiles of 16 (the lowering's step), which start
      // inside a packed filter's 6-row panels.
      {1, 12, 12, 8, 3, 3, 40, 1, 1, 1, 1, 1, 1, 1, HWIO, 0, {1, 0, 0, 16}, PIXELS},
      // 1x1: stride 1 (im2col rows copied straight from the input planes),
      // and the stride-2 projection of a residual block.
      {1, 14, 14, 16, 1, 1, 24, 1, 1, 0, 0, 1, 1, 1, HWIO, 0, {0}, PIXELS},
      // 1x1 stride 1 with K > KC (two slices, the second accumulating, of
      // odd length; 40 pixels: a last panel of 8, the GEMM's half-width
      // micro-kernel) and over two pixel blocks (12 + 8 rows: the second
      // starts mid-plane).
      {1, 4, 10, 301, 1, 1, 8, 1, 1, 0, 0, 1, 1, 1, OIHW, 0, {0}, PIXELS},
      // 33 pixels (2 x 16 + 1, 32 + 1): a last panel of one real column
      // (grt_gemm_narrow), K = 180 (a tail past its 3-vector steps).
      {1, 3, 11, 20, 3, 3, 12, 1, 1, 1, 1, 1, 1, 1, OIHW, 0, {0}, PIXELS},
      {1, 20, 20, 5, 1, 1, 7, 1, 1, 0, 0, 1, 1, 1, HWIO, 0.5, {0}, PIXELS},
      // A tile of 5 rows of 56 (280 pixels) is one pixel block.
      {1, 10, 56, 3, 3, 3, 8, 1, 1, 1, 1, 1, 1, 1, HWIO, 0, {1, 5, 0, 0}, PIXELS},
      {1, 14, 14, 16, 1, 1, 24, 2, 2, 0, 0, 1, 1, 1, HWIO, 0, {0}, PIXELS},
      // Padding wider than the input.
      {1, 3, 3, 2, 2, 2, 3, 1, 1, 3, 3, 1, 1, 1, HWIO, -0.25, {0}, PIXELS},
      // Tiles that cut output rows fall back to im2col + GEMM.
      {1, 10, 10, 6, 3, 3, 10, 1, 1, 1, 1, 1, 1, 1, HWIO, 0, {1, 5, 5, 0}, GEMM},
      // Depthwise on planar inputs: 3x3, stride 2 on odd sizes with an
      // initial value, a channel multiplier of 2 with dilation and an oc
      // tile that splits a group, 5x5 stride 2 over two images, padding
      // wider than the input, stride 3 with and without dilation; tiles
      // that cut rows take the direct loop.
      {1, 12, 12, 8, 3, 3, 8, 1, 1, 1, 1, 1, 1, 8, HWIO, 0, {0}, DEPTHWISE},
      {1, 13, 11, 6, 3, 3, 6, 2, 2, 1, 1, 1, 1, 6, HWIO, 0.5, {0}, DEPTHWISE},
      {1, 9, 10, 4, 3, 3, 8, 1, 1, 2, 2, 2, 2, 4, OIHW, 0, {1, 2, 0, 3}, DEPTHWISE},
      {2, 15, 15, 5, 5, 5, 5, 2, 2, 2, 2, 1, 1, 5, HWIO, 0, {0}, DEPTHWISE},
      {1, 2, 2, 3, 3, 3, 3, 1, 1, 3, 3, 1, 1, 3, HWIO, 0, {0}, DEPTHWISE},
      // Whole planes in channel tiles of 3 (the lowering's depthwise
      // tiles; 7 channels: the last tile of 1); filters of more than 9
      // taps, whose sums alternate between two chains: 5x5 stride 1 on odd
      // sizes with an initial value, 3x5 (15 taps, an odd count) with
      // stride 2 and a channel multiplier of 2.
      {1, 13, 11, 7, 3, 3, 7, 1, 1, 1, 1, 1, 1, 7, HWIO, 0, {1, 0, 0, 3}, DEPTHWISE},
      {1, 9, 7, 3, 5, 5, 3, 1, 1, 2, 2, 1, 1, 3, HWIO, 0.5, {1, 0, 0, 2}, DEPTHWISE},
      {1, 11, 9, 2, 3, 5, 4, 2, 2, 1, 2, 1, 1, 2, OIHW, 0, {0}, DEPTHWISE},
      // More taps than are spelled out (a loop over them), stride 3.
      {1, 12, 13, 2, 8, 7, 2, 2, 3, 3, 3, 1, 1, 2, HWIO, 0, {0}, DEPTHWISE},
      {1, 12, 13, 2, 3, 3, 2, 1, 3, 1, 0, 1, 2, 2, HWIO, 0, {0}, DEPTHWISE},
      {1, 12, 12, 8, 3, 3, 8, 1, 1, 1, 1, 1, 1, 8, HWIO, 0, {1, 2, 6, 0}, DIRECT},
#undef NHWC
#undef OIHW
#undef HWIO
#undef DIRECT
#undef GEMM
#undef PIXELS
#undef DEPTHWISE
#undef STEM
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    run_case(&cases[i]);
    if (cases[i].path == PATH_PIXELS) run_packed_case(&cases[i]);
  }
}

// Depthwise tiles of whole planes run in equal chunks of output rows whose
// block of padded input rows fits 16 KB: 40 rows of 202 padded floats in 3
// chunks of 14, 14 and 12 (stride 1); a 5x5 stride 2 over 31 output rows
// of 153 floats in chunks of 11, 11 and 9; the results against the
// reference, the chunk's rows in the source.
static void test_conv_depthwise_chunks(void** state) {
  (void)state;
  static const conv_case_t cases[] = {
      {1, 40, 200, 2, 3, 3, 2, 1, 1, 1, 1, 1, 1, 2, LAYOUT_NCHW_HWIO, 0.5,
       {0}, PATH_DEPTHWISE},
      {1, 61, 150, 3, 5, 5, 3, 2, 2, 2, 2, 1, 1, 3, LAYOUT_NCHW_HWIO, 0,
       {1, 0, 0, 2}, PATH_DEPTHWISE},
  };
  static const char* const want[] = {"CR = 14;", "CR = 11;"};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    grtc_kernel_set_t set;
    grtc_kernel_set_init(grt_allocator_system(), &set);
    add_conv_as(&set, "fast", &cases[i], true, false, false);
    grt_string_builder_t text;
    grt_string_builder_init(grt_allocator_system(), &text);
    GRT_EXPECT_OK(grtc_cpu_emit_c(&set, NULL, &text));
    if (!strstr(grt_string_builder_cstring(&text), want[i])) {
      fail_msg("case %zu: expected %s in the depthwise kernel", i, want[i]);
    }
    grt_string_builder_deinit(&text);
    grtc_kernel_set_deinit(&set);
    run_case(&cases[i]);
  }
}

// A symbolic batch on every path: one kernel per case, run for batches 1
// to 3 (the extent a push constant).
static void test_conv_symbolic_batch(void** state) {
  (void)state;
  static const conv_case_t cases[] = {
      {1, 7, 7, 5, 3, 3, 19, 1, 1, 1, 1, 1, 1, 1, LAYOUT_NHWC_HWIO, 0,
       {1, 2, 4, 8}, PATH_DIRECT},
      {1, 7, 7, 5, 3, 3, 19, 1, 1, 1, 1, 1, 1, 1, LAYOUT_NHWC_HWIO, 0,
       {1, 4, 0, 8}, PATH_GEMM},
      {1, 20, 20, 5, 3, 3, 7, 1, 1, 1, 1, 1, 1, 1, LAYOUT_NCHW_HWIO, 0.5,
       {1, 0, 0, 0}, PATH_PIXELS},
      {1, 15, 15, 5, 5, 5, 5, 2, 2, 2, 2, 1, 1, 5, LAYOUT_NCHW_HWIO, 0,
       {1, 0, 0, 0}, PATH_DEPTHWISE},
      {1, 15, 15, 3, 3, 3, 12, 2, 2, 1, 1, 1, 1, 1, LAYOUT_NCHW_HWIO, 0,
       {1, 0, 0, 0}, PATH_STEM},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    for (int64_t n = 1; n <= 3; ++n) {
      conv_case_t c = cases[i];
      c.n = n;
      run_case_as(&c, true, false);
    }
  }
}

// A run-time output-channel split (grtc_kernel_t.split_max) on the planar
// GEMM path, the filter read through its strides and prepacked: the split
// is push constant 0, and every split (0 counting as 1, 1, 2, a
// non-divisor 3, the most, past the most) over the workgroups
// grtc_kernel_split_workgroups gives matches the reference.
static void run_split_case(const conv_case_t* c) {
  conv_geom_t g = conv_geom(c);
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  add_conv(&set, "split", c, true);
  add_conv(&set, "split_packed", c, true);
  add_conv(&set, "generic", c, false);
  size_t ni = (size_t)(c->n * c->h * c->w * c->c);
  size_t nf = (size_t)(c->kh * c->kw * g.cig * c->oc);
  size_t no = (size_t)(c->n * g.oh * g.ow * c->oc);
  float* in = malloc(ni * sizeof(float) + 1);
  float* filter = malloc(nf * sizeof(float) + 1);
  float* bias = malloc((size_t)c->oc * sizeof(float) + 1);
  fill_inputs(c, in, filter, bias);
  float* packed =
      malloc((size_t)grtc_cpu_packed_filter_size(set.kernels[1]) * sizeof(float) + 1);
  GRT_EXPECT_OK(grtc_cpu_prepack_filter(&set, set.kernels[1], filter, packed));
  uint32_t most = (uint32_t)((c->oc + GRTC_KERNEL_SPLIT_STEP - 1) / GRTC_KERNEL_SPLIT_STEP);
  for (uint32_t k = 0; k < 2; ++k) {
    assert_true(grtc_cpu_conv_takes_runtime_split(set.kernels[k]));
    set.kernels[k]->split_max = most;
    GRT_EXPECT_OK(grtc_kernel_verify(set.kernels[k]));
  }
  assert_false(grtc_cpu_conv_takes_runtime_split(set.kernels[2]));
  grt_string_builder_t text;
  grt_string_builder_init(grt_allocator_system(), &text);
  GRT_EXPECT_OK(grtc_cpu_emit_c(&set, NULL, &text));
  assert_non_null(strstr(grt_string_builder_cstring(&text), "split_tile"));
  grt_string_builder_deinit(&text);
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  assert_int_equal(lib.library->entries[0].constant_count, 1);
  assert_int_equal(lib.library->entries[1].constant_count, 1);
  assert_int_equal(lib.library->entries[2].constant_count, 0);
  float* out[3];
  for (int k = 0; k < 3; ++k) out[k] = malloc(no * sizeof(float) + 1);
  void* ptrs[3][4] = {{in, filter, bias, out[0]},
                      {in, packed, bias, out[1]},
                      {in, filter, bias, out[2]}};
  for (size_t i = 0; i < no; ++i) out[2][i] = NAN;
  assert_int_equal(cpu_run(&lib, 2, ptrs[2], 4, set.kernels[2]->workgroup_count), 0);
  // Without its constant the kernel refuses the dispatch.
  assert_int_equal(cpu_run(&lib, 0, ptrs[0], 4, 1), 2);
  const uint32_t splits[] = {0, 1, 2, 3, most, most + 3};
  for (size_t s = 0; s < sizeof(splits) / sizeof(splits[0]); ++s) {
    int64_t workgroups = grtc_kernel_split_workgroups(set.kernels[0], splits[s]);
    if (splits[s] >= 1 && splits[s] <= most) {
      // Each split of at most the channel steps gives its own tile count.
      int64_t tile = grtc_kernel_split_tile(c->oc, splits[s]);
      assert_int_equal(workgroups, grtc_kernel_split_others(set.kernels[0]) *
                                       ((c->oc + tile - 1) / tile));
    }
    for (uint32_t k = 0; k < 2; ++k) {
      for (size_t i = 0; i < no; ++i) out[k][i] = NAN;
      assert_int_equal(cpu_run_constants(&lib, k, ptrs[k], 4, (uint32_t)workgroups,
                                         &splits[s], 1, NULL),
                       0);
    }
    expect_reference(c, in, filter, bias, out[0], out[1], "split", "split packed");
    // The same sums as the compile-time tiles' generic loops, within rounding.
    expect_reference(c, in, filter, bias, out[0], out[2], "split", "generic");
  }
  for (int k = 0; k < 3; ++k) free(out[k]);
  free(in);
  free(filter);
  free(bias);
  free(packed);
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

static void test_conv_runtime_split(void** state) {
  (void)state;
  static const conv_case_t cases[] = {
      // ResNet-like 7x7 layer, 1x1 filter, 100 channels (7 steps).
      {1, 7, 7, 32, 1, 1, 100, 1, 1, 0, 0, 1, 1, 1, LAYOUT_NCHW_HWIO, 0,
       {1, 0, 0, 32}, PATH_PIXELS},
      // 3x3, two groups of 100 (tiles cross the groups), two row tiles.
      {1, 9, 9, 64, 3, 3, 200, 1, 1, 1, 1, 1, 1, 2, LAYOUT_NCHW_OIHW, 0,
       {1, 5, 0, 64}, PATH_PIXELS},
      // 40 channels: 16, 16, 8.
      {1, 12, 12, 8, 3, 3, 40, 1, 1, 1, 1, 1, 1, 1, LAYOUT_NCHW_HWIO, 0,
       {1, 0, 0, 16}, PATH_PIXELS},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    run_split_case(&cases[i]);
  }
}

// A bias that is a select chain over the output channel: on the planar
// GEMM and depthwise paths its compares and selects are emitted once per
// channel, ahead of the loops over the channel's pixels (before the
// epilogue's "for (int64_t p2" in the fast kernel), and the results match
// the loaded bias's.
static void test_conv_channel_values_hoisted(void** state) {
  (void)state;
  static const conv_case_t cases[] = {
      {1, 8, 8, 6, 3, 3, 9, 1, 1, 1, 1, 1, 1, 3, LAYOUT_NCHW_OIHW, 0, {0},
       PATH_PIXELS},
      {1, 9, 9, 5, 3, 3, 5, 2, 2, 1, 1, 1, 1, 5, LAYOUT_NCHW_HWIO, 0,
       {1, 2, 0, 0}, PATH_DEPTHWISE},
      {1, 15, 13, 3, 3, 3, 12, 2, 2, 1, 1, 1, 1, 1, LAYOUT_NCHW_HWIO, 0,
       {1, 0, 0, 0}, PATH_STEM},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    grtc_kernel_set_t set;
    grtc_kernel_set_init(grt_allocator_system(), &set);
    add_conv_as(&set, "fast", &cases[i], true, false, true);
    grt_string_builder_t text;
    grt_string_builder_init(grt_allocator_system(), &text);
    GRT_EXPECT_OK(grtc_cpu_emit_c(&set, NULL, &text));
    const char* source = grt_string_builder_cstring(&text);
    const char* kernel = strstr(source, "grtk_fast(");
    assert_non_null(kernel);
    const char* loop = strstr(kernel, "for (int64_t p2");
    const char* compare = strstr(kernel, "(uint8_t)((int64_t)");
    assert_non_null(loop);
    assert_non_null(compare);
    if (compare > loop) {
      fail_msg("case %zu: the channel's compare is emitted inside the pixel loops", i);
    }
    grt_string_builder_deinit(&text);
    grtc_kernel_set_deinit(&set);
    run_case_as(&cases[i], false, true);
  }
}

// grtc_cpu_prepack_module packs a constant filter that one DISPATCH alone
// reads (the constant becomes the rank-1 panels), and leaves alone a
// constant two DISPATCH ops read, a kernel two DISPATCH ops run, a splat
// and a filter that is a function argument.
static void test_prepack_module(void** state) {
  (void)state;
  const conv_case_t c = {1, 8, 8, 4, 3, 3, 10, 1, 1, 1, 1, 1, 1, 1,
                         LAYOUT_NCHW_HWIO, 0, {0}, PATH_PIXELS};
  conv_geom_t g = conv_geom(&c);
  int64_t ni = c.n * c.h * c.w * c.c, nf = c.kh * c.kw * c.c * c.oc;
  int64_t no = c.n * g.oh * g.ow * c.oc;
  static float filter[3 * 3 * 4 * 10];
  for (int64_t i = 0; i < nf; ++i) filter[i] = (float)(i % 9) - 4;
  grtc_ttype_t in_t = test_vector(GRTC_ELEM_F32, ni);
  grtc_ttype_t f_t = test_vector(GRTC_ELEM_F32, nf);
  grtc_ttype_t b_t = test_vector(GRTC_ELEM_F32, c.oc);
  grtc_ttype_t out_t = test_vector(GRTC_ELEM_F32, no);
  grtc_tmodule_t* module = NULL;
  GRT_EXPECT_OK(grtc_tmodule_create("m", "m.mlir", grt_allocator_system(), &module));
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  // Kernels 0 (packed), 1 and 2 (share one constant), 3 (dispatched
  // twice), 4 (a splat filter), 5 (the filter an argument).
  for (int k = 0; k < 6; ++k) {
    char name[16];
    snprintf(name, sizeof(name), "k%d", k);
    add_conv(&set, name, &c, true);
  }
  grtc_ttype_t args[3] = {in_t, b_t, f_t};
  grtc_tfunc_t* func = NULL;
  GRT_EXPECT_OK(grtc_tfunc_create(module, grt_make_cstring_view("main"), args, 3, &out_t,
                                  1, &func));
  grtc_tblock_t* body = func->body;
  grtc_top_t* consts[4];
  for (int i = 0; i < 4; ++i) {
    consts[i] = test_op(module, body, GRTC_TOP_CONSTANT, NULL, 0, &f_t, 0);
    consts[i]->attrs.constant.data = (const uint8_t*)filter;
    consts[i]->attrs.constant.size = sizeof(filter);
  }
  consts[3]->attrs.constant.splat = true;
  consts[3]->attrs.constant.size = sizeof(float);
  grtc_tvalue_t* x = &body->args[0];
  grtc_tvalue_t* bias = &body->args[1];
  grtc_tvalue_t* fc[7] = {&consts[0]->results[0], &consts[1]->results[0],
                          &consts[1]->results[0], &consts[2]->results[0],
                          &consts[2]->results[0], &consts[3]->results[0],
                          &body->args[2]};
  const uint32_t kernel_of[7] = {0, 1, 2, 3, 3, 4, 5};
  grtc_tvalue_t* last = NULL;
  for (int d = 0; d < 7; ++d) {
    grtc_tvalue_t* operands[3] = {x, fc[d], bias};
    last = test_dispatch(module, body, kernel_of[d], operands, 3, out_t);
  }
  test_return(module, body, &last, 1);
  uint32_t packed = 0;
  GRT_EXPECT_OK(grtc_cpu_prepack_module(module, &set, &packed));
  assert_int_equal(packed, 1);
  int64_t np = grtc_cpu_packed_filter_size(set.kernels[0]);
  assert_true(set.kernels[0]->conv.filter_packed);
  for (uint32_t k = 1; k < 6; ++k) assert_false(set.kernels[k]->conv.filter_packed);
  grtc_tvalue_t* v = &consts[0]->results[0];
  assert_int_equal(v->type.rank, 1);
  assert_int_equal(v->type.dims[0], np);
  assert_int_equal(consts[0]->attrs.constant.size, (size_t)np * sizeof(float));
  float* want = malloc((size_t)np * sizeof(float));
  // A fresh kernel packed the same way gives the constant's new bytes.
  add_conv(&set, "fresh", &c, true);
  GRT_EXPECT_OK(grtc_cpu_prepack_filter(&set, set.kernels[6], filter, want));
  assert_memory_equal(consts[0]->attrs.constant.data, want, (size_t)np * sizeof(float));
  for (int i = 1; i < 4; ++i) {
    assert_int_equal(consts[i]->results[0].type.dims[0], nf);
    assert_ptr_equal(consts[i]->attrs.constant.data, (const uint8_t*)filter);
  }
  // A packed kernel is refused a second packing, and the verifier checks
  // the packed binding's size.
  grt_expect_error(grtc_cpu_prepack_filter(&set, set.kernels[0], filter, want),
                   GRT_STATUS_INTERNAL, "its filter cannot be prepacked");
  set.kernels[0]->bindings[1].element_count = np + 1;
  grt_expect_error(grtc_kernel_verify(set.kernels[0]), GRT_STATUS_INTERNAL,
                   "conv2d packed filter binding 1 has");
  free(want);
  grtc_kernel_set_deinit(&set);
  grtc_tmodule_destroy(module);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_conv_cases),
      cmocka_unit_test(test_conv_depthwise_chunks),
      cmocka_unit_test(test_conv_symbolic_batch),
      cmocka_unit_test(test_conv_runtime_split),
      cmocka_unit_test(test_conv_channel_values_hoisted),
      cmocka_unit_test(test_prepack_module),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
