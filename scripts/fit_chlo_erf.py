#!/usr/bin/python3
"""Fits the polynomials compiler/stablehlo/compose.c uses for chlo.erf and
chlo.erfc in f32 (and f16/bf16, which compute in f32), and prints them.

Run by hand (its output is pasted into compose.c):

    /usr/bin/python3 scripts/fit_chlo_erf.py

  - |x| < 1:       erf(x) = x * P(x^2), P fitted to erf(x)/x in relative
                   error (weighted least squares on Chebyshev nodes).
  - 0.5 <= x < 1:  erfc(x) = R(x - 0.75), for erfc alone (1 - erf(x) would
                   lose a few bits there).
  - 1 <= x < 10:   erfc(x) = exp(-x^2) * Q(t) with t = 1 / x, Q fitted to
                   erfc(x) * exp(x^2) in relative error.
References come from mpmath at 50 digits (Debian's python3-mpmath, needed
only to run this script). Deterministic.
"""

import mpmath
import numpy as np

mpmath.mp.dps = 50


def chebyshev_nodes(a, b, n):
    k = np.arange(n)
    return 0.5 * (a + b) + 0.5 * (b - a) * np.cos((2 * k + 1) * np.pi / (2 * n))


def fit(xs, ys, basis, degree):
    """Least squares in relative error: minimise sum((p(u)/y - 1)^2)."""
    u = basis(xs)
    a = np.stack([u ** i for i in range(degree + 1)], axis=1) / ys[:, None]
    coeffs, *_ = np.linalg.lstsq(a, np.ones_like(ys), rcond=None)
    return coeffs


def horner(coeffs, u):
    r = np.zeros_like(u)
    for c in coeffs[::-1]:
        r = r * u + c
    return r


def main():
    # erf(x) / x on [0, 1] in x^2.
    xs = chebyshev_nodes(1e-6, 1.0, 400)
    ys = np.array([float(mpmath.erf(x) / x) for x in xs])
    p = fit(xs, ys, lambda x: x * x, 6)
    check = np.linspace(1e-6, 1.0, 20001)
    ref = np.array([float(mpmath.erf(x) / x) for x in check[::10]])
    err_p = np.max(np.abs(horner(p, check[::10] ** 2) / ref - 1))

    # erfc(x) * exp(x^2) on [1, 10] in t = 1/x.
    xs = chebyshev_nodes(1.0, 10.0, 600)
    ys = np.array([float(mpmath.erfc(x) * mpmath.exp(x * x)) for x in xs])
    q = fit(xs, ys, lambda x: 1.0 / x, 11)
    check = np.linspace(1.0, 10.0, 2001)
    ref = np.array([float(mpmath.erfc(x) * mpmath.exp(x * x)) for x in check])
    err_q = np.max(np.abs(horner(q, 1.0 / check) / ref - 1))

    # erfc(x) on [0.5, 1] in x - 0.75.
    xs = chebyshev_nodes(0.5, 1.0, 200)
    ys = np.array([float(mpmath.erfc(x)) for x in xs])
    r = fit(xs, ys, lambda x: x - 0.75, 9)
    check = np.linspace(0.5, 1.0, 2001)
    ref = np.array([float(mpmath.erfc(x)) for x in check])
    err_r = np.max(np.abs(horner(r, check - 0.75) / ref - 1))

    print("// P (|x| < 1), max relative error %.2e" % err_p)
    print(", ".join("%.17g" % c for c in p))
    print("// Q (1 <= x < 10, in 1/x), max relative error %.2e" % err_q)
    print(", ".join("%.17g" % c for c in q))
    print("// R (0.5 <= x < 1, in x - 0.75), max relative error %.2e" % err_r)
    print(", ".join("%.17g" % c for c in r))


if __name__ == "__main__":
    main()
