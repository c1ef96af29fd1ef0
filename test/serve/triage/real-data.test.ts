/**
 * The triage evidence of the real default store (stratified analysis) against values computed
 * here from the raw CSV files of data/vaers (plain parsing: gunzip, Windows-1252, csv-parse; no
 * project code), for ROTAVIRUS (ROTASHIELD) x Intussusception in 1999Q3, the LYMERIX pair and the
 * DTAP (CERTIVA) pair with the most reports in a window: n, lag quartiles (type 7), legal share,
 * onset n and median, serious share and deaths; the onset KS tests against SciPy's values for the
 * same samples (test/serve/triage/fixtures/scipy). Then the 2006Q4 queue: no LYMERIX, CERTIVA or
 * non-clinical-term pair stands above a pair without cautions; and the README's /triage commands
 * answer 200. Skips with a message without data/vaers (no default store).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultApp } from '../../helpers/default-app.js';
import { DEFAULT_STORE, hasDefaultStore } from '../../helpers/default-store.js';
import { REPO_ROOT } from '../../helpers/paths.js';
import { rawCsvRecords, type RawRecord } from '../../helpers/raw-csv.js';

const repoRoot = REPO_ROOT;
const VAERS = path.join(repoRoot, 'data/vaers');
const haveStore = hasDefaultStore('triage real-data test');

/**
 * The documented litigation wording (README "API: /triage"), whole words, any case: the words, or
 * "court" and "claim(s)" in legal context; "legal guardian" is not litigation.
 */
const LEGAL_WORD = /\b(legal(?!\s+guardians?\b)|lawsuits?|attorneys?|lawyers?|litigation|litigants?|plaintiffs?|sued|deposition|petitioners?)\b/i;
const LEGAL_CONTEXT = /\b(court of federal claims|court (order|ordered|orders|case|cases|decision|proceedings?|documents?|records?|hearing)|filed (an? )?(claim|petition)|claims? (was |were |has been |have been )?filed|(injury|legal|vaccine) claims?|vaccine injury compensation|vicp)\b/i;
const LEGAL = { test: (text: string): boolean => LEGAL_WORD.test(text) || LEGAL_CONTEXT.test(text) };

interface Raw { id: number; recv: Date; quarter: string; vax: Date | null; onset: Date | null; numdays: string; text: string; serious: boolean; died: boolean; vaccines: Set<string>; events: Set<string> }

function date(text: string | undefined): Date | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec((text ?? '').trim());
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[3]), Number(m[1]) - 1, Number(m[2])));
  return d.getUTCMonth() === Number(m[1]) - 1 && d.getUTCDate() === Number(m[2]) ? d : null;
}
const rows = (file: string): RawRecord[] => rawCsvRecords(path.join(VAERS, file));
const days = (a: Date, b: Date): number => Math.round((b.getTime() - a.getTime()) / 86_400_000);

/** Every kept report (first DATA row per VAERS_ID, a real RECVDATE, a VAX_NAME and a term). */
function readRaw(): Raw[] {
  const byId = new Map<number, Raw>();
  for (let year = 1990; year <= 2006; year++) {
    for (const r of rows(`${year}VAERSDATA.csv.gz`)) {
      const id = Number(r.VAERS_ID);
      const recv = date(r.RECVDATE);
      if (!Number.isInteger(id) || byId.has(id) || !recv) continue;
      const yes = (f: string): boolean => (r[f] ?? '').trim().toUpperCase() === 'Y';
      byId.set(id, {
        id, recv, quarter: `${recv.getUTCFullYear()}Q${Math.floor(recv.getUTCMonth() / 3) + 1}`, vax: date(r.VAX_DATE), onset: date(r.ONSET_DATE),
        numdays: (r.NUMDAYS ?? '').trim(), text: r.SYMPTOM_TEXT ?? '', serious: ['DIED', 'L_THREAT', 'HOSPITAL', 'X_STAY', 'DISABLE'].some(yes), died: yes('DIED'),
        vaccines: new Set(), events: new Set(),
      });
    }
  }
  for (let year = 1990; year <= 2006; year++) {
    for (const r of rows(`${year}VAERSVAX.csv.gz`)) if (r.VAX_NAME?.trim()) byId.get(Number(r.VAERS_ID))?.vaccines.add(r.VAX_NAME.trim());
    for (const r of rows(`${year}VAERSSYMPTOMS.csv.gz`)) {
      for (const k of [1, 2, 3, 4, 5]) if (r[`SYMPTOM${k}`]?.trim()) byId.get(Number(r.VAERS_ID))?.events.add(r[`SYMPTOM${k}`].trim());
    }
  }
  return [...byId.values()].filter((r) => r.vaccines.size > 0 && r.events.size > 0);
}

