// stablehlo.fft as matrix products (fft.h).
#include "compiler/stablehlo/fft.h"

#include <math.h>
#include <string.h>

#include "compiler/stablehlo/compose_ops.h"
#include "compiler/tensor/eval.h"

#define GRTC_FFT_TWO_PI 6.28318530717958647692

// Fills |data| with the rows x cols matrix whose element (i, j) is
// scale * w_i * cos(2 pi i j / n) (sin when |sine|), of element type |elem|.
// w_i is 1, except with |half_spectrum| (the rows are the first n/2 + 1
// frequencies of a real signal's spectrum): 2 for the rows whose conjugate
// twin (n - i) is not among them.
static void grtc_fft_fill(uint8_t* data, grtc_elem_t elem, int64_t rows, int64_t cols,
                          int64_t n, bool sine, double scale, bool half_spectrum) {
  size_t size = grtc_elem_byte_size(elem);
  for (int64_t i = 0; i < rows; ++i) {
    double weight = scale;
    if (half_spectrum && i != 0 && 2 * i != n) weight *= 2.0;
    for (int64_t j = 0; j < cols; ++j) {
      // The angle from the product reduced mod n: exact for every length.
      double angle = GRTC_FFT_TWO_PI * (double)((i * j) % n) / (double)n;
      grtc_scalar_value_t v;
      v.f = weight * (sine ? sin(angle) : cos(angle));
      grtc_eval_store(elem, v, data + (size_t)(i * cols + j) * size);
    }
  }
}

// A rows x cols constant: |blocks| matrices of grtc_fft_fill stacked
// (block b from row b * rows / blocks), with sine[b] and scale[b].
static grtc_tvalue_t* grtc_fft_constant(grtc_chlo_math_t* m, grtc_elem_t elem, int64_t rows,
                                        int64_t cols, int64_t n, uint32_t blocks,
                                        const bool* sine, const double* scale,
                                        bool half_spectrum) {
  if (!grt_status_is_ok(m->status)) return NULL;
  size_t size = grtc_elem_byte_size(elem);
  size_t bytes = (size_t)(rows * cols) * size;
  uint8_t* data = grtc_tmodule_alloc(m->b->module, bytes);
  if (!data) {
    m->status = grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                                "out of memory for an FFT matrix");
    return NULL;
  }
  int64_t block_rows = rows / blocks;
  for (uint32_t b = 0; b < blocks; ++b) {
    grtc_fft_fill(data + (size_t)(b * block_rows * cols) * size, elem, block_rows, cols, n,
                  sine[b], scale[b], half_spectrum);
  }
  grtc_ttype_t type;
  memset(&type, 0, sizeof(type));
  type.elem = elem;
  type.rank = 2;
  type.dims[0] = rows;
  type.dims[1] = cols;
  return grtc_chlo_constant(m, &type, data, bytes);
}

// One grtc_fft_fill matrix as a constant.
static grtc_tvalue_t* grtc_fft_matrix(grtc_chlo_math_t* m, grtc_elem_t elem, int64_t rows,
                                      int64_t cols, int64_t n, bool sine, double scale,
                                      bool half_spectrum) {
  return grtc_fft_constant(m, elem, rows, cols, n, 1, &sine, &scale, half_spectrum);
}

// |x| with dim |dim| (of length w's rows) replaced by its product with |w|:
// y[.., j, ..] = sum_i x[.., i, ..] w[i, j].
static grtc_tvalue_t* grtc_fft_apply(grtc_chlo_math_t* m, grtc_tvalue_t* x, uint32_t dim,
                                     grtc_tvalue_t* w) {
  if (!x || !w) return NULL;
  uint32_t rank = x->type.rank;
  // dot_general puts x's other dims first and w's columns last.
  grtc_ttype_t type = x->type;
  for (uint32_t d = dim; d + 1 < rank; ++d) type.dims[d] = x->type.dims[d + 1];
  type.dims[rank - 1] = w->type.dims[1];
  grtc_tvalue_t* operands[2] = {x, w};
  grtc_tvalue_t* y = grtc_chlo_make(m, GRTC_TOP_DOT_GENERAL, operands, 2, &type);
  if (!y) return NULL;
  int64_t lc = dim, rc = 0;
  grtc_dot_dims_t* dot = &y->def->attrs.dot;
  dot->lhs_batch = grtc_tmodule_i64s(m->b->module, NULL, 0);
  dot->rhs_batch = grtc_tmodule_i64s(m->b->module, NULL, 0);
  dot->lhs_contracting = grtc_tmodule_i64s(m->b->module, &lc, 1);
  dot->rhs_contracting = grtc_tmodule_i64s(m->b->module, &rc, 1);
  if (dim + 1 == rank) return y;
  // The new dim back in its place.
  int64_t perm[GRTC_MAX_RANK];
  grtc_ttype_t back = type;
  for (uint32_t d = 0, from = 0; d < rank; ++d) {
    perm[d] = d == dim ? (int64_t)rank - 1 : (int64_t)from++;
    back.dims[d] = type.dims[perm[d]];
  }
  grtc_tvalue_t* t = grtc_chlo_make(m, GRTC_TOP_TRANSPOSE, &y, 1, &back);
  if (t) t->def->attrs.dims = grtc_tmodule_i64s(m->b->module, perm, rank);
  return t;
}

