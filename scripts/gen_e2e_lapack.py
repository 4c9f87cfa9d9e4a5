#!/usr/bin/python3
"""Writes tests/e2e/stablehlo/lapack.mlir: JAX's CPU LAPACK/BLAS custom calls
(potrf, getrf, geqrf, orgqr, syevd, trsm) in the forms JAX exports them (the legacy
form with scalar operands and tuple or multiple results, the FFI form with
mhlo.backend_config), checked against numpy references.

References: Cholesky from numpy.linalg.cholesky; LU from partial pivoting as
LAPACK defines it (in column j the first row at or below j of the largest
magnitude), checked here to reconstruct the input as P L U; QR from
numpy.linalg.qr(mode="raw"), which returns LAPACK geqrf's own reflectors
and taus; Q from numpy.linalg.qr; triangular solves from numpy.linalg.solve;
eigenvalues (ascending) and eigenvector magnitudes from numpy.linalg.eigh.

Run with /usr/bin/python3 (numpy); it prints the file it wrote.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_mlir import Func, array, module, tensor_type, type_of  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                   "e2e", "stablehlo", "lapack.mlir")

TOL = {"f32": 1e-5, "f64": 1e-12}
LETTER = {"f32": "s", "f64": "d"}


def layout(rank):
    """JAX's column-major matrix layout (minor_to_major)."""
    dims = [rank - 2, rank - 1] + list(range(rank - 3, -1, -1))
    return "dense<[%s]> : tensor<%dxindex>" % (", ".join(map(str, dims)), rank)


def vector_layout(rank):
    if rank == 0:
        return "dense<> : tensor<0xindex>"
    dims = list(range(rank - 1, -1, -1))
    return "dense<[%s]> : tensor<%dxindex>" % (", ".join(map(str, dims)), rank)


def scalar(f, value, elem="i32"):
    return f.op("stablehlo.constant dense<%d> : tensor<%s>" % (value, elem))


def call(f, target, operands, operand_types, result_types, attrs, tuple_result):
    """The custom call; returns the names of its results (get_tuple_element
    for a tuple result, %N#i for several)."""
    ins = "(%s)" % ", ".join(operand_types)
    if tuple_result:
        tt = "tuple<%s>" % ", ".join(result_types)
        r = f.op("stablehlo.custom_call @%s(%s) {%s} : %s -> %s"
                 % (target, ", ".join(operands), attrs, ins, tt))
        return [f.op("stablehlo.get_tuple_element %s[%d] : (%s) -> %s" % (r, i, tt, t))
                for i, t in enumerate(result_types)]
    outs = result_types[0] if len(result_types) == 1 else "(%s)" % ", ".join(result_types)
    r = f.op("stablehlo.custom_call @%s(%s) {%s} : %s -> %s"
             % (target, ", ".join(operands), attrs, ins, outs), count=len(result_types))
    if len(result_types) == 1:
        return [r]
    return ["%s#%d" % (r, i) for i in range(len(result_types))]


def lay(rank):
    """A matrix's layout for a rank, a vector's for "vN" (taus, info, pivots)."""
    if isinstance(rank, str):
        return vector_layout(int(rank[1:]))
    return layout(rank) if rank >= 2 else vector_layout(rank)


def legacy_attrs(scalars, matrix_ranks, result_ranks):
    layouts = ["dense<> : tensor<0xindex>"] * scalars + [lay(r) for r in matrix_ranks]
    results = [lay(r) for r in result_ranks]
    return ("api_version = 2 : i32, operand_layouts = [%s], output_operand_aliases = "
            "[#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = %d, "
            "operand_tuple_indices = []>], result_layouts = [%s]"
            % (", ".join(layouts), scalars, ", ".join(results)))


def ffi_attrs(config, matrix_ranks, result_ranks):
    layouts = [lay(r) for r in matrix_ranks]
    results = [lay(r) for r in result_ranks]
    return ("mhlo.backend_config = {%s}, operand_layouts = [%s], output_operand_aliases = "
            "[#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, "
            "operand_tuple_indices = []>], result_layouts = [%s]"
            % (config, ", ".join(layouts), ", ".join(results)))


