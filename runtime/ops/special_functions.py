"""The functions of tf.math.special that tf.math lacks: Bessel J0, J1, Y0, Y1 (first and second kind), K0, K1 and
their exponentially scaled forms (modified, second kind), Dawson's integral, the exponential integral Ei, the
Fresnel integrals and Spence's function. Each is computed in float64 from a published method (no scipy) and
rounded to the input's dtype; tests/conformance/math_special.py compares them with TF 2.21 at float32 and
float64.

- J0, J1 (|x| <= 25): Miller's backward recurrence J_{k-1} = (2k/x) J_k - J_{k+1}, normalized by
  J0 + 2 (J2 + J4 + ...) = 1; Y0 then by Neumann's series Y0 = (2/pi)(ln(x/2) + gamma) J0 - (4/pi) sum_k
  (-1)^k J_2k / k, and Y1 = -Y0' from the same sequence (J_2k' = (J_2k-1 - J_2k+1) / 2). Small |x| < 1e-5 use
  the first series terms. |x| > 25: Hankel's asymptotic expansion (Abramowitz & Stegun 9.2.5-9.2.10), whose
  smallest term there is ~e^-50.
- K0, K1 (x <= 1): the power series of A&S 9.6.13 and 9.6.11; 1 < x <= 20: K_n(x) = int_0^inf e^(-x cosh t)
  cosh(nt) dt by the trapezoidal rule, exponentially accurate for this analytic, fast-decaying integrand
  (Trefethen & Weideman 2014), the scaled forms e^x K_n without overflow; x > 20: the asymptotic series
  (A&S 9.7.2).
- dawsn: Rybicki's exponentially convergent sum (Numerical Recipes 6.10) with h = 0.2 (error ~e^-(pi/2h)^2);
  its Taylor series below 0.2, where the sum's terms cancel.
- expint (Ei): its power series for 0 < x <= 40, the asymptotic series beyond; NaN below 0, as TF 2.21 gives.
- fresnel: power series for |x| < 1.5, else the continued fraction of erfc in complex arithmetic (NR 6.8);
  TF's normalization, C(x) = int_0^x cos(pi t^2 / 2) dt.
- spence(x) = int_1^x ln t / (1 - t) dt = Li2(1 - x) (scipy's and TF's convention, NaN for x < 0): the series
  sum z^k / k^2 on |z| <= 1/2, reached by Li2's reflection, Landen and inversion identities."""

from __future__ import annotations

import math

import numpy as np

from ..registry import OpDef, register
from .common import unary_infer

_EULER = 0.57721566490153286061


def _f64(x):
    return np.asarray(x, dtype=np.float64)


# --- J0, J1, Y0, Y1 ---------------------------------------------------------------------------------------------
def bessel_jy(x):
    """(J0, J1, Y0, Y1) of a float64 array."""
    x = _f64(x)
    ax = np.abs(x).reshape(-1)
    ax = np.where(np.isfinite(ax), ax, 1.0)  # infinities and NaN are set at the end
    j0, j1, y0, y1 = (np.empty_like(ax) for _ in range(4))
    tiny = ax < 1e-5
    mid = ~tiny & (ax <= 25.0)
    big = ax > 25.0
    if tiny.any():
        t = ax[tiny]
        j0[tiny] = 1.0 - t * t / 4.0
        j1[tiny] = t / 2.0 - t ** 3 / 16.0
        with np.errstate(divide="ignore"):
            y0[tiny] = 2.0 / math.pi * (np.log(t / 2.0) + _EULER) * j0[tiny]
            y1[tiny] = -2.0 / (math.pi * t) + t / math.pi * (np.log(t / 2.0) + _EULER - 0.5)
    if mid.any():
        j0[mid], j1[mid], y0[mid], y1[mid] = _jy_recurrence(ax[mid])
    if big.any():
        j0[big], j1[big], y0[big], y1[big] = _jy_asymptotic(ax[big])
    shape = x.shape
    flat = x.reshape(-1)
    j1 = np.where(flat < 0, -j1, j1)
    # TF (Cephes) gives -inf for Y below 0 and at 0, and NaN at infinity for all four
    y0 = np.where(flat <= 0, -np.inf, y0)
    y1 = np.where(flat <= 0, -np.inf, y1)
    nan = np.isnan(flat) | (flat == np.inf)
    j0, j1 = np.where(np.isinf(flat), np.nan, j0), np.where(np.isinf(flat), np.nan, j1)
    return tuple(np.where(nan, np.nan, v).reshape(shape) for v in (j0, j1, y0, y1))


