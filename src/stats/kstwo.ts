/**
 * The distribution of the one-sample two-sided Kolmogorov-Smirnov statistic D_n for a finite
 * sample size n, as SciPy computes its survival function `scipy.stats.kstwo.sf(d, n)` (SciPy
 * 1.17, `scipy/stats/_ksstats.py` `_kolmogn`, and `scipy.special.smirnov` from xsf
 * `cephes/kolmogorov.h`), following Simard and L'Ecuyer 2011, "Computing the Two-Sided
 * Kolmogorov-Smirnov Distribution", Journal of Statistical Software 39(11):1-18.
 * `ks2samp` (./ks.ts) uses it for its asymptotic p-value, `kstwo.sf(D, round(m n / (m + n)))`.
 *
 * Method, by t = n d and n d^2 (as `_kolmogn` chooses):
 * - d >= 1: 0; t <= 1/2: 1;
 * - 1/2 < t <= 1 (Ruben and Gambino 1982): P(D_n <= d) = n!/n^n (2t - 1)^n;
 * - t >= n - 1: P(D_n >= d) = 2 (1 - d)^n;
 * - d >= 1/2: P(D_n >= d) = 2 P(D_n+ >= d) (the one-sided {@link smirnov});
 * - n <= 140: Durbin's matrix (Marsaglia, Tsang and Wang 2003) when n d^2 <= 0.754693, Pomeranz's
 *   recursion (1974) when n d^2 <= 4, else 2 smirnov;
 * - n > 140: 0 when n d^2 >= 370, 2 smirnov when n d^2 >= 2.2, else 1 - the CDF by Durbin's
 *   matrix (n <= 100000 and n d^1.5 <= 1.4) or the Pelz-Good (1976) expansion.
 * The smirnov sum (Birnbaum and Tingey 1951) is taken here in logarithms in double precision
 * (xsf uses double-double); measured against SciPy in test/stats/fixtures/scipy.
 */
const E128 = 2 ** 128;
const EM128 = 2 ** -128;
const MIN_LOG = -708;
/** xsf's MINLOG, log(2^-1022). */
const XSF_MINLOG = -708.3964185322641;
/** Stirling series coefficients B_2j / (2j (2j - 1)), j = 8 down to 1. */
const STIRLING = [-3617 / 122400, 1 / 156, -691 / 360360, 1 / 1188, -1 / 1680, 1 / 1260, -1 / 360, 1 / 12];

const clip = (p: number): number => Math.min(1, Math.max(0, p));

/**
 * `scipy.special.smirnov(n, d)`: P(D_n+ >= d), the one-sided one-sample statistic, for n >= 1 and
 * 0 <= d <= 1: `d * sum_{j=0}^{floor(n(1-d))} C(n,j) (d + j/n)^(j-1) (1 - d - j/n)^(n-j)`, with
 * xsf's special cases (n = 1: 1 - d; d <= 1/n: 1 - d (1 + d)^(n-1); d >= 1 - 1/n: (1 - d)^n;
 * -2 n d^2 below log(2^-1022): 0). NaN outside the domain (internal; callers keep to it).
 * Example: smirnov(5, 0.5) = 0.056 (SciPy: 0.056).
 */
export function smirnov(n: number, d: number): number {
  if (!(n > 0 && d >= 0 && d <= 1)) return NaN;
  if (n === 1) return 1 - d;
  if (d === 0) return 1;
  if (d === 1) return 0;
  const nx = n * d;
  let nxfl = Math.floor(nx);
  let alpha = nx - nxfl;
  if (alpha === 1) { nxfl += 1; alpha = 0; }
  if (nxfl === 0 || (nxfl === 1 && alpha === 0)) return clip(1 - d * Math.pow(1 + d, n - 1));
  if (-2 * n * d * d < XSF_MINLOG) return 0;
  if (nxfl >= n - 1) return clip(Math.pow(1 - d, n));
  // Lower sum, j = 0 .. n - nxfl - 1 (the j = n - nxfl term is 0 when n d is whole).
  const last = n - nxfl - 1;
  let sum = Math.pow(1 - d, n) / d; // j = 0: (1 - d)^n / d
  let logBinomial = 0;
  for (let j = 1; j <= last; j++) {
    logBinomial += Math.log((n - j + 1) / j);
    const term = Math.exp(logBinomial + (j - 1) * Math.log(d + j / n) + (n - j) * Math.log1p(-d - j / n));
    sum += term;
    if (term !== 0 && 4 * (last + 1 - j) * term < Number.EPSILON * sum && j !== last) break;
    if (term === 0 && j > n / 2) break;
  }
  return clip(d * sum);
}