def lu_reference(a):
    """LAPACK getrf on each matrix: packed LU, 1-based pivots, info."""
    a = np.array(a, np.float64)
    batch = a.shape[:-2]
    m, n = a.shape[-2:]
    k = min(m, n)
    lu = a.copy()
    piv = np.zeros(batch + (k,), np.int32)
    info = np.zeros(batch, np.int32)
    for index in np.ndindex(*batch):
        x = lu[index]
        for j in range(k):
            p = j + int(np.argmax(np.abs(x[j:, j])))  # the first of equal ones
            piv[index][j] = p + 1
            if x[p, j] != 0:
                x[[j, p]] = x[[p, j]]
                x[j + 1:, j] /= x[j, j]
            elif info[index] == 0:
                info[index] = j + 1
            x[j + 1:, j + 1:] -= np.outer(x[j + 1:, j], x[j, j + 1:])
        # P L U gives back the input.
        lower = np.tril(x, -1)[:, :k] + np.eye(m, k)
        upper = np.triu(x)[:k, :]
        perm = list(range(m))
        for j in range(k):
            p = piv[index][j] - 1
            perm[j], perm[p] = perm[p], perm[j]
        assert np.allclose((lower @ upper), a[index][perm]), "P L U != A"
    return lu, piv, info


def spd(rng, batch, n):
    x = rng.uniform(-1, 1, batch + (n, n))
    return x @ np.swapaxes(x, -1, -2) + np.eye(n) * n


def gen_potrf(rng):
    funcs = []
    # The legacy form of 2023 (two results), lower, f32.
    f = Func("test_potrf_legacy_lower_f32")
    a = array(spd(rng, (), 4), "f32")
    t = type_of(a, "f32")
    ops = [scalar(f, 1), scalar(f, 1), scalar(f, 4), f.input(a, "f32")]
    r = call(f, "lapack_spotrf", ops, ["tensor<i32>"] * 3 + [t], [t, "tensor<i32>"],
             legacy_attrs(3, [2], [2, 0]), False)
    a64 = np.asarray(a, np.float64)
    want = np.where(np.tril(np.ones((4, 4))) == 1, np.linalg.cholesky(a64), a64)
    f.expect(r[0], array(want, "f32"), "f32", TOL["f32"], TOL["f32"])
    f.expect(r[1], np.array(0, np.int32), "i32")
    funcs.append(f.text(comment="lapack_spotrf, legacy form (lower, batch, n scalars first): "
                        "the factor in the lower triangle, the upper one kept as given, "
                        "info 0."))
    # The tuple form (StableHLO's JAX testdata), batched, upper triangle
    # spoiled where it is not read.
    f = Func("test_potrf_legacy_tuple_batched")
    s = spd(rng, (2,), 5)
    given = np.where(np.tril(np.ones((5, 5))) == 1, s, rng.uniform(5, 9, (2, 5, 5)))
    a = array(given, "f32")
    t = type_of(a, "f32")
    ops = [scalar(f, 1), scalar(f, 2), scalar(f, 5), f.input(a, "f32")]
    r = call(f, "lapack_spotrf", ops, ["tensor<i32>"] * 3 + [t], [t, "tensor<2xi32>"],
             legacy_attrs(3, [3], [3, 1]), True)
    a64 = np.asarray(a, np.float64)
    want = np.where(np.tril(np.ones((5, 5))) == 1,
                    np.linalg.cholesky(np.asarray(array(s, "f32"), np.float64)), a64)
    f.expect(r[0], array(want, "f32"), "f32", TOL["f32"], TOL["f32"])
    f.expect(r[1], np.zeros(2, np.int32), "i32")
    funcs.append(f.text(comment="lapack_spotrf, legacy form with a tuple result, batch 2."))
    # FFI, upper, f64, batched.
    f = Func("test_potrf_ffi_upper_f64")
    s = spd(rng, (2, 3), 3)
    given = np.where(np.triu(np.ones((3, 3))) == 1, s, rng.uniform(5, 9, (2, 3, 3, 3)))
    t = type_of(given, "f64")
    r = call(f, "lapack_dpotrf_ffi", [f.input(given, "f64")], [t], [t, "tensor<2x3xi32>"],
             ffi_attrs("uplo = 85 : ui8", [4], [4, "v2"]), False)
    upper = np.swapaxes(np.linalg.cholesky(s), -1, -2)
    want = np.where(np.triu(np.ones((3, 3))) == 1, upper, given)
    f.expect(r[0], want, "f64", TOL["f64"], TOL["f64"])
    f.expect(r[1], np.zeros((2, 3), np.int32), "i32")
    funcs.append(f.text(comment="lapack_dpotrf_ffi, uplo = 'U' (85): the factor u with "
                        "a = u^T u in the upper triangle, batch dims 2x3."))
    # info: the order of the first leading minor that is not positive
    # definite.
    f = Func("test_potrf_info")
    mats = np.stack([spd(rng, (), 4) for _ in range(3)])
    mats[1][2, 2] = -50.0   # fails at the third column
    mats[2][0, 0] = 0.0     # at the first
    info = []
    for x in mats:
        bad = 0
        for order in range(1, 5):
            if np.any(np.linalg.eigvalsh(x[:order, :order]) <= 0):
                bad = order
                break
        info.append(bad)
    assert info == [0, 3, 1], info
    t = type_of(mats, "f64")
    r = call(f, "lapack_dpotrf_ffi", [f.input(mats, "f64")], [t], [t, "tensor<3xi32>"],
             ffi_attrs("uplo = 76 : ui8", [3], [3, 1]), False)
    f.expect(r[1], np.array(info, np.int32), "i32")
    want = np.linalg.cholesky(mats[0])
    f.line("// The factor of the positive definite matrix is still right.")
    first = f.op("stablehlo.slice %s [0:1, 0:4, 0:4] : (%s) -> tensor<1x4x4xf64>" % (r[0], t))
    f.expect(first, np.where(np.tril(np.ones((4, 4))) == 1, want, mats[0])[None], "f64",
             TOL["f64"], TOL["f64"])
    funcs.append(f.text(comment="lapack_dpotrf_ffi info: 0, or the order of the first "
                        "leading minor that is not positive definite (3 and 1 here)."))
    return funcs