function q7(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const h = (sorted.length - 1) * p, lo = Math.floor(h);
  return lo + 1 < sorted.length ? sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]) : sorted[lo];
}

const WINDOW_OF = (quarter: string): string[] => {
  let y = Number(quarter.slice(0, 4)), q = Number(quarter[5]);
  const out: string[] = [];
  for (let k = 0; k < 4; k++) {
    out.push(`${y}Q${q}`);
    if (--q === 0) [y, q] = [y - 1, 4];
  }
  return out;
};

/** The evidence of a pair in a window, from the raw reports. */
function expected(raw: Raw[], vaccine: string, event: string, quarter: string) {
  const window = new Set(WINDOW_OF(quarter));
  const reports = raw.filter((r) => window.has(r.quarter) && r.vaccines.has(vaccine) && r.events.has(event));
  const lags = reports.flatMap((r) => (r.vax && days(r.vax, r.recv) >= 0 ? [days(r.vax, r.recv)] : [])).sort((a, b) => a - b);
  const onsets = reports.flatMap((r) => {
    const n = r.numdays === '' ? NaN : Number(r.numdays);
    const d = Number.isInteger(n) ? n : r.vax && r.onset ? days(r.vax, r.onset) : null;
    return d !== null && d >= 0 && d <= 60 ? [d] : [];
  }).sort((a, b) => a - b);
  // The delay from onset: ONSET_DATE, else VAX_DATE + NUMDAYS (a whole number >= 0), to RECVDATE.
  const onsetLags = reports.flatMap((r) => {
    const n = r.numdays === '' ? NaN : Number(r.numdays);
    const onset = r.onset ?? (r.vax && Number.isInteger(n) && n >= 0 ? new Date(r.vax.getTime() + n * 86_400_000) : null);
    return onset && days(onset, r.recv) >= 0 ? [days(onset, r.recv)] : [];
  }).sort((a, b) => a - b);
  return {
    n: reports.length, lag_median_days: q7(lags, 0.5), lag_q1_days: q7(lags, 0.25), lag_q3_days: q7(lags, 0.75),
    lag_share_over_365: lags.length ? lags.filter((d) => d > 365).length / lags.length : null,
    legal_share: reports.filter((r) => LEGAL.test(r.text)).length / reports.length,
    onset_n: onsets.length, onset_median_days: q7(onsets, 0.5),
    onset_lag_n: onsetLags.length, onset_lag_median_days: q7(onsetLags, 0.5), onset_lag_q1_days: q7(onsetLags, 0.25), onset_lag_q3_days: q7(onsetLags, 0.75),
    serious_share: reports.filter((r) => r.serious).length / reports.length, deaths: reports.filter((r) => r.died).length,
  };
}