/** log(n! / n^n) by Stirling's series (SciPy `_log_nfactorial_div_n_pow_n`). */
function logFactorialOverPower(n: number): number {
  const rn = 1 / n;
  let poly = 0;
  for (const c of STIRLING) poly = poly * (rn / n) + c;
  return Math.log(n) / 2 - n + Math.log(2 * Math.PI) / 2 + rn * poly;
}

/** Square matrix product of two m x m row-major matrices. */
function matmul(a: Float64Array<ArrayBuffer>, b: Float64Array<ArrayBuffer>, m: number): Float64Array<ArrayBuffer> {
  const out = new Float64Array(m * m);
  for (let i = 0; i < m; i++) {
    for (let k = 0; k < m; k++) {
      const aik = a[i * m + k];
      if (aik === 0) continue;
      for (let j = 0; j < m; j++) out[i * m + j] += aik * b[k * m + j];
    }
  }
  return out;
}

/** P(D_n <= d) by Durbin's matrix, powered as Marsaglia, Tsang and Wang 2003 (SciPy `_kolmogn_DMTW`). */
function cdfDurbin(n: number, d: number): number {
  if (d >= 1) return 1;
  const nd = n * d;
  if (nd <= 0.5) return 0;
  const k = Math.ceil(nd);
  const h = k - nd;
  const m = 2 * k - 1;
  const v = new Float64Array(m);
  const w = new Float64Array(m);
  let fac = 1;
  for (let j = 1; j <= m; j++) {
    w[j - 1] = fac;
    fac /= j;
    v[j - 1] = (1 - Math.pow(h, j)) * fac;
  }
  v[m - 1] = (1 + Math.pow(Math.max(2 * h - 1, 0), m) - 2 * Math.pow(h, m)) * fac;
  let H = new Float64Array(m * m);
  for (let i = 1; i < m; i++) for (let r = i - 1; r < m; r++) H[r * m + i] = w[r - i + 1];
  for (let r = 0; r < m; r++) H[r * m] = v[r];
  for (let c = 0; c < m; c++) H[(m - 1) * m + c] = v[m - 1 - c];
  let power = new Float64Array(m * m);
  for (let i = 0; i < m; i++) power[i * m + i] = 1;
  let exponent = 0;
  let hExponent = 0;
  for (let rest = n; rest > 0; rest = Math.floor(rest / 2)) {
    if (rest % 2) { power = matmul(power, H, m); exponent += hExponent; }
    H = matmul(H, H, m);
    hExponent *= 2;
    if (Math.abs(H[(k - 1) * m + k - 1]) > E128) {
      for (let i = 0; i < H.length; i++) H[i] /= E128;
      hExponent += 128;
    }
  }
  let p = power[(k - 1) * m + k - 1];
  for (let i = 1; i <= n; i++) {
    p = (i * p) / n;
    if (Math.abs(p) < EM128) { p *= E128; exponent -= 128; }
  }
  return clip(p * Math.pow(2, exponent));
}

