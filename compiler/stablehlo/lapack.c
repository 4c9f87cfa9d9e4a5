// JAX's LAPACK/BLAS custom calls as tensor-IR ops (lapack.h). Each routine
// is unrolled over the columns of its matrix (up to
// GRTC_CHLO_MAX_LINALG_SIZE), on the whole [..., m, n] batch with masks
// built from iotas, in f32 or f64.
#include "compiler/stablehlo/lapack.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "compiler/stablehlo/attrs.h"
#include "compiler/stablehlo/compose_ops.h"

typedef enum grtc_lapack_routine_e {
  GRTC_LAPACK_POTRF,
  GRTC_LAPACK_GETRF,
  GRTC_LAPACK_GEQRF,
  GRTC_LAPACK_ORGQR,
  GRTC_LAPACK_TRSM,
  GRTC_LAPACK_SYEVD,
} grtc_lapack_routine_t;

typedef struct grtc_lapack_spec_t {
  const char* name;
  grtc_lapack_routine_t routine;
  // The legacy form's scalar operands before the matrices, and their names.
  uint32_t scalar_count;
  const char* scalars;
  // Matrix (and alpha) operands, the same in both forms.
  uint32_t matrix_count;
  // Results that carry values; those after them are info or workspace.
  uint32_t value_results;
} grtc_lapack_spec_t;

static const grtc_lapack_spec_t grtc_lapack_specs[] = {
    {"potrf", GRTC_LAPACK_POTRF, 3, "(lower, batch, n)", 1, 1},
    {"getrf", GRTC_LAPACK_GETRF, 3, "(batch, m, n)", 1, 2},
    {"geqrf", GRTC_LAPACK_GEQRF, 4, "(batch, m, n, lwork)", 1, 2},
    {"orgqr", GRTC_LAPACK_ORGQR, 5, "(batch, m, n, k, lwork)", 2, 1},
    {"trsm", GRTC_LAPACK_TRSM, 7, "(left_side, lower, trans_a, diag, m, n, batch)", 3, 1},
    {"syevd", GRTC_LAPACK_SYEVD, 3, "(lower, batch, n)", 1, 2},
};

// syevd's Jacobi iteration is unrolled over rounds of rotations: it takes
// matrices up to this size.
#define GRTC_LAPACK_MAX_EIGEN_SIZE 32

#define GRTC_LAPACK_SUPPORTED                                                         \
  "lapack_{s,d}potrf, lapack_{s,d}getrf, lapack_{s,d}geqrf, lapack_{s,d}orgqr, "    \
  "lapack_{s,d}syevd and blas_{s,d}trsm, each also as *_ffi"

static bool grtc_lapack_prefix(grt_string_view_t s, const char* prefix,
                               grt_string_view_t* rest) {
  size_t n = strlen(prefix);
  if (s.size < n || memcmp(s.data, prefix, n) != 0) return false;
  rest->data = s.data + n;
  rest->size = s.size - n;
  return true;
}

bool grtc_lapack_is_target(grt_string_view_t target) {
  grt_string_view_t rest;
  return grtc_lapack_prefix(target, "lapack_", &rest) ||
         grtc_lapack_prefix(target, "blas_", &rest);
}

// What a call is, decoded from its target name and operands.
typedef struct grtc_lapack_decoded_t {
  const grtc_lapack_spec_t* spec;
  grtc_elem_t elem;  // f32 (s) or f64 (d)
  bool legacy;       // the scalar operands come first
  grtc_tvalue_t* const* matrices;
  // Flags: potrf lower; trsm left_side, lower, transpose (0 N, 1 T, 2 C),
  // unit diagonal.
  bool lower, left_side, unit_diagonal;
  int transpose;
} grtc_lapack_decoded_t;

static grt_status_t grtc_lapack_error(const grtc_lapack_call_t* call, const char* format,
                                      ...) GRT_PRINTF_LIKE(2, 3);
static grt_status_t grtc_lapack_error(const grtc_lapack_call_t* call, const char* format,
                                      ...) {
  char text[512];
  va_list args;
  va_start(args, format);
  vsnprintf(text, sizeof(text), format, args);
  va_end(args);
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "'stablehlo.custom_call @%.*s' %s", GRT_SV_ARG(call->target), text);
}