async function storeRows(sql: string): Promise<Array<Record<string, unknown>>> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run(`ATTACH '${DEFAULT_STORE!.replace(/'/g, "''")}' AS store (READ_ONLY)`);
    return (await connection.runAndReadAll(sql)).getRowObjectsJS();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe.skipIf(!haveStore)('triage evidence on the real default store', () => {
  let raw: Raw[];
  let app: FastifyInstance;
  beforeAll(async () => {
    raw = readRaw();
    app = await defaultApp();
  }, 300_000);

  it('matches the raw files for three pairs (RotaShield 1999Q3, the largest LYMERIX and CERTIVA windows)', async () => {
    const pick = async (where: string): Promise<{ drug: string; event: string; quarter: string }> =>
      (await storeRows(`SELECT drug, event, quarter FROM store.quarterly WHERE analysis = 'stratified' AND ${where} ORDER BY n DESC, drug, event, quarter LIMIT 1`))[0] as never;
    const pairs = [
      { drug: 'ROTAVIRUS (ROTASHIELD)', event: 'Intussusception', quarter: '1999Q3' },
      await pick(`drug = 'LYME (LYMERIX)'`),
      await pick(`drug = 'DTAP (CERTIVA)' AND event = 'Nervous system disorder'`),
    ];
    for (const p of pairs) {
      const [row] = await storeRows(`SELECT * FROM store.quarterly WHERE analysis = 'stratified' AND drug = '${p.drug.replace(/'/g, "''")}' AND event = '${p.event}' AND quarter = '${p.quarter}'`);
      const want = expected(raw, p.drug, p.event, p.quarter);
      console.log(`triage evidence ${p.drug} x ${p.event} ${p.quarter}: ${JSON.stringify(want)}`);
      const got = Object.fromEntries(Object.keys(want).map((k) => [k, row[k] === null ? null : Number(row[k])]));
      for (const k of Object.keys(want) as Array<keyof typeof want>) {
        if (typeof want[k] === 'number' && !Number.isInteger(want[k])) expect(got[k], `${p.drug} ${k}`).toBeCloseTo(want[k] as number, 9);
        else expect(got[k], `${p.drug} ${k}`).toBe(want[k]);
      }
    }
  }, 300_000);

  it('the onset KS tests equal SciPy\'s ks_2samp (method auto) on the raw files\' samples (test/serve/triage/fixtures/scipy/onset_evidence.py)', async () => {
    const fixture = JSON.parse(readFileSync(path.join(repoRoot, 'test/serve/triage/fixtures/scipy/onset_evidence.json'), 'utf8')) as {
      pairs: Array<{ vaccine: string; event: string; quarter: string; onset_n: number; vs_other_vaccines: { d: number; p: number } | null; vs_other_events: { d: number; p: number } | null }>;
    };
    expect(fixture.pairs.length).toBe(3);
    for (const want of fixture.pairs) {
      const [row] = await storeRows(`SELECT * FROM store.quarterly WHERE analysis = 'stratified' AND drug = '${want.vaccine}' AND event = '${want.event}' AND quarter = '${want.quarter}'`);
      expect(Number(row.onset_n), want.vaccine).toBe(want.onset_n);
      for (const [test, d, p] of [['vs_other_vaccines', 'onset_d_other_vaccines', 'onset_p_other_vaccines'], ['vs_other_events', 'onset_d_other_events', 'onset_p_other_events']] as const) {
        const ks = want[test];
        if (ks === null) {
          expect([row[d], row[p]], `${want.vaccine} ${test}`).toEqual([null, null]);
        } else {
          expect(Math.abs(Number(row[d]) - ks.d), `${want.vaccine} ${test} d`).toBeLessThanOrEqual(1e-12);
          expect(Math.abs(Number(row[p]) - ks.p), `${want.vaccine} ${test} p`).toBeLessThanOrEqual(1e-12 * Math.max(ks.p, 1e-300) + 1e-300);
        }
      }
    }
  }, 120_000);

  it('2006Q4 (stratified): no LYMERIX, CERTIVA or non-clinical-term pair stands above a pair without cautions', async () => {
    const pairs: Array<{ vaccine: string; event: string; cautions: unknown[]; term_category: string | null }> = [];
    for (let offset = 0; ; offset += 500) {
      const body = (await app.inject({ url: `/triage?quarter=2006Q4&limit=500&offset=${offset}` })).json();
      expect(body.analysis).toBe('stratified');
      pairs.push(...body.pairs);
      if (pairs.length >= body.total) break;
    }
    const suspect = pairs.flatMap((p, i) => (/LYMERIX|CERTIVA/.test(p.vaccine) || p.term_category !== null ? [i] : []));
    const clean = pairs.flatMap((p, i) => (p.cautions.length === 0 ? [i] : []));
    expect(suspect.length).toBeGreaterThan(0);
    expect(clean.length).toBeGreaterThan(0);
    expect(Math.min(...suspect)).toBeGreaterThan(Math.max(...clean));
  }, 120_000);

  it('the /triage commands of docs/triage.md answer 200 on this store', async () => {
    const readme = readFileSync(path.join(repoRoot, 'docs', 'triage.md'), 'utf8');
    const urls = [...readme.matchAll(/^curl '(http:\/\/127\.0\.0\.1:8080\/(?:analyses\/[a-z]+\/)?triage[^']*)'$/gm)].map((m) => new URL(m[1]));
    expect(urls.length).toBe(4);
    for (const url of urls) expect([url.search, (await app.inject({ url: url.pathname + url.search })).statusCode]).toEqual([url.search, 200]);
  }, 120_000);
});
