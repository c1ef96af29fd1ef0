/**
 * Hand-worked 2x2 tables for PRR (+ Yates chi-square), ROR, IC and the flags
 * (docs/design.md "Statistics, precisely").
 */
import gammainc from '@stdlib/math-base-special-gammainc';
import { describe, expect, it } from 'vitest';
import { ic } from '../../src/stats/bcpnn.js';
import { flags } from '../../src/stats/flags.js';
import { prr, yatesChiSquare } from '../../src/stats/prr.js';
import { ror } from '../../src/stats/ror.js';

/** Relative closeness: |actual - expected| <= tol * |expected|. */
function close(actual: number | null, expected: number, tol: number): void {
  expect(actual).not.toBeNull();
  expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(tol * Math.abs(expected));
}

// CALCIUM / DYSPHAGIA in caers (docs/reference-data.md): n = 11, n_vaccine (CALCIUM reports) = 43,
// n_event (DYSPHAGIA reports) = 285, N = 3356, so a = 11, b = 43 - 11 = 32, c = 285 - 11 = 274,
// d = 3356 - 11 - 32 - 274 = 3039; E = 43 * 285 / 3356 = 3.651668653.
const [a, b, c, d] = [11, 32, 274, 3039];

describe('ROR (van Puijenbroek 2002; docs/design.md statistics)', () => {
  it('CALCIUM/DYSPHAGIA: ROR 3.8126 (95% CI 1.9007 to 7.6478) as docs/reference-data.md prints', () => {
    // ROR = a d / (b c) = 11 * 3039 / (32 * 274) = 33429 / 8768 = 3.812614...
    // se = sqrt(1/11 + 1/32 + 1/274 + 1/3039) = 0.355158...; CI = ROR * exp(-+z se) with
    // z = qnorm(0.975) = 1.959964: 1.900689 .. 7.647766 (z = 1.96 would give 7.647863 -> '7.6479')
    const result = ror(a, b, c, d);
    close(result.ror, 33429 / 8768, 1e-15);
    expect(result.ror!.toFixed(4)).toBe('3.8126');
    expect(result.ror_lci!.toFixed(4)).toBe('1.9007');
    expect(result.ror_uci!.toFixed(4)).toBe('7.6478');
    const se = Math.sqrt(1 / 11 + 1 / 32 + 1 / 274 + 1 / 3039);
    close(result.ror_lci, (33429 / 8768) * Math.exp(-1.959963984540054 * se), 1e-14);
    close(result.ror_uci, 7.64776567329878, 1e-13);
  });

  it('is null when b = 0 or c = 0; the CI is null when a cell is 0', () => {
    expect(ror(5, 0, 3, 10)).toEqual({ ror: null, ror_lci: null, ror_uci: null });
    expect(ror(5, 3, 0, 10)).toEqual({ ror: null, ror_lci: null, ror_uci: null });
    expect(ror(5, 3, 2, 0)).toEqual({ ror: 0, ror_lci: null, ror_uci: null });
  });
});

describe('PRR (Evans 2001; docs/design.md statistics)', () => {
  it('CALCIUM/DYSPHAGIA: PRR = (11/43)/(274/3313) with the log-scale CI', () => {
    // PRR = 0.255814 / 0.082705 = 3.0931081...; se = sqrt(1/11 - 1/43 + 1/274 - 1/3313) = 0.2664603
    // CI = 3.0931081 * exp(-+1.959964 * 0.2664603)
    const result = prr(a, b, c, d);
    close(result.prr, (11 / 43) / (274 / 3313), 1e-15);
    const se = Math.sqrt(1 / 11 - 1 / 43 + 1 / 274 - 1 / 3313);
    close(result.prr_lci, ((11 / 43) / (274 / 3313)) * Math.exp(-1.959963984540054 * se), 1e-14);
    close(result.prr_uci, ((11 / 43) / (274 / 3313)) * Math.exp(1.959963984540054 * se), 1e-14);
  });

  it('a small table: a=5, b=10, c=20, d=65 gives PRR (5/15)/(20/85) = 17/12', () => {
    close(prr(5, 10, 20, 65).prr, 17 / 12, 1e-15);
    close(ror(5, 10, 20, 65).ror, 1.625, 1e-15); // 5 * 65 / (10 * 20)
  });

  it('is null when c = 0 or c + d = 0; b = 0 is defined (a/(a+b) = 1)', () => {
    expect(prr(5, 3, 0, 10)).toEqual({ prr: null, prr_lci: null, prr_uci: null });
    expect(prr(5, 3, 0, 0).prr).toBeNull();
    close(prr(4, 0, 2, 18).prr, 1 / (2 / 20), 1e-15);
  });
});

