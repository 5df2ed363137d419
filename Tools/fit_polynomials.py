#!/usr/bin/env python3
"""Fits the polynomial coefficients used by TraceGeodesy's branch-free kernels.

One-off generator (needs mpmath); its output is pasted into the Swift sources, and the Swift tests
check the resulting kernels against libm / closed forms independently, so nothing in the product
or its tests needs Python.  Method: discrete least squares on 4*n Chebyshev nodes, weighted for
relative error, in 60-digit arithmetic, then rounded to double.  The printed max errors are
measured on 20,000 points after rounding.

    python3 Tools/fit_polynomials.py
"""
import mpmath as mp

mp.mp.dps = 60

def fit(f, lo, hi, degree, weight=lambda t: 1):
    n = 4 * (degree + 1)
    nodes = [(lo + hi) / 2 + (hi - lo) / 2 * mp.cos(mp.pi * (2 * k + 1) / (2 * n)) for k in range(n)]
    a = mp.matrix(n, degree + 1)
    b = mp.matrix(n, 1)
    for i, t in enumerate(nodes):
        w = weight(t)
        for j in range(degree + 1):
            a[i, j] = w * t ** j
        b[i] = w * f(t)
    c = mp.lu_solve(a.T * a, a.T * b)
    return [float(c[j]) for j in range(degree + 1)]

def horner(c, t):
    r = mp.mpf(0)
    for x in reversed(c):
        r = r * t + mp.mpf(x)
    return r

def report(name, c, f, lo, hi, rel=True):
    worst = mp.mpf(0)
    for k in range(20001):
        t = lo + (hi - lo) * mp.mpf(k) / 20000
        e = horner(c, t) - f(t)
        if rel and f(t) != 0:
            e = e / f(t)
        worst = max(worst, abs(e))
    print(f"// {name}: max {'relative' if rel else 'absolute'} error {float(worst):.2e}")
    print("[" + ", ".join(repr(x) for x in c) + "]")

H = mp.pi / 2
# Each kernel below is the one in Sources/TraceGeodesy/Kernels.swift, with the degree used there.
# sin(x) = x * S(x^2): on [0, pi/2] (_sinKernel) and on [0, pi/12] (_sinSmallKernel)
S = lambda t: mp.sin(mp.sqrt(t)) / mp.sqrt(t) if t > 0 else mp.mpf(1)
report("_sinKernel: sin, degree 8 in x^2, |x| <= pi/2", fit(S, 0, H * H, 8), S, mp.mpf(0), H * H)
Q = (mp.pi / 12) ** 2
report("_sinSmallKernel: sin, degree 5 in x^2, |x| <= pi/12", fit(S, 0, Q, 5), S, mp.mpf(0), Q)
# asin(h) = h * A(h^2): h <= 1/2 (_asinOverX) and h <= 1/4 (_asinOverXSmall)
A = lambda t: mp.asin(mp.sqrt(t)) / mp.sqrt(t) if t > 0 else mp.mpf(1)
report("_asinOverX: asin, degree 12 in h^2, h <= 1/2", fit(A, 0, mp.mpf(1) / 4, 12), A, mp.mpf(0), mp.mpf(1) / 4)
report("_asinOverXSmall: asin, degree 8 in h^2, h <= 1/4", fit(A, 0, mp.mpf(1) / 16, 8), A, mp.mpf(0), mp.mpf(1) / 16)

# WGS84 metres per degree of latitude (M) and of longitude (N cos phi) as polynomials in u = (phi/90)^2
a = mp.mpf(6378137)
f = 1 / mp.mpf("298.257223563")
e2 = f * (2 - f)
def rad(u):
    return mp.sqrt(u) * H
def kn(u):
    p = rad(u)
    return a * (1 - e2) / (1 - e2 * mp.sin(p) ** 2) ** mp.mpf(1.5) * mp.pi / 180
def ke(u):
    p = rad(u)
    return a * mp.cos(p) / mp.sqrt(1 - e2 * mp.sin(p) ** 2) * mp.pi / 180
report("_metresPerDegreeLatitude: degree 6 in (lat/90)^2", fit(kn, 0, 1, 6), kn, mp.mpf(0), mp.mpf(1))
# absolute error, in metres per degree: relative error grows toward the pole where N cos(phi) -> 0
report("_metresPerDegreeLongitude: degree 8 in (lat/90)^2", fit(ke, 0, 1, 8), ke, mp.mpf(0), mp.mpf(1), rel=False)