def gen_getrf(rng):
    funcs = []
    f = Func("test_getrf_ffi_f32")
    a = array(rng.uniform(-1, 1, (4, 4)), "f32")
    lu, piv, info = lu_reference(a)
    t = type_of(a, "f32")
    r = call(f, "lapack_sgetrf_ffi", [f.input(a, "f32")], [t],
             [t, "tensor<4xi32>", "tensor<i32>"], ffi_attrs("", [2], [2, 1, 0]), False)
    f.expect(r[0], array(lu, "f32"), "f32", 1e-5, 1e-5)
    f.expect(r[1], piv, "i32")
    f.expect(r[2], info, "i32")
    funcs.append(f.text(comment="lapack_sgetrf_ffi: packed L (unit diagonal) and U, "
                        "1-based pivots in LAPACK's order, info."))
    # The legacy tuple form, i64 batch scalar (as jax writes it), wide and
    # batched, f64.
    f = Func("test_getrf_legacy_tuple_wide_f64")
    a = rng.uniform(-1, 1, (2, 3, 5))
    lu, piv, info = lu_reference(a)
    t = type_of(a, "f64")
    ops = [scalar(f, 2, "i64"), scalar(f, 3), scalar(f, 5), f.input(a, "f64")]
    r = call(f, "lapack_dgetrf", ops, ["tensor<i64>", "tensor<i32>", "tensor<i32>", t],
             [t, "tensor<2x3xi32>", "tensor<2xi32>"], legacy_attrs(3, [3], [3, "v2", 1]), True)
    f.expect(r[0], lu, "f64", TOL["f64"], TOL["f64"])
    f.expect(r[1], piv, "i32")
    f.expect(r[2], info, "i32")
    funcs.append(f.text(comment="lapack_dgetrf, legacy form with a tuple result, 3x5 "
                        "matrices, batch 2."))
    # Tall, and a singular one (a zero column): info names its first zero
    # pivot, and the column is left unscaled.
    f = Func("test_getrf_tall_singular")
    a = rng.uniform(-1, 1, (2, 5, 3))
    a[1][:, 1] = 0.0
    a = array(a, "f32")
    lu, piv, info = lu_reference(a)
    assert list(info) == [0, 2], info
    t = type_of(a, "f32")
    r = call(f, "lapack_sgetrf_ffi", [f.input(a, "f32")], [t],
             [t, "tensor<2x3xi32>", "tensor<2xi32>"], ffi_attrs("", [3], [3, "v2", 1]), False)
    f.expect(r[0], array(lu, "f32"), "f32", 1e-5, 1e-5)
    f.expect(r[1], piv, "i32")
    f.expect(r[2], info, "i32")
    funcs.append(f.text(comment="lapack_sgetrf_ffi on 5x3 matrices; the second has a zero "
                        "column: info 2."))
    # Ties: the first row of the largest magnitude is the pivot.
    f = Func("test_getrf_ties")
    a = array([[1.0, 2.0, 0.0], [-3.0, 1.0, 1.0], [3.0, 0.5, 2.0]], "f32")
    lu, piv, info = lu_reference(a)
    assert list(piv) == [2, 2, 3], piv
    t = type_of(a, "f32")
    r = call(f, "lapack_sgetrf_ffi", [f.input(a, "f32")], [t],
             [t, "tensor<3xi32>", "tensor<i32>"], ffi_attrs("", [2], [2, 1, 0]), False)
    f.expect(r[0], array(lu, "f32"), "f32", 1e-6, 1e-6)
    f.expect(r[1], piv, "i32")
    funcs.append(f.text(comment="lapack_sgetrf_ffi: |-3| and |3| tie in column 0; the "
                        "first (row 2, 1-based) is the pivot."))
    f = Func("fail_getrf_pivots_are_one_based")
    a = array(rng.uniform(-1, 1, (3, 3)), "f32")
    lu, piv, info = lu_reference(a)
    t = type_of(a, "f32")
    r = call(f, "lapack_sgetrf_ffi", [f.input(a, "f32")], [t],
             [t, "tensor<3xi32>", "tensor<i32>"], ffi_attrs("", [2], [2, 1, 0]), False)
    f.expect(r[1], piv - 1, "i32")
    funcs.append(f.text(comment="0-based pivots are not LAPACK's: must fail."))
    return funcs