// Lengths up to this are one matrix product; longer ones that factor are
// split in two (grtc_fft_four_step).
#define GRTC_FFT_DENSE_LENGTH 256

// The largest divisor of |n| not above sqrt(n) (1 for a prime).
static int64_t grtc_fft_split(int64_t n) {
  int64_t best = 1;
  for (int64_t d = 2; d * d <= n; ++d) {
    if (n % d == 0) best = d;
  }
  return best;
}

bool grtc_fft_length_supported(int64_t n) {
  if (n <= GRTC_FFT_MAX_LENGTH) return true;
  int64_t n1 = grtc_fft_split(n);
  return n1 > 1 && grtc_fft_length_supported(n1) && grtc_fft_length_supported(n / n1);
}

static grtc_tvalue_t* grtc_fft_reshape(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                       const grtc_ttype_t* type) {
  if (!x) return NULL;
  grtc_ttype_t t = *type;
  t.elem = x->type.elem;
  return grtc_chlo_make(m, GRTC_TOP_RESHAPE, &x, 1, &t);
}

// |x| with dims |dim| and |dim| + 1 swapped.
static grtc_tvalue_t* grtc_fft_swap(grtc_chlo_math_t* m, grtc_tvalue_t* x, uint32_t dim) {
  if (!x) return NULL;
  int64_t perm[GRTC_MAX_RANK];
  grtc_ttype_t type = x->type;
  for (uint32_t d = 0; d < type.rank; ++d) perm[d] = d;
  perm[dim] = dim + 1;
  perm[dim + 1] = dim;
  type.dims[dim] = x->type.dims[dim + 1];
  type.dims[dim + 1] = x->type.dims[dim];
  grtc_tvalue_t* t = grtc_chlo_make(m, GRTC_TOP_TRANSPOSE, &x, 1, &type);
  if (t) t->def->attrs.dims = grtc_tmodule_i64s(m->b->module, perm, type.rank);
  return t;
}

// x[.., start:limit, ..] along |dim|.
static grtc_tvalue_t* grtc_fft_slice(grtc_chlo_math_t* m, grtc_tvalue_t* x, uint32_t dim,
                                     int64_t start, int64_t limit) {
  if (!x) return NULL;
  int64_t starts[GRTC_MAX_RANK], limits[GRTC_MAX_RANK], strides[GRTC_MAX_RANK];
  grtc_ttype_t type = x->type;
  for (uint32_t d = 0; d < type.rank; ++d) {
    starts[d] = d == dim ? start : 0;
    limits[d] = d == dim ? limit : type.dims[d];
    strides[d] = 1;
  }
  type.dims[dim] = limit - start;
  grtc_tvalue_t* r = grtc_chlo_make(m, GRTC_TOP_SLICE, &x, 1, &type);
  if (r) {
    r->def->attrs.start = grtc_tmodule_i64s(m->b->module, starts, type.rank);
    r->def->attrs.limit = grtc_tmodule_i64s(m->b->module, limits, type.rank);
    r->def->attrs.strides = grtc_tmodule_i64s(m->b->module, strides, type.rank);
  }
  return r;
}

static grtc_complex_t grtc_fft_complex_dim(grtc_chlo_math_t* m, grtc_complex_t z,
                                           uint32_t dim, bool inverse);