// The value of the rank-0 constant operand |index| (a legacy scalar).
static grt_status_t grtc_lapack_scalar(const grtc_lapack_call_t* call, uint32_t index,
                                       const char* what, int64_t* out) {
  const grtc_tvalue_t* v = call->operands[index];
  if (v->type.rank != 0 || !grtc_elem_is_integer(v->type.elem) ||
      !grtc_tvalue_constant_element(v, 0, out)) {
    char type[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_lapack_error(call, "operand #%u (%s) must be a constant integer scalar, got "
                             "%s%s", index, what,
                             grtc_ttype_format(&v->type, type, sizeof(type)),
                             v->type.rank == 0 ? " computed at run time" : "");
  }
  return grt_ok_status();
}

// A character flag of mhlo.backend_config (uplo = 76 : ui8), one of
// |allowed|; |fallback| when the dictionary or the entry is absent and
// |fallback| is not 0.
static grt_status_t grtc_lapack_flag(const grtc_lapack_call_t* call, const char* name,
                                     const char* allowed, char fallback, char* out) {
  const grtc_attribute_t* value =
      call->backend_config ? grtc_dictionary_get(call->backend_config, name) : NULL;
  if (!value) {
    if (fallback) {
      *out = fallback;
      return grt_ok_status();
    }
    return grtc_lapack_error(call, "requires '%s' in mhlo.backend_config (one of the "
                             "characters \"%s\" as a ui8 code, e.g. %s = %d : ui8)", name,
                             allowed, name, allowed[0]);
  }
  if (value->kind != GRTC_ATTR_INTEGER || value->integer <= 0 || value->integer > 127 ||
      !strchr(allowed, (int)value->integer)) {
    return grtc_lapack_error(call, "mhlo.backend_config '%s' must be one of the characters "
                             "\"%s\" as a ui8 code, got %lld", name, allowed,
                             value->kind == GRTC_ATTR_INTEGER ? (long long)value->integer
                                                              : -1LL);
  }
  *out = (char)value->integer;
  return grt_ok_status();
}

// Checks operand_layouts: each matrix operand column-major, as JAX writes
// them ([r-2, r-1, r-3, ..., 0]); scalars and vectors (and operand |taus|,
// batched vectors) as they come.
static grt_status_t grtc_lapack_check_layouts(const grtc_lapack_call_t* call,
                                              grtc_tmodule_t* module, int64_t taus) {
  const grtc_attribute_t* layouts = call->operand_layouts;
  if (!layouts) return grt_ok_status();
  if (layouts->kind != GRTC_ATTR_ARRAY || layouts->array.count != call->operand_count) {
    return grtc_lapack_error(call, "operand_layouts must list one layout per operand (%u)",
                             call->operand_count);
  }
  for (uint32_t i = 0; i < call->operand_count; ++i) {
    uint32_t r = call->operands[i]->type.rank;
    if (r < 2 || (int64_t)i == taus) continue;
    grtc_i64s_t given;
    grtc_attr_error_t error;
    if (!grtc_attr_i64s(module, layouts->array.items[i], "operand_layouts", &given, &error)) {
      return grtc_lapack_error(call, "%s", error.message);
    }
    bool ok = given.count == r && given.values[0] == r - 2 && given.values[1] == r - 1;
    for (uint32_t d = 2; ok && d < r; ++d) ok = given.values[d] == (int64_t)(r - 1 - d);
    if (!ok) {
      char text[160] = "[";
      size_t length = 1;
      for (uint32_t d = 0; d < given.count && length < sizeof(text) - 24; ++d) {
        length += (size_t)snprintf(text + length, sizeof(text) - length, "%s%lld",
                                   d ? ", " : "", (long long)given.values[d]);
      }
      snprintf(text + length, sizeof(text) - length, "]");
      return grtc_lapack_error(call, "operand #%u's layout must be column-major matrices "
                               "(minor_to_major [%u, %u, ...]) as JAX writes them, got %s",
                               i, r - 2, r - 1, text);
    }
  }
  return grt_ok_status();
}

// Product of the batch dims of |type| (all but the last two).
static int64_t grtc_lapack_batch_size(const grtc_ttype_t* type) {
  int64_t n = 1;
  for (uint32_t d = 0; d + 2 < type->rank; ++d) n *= type->dims[d];
  return n;
}

static grt_status_t grtc_lapack_decode(const grtc_lapack_call_t* call,
                                       grtc_tmodule_t* module, grtc_lapack_decoded_t* out) {
  memset(out, 0, sizeof(*out));
  grt_string_view_t rest = call->target;
  if (!grtc_lapack_prefix(call->target, "blas_", &rest)) {
    (void)grtc_lapack_prefix(call->target, "lapack_", &rest);
  }
  bool ffi = rest.size > 4 && memcmp(rest.data + rest.size - 4, "_ffi", 4) == 0;
  if (ffi) rest.size -= 4;
  char letter = rest.size ? rest.data[0] : 0;
  grt_string_view_t routine = {rest.data + (rest.size ? 1 : 0), rest.size ? rest.size - 1 : 0};
  for (size_t i = 0; i < sizeof(grtc_lapack_specs) / sizeof(grtc_lapack_specs[0]); ++i) {
    if (grt_string_view_equal_cstring(routine, grtc_lapack_specs[i].name)) {
      out->spec = &grtc_lapack_specs[i];
    }
  }
  if (!out->spec || (letter != 's' && letter != 'd' && letter != 'c' && letter != 'z')) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "'stablehlo.custom_call @%.*s' is not supported: the LAPACK/BLAS "
                           "targets lowered are " GRTC_LAPACK_SUPPORTED,
                           GRT_SV_ARG(call->target));
  }
  if (letter == 'c' || letter == 'z') {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "'stablehlo.custom_call @%.*s': complex LAPACK targets are not "
                           "supported yet (the %c%s forms on f32 and f64 are)",
                           GRT_SV_ARG(call->target), letter == 'c' ? 's' : 'd',
                           out->spec->name);
  }
  out->elem = letter == 's' ? GRTC_ELEM_F32 : GRTC_ELEM_F64;
  const grtc_lapack_spec_t* spec = out->spec;
  uint32_t legacy_count = spec->scalar_count + spec->matrix_count;
  if (call->operand_count == legacy_count && !ffi) {
    out->legacy = true;
  } else if (call->operand_count != spec->matrix_count) {
    return grtc_lapack_error(call, "takes %u operand%s (the FFI form) or %u (the legacy "
                             "form: scalars %s first), got %u", spec->matrix_count,
                             spec->matrix_count == 1 ? "" : "s", legacy_count, spec->scalars,
                             call->operand_count);
  }
  out->matrices = call->operands + (out->legacy ? spec->scalar_count : 0);
  // The matrices: a [..., m, n] of the target's element type (trsm: a, b,
  // then the rank-0 alpha; the legacy trsm has alpha first).
  grtc_tvalue_t* const* mats = out->matrices;
  uint32_t a_index = spec->routine == GRTC_LAPACK_TRSM && out->legacy ? 1 : 0;
  const grtc_ttype_t* at = &mats[a_index]->type;
  char ta[GRTC_TTYPE_FORMAT_CAPACITY];
  grtc_ttype_format(at, ta, sizeof(ta));
  if (at->rank < 2 || at->elem != out->elem) {
    return grtc_lapack_error(call, "takes %s matrices [..., m, n] for a, got %s",
                             out->elem == GRTC_ELEM_F32 ? "f32" : "f64", ta);
  }
  for (uint32_t d = 0; d < at->rank; ++d) {
    if (!grtc_dim_is_static(at->dims[d])) {
      return grtc_lapack_error(call, "needs a static shape, got %s", ta);
    }
    if (at->dims[d] == 0) {
      return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                             "'stablehlo.custom_call @%.*s' on %s: empty matrices or batches "
                             "are not supported yet", GRT_SV_ARG(call->target), ta);
    }
  }
  if (at->dims[at->rank - 1] > GRTC_CHLO_MAX_LINALG_SIZE ||
      at->dims[at->rank - 2] > GRTC_CHLO_MAX_LINALG_SIZE) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "'stablehlo.custom_call @%.*s' on %s: matrices larger than %d x %d "
                           "are not supported yet (the routine is unrolled over the columns)",
                           GRT_SV_ARG(call->target), ta, GRTC_CHLO_MAX_LINALG_SIZE,
                           GRTC_CHLO_MAX_LINALG_SIZE);
  }
  int64_t taus = spec->routine == GRTC_LAPACK_ORGQR
                     ? (int64_t)(out->legacy ? spec->scalar_count : 0) + 1
                     : -1;
  GRT_RETURN_IF_ERROR(grtc_lapack_check_layouts(call, module, taus));
  int64_t batch = grtc_lapack_batch_size(at);
  int64_t m = at->dims[at->rank - 2], n = at->dims[at->rank - 1];
  int64_t s[7] = {0};
  static const char* const potrf_names[] = {"lower", "batch", "n"};  // syevd's too
  static const char* const getrf_names[] = {"batch", "m", "n", "lwork"};
  static const char* const orgqr_names[] = {"batch", "m", "n", "k", "lwork"};
  static const char* const trsm_names[] = {"left_side", "lower", "trans_a", "diag",
                                           "m", "n", "batch"};
  const char* const* names = spec->routine == GRTC_LAPACK_POTRF ||
                                     spec->routine == GRTC_LAPACK_SYEVD
                                 ? potrf_names
                             : spec->routine == GRTC_LAPACK_ORGQR ? orgqr_names
                             : spec->routine == GRTC_LAPACK_TRSM  ? trsm_names
                                                                  : getrf_names;
  if (out->legacy) {
    for (uint32_t i = 0; i < spec->scalar_count; ++i) {
      GRT_RETURN_IF_ERROR(grtc_lapack_scalar(call, i, names[i], &s[i]));
    }
  }
  char flag = 0;
  if (spec->routine == GRTC_LAPACK_SYEVD) {
    if (n > GRTC_LAPACK_MAX_EIGEN_SIZE) {
      return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                             "'stablehlo.custom_call @%.*s' on %s: matrices larger than %d x "
                             "%d are not supported yet (the Jacobi rotations are unrolled)",
                             GRT_SV_ARG(call->target), ta, GRTC_LAPACK_MAX_EIGEN_SIZE,
                             GRTC_LAPACK_MAX_EIGEN_SIZE);
    }
    if (!out->legacy) {
      char mode = 0;
      GRT_RETURN_IF_ERROR(grtc_lapack_flag(call, "mode", "VN", 'V', &mode));
    }
  }
  switch (spec->routine) {
    case GRTC_LAPACK_SYEVD:  // the same scalars and uplo as potrf
    case GRTC_LAPACK_POTRF: {
      if (m != n) return grtc_lapack_error(call, "takes square matrices a, got %s", ta);
      if (out->legacy) {
        if (s[1] != batch || s[2] != n) {
          return grtc_lapack_error(call, "scalars (batch, n) = (%lld, %lld) do not match a %s",
                                   (long long)s[1], (long long)s[2], ta);
        }
        out->lower = s[0] != 0;
      } else {
        GRT_RETURN_IF_ERROR(grtc_lapack_flag(call, "uplo", "LU", 0, &flag));
        out->lower = flag == 'L';
      }
      break;
    }
    case GRTC_LAPACK_GETRF:
    case GRTC_LAPACK_GEQRF:
    case GRTC_LAPACK_ORGQR:
      if (out->legacy && (s[0] != batch || s[1] != m || s[2] != n)) {
        return grtc_lapack_error(call, "scalars (batch, m, n) = (%lld, %lld, %lld) do not "
                                 "match a %s", (long long)s[0], (long long)s[1],
                                 (long long)s[2], ta);
      }
      break;
    case GRTC_LAPACK_TRSM: {
      if (out->legacy) {
        out->left_side = s[0] != 0;
        out->lower = s[1] != 0;
        if (s[2] < 0 || s[2] > 2) {
          return grtc_lapack_error(call, "trans_a must be 0 (N), 1 (T) or 2 (C), got %lld",
                                   (long long)s[2]);
        }
        out->transpose = (int)s[2];
        out->unit_diagonal = s[3] != 0;
      } else {
        char side = 0, uplo = 0, trans = 0, diag = 0;
        GRT_RETURN_IF_ERROR(grtc_lapack_flag(call, "side", "LR", 0, &side));
        GRT_RETURN_IF_ERROR(grtc_lapack_flag(call, "uplo", "LU", 0, &uplo));
        GRT_RETURN_IF_ERROR(grtc_lapack_flag(call, "trans_x", "NTC", 0, &trans));
        GRT_RETURN_IF_ERROR(grtc_lapack_flag(call, "diag", "NU", 0, &diag));
        out->left_side = side == 'L';
        out->lower = uplo == 'L';
        out->transpose = trans == 'N' ? 0 : trans == 'T' ? 1 : 2;
        out->unit_diagonal = diag == 'U';
      }
      break;
    }
  }
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

