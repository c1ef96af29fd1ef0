/**
 * The lag and onset breakdowns of /cases on the real default store for RotaShield x
 * Intussusception received in 1999, against an independent computation from the raw 1999 files
 * (gunzip and csv-parse only, no project code), and the KS test against SciPy's ks_2samp on the
 * same samples (test/serve/cases/fixtures/scipy/onset_rotashield_1999.py wrote the JSON from the raw
 * files). Skipped with a message when data/vaers or the default store is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultApp } from '../../helpers/default-app.js';
import { DEFAULT_STORE } from '../../helpers/default-store.js';
import { REPO_ROOT } from '../../helpers/paths.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const vaers = path.resolve(REPO_ROOT, 'data', 'vaers');
const present = existsSync(path.join(vaers, '1999VAERSDATA.csv.gz')) && DEFAULT_STORE !== null;
if (!present) console.warn(`/cases lag and onset real-data test skipped: ${vaers} or the default store is absent`);
const SCIPY = JSON.parse(readFileSync(path.join(here, 'fixtures', 'scipy', 'onset_rotashield_1999.json'), 'utf8'));

const VACCINE = 'ROTAVIRUS (ROTASHIELD)';
const EVENT = 'Intussusception';

/** Rows of a gzipped VAERS CSV of 1999 as objects by header (Windows-1252 read as latin1). */
function rows(kind: string): Array<Record<string, string>> {
  return parse(gunzipSync(readFileSync(path.join(vaers, `1999VAERS${kind}.csv.gz`))).toString('latin1'), { columns: true, relax_quotes: true, relax_column_count: true });
}

/** A MM/DD/YYYY cell as days since 1970-01-01, or null when blank or not a calendar date. */
function day(cell: string | undefined): number | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec((cell ?? '').trim());
  if (!m) return null;
  const [mm, dd, yyyy] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = Date.UTC(yyyy, mm - 1, dd);
  const d = new Date(t);
  return d.getUTCMonth() === mm - 1 && d.getUTCDate() === dd ? t / 86_400_000 : null;
}

interface Raw { recv: number; vax: number | null; onset: number | null; numdays: string; vaccines: Set<string>; events: Set<string> }

/** The kept 1999 reports (RECVDATE in 1999, a vaccine and an event; a repeated VAERS_ID keeps its first DATA row). */
function rawReports(): Raw[] {
  const byId = new Map<string, Raw & { recvOk: boolean }>();
  for (const r of rows('DATA')) {
    const id = r.VAERS_ID.trim();
    if (byId.has(id)) continue;
    const recv = day(r.RECVDATE);
    byId.set(id, { recv: recv ?? 0, recvOk: recv !== null && r.RECVDATE.trim().endsWith('1999'), vax: day(r.VAX_DATE), onset: day(r.ONSET_DATE),
      numdays: (r.NUMDAYS ?? '').trim(), vaccines: new Set(), events: new Set() });
  }
  for (const r of rows('VAX')) if (r.VAX_NAME?.trim()) byId.get(r.VAERS_ID.trim())?.vaccines.add(r.VAX_NAME.trim());
  for (const r of rows('SYMPTOMS')) for (let i = 1; i <= 5; i++) if (r[`SYMPTOM${i}`]?.trim()) byId.get(r.VAERS_ID.trim())?.events.add(r[`SYMPTOM${i}`].trim());
  return [...byId.values()].filter((r) => r.recvOk && r.vaccines.size > 0 && r.events.size > 0);
}

/** Onset days: NUMDAYS when a whole number >= 0, else ONSET_DATE - VAX_DATE when >= 0. */
function onset(r: Raw): number | null {
  const n = r.numdays === '' ? NaN : Number(r.numdays);
  if (Number.isInteger(n) && n >= 0) return n;
  return r.vax !== null && r.onset !== null && r.onset >= r.vax ? r.onset - r.vax : null;
}

function perDay(group: Raw[]): number[] {
  const days = new Array<number>(61).fill(0);
  for (const r of group) {
    const d = onset(r);
    if (d !== null && d <= 60) days[d]++;
  }
  return days;
}

describe.skipIf(!present)('/cases lag and onset on the real 1999 RotaShield x Intussusception reports', () => {
  let app: FastifyInstance;
  let raw: Raw[];
  beforeAll(async () => {
    app = await defaultApp();
    raw = rawReports();
  }, 300_000);

  it('counts per lag interval and per onset day, for the pair and the event after other vaccines, as the raw files give them; KS as SciPy', async () => {
    const res = await app.inject(`/cases?vaccine=${encodeURIComponent(VACCINE)}&event=${EVENT}&from=1999Q1&to=1999Q4&limit=1`);
    expect(res.statusCode).toBe(200);
    const body = JSON.parse(res.body);
    expect([body.vaccines, body.events]).toEqual([[VACCINE], [EVENT]]);
    const pair = raw.filter((r) => r.vaccines.has(VACCINE) && r.events.has(EVENT));
    const others = raw.filter((r) => !r.vaccines.has(VACCINE) && r.events.has(EVENT));
    expect(body.n_reports).toBe(pair.length);
    expect(pair.length).toBe(SCIPY.n_reports);
    const lagIntervals: Record<string, number> = { '0-7': 0, '8-30': 0, '31-90': 0, '91-365': 0, '366-730': 0, '731-1825': 0, '>1825': 0, unknown: 0 };
    for (const r of pair) {
      const lag = r.vax === null || r.recv < r.vax ? null : r.recv - r.vax;
      const key = lag === null ? 'unknown' : lag <= 7 ? '0-7' : lag <= 30 ? '8-30' : lag <= 90 ? '31-90' : lag <= 365 ? '91-365' : lag <= 730 ? '366-730' : lag <= 1825 ? '731-1825' : '>1825';
      lagIntervals[key]++;
    }
    const b = body.breakdowns;
    expect(b.lag_interval).toEqual(lagIntervals);
    expect(b.lag).toEqual(SCIPY.lag);
    const c = b.onset_comparison;
    expect(c.pair.days).toEqual(perDay(pair));
    expect(c.other_vaccines.days).toEqual(perDay(others));
    expect([c.pair.days, c.other_vaccines.days]).toEqual([SCIPY.pair.days, SCIPY.other_vaccines.days]);
    expect([c.pair.n, c.pair.median_days, c.other_vaccines.n, c.other_vaccines.median_days])
      .toEqual([SCIPY.pair.n, SCIPY.pair.median_days, SCIPY.other_vaccines.n, SCIPY.other_vaccines.median_days]);
    expect(c.ks.d).toBeCloseTo(SCIPY.ks.d, 12);
    expect(c.ks.p).toBeCloseTo(SCIPY.ks.p, 12);
  });
});