/** Row bounds of Pomeranz's recursion (SciPy `_pomeranz_compute_j1j2`). */
function pomeranzBounds(i: number, n: number, ll: number, ceilf: number, roundf: number): [number, number] {
  let j1: number, j2: number;
  if (i === 0) {
    j1 = -ll - ceilf - 1; j2 = ll + ceilf - 1;
  } else {
    const half = Math.floor((i + 1) / 2);
    if ((i + 1) % 2 === 0) {
      if (half === n + 1) { j1 = n - ll - ceilf - 1; j2 = n + ll + ceilf - 1; }
      else { j1 = half - 1 - ll - roundf - 1; j2 = half + ll - 1 + ceilf - 1; }
    } else {
      j1 = half - 1 - ll - 1; j2 = half + ll + roundf - 1;
    }
  }
  return [Math.max(j1 + 2, 0), Math.min(j2, n)];
}

/** P(D_n <= d) by Pomeranz's recursion (SciPy `_kolmogn_Pomeranz`). */
function cdfPomeranz(n: number, d: number): number {
  const t = n * d;
  const ll = Math.floor(t);
  const f = t - ll;
  const g = Math.min(f, 1 - f);
  const ceilf = f > 0 ? 1 : 0;
  const roundf = f > 0.5 ? 1 : 0;
  const size = 2 * (ll + 1);
  const gPow = new Float64Array(size), twoGPow = new Float64Array(size), oneMinusPow = new Float64Array(size);
  gPow[0] = twoGPow[0] = oneMinusPow[0] = 1;
  for (let k = 1; k < size; k++) {
    gPow[k] = (gPow[k - 1] * (g / n)) / k;
    twoGPow[k] = (twoGPow[k - 1] * ((2 * g) / n)) / k;
    oneMinusPow[k] = (oneMinusPow[k - 1] * ((1 - 2 * g) / n)) / k;
  }
  let V0 = new Float64Array(size);
  let V1 = new Float64Array(size);
  V1[0] = 1;
  let V0s = 0, V1s = 0, exponent = 0;
  let j1 = pomeranzBounds(0, n, ll, ceilf, roundf)[0];
  let j2: number;
  for (let i = 1; i < 2 * n + 2; i++) {
    const k1 = j1;
    [V0, V1] = [V1, V0];
    [V0s, V1s] = [V1s, V0s];
    V1.fill(0);
    [j1, j2] = pomeranzBounds(i, n, ll, ceilf, roundf);
    const pw = i === 1 || i === 2 * n + 1 ? gPow : i % 2 ? twoGPow : oneMinusPow;
    const len = j2 - k1 + 1;
    if (len > 0) {
      const start = k1 - V0s;
      const a = V0.subarray(start, Math.min(start + len, size));
      const b = pw.subarray(0, Math.min(len, size));
      const from = j1 - k1;
      const count = j2 - j1 + 1;
      let max = 0;
      for (let c = 0; c < count; c++) {
        const idx = from + c;
        let s = 0;
        for (let q = Math.max(0, idx - b.length + 1); q <= Math.min(idx, a.length - 1); q++) s += a[q] * b[idx - q];
        V1[c] = s;
        if (s > max) max = s;
      }
      if (max > 0 && max < EM128) { for (let c = 0; c < size; c++) V1[c] *= E128; exponent -= 128; }
      V1s = V0s + j1 - k1;
    }
  }
  let answer = V1[n - V1s];
  for (let k = 1; k <= n; k++) {
    if (Math.abs(answer) > E128) { answer *= EM128; exponent += 128; }
    answer *= k;
  }
  return clip(answer * Math.pow(2, exponent));
}