// |x| with shape |type|'s and element type kept.
static grtc_tvalue_t* grtc_lapack_reshape(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                          const grtc_ttype_t* type) {
  if (!x) return NULL;
  grtc_ttype_t t = *type;
  t.elem = x->type.elem;
  return grtc_chlo_make(m, GRTC_TOP_RESHAPE, &x, 1, &t);
}

// |x| [..., p, q] reduced over dim |dim| (r - 2 or r - 1) with |kind| from
// |init|, that dim kept with size 1.
static grtc_tvalue_t* grtc_lapack_reduce_dim(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                             uint32_t dim, grtc_top_kind_t kind,
                                             double init) {
  if (!x) return NULL;
  grtc_scalar_value_t value;
  value.f = init;
  int64_t reduced = dim;
  grtc_tvalue_t* sum = grtc_chlo_reduce(m, x, &reduced, 1, kind, value);
  if (!sum) return NULL;
  grtc_ttype_t kept = x->type;
  kept.dims[dim] = 1;
  return grtc_lapack_reshape(m, sum, &kept);
}

static grtc_tvalue_t* grtc_lapack_reduce_rows(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                              grtc_top_kind_t kind, double init) {
  return x ? grtc_lapack_reduce_dim(m, x, x->type.rank - 2, kind, init) : NULL;
}

// The batch shape of |a| [..., m, n] as a type of |elem|.
static grtc_ttype_t grtc_lapack_batch_type(const grtc_ttype_t* a, grtc_elem_t elem) {
  grtc_ttype_t t = *a;
  t.rank = a->rank - 2;
  t.elem = elem;
  return t;
}

// An i32 splat of |type|.
static grtc_tvalue_t* grtc_lapack_i32(grtc_chlo_math_t* m, const grtc_ttype_t* type,
                                      int64_t value) {
  grtc_ttype_t t = *type;
  t.elem = GRTC_ELEM_I32;
  grtc_scalar_value_t v;
  v.i = value;
  return grtc_chlo_splat_type(m, &t, v);
}

// info from per-column flags ([..., 1, 1] i1, false where column j
// fails): 0, or 1 + the first failing column.
static grtc_tvalue_t* grtc_lapack_info(grtc_chlo_math_t* m, grtc_tvalue_t* const* ok,
                                       int64_t count, const grtc_ttype_t* batch) {
  grtc_tvalue_t* info = grtc_lapack_i32(m, batch, 0);
  for (int64_t j = count; j-- > 0 && info;) {
    info = SELECT(grtc_lapack_reshape(m, ok[j], batch), info,
                  grtc_lapack_i32(m, batch, j + 1));
  }
  return info;
}