def gen_qr(rng):
    funcs = []
    # FFI geqrf (two results, as current jax writes it), then orgqr.
    f = Func("test_geqrf_orgqr_ffi_f32")
    a = array(rng.uniform(-1, 1, (4, 3)), "f32")
    raw, taus = np.linalg.qr(np.asarray(a, np.float64), mode="raw")
    t = type_of(a, "f32")
    r = call(f, "lapack_sgeqrf_ffi", [f.input(a, "f32")], [t], [t, "tensor<3xf32>"],
             ffi_attrs("", [2], [2, 1]), False)
    f.expect(r[0], array(raw.T, "f32"), "f32", 1e-5, 1e-5)
    f.expect(r[1], array(taus, "f32"), "f32", 1e-5, 1e-5)
    q = call(f, "lapack_sorgqr_ffi", [r[0], r[1]], [t, "tensor<3xf32>"], [t],
             ffi_attrs("", [2, 1], [2]), False)
    want = np.linalg.qr(np.asarray(a, np.float64), mode="reduced")[0]
    f.expect(q[0], array(want, "f32"), "f32", 1e-5, 1e-5)
    funcs.append(f.text(comment="lapack_sgeqrf_ffi: R and the reflectors packed, and the "
                        "taus, as LAPACK's geqrf (numpy's raw QR); lapack_sorgqr_ffi gives "
                        "numpy's reduced Q."))
    # The legacy forms with tuple results and info/workspace outputs, as
    # jax 2023 wrote them, batched f64, square and with a zero column below
    # the diagonal (tau 0).
    f = Func("test_geqrf_orgqr_legacy_f64")
    a = rng.uniform(-1, 1, (2, 3, 3))
    a[1][1:, 0] = 0.0
    raws, tauss, qs = [], [], []
    for x in a:
        raw, taus = np.linalg.qr(x, mode="raw")
        raws.append(raw.T)
        tauss.append(taus)
        qs.append(np.linalg.qr(x)[0])
    t = type_of(a, "f64")
    ops = [scalar(f, 2), scalar(f, 3), scalar(f, 3), scalar(f, 96), f.input(a, "f64")]
    r = call(f, "lapack_dgeqrf", ops, ["tensor<i32>"] * 4 + [t],
             [t, "tensor<2x3xf64>", "tensor<2xi32>", "tensor<96xf64>"],
             legacy_attrs(4, [3], [3, "v2", 1, 1]), True)
    f.expect(r[0], np.stack(raws), "f64", TOL["f64"], TOL["f64"])
    f.expect(r[1], np.stack(tauss), "f64", TOL["f64"], TOL["f64"])
    f.expect(r[2], np.zeros(2, np.int32), "i32")
    ops = [scalar(f, 2), scalar(f, 3), scalar(f, 3), scalar(f, 3), scalar(f, 96), r[0], r[1]]
    q = call(f, "lapack_dorgqr", ops, ["tensor<i32>"] * 5 + [t, "tensor<2x3xf64>"],
             [t, "tensor<2xi32>", "tensor<96xf64>"], legacy_attrs(5, [3, "v2"], [3, 1, 1]), True)
    f.expect(q[0], np.stack(qs), "f64", TOL["f64"], TOL["f64"])
    f.expect(q[1], np.zeros(2, np.int32), "i32")
    funcs.append(f.text(comment="lapack_dgeqrf and lapack_dorgqr, legacy forms (scalars "
                        "first, tuple results with info and a workspace), batch 2; the "
                        "second matrix's first column is already reduced (tau 0)."))
    return funcs