// The DFT along |dim| of length n = n1 n2 as two shorter ones: with
// n = n2 a + b and k = k1 + n1 k2, X[k] = sum_b W_n^(b k1) W_n2^(b k2)
// sum_a x[n2 a + b] W_n1^(a k1) (W_m = e^(-2 pi i / m), conjugated for the
// inverse). |dim| splits into (a, b); a transform over a; the twiddles
// W_n^(b k1); a transform over b; (k1, k2) swapped and joined back.
static grtc_complex_t grtc_fft_four_step(grtc_chlo_math_t* m, grtc_complex_t z,
                                         uint32_t dim, bool inverse, int64_t n1) {
  grtc_complex_t none = {NULL, NULL};
  grtc_ttype_t whole = z.re->type, split = whole;
  int64_t n = whole.dims[dim], n2 = n / n1;
  // Complex tensors have at most GRTC_MAX_RANK - 1 dims (the interleaved
  // form has one more), so the split dim fits.
  if (whole.rank >= GRTC_MAX_RANK) {
    if (grt_status_is_ok(m->status)) {
      m->status = grt_make_status(GRT_STATUS_INTERNAL, "an FFT of rank %u", whole.rank);
    }
    return none;
  }
  for (uint32_t d = whole.rank; d > dim + 1; --d) split.dims[d] = whole.dims[d - 1];
  split.rank = whole.rank + 1;
  split.dims[dim] = n1;
  split.dims[dim + 1] = n2;
  grtc_complex_t x = {grtc_fft_reshape(m, z.re, &split), grtc_fft_reshape(m, z.im, &split)};
  x = grtc_fft_complex_dim(m, x, dim, inverse);
  grtc_elem_t elem = whole.elem;
  grtc_tvalue_t* twiddle[2] = {
      grtc_fft_matrix(m, elem, n1, n2, n, false, 1.0, false),
      grtc_fft_matrix(m, elem, n1, n2, n, true, inverse ? 1.0 : -1.0, false)};
  grtc_complex_t w;
  grtc_tvalue_t** parts[2] = {&w.re, &w.im};
  int64_t dims[2] = {dim, dim + 1};
  for (int i = 0; i < 2; ++i) {
    *parts[i] = twiddle[i] ? grtc_chlo_make(m, GRTC_TOP_BROADCAST_IN_DIM, &twiddle[i], 1,
                                            &split)
                           : NULL;
    if (*parts[i]) (*parts[i])->def->attrs.dims = grtc_tmodule_i64s(m->b->module, dims, 2);
  }
  if (!x.re || !x.im || !w.re || !w.im) return none;
  grtc_complex_t operands[2] = {x, w};
  x = grtc_complex_elementwise(m, GRTC_TOP_MULTIPLY, operands);
  x = grtc_fft_complex_dim(m, x, dim + 1, inverse);
  grtc_complex_t r = {grtc_fft_reshape(m, grtc_fft_swap(m, x.re, dim), &whole),
                      grtc_fft_reshape(m, grtc_fft_swap(m, x.im, dim), &whole)};
  return r;
}

// The complex DFT of |z| along |dim|: forward X[k] = sum_n z[n] e^(-2 pi i
// nk/N), or the inverse (the conjugate kernel, scaled by 1/N).
static grtc_complex_t grtc_fft_complex_dim(grtc_chlo_math_t* m, grtc_complex_t z,
                                           uint32_t dim, bool inverse) {
  grtc_complex_t r = {NULL, NULL};
  if (!z.re || !z.im) return r;
  int64_t n = z.re->type.dims[dim];
  if (n > GRTC_FFT_DENSE_LENGTH) {
    int64_t n1 = grtc_fft_split(n);
    if (n1 > 1) return grtc_fft_four_step(m, z, dim, inverse, n1);
  }
  grtc_elem_t elem = z.re->type.elem;
  // (a + ib)(cos -+ i sin) = (a cos +- b sin) + i(b cos -+ a sin): the parts
  // stacked along |dim| (a then b) times [cos; +-sin] and [-+sin; cos].
  grtc_tvalue_t* parts[2] = {z.re, z.im};
  grtc_ttype_t stacked = z.re->type;
  stacked.dims[dim] = 2 * n;
  grtc_tvalue_t* x = grtc_chlo_make(m, GRTC_TOP_CONCATENATE, parts, 2, &stacked);
  if (x) x->def->attrs.dim = dim;
  double scale = inverse ? 1.0 / (double)n : 1.0, sign = inverse ? -1.0 : 1.0;
  static const bool re_sine[2] = {false, true}, im_sine[2] = {true, false};
  double re_scale[2] = {scale, sign * scale}, im_scale[2] = {-sign * scale, scale};
  r.re = grtc_fft_apply(
      m, x, dim, grtc_fft_constant(m, elem, 2 * n, n, n, 2, re_sine, re_scale, false));
  r.im = grtc_fft_apply(
      m, x, dim, grtc_fft_constant(m, elem, 2 * n, n, n, 2, im_sine, im_scale, false));
  return r;
}