// [..., 1, 1] values of |parts| (count of them) as [..., count].
static grtc_tvalue_t* grtc_lapack_join(grtc_chlo_math_t* m, grtc_tvalue_t* const* parts,
                                       int64_t count, const grtc_ttype_t* a) {
  if (!count || !parts[0]) return NULL;
  uint32_t r = a->rank;
  grtc_tvalue_t* row = grtc_chlo_concat(m, parts, (uint32_t)count, r - 1);  // [..., 1, k]
  grtc_ttype_t t = *a;
  t.rank = r - 1;
  t.dims[r - 2] = count;
  return grtc_lapack_reshape(m, row, &t);
}

//===----------------------------------------------------------------------===//
// The routines
//===----------------------------------------------------------------------===//

// potrf: the Cholesky factor in a's uplo triangle; the other triangle of a
// as it was (LAPACK does not touch it). info: the first column whose pivot
// is not positive (or NaN), 1-based; 0 when a is positive definite.
static void grtc_lapack_potrf(grtc_chlo_math_t* m, grtc_tvalue_t* a, bool lower,
                              grtc_tvalue_t** factor_out, grtc_tvalue_t** info_out) {
  uint32_t r = a->type.rank;
  int64_t n = a->type.dims[r - 1];
  grtc_tvalue_t* pivots[GRTC_CHLO_MAX_LINALG_SIZE];
  grtc_tvalue_t* factor =
      grtc_chlo_cholesky_factor(m, lower ? a : grtc_chlo_transpose2(m, a), pivots);
  if (!lower) factor = grtc_chlo_transpose2(m, factor);
  grtc_tvalue_t* rows = grtc_chlo_iota(m, &a->type, a->type.elem, r - 2);
  grtc_tvalue_t* cols = grtc_chlo_iota(m, &a->type, a->type.elem, r - 1);
  grtc_tvalue_t* inside = lower ? CMP(GE, rows, cols) : CMP(LE, rows, cols);
  *factor_out = SELECT(inside, factor, a);
  if (!info_out || !grt_status_is_ok(m->status)) return;
  // A NaN pivot fails too (the compare is false).
  grtc_tvalue_t* positive[GRTC_CHLO_MAX_LINALG_SIZE];
  for (int64_t j = 0; j < n; ++j) positive[j] = CMP(GT, pivots[j], C_LIKE(pivots[j], 0.0));
  grtc_ttype_t batch = grtc_lapack_batch_type(&a->type, GRTC_ELEM_I32);
  *info_out = grtc_lapack_info(m, positive, n, &batch);
}

// getrf: LU with partial pivoting (LAPACK's order: in column j the row
// with the largest magnitude at or below j, the first of equal ones, is
// swapped into row j; a zero pivot leaves the column unscaled and sets
// info). Returns LU packed, ipiv (1-based, [..., min(m, n)]) and info.
static void grtc_lapack_getrf(grtc_chlo_math_t* m, grtc_tvalue_t* a, grtc_tvalue_t** lu_out,
                              grtc_tvalue_t** ipiv_out, grtc_tvalue_t** info_out) {
  uint32_t r = a->type.rank;
  int64_t rows_n = a->type.dims[r - 2], cols_n = a->type.dims[r - 1];
  int64_t k = rows_n < cols_n ? rows_n : cols_n;
  grtc_elem_t elem = a->type.elem;
  grtc_ttype_t column_type = a->type, row_type = a->type;
  column_type.dims[r - 1] = 1;
  row_type.dims[r - 2] = 1;
  grtc_tvalue_t* rows = grtc_chlo_iota(m, &column_type, elem, r - 2);  // [..., m, 1]
  grtc_tvalue_t* cols = grtc_chlo_iota(m, &row_type, elem, r - 1);     // [..., 1, n]
  grtc_tvalue_t* full_rows = grtc_chlo_iota(m, &a->type, elem, r - 2);
  grtc_tvalue_t* full_cols = grtc_chlo_iota(m, &a->type, elem, r - 1);
  grtc_tvalue_t* pivots[GRTC_CHLO_MAX_LINALG_SIZE];
  grtc_tvalue_t* nonzero[GRTC_CHLO_MAX_LINALG_SIZE];
  for (int64_t j = 0; j < k && grt_status_is_ok(m->status); ++j) {
    grtc_tvalue_t* jj = C_LIKE(rows, (double)j);
    grtc_tvalue_t* column = grtc_chlo_slice2(m, a, 0, rows_n, j, j + 1);
    grtc_tvalue_t* magnitude = SELECT(CMP(GE, rows, jj), ABS(column), C_LIKE(column, -1.0));
    grtc_tvalue_t* largest = grtc_lapack_reduce_rows(m, magnitude, GRTC_TOP_MAXIMUM, -1.0);
    grtc_tvalue_t* at = SELECT(CMP(EQ, magnitude, grtc_chlo_expand(m, largest, magnitude)),
                               rows, C_LIKE(rows, (double)rows_n));
    grtc_tvalue_t* p = grtc_lapack_reduce_rows(m, at, GRTC_TOP_MINIMUM, (double)rows_n);
    // No row matched (a NaN in the column): keep row j.
    p = SELECT(CMP(LT, p, C_LIKE(p, (double)rows_n)), p, C_LIKE(p, (double)j));
    pivots[j] = p ? ADD(p, C_LIKE(p, 1.0)) : NULL;
    // Swap rows j and p.
    grtc_tvalue_t* is_p = CMP(EQ, full_rows, grtc_chlo_expand(m, p, a));
    grtc_tvalue_t* row_p =
        grtc_lapack_reduce_rows(m, SELECT(is_p, a, C_LIKE(a, 0.0)), GRTC_TOP_ADD, 0.0);
    grtc_tvalue_t* row_j = grtc_chlo_slice2(m, a, j, j + 1, 0, cols_n);
    a = SELECT(CMP(EQ, full_rows, C_LIKE(full_rows, (double)j)), grtc_chlo_expand(m, row_p, a),
               SELECT(is_p, grtc_chlo_expand(m, row_j, a), a));
    // Scale the column below the pivot (not when the pivot is 0).
    grtc_tvalue_t* d = grtc_chlo_slice2(m, a, j, j + 1, j, j + 1);
    grtc_tvalue_t* zero = CMP(EQ, d, C_LIKE(d, 0.0));
    nonzero[j] = CMP(NE, d, C_LIKE(d, 0.0));
    column = grtc_chlo_slice2(m, a, 0, rows_n, j, j + 1);
    grtc_tvalue_t* below = CMP(GT, rows, jj);
    grtc_tvalue_t* safe = SELECT(zero, C_LIKE(d, 1.0), d);
    grtc_tvalue_t* l = SELECT(below, DIV(column, grtc_chlo_expand(m, safe, column)),
                              C_LIKE(column, 0.0));
    // Rank-1 update of the trailing rows and columns.
    grtc_tvalue_t* u = SELECT(CMP(GT, cols, C_LIKE(cols, (double)j)),
                              grtc_chlo_slice2(m, a, j, j + 1, 0, cols_n), C_LIKE(cols, 0.0));
    a = SUB(a, MUL(grtc_chlo_expand(m, l, a), grtc_chlo_expand(m, u, a)));
    grtc_tvalue_t* new_column = SELECT(below, l, column);
    a = SELECT(CMP(EQ, full_cols, C_LIKE(full_cols, (double)j)),
               grtc_chlo_expand(m, new_column, a), a);
  }
  *lu_out = a;
  if (!grt_status_is_ok(m->status)) return;
  *ipiv_out = grtc_chlo_convert(m, grtc_lapack_join(m, pivots, k, &a->type), GRTC_ELEM_I32);
  grtc_ttype_t batch = grtc_lapack_batch_type(&a->type, GRTC_ELEM_I32);
  *info_out = grtc_lapack_info(m, nonzero, k, &batch);
}