def gen_trsm(rng):
    funcs = []
    f = Func("test_trsm_legacy_f32")
    a = rng.uniform(-1, 1, (4, 4)) + np.eye(4) * 4
    a = array(a, "f32")
    b = array(rng.uniform(-1, 1, (4, 2)), "f32")
    at, bt = type_of(a, "f32"), type_of(b, "f32")
    # left_side, lower, trans_a = 0, unit diagonal: L y = b (as jax's lu_solve).
    ops = [scalar(f, 1), scalar(f, 1), scalar(f, 0), scalar(f, 1), scalar(f, 4), scalar(f, 2),
           scalar(f, 1), f.constant(np.array(2.0, np.float32), "f32"), f.input(a, "f32"),
           f.input(b, "f32")]
    r = call(f, "blas_strsm", ops, ["tensor<i32>"] * 7 + ["tensor<f32>", at, bt], [bt],
             legacy_attrs(7, [0, 2, 2], [2]).replace("operand_index = 7", "operand_index = 9"),
             False)
    lower = np.tril(np.asarray(a, np.float64), -1) + np.eye(4)
    f.expect(r[0], array(np.linalg.solve(lower, 2.0 * np.asarray(b, np.float64)), "f32"), "f32",
             1e-5, 1e-5)
    funcs.append(f.text(comment="blas_strsm, legacy form (left_side, lower, trans_a, diag, m, "
                        "n, batch, then alpha, a, b): alpha = 2, unit lower triangle."))
    f = Func("test_trsm_ffi_f64")
    a = rng.uniform(-1, 1, (2, 3, 3)) + np.eye(3) * 3
    b = rng.uniform(-1, 1, (2, 2, 3))
    at, bt = type_of(a, "f64"), type_of(b, "f64")
    alpha = f.constant(np.array(0.5), "f64")
    r = call(f, "blas_dtrsm_ffi", [f.input(a, "f64"), f.input(b, "f64"), alpha],
             [at, bt, "tensor<f64>"], [bt],
             ffi_attrs("diag = 78 : ui8, side = 82 : ui8, trans_x = 84 : ui8, uplo = 85 : ui8",
                       [3, 3, 0], [3]), False)
    upper = np.triu(a)
    # x op(a) = alpha b with op(a) = a^T: a x^T = alpha b^T.
    want = np.swapaxes(np.linalg.solve(upper, 0.5 * np.swapaxes(b, -1, -2)), -1, -2)
    f.expect(r[0], want, "f64", TOL["f64"], TOL["f64"])
    funcs.append(f.text(comment="blas_dtrsm_ffi: side 'R', uplo 'U', trans_x 'T', diag 'N' "
                        "from mhlo.backend_config, alpha 0.5, batch 2."))
    return funcs


def symmetric(rng, batch, n, lower):
    """A random symmetric matrix, and what is given with the unread triangle
    spoiled."""
    x = rng.uniform(-1, 1, batch + (n, n))
    x = x + np.swapaxes(x, -1, -2)
    keep = np.tril(np.ones((n, n))) if lower else np.triu(np.ones((n, n)))
    return x, np.where(keep == 1, x, rng.uniform(5, 9, batch + (n, n)))