/** P(D_n <= d) by the Pelz-Good (1976) expansion (SciPy `_kolmogn_PelzGood`). */
function cdfPelzGood(n: number, d: number): number {
  if (d <= 0) return 0;
  if (d >= 1) return 1;
  const z = Math.sqrt(n) * d;
  const z2 = z * z, z3 = z2 * z, z4 = z2 * z2, z6 = z4 * z2;
  const pi2 = Math.PI ** 2, pi4 = Math.PI ** 4, pi6 = Math.PI ** 6;
  const qlog = -pi2 / 8 / z2;
  if (qlog < MIN_LOG) return 0;
  let q = Math.exp(qlog);
  const k1a = -z2, k1b = pi2 / 4;
  const k2a = 6 * z6 + 2 * z4, k2b = ((2 * z4 - 5 * z2) * pi2) / 4, k2c = (pi4 * (1 - 2 * z2)) / 16;
  const k3d = (pi6 * (5 - 30 * z2)) / 64, k3c = (pi4 * (-60 * z2 + 212 * z4)) / 16;
  const k3b = (pi2 * (135 * z4 - 96 * z6)) / 4, k3a = -30 * z6 - 90 * z ** 8;
  const K = [0, 0, 0, 0];
  const maxk = Math.ceil((16 * z) / Math.PI);
  for (let k = maxk; k > 0; k--) {
    const m = 2 * k - 1, m2 = m * m, m4 = m2 * m2, m6 = m4 * m2;
    const qp = Math.pow(q, 8 * k);
    const coeffs = [1, k1a + k1b * m2, k2a + k2b * m2 + k2c * m4, k3a + k3b * m2 + k3c * m4 + k3d * m6];
    for (let i = 0; i < 4; i++) K[i] = K[i] * qp + coeffs[i];
  }
  const sqrt2pi = Math.sqrt(2 * Math.PI);
  const divisors = [z, 6 * z4, 72 * z ** 7, 6480 * z ** 10];
  for (let i = 0; i < 4; i++) K[i] = (K[i] * q * sqrt2pi) / divisors[i];
  q = Math.exp(-pi2 / 2 / z2);
  let k2extra = 0, k3extra = 0;
  const sqrt3z = Math.sqrt(3) * z;
  for (let k = maxk; k > 0; k--) {
    const qk = Math.pow(q, k * k);
    k2extra += k * k * qk;
    k3extra += (sqrt3z + Math.PI * k) * (sqrt3z - Math.PI * k) * k * k * qk;
  }
  K[2] += (k2extra * pi2 * sqrt2pi) / (-36 * z3);
  K[3] += (k3extra * pi2 * sqrt2pi) / (216 * z6);
  let sum = 0;
  for (let i = 0; i < 4; i++) sum += K[i] / Math.pow(n, i / 2);
  return sum;
}

/**
 * `scipy.stats.kstwo.sf(d, n)`: P(D_n >= d) for the one-sample two-sided statistic D_n with a
 * whole n >= 1 and any d (1 for d <= 1/(2n), 0 for d >= 1). Null for n not a whole number >= 1
 * or d not finite. Example: kstwoSf(0.5, 5) = 0.112 (2 smirnov(5, 0.5); SciPy: 0.112).
 */
export function kstwoSf(d: number, n: number): number | null {
  if (!Number.isInteger(n) || n < 1 || !Number.isFinite(d)) return null;
  if (d >= 1) return 0;
  if (d <= 0) return 1;
  const t = n * d;
  if (t <= 1) {
    if (t <= 0.5) return 1;
    let cdf: number;
    if (n <= 140) {
      cdf = 1;
      for (let i = 1; i <= n; i++) cdf *= i * (1 / n) * (2 * t - 1);
    } else {
      cdf = Math.exp(logFactorialOverPower(n) + n * Math.log(2 * t - 1));
    }
    return clip(1 - cdf);
  }
  if (t >= n - 1) return clip(2 * Math.pow(1 - d, n));
  if (d >= 0.5) return clip(2 * smirnov(n, d));
  const nd2 = t * d;
  if (n <= 140) {
    if (nd2 <= 0.754693) return clip(1 - cdfDurbin(n, d));
    if (nd2 <= 4) return clip(1 - cdfPomeranz(n, d));
    return clip(2 * smirnov(n, d));
  }
  if (nd2 >= 370) return 0;
  if (nd2 >= 2.2) return clip(2 * smirnov(n, d));
  const cdf = nd2 >= 18 ? 1 : n <= 100000 && n * Math.pow(d, 1.5) <= 1.4 ? cdfDurbin(n, d) : cdfPelzGood(n, d);
  return clip(1 - cdf);
}