// geqrf: Householder QR as LAPACK's dgeqr2/dlarfg: for column j, with
// alpha = a_jj and x the column below it, beta = -sign(alpha) |(alpha, x)|,
// tau = (beta - alpha) / beta, v = x / (alpha - beta) (stored below the
// diagonal), a_jj = beta, and H = I - tau [1; v] [1; v]^T applied to the
// columns after j; x = 0 gives tau = 0 and leaves the column.
static void grtc_lapack_geqrf(grtc_chlo_math_t* m, grtc_tvalue_t* a, grtc_tvalue_t** qr_out,
                              grtc_tvalue_t** taus_out) {
  uint32_t r = a->type.rank;
  int64_t rows_n = a->type.dims[r - 2], cols_n = a->type.dims[r - 1];
  int64_t k = rows_n < cols_n ? rows_n : cols_n;
  grtc_elem_t elem = a->type.elem;
  grtc_ttype_t column_type = a->type, row_type = a->type;
  column_type.dims[r - 1] = 1;
  row_type.dims[r - 2] = 1;
  grtc_tvalue_t* rows = grtc_chlo_iota(m, &column_type, elem, r - 2);
  grtc_tvalue_t* cols = grtc_chlo_iota(m, &row_type, elem, r - 1);
  grtc_tvalue_t* full_cols = grtc_chlo_iota(m, &a->type, elem, r - 1);
  grtc_tvalue_t* taus[GRTC_CHLO_MAX_LINALG_SIZE];
  for (int64_t j = 0; j < k && grt_status_is_ok(m->status); ++j) {
    grtc_tvalue_t* jj = C_LIKE(rows, (double)j);
    grtc_tvalue_t* column = grtc_chlo_slice2(m, a, 0, rows_n, j, j + 1);
    grtc_tvalue_t* below = CMP(GT, rows, jj);
    grtc_tvalue_t* x = SELECT(below, column, C_LIKE(column, 0.0));
    grtc_tvalue_t* xnorm2 = grtc_lapack_reduce_rows(m, MUL(x, x), GRTC_TOP_ADD, 0.0);
    grtc_tvalue_t* alpha = grtc_chlo_slice2(m, a, j, j + 1, j, j + 1);
    grtc_tvalue_t* norm = SQRT(ADD(MUL(alpha, alpha), xnorm2));
    grtc_tvalue_t* beta = SELECT(CMP(GE, alpha, C_LIKE(alpha, 0.0)), NEG(norm), norm);
    grtc_tvalue_t* trivial = CMP(EQ, xnorm2, C_LIKE(xnorm2, 0.0));
    grtc_tvalue_t* safe_beta = SELECT(trivial, C_LIKE(beta, 1.0), beta);
    grtc_tvalue_t* tau = SELECT(trivial, C_LIKE(beta, 0.0), DIV(SUB(beta, alpha), safe_beta));
    grtc_tvalue_t* denominator = SELECT(trivial, C_LIKE(beta, 1.0), SUB(alpha, beta));
    grtc_tvalue_t* scaled = DIV(x, grtc_chlo_expand(m, denominator, x));
    grtc_tvalue_t* v =
        SELECT(below, scaled, SELECT(CMP(EQ, rows, jj), C_LIKE(x, 1.0), C_LIKE(x, 0.0)));
    taus[j] = tau;
    // The columns after j: a - tau v (v^T a).
    grtc_tvalue_t* w = grtc_chlo_matmul(m, grtc_chlo_transpose2(m, v), a, false);  // [.., 1, n]
    w = SELECT(CMP(GT, cols, C_LIKE(cols, (double)j)), w, C_LIKE(w, 0.0));
    a = SUB(a, MUL(grtc_chlo_expand(m, tau, a), grtc_chlo_matmul(m, v, w, false)));
    grtc_tvalue_t* diagonal = SELECT(trivial, alpha, beta);
    grtc_tvalue_t* new_column =
        SELECT(below, scaled,
               SELECT(CMP(EQ, rows, jj), grtc_chlo_expand(m, diagonal, column), column));
    a = SELECT(CMP(EQ, full_cols, C_LIKE(full_cols, (double)j)),
               grtc_chlo_expand(m, new_column, a), a);
  }
  *qr_out = a;
  if (grt_status_is_ok(m->status)) *taus_out = grtc_lapack_join(m, taus, k, &a->type);
}


// A [n, n] constant of |like|'s element type with values[i * n + j],
// broadcast to |like|'s batch dims.
static grtc_tvalue_t* grtc_lapack_matrix(grtc_chlo_math_t* m, grtc_tvalue_t* like,
                                         const double* values, int64_t n) {
  if (!like || !grt_status_is_ok(m->status)) return NULL;
  grtc_elem_t elem = like->type.elem;
  size_t size = grtc_elem_byte_size(elem);
  uint8_t* data = grtc_tmodule_alloc(m->b->module, (size_t)(n * n) * size);
  if (!data) {
    m->status = grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory for a constant");
    return NULL;
  }
  for (int64_t i = 0; i < n * n; ++i) {
    grtc_scalar_value_t v;
    v.f = values[i];
    grtc_eval_store(elem, v, data + (size_t)i * size);
  }
  grtc_ttype_t type = {0};
  type.elem = elem;
  type.rank = 2;
  type.dims[0] = type.dims[1] = n;
  grtc_tvalue_t* c = grtc_chlo_constant(m, &type, data, (size_t)(n * n) * size);
  uint32_t r = like->type.rank;
  if (r == 2 || !c) return c;
  grtc_ttype_t full = like->type;
  full.dims[r - 2] = full.dims[r - 1] = n;
  grtc_tvalue_t* v = grtc_chlo_make(m, GRTC_TOP_BROADCAST_IN_DIM, &c, 1, &full);
  if (v) {
    int64_t dims[2] = {(int64_t)r - 2, (int64_t)r - 1};
    v->def->attrs.dims = grtc_tmodule_i64s(m->b->module, dims, 2);
  }
  return v;
}

