/**
 * The synthetic full-size VAERS download (issue 29), deterministic for a seed:
 * - 1990-2006: the real files of data/vaers, copied unchanged;
 * - 2007-2024: the real VAX and SYMPTOMS rows of ../shared/data/vaers-vax-symptoms, whole reports
 *   resampled (every report of the pool once, then draws with replacement) to the yearly volumes
 *   below under new VAERS_IDs, each with a synthetic VAERSDATA row (data-rows.ts) received in that
 *   year; years without real files borrow the nearest years' reports (no COVID-19 report before
 *   December 2020); 2021 and 2022 draw COVID-19 reports at the surge's share;
 * - 2025: the real 2025 rows as they are, `ORDER` versions and ids included, one synthetic
 *   VAERSDATA row per id.
 * Written as plain CSV (`<YEAR>VAERS{DATA,VAX,SYMPTOMS}.csv`, Windows-1252) into a folder outside
 * the repository, with `MANIFEST.json` (parameters, per-year reports and rows).
 */
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';
import { random } from '../prng.js';
import { csvLine, DATA_HEADER, dataRow } from './data-rows.js';
import { readPool, SYMPTOMS_HEADER, VAX_HEADER, type PoolReport } from './pools.js';

/**
 * Domestic reports per year of the plan (approximate published volumes of the VAERSDATA files,
 * the 2021 COVID-19 surge about 750,000), the real years whose reports are drawn, and the share of
 * COVID-19 reports drawn (else the pools' own mix). With 1990-2006 (203,446) and the real 2025 ids
 * (34,052) the whole is about 2.15 million reports.
 */
export const YEAR_PLAN: Record<number, { reports: number; pools: number[]; covidShare?: number }> = {
  2007: { reports: 28_000, pools: [2007] }, 2008: { reports: 29_500, pools: [2008] }, 2009: { reports: 36_500, pools: [2009] },
  2010: { reports: 33_000, pools: [2010] }, 2011: { reports: 27_500, pools: [2011] }, 2012: { reports: 28_500, pools: [2012] },
  2013: { reports: 30_500, pools: [2013] }, 2014: { reports: 33_500, pools: [2014] }, 2015: { reports: 45_500, pools: [2015] },
  2016: { reports: 47_000, pools: [2015, 2017] }, 2017: { reports: 39_000, pools: [2017] }, 2018: { reports: 47_500, pools: [2017, 2020] },
  2019: { reports: 46_500, pools: [2017, 2020] }, 2020: { reports: 49_000, pools: [2020] },
  2021: { reports: 750_000, pools: [2020, 2023, 2024], covidShare: 0.9 }, 2022: { reports: 380_000, pools: [2020, 2023, 2024], covidShare: 0.75 },
  2023: { reports: 150_000, pools: [2023] }, 2024: { reports: 110_000, pools: [2024] },
};
/** The year kept as the real files give it (ORDER versions). */
const REAL_YEAR = 2025;
/** First synthetic VAERS_ID (above every id of 1990-2006); ids of the real 2025 files are skipped. */
const FIRST_ID = 300_000;
/** Share of COVID-19 reports per month of 2021 (the surge of the first half), in twelfths. */
const COVID_2021_MONTHS = [10, 12, 14, 13, 11, 9, 7, 7, 6, 5, 4, 3];

/** Options of `generateDownload`. */
export interface DownloadOptions {
  /** The folder written (created; must not hold VAERS files already). */
  out: string;
  /** data/vaers of the repository (1990-2006) and ../shared/data/vaers-vax-symptoms. */
  oldYears: string;
  realRows: string;
  seed?: number;
  /** Share of each generated year's volume (and of the 2025 ids) written, for quick runs; default 1. */
  fraction?: number;
  /** The years written, inclusive; default 1990-2025. */
  from?: number;
  to?: number;
}