describe("Yates chi-square, R's chisq.test(correct = TRUE) convention (docs/design.md statistics)", () => {
  it('CALCIUM/DYSPHAGIA: 14.217 as docs/reference-data.md prints', () => {
    // Expected cells: 43*285/3356 = 3.651669, 43*3071/3356 = 39.348331, 3313*285/3356 = 281.348331,
    // 3313*3071/3356 = 3031.651669; |O - E| = 7.348331 in every cell, correction min(0.5, 7.35) = 0.5;
    // statistic = (7.348331 - 0.5)^2 * (1/3.651669 + 1/39.348331 + 1/281.348331 + 1/3031.651669)
    //           = 46.899642 * 0.303146 = 14.217421
    const statistic = yatesChiSquare(a, b, c, d);
    close(statistic, 46.89964223613161 * 0.3031456136097081, 1e-12);
    expect(statistic!.toFixed(3)).toBe('14.217');
  });

  it('a=5, b=10, c=20, d=65: (1.25 - 0.5)^2 * (1/3.75 + 1/11.25 + 1/21.25 + 1/63.75) = 4/17', () => {
    close(yatesChiSquare(5, 10, 20, 65), 4 / 17, 1e-14);
  });

  it('the correction is min(0.5, |O - E|): |O - E| = 0.1 gives exactly 0', () => {
    // rows 10, 90; columns 29, 71; E_a = 10 * 29 / 100 = 2.9, |3 - 2.9| = 0.1, so YATES = 0.1
    expect(yatesChiSquare(3, 7, 26, 64)).toBeCloseTo(0, 14);
  });

  it('is null when a row or column total is 0', () => {
    expect(yatesChiSquare(5, 0, 3, 0)).toBeNull(); // column b + d = 0
    expect(yatesChiSquare(5, 3, 0, 0)).toBeNull(); // row c + d = 0
  });
});

describe('IC with shrinkage (Noren, Hopstadius and Bate 2013; docs/design.md statistics)', () => {
  it('CALCIUM/DYSPHAGIA: IC = log2(11.5 / 4.151669) = 1.469871; IC025/IC975 are Gamma(11.5, 4.151669) quantiles', () => {
    const E = (43 * 285) / 3356;
    const result = ic(11, E);
    close(result.ic, 1.4698706500106693, 1e-14);
    // Independent check: the regularized incomplete gamma at the quantiles gives 2.5% and 97.5%.
    expect(gammainc(2 ** result.ic025 * (E + 0.5), 11.5)).toBeCloseTo(0.025, 12);
    expect(gammainc(2 ** result.ic975 * (E + 0.5), 11.5)).toBeCloseTo(0.975, 12);
    expect(result.ic025).toBeLessThan(result.ic);
    expect(result.ic975).toBeGreaterThan(result.ic);
  });

  it('shape 1 is exponential: n = 0.5, E = 0.5 gives IC025 = log2(-ln 0.975) = -5.3037037', () => {
    const result = ic(0.5, 0.5);
    close(result.ic, 0, 1);
    close(result.ic025, -5.303703688132139, 1e-12);
    close(result.ic975, 1.8831826451472506, 1e-12);
  });

  it('throws for E <= 0', () => {
    expect(() => ic(1, 0)).toThrow(/E > 0/);
  });
});

describe('flags (docs/design.md statistics: GPS eb05 >= 2, PRR prr >= 2 & chisq >= 4 & n >= 3, ROR lci > 1 & n >= 3, IC ic025 > 0)', () => {
  const none = { n: 3, eb05: null, prr: null, prr_chisq: null, ror_lci: null, ic025: null };
  it('null statistics never flag', () => {
    expect(flags(none)).toEqual({ gps: false, prr: false, ror: false, ic: false, n_methods_flagged: 0, is_signal_any: false });
  });
  it('boundaries: eb05 = 2 flags, prr = 2 with chisq = 4 and n = 3 flags, ror_lci = 1 and ic025 = 0 do not', () => {
    expect(flags({ ...none, eb05: 2 }).gps).toBe(true);
    expect(flags({ ...none, eb05: 1.999 }).gps).toBe(false);
    expect(flags({ ...none, prr: 2, prr_chisq: 4 }).prr).toBe(true);
    expect(flags({ ...none, n: 2, prr: 2, prr_chisq: 4 }).prr).toBe(false);
    expect(flags({ ...none, prr: 2, prr_chisq: 3.99 }).prr).toBe(false);
    expect(flags({ ...none, ror_lci: 1 }).ror).toBe(false);
    expect(flags({ ...none, ror_lci: 1.01 }).ror).toBe(true);
    expect(flags({ ...none, n: 2, ror_lci: 1.01 }).ror).toBe(false);
    expect(flags({ ...none, ic025: 0 }).ic).toBe(false);
    expect(flags({ ...none, ic025: 1e-9 }).ic).toBe(true);
  });
  it('counts the four flags', () => {
    const all = flags({ n: 3, eb05: 2, prr: 2, prr_chisq: 4, ror_lci: 1.5, ic025: 0.1 });
    expect(all.n_methods_flagged).toBe(4);
    expect(all.is_signal_any).toBe(true);
  });
});