// syevd: the eigenvalues of the symmetric matrix a's uplo triangle
// describes, ascending, and the eigenvectors as v's columns, by cyclic
// Jacobi: each round rotates n/2 disjoint pairs (p, q) at once (a
// round-robin schedule; an odd n gets a zero row and column that no
// rotation mixes in), with t = sign(theta) / (|theta| + sqrt(theta^2 + 1)),
// theta = (a_qq - a_pp) / (2 a_pq), c = 1 / sqrt(t^2 + 1), s = t c,
// a <- G^T a G, v <- v G; a fixed number of sweeps, 3 (f32) or 5 (f64)
// plus ceil(log2(n)) (convergence is quadratic). Then the pairs are sorted by eigenvalue (each
// one's rank among them, ties by index, as a permutation matrix).
static void grtc_lapack_syevd(grtc_chlo_math_t* m, grtc_tvalue_t* a, bool lower,
                              grtc_tvalue_t** v_out, grtc_tvalue_t** w_out) {
  uint32_t r = a->type.rank;
  int64_t n = a->type.dims[r - 1];
  grtc_elem_t elem = a->type.elem;
  // The symmetric matrix from the uplo triangle.
  grtc_tvalue_t* rows = grtc_chlo_iota(m, &a->type, elem, r - 2);
  grtc_tvalue_t* cols = grtc_chlo_iota(m, &a->type, elem, r - 1);
  a = SELECT(lower ? CMP(GE, rows, cols) : CMP(LE, rows, cols), a, grtc_chlo_transpose2(m, a));
  int64_t size = n + (n & 1);
  if (size != n && a) {
    // Pad with a zero row and column.
    grtc_ttype_t padded = a->type;
    padded.dims[r - 2] = padded.dims[r - 1] = size;
    grtc_tvalue_t* operands[2] = {a, grtc_chlo_splat_type(m, &(grtc_ttype_t){.elem = elem},
                                                         (grtc_scalar_value_t){.f = 0.0})};
    grtc_tvalue_t* p = grtc_chlo_make(m, GRTC_TOP_PAD, operands, 2, &padded);
    if (p) {
      int64_t low[GRTC_MAX_RANK] = {0}, high[GRTC_MAX_RANK] = {0},
              interior[GRTC_MAX_RANK] = {0};
      high[r - 2] = high[r - 1] = 1;
      p->def->attrs.low = grtc_tmodule_i64s(m->b->module, low, r);
      p->def->attrs.high = grtc_tmodule_i64s(m->b->module, high, r);
      p->def->attrs.interior = grtc_tmodule_i64s(m->b->module, interior, r);
    }
    a = p;
    rows = grtc_chlo_iota(m, &padded, elem, r - 2);
    cols = grtc_chlo_iota(m, &padded, elem, r - 1);
  }
  if (!a) return;
  grtc_tvalue_t* identity = CMP(EQ, rows, cols);
  grtc_tvalue_t* v = SELECT(identity, C_LIKE(a, 1.0), C_LIKE(a, 0.0));
  grtc_tvalue_t* sign = SELECT(CMP(GT, cols, rows), C_LIKE(a, 1.0), C_LIKE(a, -1.0));
  grtc_ttype_t column_type = a->type;
  column_type.dims[r - 1] = 1;
  grtc_tvalue_t* index = grtc_chlo_iota(m, &column_type, elem, r - 2);  // [..., n, 1]
  int sweeps = elem == GRTC_ELEM_F64 ? 5 : 3;
  for (int64_t k = 1; k < size; k *= 2) ++sweeps;  // + ceil(log2(n))
  int64_t players[GRTC_LAPACK_MAX_EIGEN_SIZE];
  for (int64_t i = 0; i < size; ++i) players[i] = i;
  double partner_matrix[GRTC_LAPACK_MAX_EIGEN_SIZE * GRTC_LAPACK_MAX_EIGEN_SIZE];
  double partner_index[GRTC_LAPACK_MAX_EIGEN_SIZE * GRTC_LAPACK_MAX_EIGEN_SIZE];
  for (int sweep = 0; sweep < sweeps && grt_status_is_ok(m->status); ++sweep) {
    for (int64_t round = 0; round + 1 < size && grt_status_is_ok(m->status); ++round) {
      memset(partner_matrix, 0, sizeof(partner_matrix));
      memset(partner_index, 0, sizeof(partner_index));
      for (int64_t i = 0; i < size / 2; ++i) {
        int64_t p = players[i], q = players[size - 1 - i];
        partner_matrix[p * size + q] = partner_matrix[q * size + p] = 1.0;
        // Row i of |partner_index| holds i's partner in every column.
        for (int64_t j = 0; j < size; ++j) {
          partner_index[p * size + j] = (double)q;
          partner_index[q * size + j] = (double)p;
        }
      }
      // The next round: player 0 stays, the others rotate by one.
      int64_t last = players[size - 1];
      for (int64_t i = size - 1; i > 1; --i) players[i] = players[i - 1];
      if (size > 1) players[1] = last;
      grtc_tvalue_t* partner = grtc_lapack_matrix(m, a, partner_matrix, size);
      grtc_tvalue_t* other =
          grtc_chlo_slice2(m, grtc_lapack_matrix(m, a, partner_index, size), 0, size, 0, 1);
      grtc_tvalue_t* is_p = CMP(LT, index, other);  // [..., n, 1]
      grtc_tvalue_t* zero = C_LIKE(a, 0.0);
      grtc_tvalue_t* d = grtc_lapack_reduce_dim(m, SELECT(identity, a, zero), r - 1,
                                                GRTC_TOP_ADD, 0.0);  // a_ii
      grtc_tvalue_t* d_partner = grtc_chlo_matmul(m, partner, d, false);
      grtc_tvalue_t* row = grtc_lapack_reduce_dim(m, SELECT(CMP(NE, partner, zero), a, zero),
                                                  r - 1, GRTC_TOP_ADD, 0.0);  // a_i,partner
      grtc_tvalue_t* column = grtc_lapack_reduce_dim(
          m, SELECT(CMP(NE, partner, zero), grtc_chlo_transpose2(m, a), zero), r - 1,
          GRTC_TOP_ADD, 0.0);  // a_partner,i
      grtc_tvalue_t* app = SELECT(is_p, d, d_partner);
      grtc_tvalue_t* aqq = SELECT(is_p, d_partner, d);
      grtc_tvalue_t* apq = SELECT(is_p, row, column);
      grtc_tvalue_t* none = CMP(EQ, apq, C_LIKE(apq, 0.0));
      grtc_tvalue_t* theta = DIV(SUB(aqq, app), MUL(C_LIKE(apq, 2.0),
                                                    SELECT(none, C_LIKE(apq, 1.0), apq)));
      grtc_tvalue_t* one = C_LIKE(theta, 1.0);
      grtc_tvalue_t* t =
          DIV(SELECT(CMP(GE, theta, C_LIKE(theta, 0.0)), one, C_LIKE(theta, -1.0)),
              ADD(ABS(theta), SQRT(ADD(MUL(theta, theta), one))));
      t = SELECT(none, C_LIKE(t, 0.0), t);
      grtc_tvalue_t* c = DIV(one, SQRT(ADD(MUL(t, t), one)));
      grtc_tvalue_t* s = MUL(t, c);
      grtc_tvalue_t* g =
          SELECT(identity, grtc_chlo_expand(m, c, a),
                 SELECT(CMP(NE, partner, zero), MUL(sign, grtc_chlo_expand(m, s, a)), zero));
      a = grtc_chlo_matmul(m, grtc_chlo_matmul(m, grtc_chlo_transpose2(m, g), a, false), g,
                           false);
      v = grtc_chlo_matmul(m, v, g, false);
    }
  }
  if (!grt_status_is_ok(m->status)) return;
  grtc_tvalue_t* w = grtc_lapack_reduce_dim(m, SELECT(identity, a, C_LIKE(a, 0.0)), r - 1,
                                            GRTC_TOP_ADD, 0.0);  // [..., size, 1]
  if (size != n) {
    v = grtc_chlo_slice2(m, v, 0, n, 0, n);
    w = grtc_chlo_slice2(m, w, 0, n, 0, 1);
    index = grtc_chlo_slice2(m, index, 0, n, 0, 1);
  }
  // rank_i = #{j : w_j < w_i, or w_j == w_i and j < i}.
  grtc_tvalue_t* wj = grtc_chlo_expand(m, grtc_chlo_transpose2(m, w), v);  // w_j at [i, j]
  grtc_tvalue_t* wi = grtc_chlo_expand(m, w, v);
  grtc_tvalue_t* ij = grtc_chlo_expand(m, grtc_chlo_transpose2(m, index), v);
  grtc_tvalue_t* ii = grtc_chlo_expand(m, index, v);
  grtc_tvalue_t* before = grtc_chlo_binary(
      m, GRTC_TOP_OR, CMP(LT, wj, wi),
      grtc_chlo_binary(m, GRTC_TOP_AND, CMP(EQ, wj, wi), CMP(LT, ij, ii)));
  grtc_tvalue_t* rank = grtc_lapack_reduce_dim(
      m, SELECT(before, C_LIKE(v, 1.0), C_LIKE(v, 0.0)), r - 1, GRTC_TOP_ADD, 0.0);
  // perm[i, k] = (rank_i == k): w sorted = w^T perm, v sorted = v perm.
  grtc_tvalue_t* perm =
      SELECT(CMP(EQ, grtc_chlo_expand(m, rank, v), grtc_chlo_expand(m, grtc_chlo_transpose2(
                                                                          m, index), v)),
             C_LIKE(v, 1.0), C_LIKE(v, 0.0));
  *v_out = grtc_chlo_matmul(m, v, perm, false);
  grtc_tvalue_t* sorted = grtc_chlo_matmul(m, grtc_chlo_transpose2(m, w), perm, false);
  grtc_ttype_t vector = a->type;
  vector.rank = r - 1;
  vector.dims[r - 2] = n;
  *w_out = grtc_lapack_reshape(m, sorted, &vector);
}