/** What was written: per year the reports (DATA rows), VAX rows and SYMPTOMS rows, and the bytes. */
export interface DownloadManifest {
  seed: number;
  fraction: number;
  years: Record<number, { reports: number; vaxRows: number; symptomsRows: number; bytes: number; real: boolean }>;
  reports: number;
  bytes: number;
}

/** A CSV file written through a buffer (Windows-1252 = latin1 for these cells), with backpressure. */
class CsvOut {
  private readonly stream: WriteStream;
  private buffer = '';
  bytes = 0;
  rows = 0;
  constructor(file: string, header: string[]) {
    this.stream = createWriteStream(file);
    this.buffer = csvLine(header);
  }
  async row(cells: readonly string[]): Promise<void> {
    this.buffer += csvLine(cells);
    this.rows++;
    if (this.buffer.length > 1 << 20) await this.flush();
  }
  private async flush(): Promise<void> {
    const chunk = Buffer.from(this.buffer, 'latin1');
    this.bytes += chunk.length;
    this.buffer = '';
    if (!this.stream.write(chunk)) await new Promise<void>((resolve) => this.stream.once('drain', () => resolve()));
  }
  async close(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => this.stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }
}

const dayOf = (y: number, m: number, d: number): number => Date.UTC(y, m, d) / 86_400_000;

/** The receipt day of a report drawn for `year` (COVID-19 reports: December in 2020, the surge's months in 2021). */
function receiptDay(year: number, report: PoolReport, uniform: () => number): number {
  if (report.covid && year === 2020) return dayOf(2020, 11, 14) + Math.floor(uniform() * 18);
  if (report.covid && year === 2021) {
    let u = uniform() * COVID_2021_MONTHS.reduce((a, b) => a + b, 0);
    let month = 0;
    while (u >= COVID_2021_MONTHS[month]) u -= COVID_2021_MONTHS[month++];
    return dayOf(2021, month, 1) + Math.floor(uniform() * 28);
  }
  const first = dayOf(year, 0, 1);
  return first + Math.floor(uniform() * (dayOf(year + 1, 0, 1) - first));
}

/** The reports a year draws from: its pools' reports, without COVID-19 ones before 2020, split by COVID-19. */
function poolsOf(year: number, pools: Map<number, PoolReport[]>): { covid: PoolReport[]; other: PoolReport[] } {
  const all = YEAR_PLAN[year].pools.flatMap((p) => pools.get(p) ?? []);
  return { covid: year < 2020 ? [] : all.filter((r) => r.covid), other: all.filter((r) => !r.covid) };
}

/**
 * Writes the download into `options.out` and returns its manifest (also written as MANIFEST.json).
 * @throws Error when a source folder is missing or the output folder already holds VAERS files.
 */