def gen_syevd(rng):
    funcs = []
    f = Func("test_syevd_legacy_tuple_odd_f64")
    x, given = symmetric(rng, (2,), 5, False)
    w, v = np.linalg.eigh(x)
    t = type_of(given, "f64")
    ops = [scalar(f, 0), scalar(f, 2), scalar(f, 5), f.input(given, "f64")]
    r = call(f, "lapack_dsyevd", ops, ["tensor<i32>"] * 3 + [t],
             [t, "tensor<2x5xf64>", "tensor<2xi32>", "tensor<177xf64>", "tensor<28xi32>"],
             legacy_attrs(3, [3], [3, "v2", 1, 1, 1]), True)
    f.expect(r[1], w, "f64", 1e-12, 1e-12)
    mag = f.op("stablehlo.abs %s : %s" % (r[0], t))
    f.expect(mag, np.abs(v), "f64", 1e-10, 1e-10)
    f.expect(r[2], np.zeros(2, np.int32), "i32")
    funcs.append(f.text(comment="lapack_dsyevd, legacy form (lower = 0: the upper triangle), "
                        "tuple result with info and workspaces, odd size 5, batch 2."))
    # JAX's eigh export test matrix (iota, symmetrized: rank 2, so 0 is a
    # repeated eigenvalue), its lower triangle given (the upper one 0, so
    # reading it would be wrong), in the FFI form with workspace results:
    # the eigenvalues, and v diag(w) v^T = a with v^T v = I.
    f = Func("test_syevd_ffi_repeated_f32")
    n = 6
    x = np.arange(n * n, dtype=np.float64).reshape(n, n)
    x = (x + x.T) / 2
    given = array(np.tril(x), "f32")
    w = np.linalg.eigvalsh(x)
    t = type_of(given, "f32")
    r = call(f, "lapack_ssyevd_ffi", [f.input(given, "f32")], [t],
             [t, "tensor<%dxf32>" % n, "tensor<i32>", "tensor<177xf32>", "tensor<43xi32>"],
             ffi_attrs("mode = 86 : ui8, uplo = 76 : ui8", [2], [2, 1, 0, 1, 1]), False)
    f.expect(r[1], array(w, "f32"), "f32", 1e-4, 1e-5)
    scaled = f.op("stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<%dxf32>) -> %s"
                  % (r[1], n, t))
    vw = f.op("stablehlo.multiply %s, %s : %s" % (r[0], scaled, t))
    back = f.op('"stablehlo.dot_general"(%s, %s) {dot_dimension_numbers = #stablehlo.dot<'
                'lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : '
                '(%s, %s) -> %s' % (vw, r[0], t, t, t))
    f.expect(back, array(x, "f32"), "f32", 1e-4, 1e-5)
    gram = f.op('"stablehlo.dot_general"(%s, %s) {dot_dimension_numbers = #stablehlo.dot<'
                'lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>} : '
                '(%s, %s) -> %s' % (r[0], r[0], t, t, t))
    f.expect(gram, array(np.eye(n), "f32"), "f32", 1e-5, 1e-5)
    funcs.append(f.text(comment="lapack_ssyevd_ffi (eigh) with workspace results on JAX's eigh "
                        "test matrix (iota, symmetrized; eigenvalue 0 repeated; its lower "
                        "triangle): eigenvalues ascending, v diag(w) v^T = a, v^T v = I."))
    f = Func("fail_syevd_eigenvalues_descending")
    x, given = symmetric(rng, (), 3, True)
    given = array(given, "f32")
    w = np.linalg.eigvalsh(np.asarray(array(x, "f32"), np.float64))
    t = type_of(given, "f32")
    r = call(f, "lapack_ssyevd_ffi", [f.input(given, "f32")], [t],
             [t, "tensor<3xf32>", "tensor<i32>"],
             ffi_attrs("mode = 86 : ui8, uplo = 76 : ui8", [2], [2, 1, 0]), False)
    f.expect(r[1], array(w[::-1].copy(), "f32"), "f32", 1e-5, 1e-5)
    funcs.append(f.text(comment="LAPACK's eigenvalues ascend: descending ones must fail."))
    return funcs


def main():
    rng = np.random.default_rng(16)
    funcs = gen_potrf(rng) + gen_getrf(rng) + gen_qr(rng) + gen_trsm(rng) + gen_syevd(rng)
    header = ("JAX's CPU LAPACK/BLAS custom calls (lapack_*potrf, getrf, geqrf, orgqr,\n"
              "syevd, blas_*trsm) in their legacy and FFI forms, against numpy.\n\n"
              "Generated by scripts/gen_e2e_lapack.py; do not edit. Run by grt-check:\n"
              "test_* functions must pass, fail_* functions must fail.")
    with open(OUT, "w") as out:
        out.write(module("e2e_lapack", header, funcs))
    print(os.path.relpath(OUT))


if __name__ == "__main__":
    main()
