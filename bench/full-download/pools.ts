/**
 * The real VAERSVAX and VAERSSYMPTOMS rows of 2007-2025 (../shared/data/vaers-vax-symptoms,
 * SOURCES.md there) grouped into reports, the pools the synthetic full-size download resamples.
 * A report of a pool is the VAX rows and SYMPTOMS rows of one VAERS_ID, each in the output
 * layout (VAX: the current 8 columns; SYMPTOMS: the 11; the id cell left for the writer).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';

/** The output headers (the current layout); 2025 adds `ORDER` to both. */
export const VAX_HEADER = ['VAERS_ID', 'VAX_TYPE', 'VAX_MANU', 'VAX_LOT', 'VAX_DOSE_SERIES', 'VAX_ROUTE', 'VAX_SITE', 'VAX_NAME'];
export const SYMPTOMS_HEADER = ['VAERS_ID', ...[1, 2, 3, 4, 5].flatMap((k) => [`SYMPTOM${k}`, `SYMPTOMVERSION${k}`])];

/** One real report: its rows without the id cell (ORDER last when the file has it), COVID-19 when a VAX row's VAX_TYPE is COVID19. */
export interface PoolReport {
  id: number;
  vax: string[][];
  symptoms: string[][];
  covid: boolean;
  /** The report's first VAX_NAME and SYMPTOM terms, for the synthetic narrative. */
  vaccine: string;
  terms: string[];
}

/** The real file of a year and kind, or null (the `.partial` names too). */
function realFile(dir: string, year: number, kind: 'VAX' | 'SYMPTOMS'): string | null {
  for (const name of [`${year}VAERS${kind}.csv.gz`, `${year}VAERS${kind}.partial.csv.gz`]) {
    if (existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  return null;
}

/** The records of a gzipped Windows-1252 CSV, by header name. */
function records(file: string): Record<string, string>[] {
  return parse(iconv.decode(gunzipSync(readFileSync(file)), 'win1252'), { columns: true, relax_column_count: true }) as Record<string, string>[];
}

/**
 * The reports of one real year with both a VAX and a SYMPTOMS file (null when either is absent),
 * in id order. `withOrder` keeps the `ORDER` cell last on every row (the 2025 release).
 */
export function readPool(dir: string, year: number, withOrder: boolean): PoolReport[] | null {
  const vaxFile = realFile(dir, year, 'VAX');
  const symptomsFile = realFile(dir, year, 'SYMPTOMS');
  if (!vaxFile || !symptomsFile) return null;
  const byId = new Map<number, PoolReport>();
  const of = (id: number): PoolReport => {
    let r = byId.get(id);
    if (!r) byId.set(id, (r = { id, vax: [], symptoms: [], covid: false, vaccine: '', terms: [] }));
    return r;
  };
  const order = (row: Record<string, string>): string[] => (withOrder ? [row.ORDER ?? '1'] : []);
  for (const row of records(vaxFile)) {
    const r = of(Number(row.VAERS_ID));
    r.vax.push([row.VAX_TYPE, row.VAX_MANU, row.VAX_LOT, row.VAX_DOSE_SERIES ?? row.VAX_DOSE ?? '', row.VAX_ROUTE, row.VAX_SITE, row.VAX_NAME, ...order(row)]
      .map((c) => c ?? ''));
    if (row.VAX_TYPE === 'COVID19') r.covid = true;
    if (!r.vaccine && row.VAX_NAME) r.vaccine = row.VAX_NAME;
  }
  for (const row of records(symptomsFile)) {
    const r = of(Number(row.VAERS_ID));
    r.symptoms.push([...SYMPTOMS_HEADER.slice(1).map((name) => row[name] ?? ''), ...order(row)]);
    for (const k of [1, 2, 3, 4, 5]) if (row[`SYMPTOM${k}`] && r.terms.length < 4) r.terms.push(row[`SYMPTOM${k}`]);
  }
  return [...byId.values()].filter((r) => r.vax.length > 0 && r.symptoms.length > 0).sort((a, b) => a.id - b.id);
}