grtc_complex_t grtc_fft(grtc_chlo_math_t* m, grtc_fft_type_t type, grtc_complex_t in,
                        const int64_t* lengths, uint32_t count,
                        const grtc_ttype_t* result) {
  uint32_t rank = result->rank;
  uint32_t first = rank - count, last = rank - 1;
  grtc_complex_t z = in;
  switch (type) {
    case GRTC_FFT_FORWARD:
    case GRTC_FFT_INVERSE:
      for (uint32_t d = first; d <= last; ++d) {
        z = grtc_fft_complex_dim(m, z, d, type == GRTC_FFT_INVERSE);
      }
      return z;
    case GRTC_FFT_REAL: {
      // The last dim: n real samples -> n/2 + 1 frequencies, X[k] =
      // sum x[n] cos - i sum x[n] sin; then complex transforms. A long
      // last dim that splits: the complex transform of (x, 0), cut.
      int64_t n = lengths[count - 1];
      if (!in.re) return z;
      grtc_elem_t elem = in.re->type.elem;
      if (n > GRTC_FFT_DENSE_LENGTH && grtc_fft_split(n) > 1) {
        z.im = grtc_chlo_splat(m, in.re, 0.0);
        z = grtc_fft_complex_dim(m, z, last, false);
        z.re = grtc_fft_slice(m, z.re, last, 0, n / 2 + 1);
        z.im = grtc_fft_slice(m, z.im, last, 0, n / 2 + 1);
      } else {
        z.re = grtc_fft_apply(m, in.re, last,
                              grtc_fft_matrix(m, elem, n, n / 2 + 1, n, false, 1.0, false));
        z.im = grtc_fft_apply(m, in.re, last,
                              grtc_fft_matrix(m, elem, n, n / 2 + 1, n, true, -1.0, false));
      }
      for (uint32_t d = first; d < last; ++d) z = grtc_fft_complex_dim(m, z, d, false);
      return z;
    }
    case GRTC_FFT_INVERSE_REAL: {
      for (uint32_t d = first; d < last; ++d) z = grtc_fft_complex_dim(m, z, d, true);
      // The last dim: the Hermitian spectrum's n/2 + 1 frequencies -> n real
      // samples, x[j] = (1/n) sum_k w_k (re cos - im sin); the imaginary
      // parts of X[0] and X[n/2] drop out (sin is 0 there).
      int64_t n = lengths[count - 1];
      grtc_complex_t r = {NULL, NULL};
      if (!z.re || !z.im) return r;
      grtc_elem_t elem = z.re->type.elem;
      if (n > GRTC_FFT_DENSE_LENGTH && grtc_fft_split(n) > 1) {
        // A long last dim that splits: the whole Hermitian spectrum (X[k]
        // for k > n/2 is conj(X[n - k])), its inverse complex transform's
        // real part.
        int64_t stored = n / 2 + 1, missing = n - stored;
        grtc_complex_t tail = {grtc_fft_slice(m, z.re, last, 1, missing + 1),
                               grtc_fft_slice(m, z.im, last, 1, missing + 1)};
        int64_t reversed = last;
        grtc_tvalue_t** parts[2] = {&tail.re, &tail.im};
        for (int i = 0; i < 2; ++i) {
          grtc_tvalue_t* v = *parts[i];
          *parts[i] = v ? grtc_chlo_make(m, GRTC_TOP_REVERSE, &v, 1, &v->type) : NULL;
          if (*parts[i]) {
            (*parts[i])->def->attrs.dims = grtc_tmodule_i64s(m->b->module, &reversed, 1);
          }
        }
        tail.im = NEG(tail.im);
        grtc_complex_t full = {NULL, NULL};
        grtc_tvalue_t* pieces[2][2] = {{z.re, tail.re}, {z.im, tail.im}};
        grtc_tvalue_t** joined[2] = {&full.re, &full.im};
        for (int i = 0; i < 2; ++i) {
          if (!pieces[i][0] || !pieces[i][1]) return r;
          grtc_ttype_t joined_type = pieces[i][0]->type;
          joined_type.dims[last] = n;
          *joined[i] = grtc_chlo_make(m, GRTC_TOP_CONCATENATE, pieces[i], 2, &joined_type);
          if (*joined[i]) (*joined[i])->def->attrs.dim = last;
        }
        r.re = grtc_fft_complex_dim(m, full, last, true).re;
        return r;
      }
      double scale = 1.0 / (double)n;
      r.re = ADD(grtc_fft_apply(m, z.re, last,
                                grtc_fft_matrix(m, elem, n / 2 + 1, n, n, false, scale, true)),
                 grtc_fft_apply(m, z.im, last,
                                grtc_fft_matrix(m, elem, n / 2 + 1, n, n, true, -scale, true)));
      return r;
    }
  }
  grtc_complex_t none = {NULL, NULL};
  return none;
}
