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
# sin(x) = x * S(x^2), x in [0, pi/2]
S = lambda t: mp.sin(mp.sqrt(t)) / mp.sqrt(t) if t > 0 else mp.mpf(1)
for d in (8, 9):
    report(f"sin, degree {d} in x^2", fit(S, 0, H * H, d), S, mp.mpf(0), H * H)
# asin(h) = h * A(h^2), h in [0, 1/2]
A = lambda t: mp.asin(mp.sqrt(t)) / mp.sqrt(t) if t > 0 else mp.mpf(1)
for d in (11, 12, 13):
    report(f"asin, degree {d} in h^2", fit(A, 0, mp.mpf(1) / 4, d), A, mp.mpf(0), mp.mpf(1) / 4)

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
for d in (7, 8, 9):
    report(f"metres per degree of latitude, degree {d} in (lat/90)^2", fit(kn, 0, 1, d), kn, mp.mpf(0), mp.mpf(1))
for d in (9, 10, 11):
    # absolute error, in metres per degree: relative error grows toward the pole where N cos(phi) -> 0
    report(f"metres per degree of longitude, degree {d} in (lat/90)^2", fit(ke, 0, 1, d), ke, mp.mpf(0), mp.mpf(1), rel=False)