export async function generateDownload(options: DownloadOptions): Promise<DownloadManifest> {
  const seed = options.seed ?? 29;
  const fraction = options.fraction ?? 1;
  const from = options.from ?? 1990;
  const to = options.to ?? REAL_YEAR;
  await mkdir(options.out, { recursive: true });
  if ((await readdir(options.out)).some((n) => /VAERS/i.test(n))) throw new Error(`${options.out} already holds VAERS files`);
  const manifest: DownloadManifest = { seed, fraction, years: {}, reports: 0, bytes: 0 };

  for (const name of (await readdir(options.oldYears)).sort()) {
    const m = /^(\d{4})VAERS(DATA|VAX|SYMPTOMS)\.csv\.gz$/.exec(name);
    if (!m || Number(m[1]) < from || Number(m[1]) > to) continue;
    await copyFile(path.join(options.oldYears, name), path.join(options.out, name));
  }

  // The real 2025 reports are read whenever they are written (their ids are never given to a synthetic report).
  const real = REAL_YEAR >= from && REAL_YEAR <= to ? readPool(options.realRows, REAL_YEAR, true) ?? [] : [];
  const realIds = new Set(real.map((r) => r.id));
  const years = Object.keys(YEAR_PLAN).map(Number).filter((y) => y >= from && y <= to);
  const pools = new Map<number, PoolReport[]>();
  for (const y of new Set(years.flatMap((year) => YEAR_PLAN[year].pools))) pools.set(y, readPool(options.realRows, y, false) ?? []);

  const vocabulary = [...new Set([...pools.values(), real].flat().flatMap((r) => r.terms.flatMap((t) => t.toLowerCase().split(/[^a-z]+/)))
    .filter((w) => w.length >= 3))].sort();

  let nextId = FIRST_ID;
  const newId = (): number => {
    while (realIds.has(nextId)) nextId++;
    return nextId++;
  };
  for (const year of years) {
    const uniform = random(seed * 7919 + year);
    const { covid, other } = poolsOf(year, pools);
    shuffle(covid, uniform);
    shuffle(other, uniform);
    const share = YEAR_PLAN[year].covidShare ?? covid.length / Math.max(1, covid.length + other.length);
    const target = Math.round(YEAR_PLAN[year].reports * fraction);
    const out = openYear(options.out, year, false);
    const seen = { covid: 0, other: 0 };
    for (let k = 0; k < target; k++) {
      const fromCovid = covid.length > 0 && (other.length === 0 || uniform() < share);
      const list = fromCovid ? covid : other;
      const at = fromCovid ? seen.covid++ : seen.other++;
      // Every report of the pool once (in a seeded order), then draws with replacement.
      const report = at < list.length ? list[at] : list[Math.floor(uniform() * list.length)];
      await writeReport(out, String(newId()).padStart(7, '0'), receiptDay(year, report, uniform), report, uniform, vocabulary);
    }
    manifest.years[year] = await closeYear(out, false);
  }
  if (REAL_YEAR >= from && REAL_YEAR <= to) {
    const uniform = random(seed * 7919 + REAL_YEAR);
    const out = openYear(options.out, REAL_YEAR, true);
    for (const report of real) {
      if (fraction < 1 && uniform() >= fraction) continue;
      await writeReport(out, String(report.id).padStart(7, '0'), receiptDay(REAL_YEAR, report, uniform), report, uniform, vocabulary);
    }
    manifest.years[REAL_YEAR] = await closeYear(out, true);
  }
  for (const y of Object.values(manifest.years)) manifest.reports += y.reports;
  manifest.bytes = Object.values(manifest.years).reduce((sum, y) => sum + y.bytes, 0);
  await writeFile(path.join(options.out, 'MANIFEST.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Fisher-Yates in place with the seeded generator. */
function shuffle<T>(list: T[], uniform: () => number): void {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(uniform() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
}

type YearFiles = { data: CsvOut; vax: CsvOut; symptoms: CsvOut };

function openYear(dir: string, year: number, withOrder: boolean): YearFiles {
  const order = withOrder ? ['ORDER'] : [];
  return {
    data: new CsvOut(path.join(dir, `${year}VAERSDATA.csv`), DATA_HEADER),
    vax: new CsvOut(path.join(dir, `${year}VAERSVAX.csv`), [...VAX_HEADER, ...order]),
    symptoms: new CsvOut(path.join(dir, `${year}VAERSSYMPTOMS.csv`), [...SYMPTOMS_HEADER, ...order]),
  };
}

async function writeReport(out: YearFiles, id: string, received: number, report: PoolReport, uniform: () => number, vocabulary: readonly string[]): Promise<void> {
  await out.data.row(dataRow(id, received, report, uniform, vocabulary));
  for (const row of report.vax) await out.vax.row([id, ...row]);
  for (const row of report.symptoms) await out.symptoms.row([id, ...row]);
}

async function closeYear(out: YearFiles, real: boolean): Promise<DownloadManifest['years'][number]> {
  await Promise.all([out.data.close(), out.vax.close(), out.symptoms.close()]);
  return { reports: out.data.rows, vaxRows: out.vax.rows, symptomsRows: out.symptoms.rows, real, bytes: out.data.bytes + out.vax.bytes + out.symptoms.bytes };
}