//===----------------------------------------------------------------------===//
// Entry
//===----------------------------------------------------------------------===//

// Checks result |index| has |want|'s type.
static grt_status_t grtc_lapack_expect(const grtc_lapack_call_t* call, uint32_t index,
                                       const char* what, const grtc_ttype_t* want) {
  if (index < call->result_count && grtc_ttype_equal(&call->results[index], want)) {
    return grt_ok_status();
  }
  char w[GRTC_TTYPE_FORMAT_CAPACITY], g[GRTC_TTYPE_FORMAT_CAPACITY] = "nothing";
  grtc_ttype_format(want, w, sizeof(w));
  if (index < call->result_count) grtc_ttype_format(&call->results[index], g, sizeof(g));
  return grtc_lapack_error(call, "result #%u (%s) must be %s, got %s", index, what, w, g);
}

grt_status_t grtc_lapack_lower(grtc_chlo_builder_t* builder, const grtc_lapack_call_t* call,
                               grtc_tvalue_t** outs) {
  grtc_lapack_decoded_t dc;
  GRT_RETURN_IF_ERROR(grtc_lapack_decode(call, builder->module, &dc));
  const grtc_lapack_spec_t* spec = dc.spec;
  grtc_tvalue_t* const* mats = dc.matrices;
  grtc_tvalue_t* a = mats[spec->routine == GRTC_LAPACK_TRSM && dc.legacy ? 1 : 0];
  const grtc_ttype_t* at = &a->type;
  uint32_t r = at->rank;
  int64_t rows_n = at->dims[r - 2], cols_n = at->dims[r - 1];
  int64_t k = rows_n < cols_n ? rows_n : cols_n;
  grtc_ttype_t batch_i32 = grtc_lapack_batch_type(at, GRTC_ELEM_I32);
  // The value results' types.
  GRT_RETURN_IF_ERROR(grtc_lapack_expect(
      call, 0, spec->routine == GRTC_LAPACK_TRSM ? "b" : "a", &mats[spec->routine ==
      GRTC_LAPACK_TRSM ? (dc.legacy ? 2 : 1) : 0]->type));
  grtc_ttype_t second = *at;
  second.rank = r - 1;
  second.dims[r - 2] = k;
  if (spec->routine == GRTC_LAPACK_GETRF) {
    second.elem = GRTC_ELEM_I32;
    GRT_RETURN_IF_ERROR(grtc_lapack_expect(call, 1, "ipiv", &second));
  } else if (spec->routine == GRTC_LAPACK_GEQRF) {
    GRT_RETURN_IF_ERROR(grtc_lapack_expect(call, 1, "taus", &second));
  } else if (spec->routine == GRTC_LAPACK_SYEVD) {
    GRT_RETURN_IF_ERROR(grtc_lapack_expect(call, 1, "w", &second));
  }
  // The rest: info ([...] i32, at most one) and workspaces (rank 1).
  bool has_info = false;
  for (uint32_t i = spec->value_results; i < call->result_count; ++i) {
    const grtc_ttype_t* t = &call->results[i];
    if (!has_info && grtc_ttype_equal(t, &batch_i32)) {
      has_info = true;
      continue;
    }
    if (t->rank != 1 || !grtc_dim_is_static(t->dims[0])) {
      char w[GRTC_TTYPE_FORMAT_CAPACITY], g[GRTC_TTYPE_FORMAT_CAPACITY];
      return grtc_lapack_error(call, "result #%u must be info (%s) or a rank-1 workspace, "
                               "got %s", i, grtc_ttype_format(&batch_i32, w, sizeof(w)),
                               grtc_ttype_format(t, g, sizeof(g)));
    }
  }
  grtc_chlo_math_t math = {builder, grt_ok_status()};
  grtc_chlo_math_t* m = &math;
  grtc_tvalue_t* values[3] = {NULL, NULL, NULL};
  grtc_tvalue_t* info = NULL;
  switch (spec->routine) {
    case GRTC_LAPACK_POTRF:
      grtc_lapack_potrf(m, a, dc.lower, &values[0], &info);
      break;
    case GRTC_LAPACK_GETRF:
      grtc_lapack_getrf(m, a, &values[0], &values[1], &info);
      break;
    case GRTC_LAPACK_GEQRF:
      grtc_lapack_geqrf(m, a, &values[0], &values[1]);
      break;
    case GRTC_LAPACK_SYEVD:
      grtc_lapack_syevd(m, a, dc.lower, &values[0], &values[1]);
      break;
    case GRTC_LAPACK_ORGQR: {
      const grtc_ttype_t* tt = &mats[1]->type;
      bool fits = tt->rank + 1 == r && tt->elem == at->elem && cols_n <= rows_n &&
                  tt->dims[r - 2] <= cols_n;
      for (uint32_t d = 0; fits && d + 2 < r; ++d) fits = tt->dims[d] == at->dims[d];
      if (!fits) {
        char ta[GRTC_TTYPE_FORMAT_CAPACITY], tb[GRTC_TTYPE_FORMAT_CAPACITY];
        return grtc_lapack_error(call, "takes a [..., m, n] (n <= m) and taus [..., k] "
                                 "(k <= n) of a's element type, got %s and %s",
                                 grtc_ttype_format(at, ta, sizeof(ta)),
                                 grtc_ttype_format(tt, tb, sizeof(tb)));
      }
      grtc_chlo_attrs_t attrs;
      memset(&attrs, 0, sizeof(attrs));
      GRT_RETURN_IF_ERROR(grtc_chlo_lower(
          builder,
          grt_make_cstring_view("stablehlo.custom_call @ProductOfElementaryHouseholderReflectors"),
          mats, 2, at, 1, &attrs, &values[0]));
      break;
    }
    case GRTC_LAPACK_TRSM: {
      grtc_tvalue_t* alpha = mats[dc.legacy ? 0 : 2];
      grtc_tvalue_t* b = mats[dc.legacy ? 2 : 1];
      if (alpha->type.rank != 0 || alpha->type.elem != at->elem ||
          b->type.elem != at->elem || rows_n != cols_n) {
        char ta[GRTC_TTYPE_FORMAT_CAPACITY], tb[GRTC_TTYPE_FORMAT_CAPACITY],
            tc[GRTC_TTYPE_FORMAT_CAPACITY];
        return grtc_lapack_error(call, "takes a square a, b and a rank-0 alpha of one float "
                                 "type, got a %s, b %s, alpha %s",
                                 grtc_ttype_format(at, ta, sizeof(ta)),
                                 grtc_ttype_format(&b->type, tb, sizeof(tb)),
                                 grtc_ttype_format(&alpha->type, tc, sizeof(tc)));
      }
      // alpha b, then triangular_solve.
      grtc_ttype_t ones = b->type;
      for (uint32_t d = 0; d < ones.rank; ++d) ones.dims[d] = 1;
      grtc_tvalue_t* scaled =
          MUL(b, grtc_chlo_expand(m, grtc_lapack_reshape(m, alpha, &ones), b));
      if (!grt_status_is_ok(math.status)) return math.status;
      grtc_chlo_attrs_t attrs;
      memset(&attrs, 0, sizeof(attrs));
      attrs.has_left_side = attrs.has_lower = attrs.has_unit_diagonal = true;
      attrs.left_side = dc.left_side;
      attrs.lower = dc.lower;
      attrs.unit_diagonal = dc.unit_diagonal;
      attrs.transpose_a = dc.transpose;
      grtc_tvalue_t* operands[2] = {a, scaled};
      GRT_RETURN_IF_ERROR(grtc_chlo_lower(builder,
                                          grt_make_cstring_view("stablehlo.triangular_solve"),
                                          operands, 2, &b->type, 1, &attrs, &values[0]));
      break;
    }
  }
  if (!grt_status_is_ok(math.status)) return math.status;
  for (uint32_t i = 0; i < spec->value_results; ++i) outs[i] = values[i];
  bool info_given = false;
  for (uint32_t i = spec->value_results; i < call->result_count; ++i) {
    const grtc_ttype_t* t = &call->results[i];
    if (!info_given && grtc_ttype_equal(t, &batch_i32)) {
      info_given = true;
      outs[i] = info ? info : grtc_lapack_i32(m, &batch_i32, 0);  // geqrf/orgqr: always 0
    } else {
      grtc_scalar_value_t zero;
      memset(&zero, 0, sizeof(zero));
      outs[i] = grtc_chlo_splat_type(m, t, zero);
    }
  }
  GRT_RETURN_IF_ERROR(math.status);
  for (uint32_t i = 0; i < call->result_count; ++i) {
    if (!outs[i]) {
      return grt_make_status(GRT_STATUS_INTERNAL,
                             "'stablehlo.custom_call @%.*s' result #%u was not built",
                             GRT_SV_ARG(call->target), i);
    }
  }
  return grt_ok_status();
}