def _jy_recurrence(x):
    """J0, J1, Y0, Y1 for 1e-5 <= x <= 25 (Miller + Neumann; see the module docstring)."""
    top = int(2 * ((int(x.max()) + 60) // 2))
    above = np.zeros_like(x)  # J_{k+1}
    here = np.full_like(x, 1e-280)  # J_k, starting at k = top
    seq = [None] * (top + 2)
    seq[top + 1], seq[top] = above, here
    for k in range(top, 0, -1):
        below = 2.0 * k / x * here - above
        above, here = here, below
        seq[k - 1] = here
        big = np.abs(here) > 1e250
        if big.any():
            scale = np.where(big, 1e-250, 1.0)
            for i in range(k - 1, top + 2):
                seq[i] = seq[i] * scale
            above, here = seq[k], seq[k - 1]
    norm = seq[0] + 2.0 * sum(seq[i] for i in range(2, top + 1, 2))
    j = [v / norm for v in seq]
    log_term = np.log(x / 2.0) + _EULER
    neumann = sum((-1.0 if (i // 2) % 2 else 1.0) * j[i] / (i // 2) for i in range(2, top + 1, 2))
    derivative = sum((-1.0 if (i // 2) % 2 else 1.0) * (j[i - 1] - j[i + 1]) / i for i in range(2, top + 1, 2))
    y0 = 2.0 / math.pi * log_term * j[0] - 4.0 / math.pi * neumann
    # Y1 = -Y0' = -(2/pi) (J0 / x - log_term J1) + (4/pi) sum_k (-1)^k (J_2k-1 - J_2k+1) / (2k)
    y1 = -2.0 / math.pi * (j[0] / x - log_term * j[1]) + 4.0 / math.pi * derivative
    return j[0], j[1], y0, y1


def _jy_asymptotic(x):
    """Hankel's expansion for x > 25: J_n = sqrt(2 / (pi x)) (P cos chi - Q sin chi), Y_n with sin and cos."""
    out = []
    for order in (0, 1):
        mu = 4.0 * order * order
        p, q = np.zeros_like(x), np.zeros_like(x)
        term = np.ones_like(x)
        for k in range(0, 60):
            if k:
                term = term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * x)
            if k % 4 == 0:
                p += term
            elif k % 4 == 1:
                q += term
            elif k % 4 == 2:
                p -= term
            else:
                q -= term
            if np.all(np.abs(term) < 1e-17):
                break
        chi = x - (order / 2.0 + 0.25) * math.pi
        scale = np.sqrt(2.0 / (math.pi * x))
        out.append((scale * (p * np.cos(chi) - q * np.sin(chi)), scale * (p * np.sin(chi) + q * np.cos(chi))))
    (j0, y0), (j1, y1) = out
    return j0, j1, y0, y1


# --- K0, K1 and their scaled forms --------------------------------------------------------------------------------
def _k_series(x):
    """K0, K1 for 0 < x <= 1 (A&S 9.6.13, 9.6.11)."""
    quarter = x * x / 4.0
    log_term = np.log(x / 2.0) + _EULER
    i0, i1 = np.zeros_like(x), np.zeros_like(x)
    k0_sum, k1_sum = np.zeros_like(x), np.zeros_like(x)
    power = np.ones_like(x)  # (x^2/4)^k / (k!)^2
    harmonic = 0.0
    for k in range(0, 40):
        if k:
            power = power * quarter / (k * k)
            harmonic += 1.0 / k
        i0 += power
        term1 = power / (k + 1)  # (x^2/4)^k / (k! (k+1)!)
        i1 += term1
        k0_sum += harmonic * power
        # psi(k+1) + psi(k+2) = 2 H_k + 1/(k+1) - 2 gamma
        k1_sum += (2.0 * harmonic + 1.0 / (k + 1) - 2.0 * _EULER) * term1
    i1 = i1 * x / 2.0
    k0 = -log_term * i0 + k0_sum
    k1 = 1.0 / x + np.log(x / 2.0) * i1 - x / 4.0 * k1_sum
    return k0, k1


_TRAPEZOID_STEP = 0.05


def _k_scaled_integral(x):
    """e^x K0(x), e^x K1(x) for x > 1: int_0^inf e^(-x (cosh t - 1)) cosh(nt) dt by the trapezoidal rule."""
    limit = np.arccosh(1.0 + 750.0 / x).max()
    t = np.arange(0.0, limit + _TRAPEZOID_STEP, _TRAPEZOID_STEP)
    weights = np.full(t.shape, _TRAPEZOID_STEP)
    weights[0] /= 2.0
    decay = np.exp(-np.outer(x, np.cosh(t) - 1.0))
    return decay @ weights, decay @ (weights * np.cosh(t))


def _k_scaled_asymptotic(x, order):
    """e^x K_n(x) ~ sqrt(pi / 2x) sum_k a_k(n) / x^k (A&S 9.7.2), for x > 20 (smallest term ~e^-40)."""
    mu = 4.0 * order * order
    term, total = np.ones_like(x), np.ones_like(x)
    for k in range(1, 80):
        term = term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * x)
        total += term
        if np.all(np.abs(term) < 1e-17 * np.abs(total)):
            break
    return np.sqrt(math.pi / (2.0 * x)) * total


def bessel_k(x, order: int, scaled: bool):
    x = _f64(x)
    flat = x.reshape(-1)
    out = np.full(flat.shape, np.nan)
    small = (flat > 0) & (flat <= 1.0)
    large = (flat > 1.0) & (flat <= 20.0)
    huge = (flat > 20.0) & np.isfinite(flat)
    if huge.any():
        values = _k_scaled_asymptotic(flat[huge], order)
        out[huge] = values if scaled else values * np.exp(-flat[huge])
    if small.any():
        values = _k_series(flat[small])[order]
        out[small] = values * np.exp(flat[small]) if scaled else values
    if large.any():
        values = _k_scaled_integral(flat[large])[order]
        out[large] = values if scaled else values * np.exp(-flat[large])
    out[flat <= 0] = np.inf  # TF (Cephes) gives inf at 0 and below
    out[flat == np.inf] = 0.0
    return out.reshape(x.shape)


# --- Dawson's integral ---------------------------------------------------------------------------------------------
_DAWSON_STEP = 0.2
_DAWSON_TERMS = np.arange(-40, 41, 2)  # even offsets: n stays odd around the odd n nearest x / h


def dawson(x):
    x = _f64(x)
    flat = x.reshape(-1)
    finite = np.abs(np.where(np.isfinite(flat), flat, 0.0))  # F is odd: computed on |x|, signed after
    center = 2.0 * np.floor(finite / _DAWSON_STEP / 2.0) + 1.0  # an odd n near |x| / h
    n = center[:, None] + _DAWSON_TERMS[None, :]
    total = np.sum(np.exp(-(finite[:, None] - n * _DAWSON_STEP) ** 2) / n, axis=1) / math.sqrt(math.pi)
    small = finite < 0.2  # there the sum's terms nearly cancel: the Taylor series sum (-2x^2)^k x / (2k+1)!!
    term, series = finite.copy(), finite.copy()
    for k in range(1, 14):
        term = term * -2.0 * finite * finite / (2 * k + 1)
        series += term
    total = np.where(small, series, total) * np.sign(np.where(np.isnan(flat), 0.0, flat))
    total = np.where(np.isinf(flat), 0.0, total)
    return np.where(np.isnan(flat), np.nan, total).reshape(x.shape)


# --- the exponential integral Ei ---------------------------------------------------------------------------------
def _ei_positive(x):
    out = np.empty_like(x)
    series = x <= 40.0
    if series.any():
        v = x[series]
        term, total = np.ones_like(v), np.zeros_like(v)
        for k in range(1, 200):
            term = term * v / k
            total += term / k
            if np.all(term / k <= total * 1e-17):
                break
        out[series] = _EULER + np.log(v) + total
    if (~series).any():
        v = x[~series]
        term, total = np.ones_like(v), np.ones_like(v)
        for k in range(1, 60):
            nxt = term * k / v
            if np.all(nxt < 1e-17):
                break
            term = nxt
            total += term
        out[~series] = np.exp(v) / v * total  # overflows to inf past ~709, as TF's
    return out


def expint(x):
    x = _f64(x)
    flat = x.reshape(-1)
    out = np.full(flat.shape, np.nan)
    positive = (flat > 0) & np.isfinite(flat)
    if positive.any():
        out[positive] = _ei_positive(flat[positive])
    out[flat == 0] = -np.inf  # TF 2.21 gives NaN below 0 and at +inf (Eigen's kernel); so does tinytf
    return out.reshape(x.shape)


# --- Fresnel integrals -----------------------------------------------------------------------------------------------
def _fresnel_series(x):
    """C(x), S(x) for 0 <= x < 1.5: sum_k (-1)^k (pi/2)^2k x^(4k+1) / ((4k+1)(2k)!) and the S analogue."""
    half_pi = math.pi / 2.0
    c, s = np.zeros_like(x), np.zeros_like(x)
    term = x.copy()  # (pi/2)^m x^(2m+1) / m!, alternating signs in pairs
    for m in range(0, 60):
        if m:
            term = term * half_pi * x * x / m
        sign = -1.0 if (m // 2) % 2 else 1.0
        if m % 2 == 0:
            c += sign * term / (2 * m + 1)
        else:
            s += sign * term / (2 * m + 1)
    return c, s


def _half_turns(x):
    """x^2 mod 4, from x^2 split exactly into hi + lo (Dekker's product): the phase pi x^2 / 2 of the large-x
    form keeps its accuracy where x^2 itself has lost the digits that the cosine needs."""
    hi = x * x
    c = 134217729.0 * x  # 2^27 + 1
    head = c - (c - x)
    tail = x - head
    lo = ((head * head - hi) + 2.0 * head * tail) + tail * tail
    return np.fmod(hi, 4.0) + lo


def _fresnel_fraction(x):
    """C(x), S(x) for x >= 1.5, from erfc's continued fraction in complex arithmetic (NR 6.8)."""
    pix2 = math.pi * x * x
    b = 1.0 - 1j * pix2
    c = np.full(x.shape, 1e300, dtype=np.complex128)
    d = 1.0 / b
    h = d.copy()
    n = -1
    for _ in range(2, 10000):
        n += 2
        a = -float(n * (n + 1))
        b = b + 4.0
        d = 1.0 / (a * d + b)
        c = b + a / c
        delta = c * d
        h = h * delta
        if np.all(np.abs(delta - 1.0) < 1e-16):
            break
    h = (x - 1j * x) * h
    phase = 0.5 * math.pi * _half_turns(x)
    cs = (0.5 + 0.5j) * (1.0 - (np.cos(phase) + 1j * np.sin(phase)) * h)
    return cs.real, cs.imag


def fresnel(x):
    """(C(x), S(x)), both odd."""
    x = _f64(x)
    flat = x.reshape(-1)
    ax = np.abs(np.where(np.isnan(flat), 0.0, flat))
    c, s = np.empty_like(ax), np.empty_like(ax)
    low = ax < 1.5
    high = ~low & np.isfinite(ax)
    if low.any():
        c[low], s[low] = _fresnel_series(ax[low])
    if high.any():
        c[high], s[high] = _fresnel_fraction(ax[high])
    c[np.isinf(ax)], s[np.isinf(ax)] = 0.5, 0.5
    sign = np.where(flat < 0, -1.0, 1.0)
    nan = np.isnan(flat)
    return (np.where(nan, np.nan, sign * c).reshape(x.shape), np.where(nan, np.nan, sign * s).reshape(x.shape))


# --- Spence's function -----------------------------------------------------------------------------------------------
_PI2_6 = math.pi ** 2 / 6.0


def _li2_series(z):
    total, power = np.zeros_like(z), np.ones_like(z)
    for k in range(1, 80):
        power = power * z
        total += power / (k * k)
    return total


def dilog(z):
    """Li2(z) for real z <= 1."""
    out = np.empty_like(z)
    a = (z >= -0.5) & (z <= 0.5)
    b = z > 0.5  # reflection: Li2(z) = pi^2/6 - ln z ln(1 - z) - Li2(1 - z)
    c = (z >= -1.0) & (z < -0.5)  # Landen: Li2(z) = -Li2(z / (z - 1)) - ln^2(1 - z) / 2, z/(z-1) in (1/3, 1/2]
    d = z < -1.0  # inversion: Li2(z) = -pi^2/6 - ln^2(-z) / 2 - Li2(1/z), 1/z in (-1, 0)
    out[a] = _li2_series(z[a])
    if b.any():
        v = z[b]
        one_minus = 1.0 - v
        with np.errstate(divide="ignore", invalid="ignore"):
            log_product = np.where(one_minus == 0, 0.0, np.log(v) * np.log(one_minus))
        out[b] = _PI2_6 - log_product - _li2_series(one_minus)
    if c.any():
        v = z[c]
        out[c] = -_li2_series(v / (v - 1.0)) - 0.5 * np.log1p(-v) ** 2
    if d.any():
        v = z[d]
        out[d] = -_PI2_6 - 0.5 * np.log(-v) ** 2 - dilog(1.0 / v)
    return out


def spence(x):
    x = _f64(x)
    flat = x.reshape(-1)
    out = np.full(flat.shape, np.nan)
    valid = (flat >= 0) & np.isfinite(flat)
    out[valid] = dilog(1.0 - flat[valid])
    return out.reshape(x.shape)  # NaN at +inf, as TF


# --- the ops ----------------------------------------------------------------------------------------------------
def _rounded(fn):
    def kernel(x):
        dtype = np.asarray(x).dtype
        out = fn(x)
        return out.astype(dtype) if np.ndim(out) else dtype.type(out)
    return kernel


def _op(name, fn, doc):
    return register(OpDef(name, _rounded(fn), unary_infer("float"), elementwise=True, doc=doc))


bessel_j0_op = _op("bessel_j0", lambda x: bessel_jy(x)[0], "J0(x), the Bessel function of the first kind")
bessel_j1_op = _op("bessel_j1", lambda x: bessel_jy(x)[1], "J1(x), the Bessel function of the first kind")
bessel_y0_op = _op("bessel_y0", lambda x: bessel_jy(x)[2], "Y0(x), the Bessel function of the second kind")
def _y1(x):
    """Y1; TF's float32 kernel (Eigen's single-precision Y1) gives NaN at 0 where float64 gives -inf: so here."""
    out = bessel_jy(x)[3]
    if np.asarray(x).dtype.itemsize <= 4:
        out = np.where(np.asarray(x) == 0, np.nan, out)
    return out


bessel_y1_op = _op("bessel_y1", _y1, "Y1(x), the Bessel function of the second kind")
bessel_k0_op = _op("bessel_k0", lambda x: bessel_k(x, 0, False), "K0(x), the modified Bessel function, 2nd kind")
bessel_k0e_op = _op("bessel_k0e", lambda x: bessel_k(x, 0, True), "exp(x) K0(x)")
bessel_k1_op = _op("bessel_k1", lambda x: bessel_k(x, 1, False), "K1(x), the modified Bessel function, 2nd kind")
bessel_k1e_op = _op("bessel_k1e", lambda x: bessel_k(x, 1, True), "exp(x) K1(x)")
dawsn_op = _op("dawsn", dawson, "Dawson's integral exp(-x^2) int_0^x exp(t^2) dt")
expint_op = _op("expint", expint, "the exponential integral Ei(x)")
fresnel_cos_op = _op("fresnel_cos", lambda x: fresnel(x)[0], "the Fresnel integral int_0^x cos(pi t^2 / 2) dt")
fresnel_sin_op = _op("fresnel_sin", lambda x: fresnel(x)[1], "the Fresnel integral int_0^x sin(pi t^2 / 2) dt")
spence_op = _op("spence", spence, "Spence's function int_1^x ln t / (1 - t) dt")
