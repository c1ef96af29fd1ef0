import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStore } from '../../../src/ingest/mining/build.js';
import type { BuildSummary } from '../../../src/ingest/mining/summary.js';
import { formatQuarter } from '../../../src/domain/quarter.js';
import { readReportData, type ReportData } from '../../../src/serve/store/reports.js';
import { readIndexedReports } from '../../../src/serve/cases/narratives.js';
import { REPORT_OUTCOME_COLUMNS, REPORT_TABLE_COLUMNS, REPORT_TABLES_SQL, type ReportEventRow, type ReportRow, type ReportVaccineRow, type StoreMeta } from '../../../src/domain/store-schema.js';
import { writeStore } from '../../../src/ingest/store/write.js';
import { AGE_GROUPS, OUTCOME, SEX_CODES } from '../../../src/domain/report-rules.js';
import { EXPECTED_EVENTS, EXPECTED_NARRATIVES, EXPECTED_NARRATIVE_COLUMNS, EXPECTED_REPORTS, EXPECTED_UNPARSEABLE, EXPECTED_VACCINES, writeReportFolder } from '../../ingest/vaers/report-fixtures.js';

let dir: string;
let vaers: string;
const summaries: Record<string, BuildSummary> = {};

/** Builds the report folder into `name` (in `dir`). */
async function build(name: string, narratives = false): Promise<string> {
  const out = join(dir, name);
  summaries[name] = await buildStore({ vaers, out, workers: 1, narratives });
  return out;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-reports-'));
  vaers = join(dir, 'vaers');
  await writeReportFolder(vaers);
  await Promise.all([build('plain.duckdb'), build('plain.parquet'), build('text.duckdb', true), build('text.parquet', true)]); // .parquet names: DuckDB files too
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `statements` (`;`-separated) on database `db`; the rows of the last, as plain JS values (BIGINT as number). */
async function sql(db: string, statements: string, readOnly = true): Promise<Array<Record<string, unknown>>> {
  const instance = await DuckDBInstance.create(db, readOnly && db !== ':memory:' ? { access_mode: 'READ_ONLY' } : {});
  const connection = await instance.connect();
  try {
    const rows = (await connection.runAndReadAll(statements)).getRowObjectsJS();
    return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Every row of a table of a DuckDB store. */
const tableRows = (store: string, table: string): Promise<Array<Record<string, unknown>>> => sql(store, `SELECT * FROM ${table}`);

/** ReportData back to the store's rows (checks the decoding of every column). */
function rowsOf(d: ReportData): { reports: ReportRow[]; vaccines: ReportVaccineRow[]; events: ReportEventRow[] } {
  const reports: ReportRow[] = [];
  const vaccines: ReportVaccineRow[] = [];
  const events: ReportEventRow[] = [];
  for (let i = 0; i < d.count; i++) {
    const row = {
      vaers_id: d.id[i], received: d.received[i], quarter: formatQuarter(d.quarter[i]), age_yrs: Number.isNaN(d.age[i]) ? null : d.age[i], age_source: d.ageSource[i],
      age_group: AGE_GROUPS[d.ageGroup[i]].label, sex: SEX_CODES[d.sex[i]], state: d.state[i], vax_date: d.vaxDate[i], onset_date: d.onsetDate[i],
      numdays: Number.isNaN(d.numdays[i]) ? null : d.numdays[i], recovd: d.recovd[i], narrative: d.narrative?.[i] ?? null,
      lab_data: d.labData?.[i] ?? null, history: d.history?.[i] ?? null, cur_ill: d.curIll?.[i] ?? null, other_meds: d.otherMeds?.[i] ?? null,
      prior_vax: d.priorVax?.[i] ?? null, allergies: d.allergies?.[i] ?? null, rpt_date: d.rptDate[i], datedied: d.dateDied[i],
      hospdays: Number.isNaN(d.hospdays[i]) ? null : d.hospdays[i], v_adminby: d.adminBy[i], v_fundby: d.fundBy[i], splttype: d.splttype[i],
      form_vers: d.formVers[i], todays_date: d.todaysDate[i], cluster: Number.isNaN(d.cluster[i]) ? null : d.cluster[i],
    } as ReportRow;
    for (const [column, name] of REPORT_OUTCOME_COLUMNS) (row as Record<string, unknown>)[column] = (d.outcomesKnown[i] & OUTCOME[name]) ? (d.outcomes[i] & OUTCOME[name]) !== 0 : null;
    reports.push(row);
    const v = d.vaccines;
    for (let k = v.start[i]; k < v.start[i + 1]; k++) {
      vaccines.push({ vaers_id: d.id[i], vax_name: v.name.at(k), vax_type_code: v.type.at(k), vax_manu: v.manufacturer.at(k), vax_lot: v.lot.at(k), vax_dose: v.dose.at(k), vax_route: v.route.at(k), vax_site: v.site.at(k) });
    }
    for (let k = d.events.start[i]; k < d.events.start[i + 1]; k++) events.push({ vaers_id: d.id[i], term: d.events.term.at(k), version: d.events.version.at(k) });
  }
  return { reports, vaccines, events };
}

const withNarratives = EXPECTED_REPORTS.map((r, i) => ({ ...r, ...Object.fromEntries(Object.entries(EXPECTED_NARRATIVE_COLUMNS).map(([c, values]) => [c, values[i]])) }));

describe('report tables in the store (the case series\' data)', () => {
  it('the DuckDB store holds exactly the kept reports, their VAX rows and events, newest RECVDATE first, then VAERS_ID descending', async () => {
    const store = join(dir, 'plain.duckdb');
    expect(await tableRows(store, 'reports')).toEqual(EXPECTED_REPORTS);
    expect(await tableRows(store, 'report_vaccines')).toEqual(EXPECTED_VACCINES);
    expect(await tableRows(store, 'report_events')).toEqual(EXPECTED_EVENTS);
    expect(await tableRows(join(dir, 'text.duckdb'), 'reports')).toEqual(withNarratives);
  });

  it('the build summary counts the rows written and the unreadable cells (with VAERS_ID, file, line and cell); meta says whether narratives were kept', async () => {
    expect(summaries['plain.duckdb'].reportValues).toEqual({ reports: 6, vaccineRows: 8, eventRows: 10, narratives: false, unparseable: EXPECTED_UNPARSEABLE, seconds: expect.any(Number) });
    expect(summaries['text.parquet'].reportValues.narratives).toBe(true);
    const meta = await tableRows(join(dir, 'text.duckdb'), 'meta');
    expect(JSON.parse(String(meta.find((m) => m.key === 'parameters')!.value)).narratives).toBe(true);
  });

  it('readReportData gives the same ReportData whatever the store file is named; narratives only with --narratives', async () => {
    const plain = await readReportData(join(dir, 'plain.duckdb'));
    expect(plain).not.toBeNull();
    expect(rowsOf(plain!)).toEqual({ reports: EXPECTED_REPORTS, vaccines: EXPECTED_VACCINES, events: EXPECTED_EVENTS });
    expect(plain!.narrative).toBeNull();
    expect(plain!.labData).toBeNull();
    expect(plain!.allergies).toBeNull();
    expect([...plain!.vaccines.start]).toEqual([0, 2, 3, 4, 5, 6, 8]);
    expect(await readReportData(join(dir, 'plain.parquet'))).toEqual(plain);
    const text = await readReportData(join(dir, 'text.duckdb'));
    expect(text!.narrative).toEqual(EXPECTED_NARRATIVES);
    expect(text!.history).toEqual(EXPECTED_NARRATIVE_COLUMNS.history);
    expect(rowsOf(text!).reports).toEqual(withNarratives);
    expect(await readReportData(join(dir, 'text.parquet'))).toEqual(text);
  });

  it('the narrative index is kept beside the store: a later read loads it, reads no indexed column, and holds the same reports and texts', async () => {
    const store = join(dir, 'text.duckdb');
    const first = await readIndexedReports(store);
    expect(first!.source.kind).toBe('built');
    expect(first!.source).toEqual({ kind: 'built', saved: true });
    expect((await readdir(dir)).filter((n) => n.startsWith('text.duckdb'))).toEqual(['text.duckdb', 'text.duckdb.narratives']);
    const second = await readIndexedReports(store);
    expect(second!.source.kind).toBe('loaded');
    expect(second!.data).toEqual(first!.data);
    expect(second!.data.narrative).toBeNull();
    const texts = (read: typeof first): Array<Array<string | null>> => Array.from({ length: read!.data.count }, (_, r) => read!.narratives!.fields(r));
    expect(texts(second)).toEqual(texts(first));
    expect(texts(second).map((f) => f[0])).toEqual(EXPECTED_NARRATIVES);
    // A store without narratives has no index, and no file.
    expect((await readIndexedReports(join(dir, 'plain.duckdb')))!.source.kind).toBe('none');
    expect((await readdir(dir)).some((n) => n.startsWith('plain.duckdb.'))).toBe(false);
  });

  it('a store is one DuckDB file whatever its name: no sidecars; a Parquet store of an earlier version is refused with how to rebuild it', async () => {
    const names = (await readdir(dir)).filter((n) => n.startsWith('plain.')).sort();
    expect(names).toEqual(['plain.duckdb', 'plain.parquet']);
    expect((await readFile(join(dir, 'plain.parquet'))).subarray(8, 12).toString('latin1')).toBe('DUCK');
    const legacy = join(dir, 'legacy.parquet');
    await sql(':memory:', `COPY (SELECT 1 AS a) TO '${legacy}' (FORMAT parquet)`);
    await expect(readReportData(legacy)).rejects.toThrow(`${legacy} is a Parquet store written by an earlier version of reporting-signals; a store is now one DuckDB database file (any name): rebuild it with "reporting-signals build --vaers DIR --out ${legacy}"`);
  });

  it('a store without report tables (an import, an older store) reads as null', async () => {
    const meta: StoreMeta = { reports_through: null, sources: [], parameters: {}, program_version: 't', built_at: '2024-01-01T00:00:00Z', origin: 'import', has_ic025: false };
    for (const name of ['old.duckdb', 'old.store']) {
      await writeStore(join(dir, name), { quarterly: [], vaccines: [], windows: [], meta });
      expect(await readReportData(join(dir, name))).toBeNull();
    }
    await expect(readReportData(join(dir, 'absent.duckdb'))).rejects.toThrow(/store not found: .*absent\.duckdb/);
  });
});

describe('a failed write leaves no file and an existing store untouched', () => {
  const meta: StoreMeta = { reports_through: null, sources: [], parameters: {}, program_version: 't', built_at: 'y', origin: 'build', has_ic025: true };
  function* failing<T>(rows: T[]): Generator<T> {
    yield rows[0];
    throw new Error('producer failed');
  }

  for (const form of ['new', 'duckdb']) {
    it(`${form}: a producer error while the report tables are written`, async () => {
      const sub = await mkdtemp(join(tmpdir(), 'rs-reports-fail-'));
      const out = join(sub, `store.${form}`);
      await expect(writeStore(out, {
        quarterly: [], vaccines: [], windows: [], meta,
        reports: { reports: EXPECTED_REPORTS, vaccines: EXPECTED_VACCINES, events: failing(EXPECTED_EVENTS) },
      })).rejects.toThrow('producer failed');
      expect(await readdir(sub)).toEqual([]);
      await rm(sub, { recursive: true, force: true });
    });
  }

  it('an existing store stays as it was (bytes and readReportData)', async () => {
    const sub = await mkdtemp(join(tmpdir(), 'rs-reports-keep-'));
    const out = join(sub, 'store.parquet.new');
    await copyFile(join(dir, 'plain.parquet'), out); // a store the build wrote (beforeAll), not built again
    // Each file's bytes as base64 text: toEqual compares two strings at once, two Buffers byte by byte (25 s for one store).
    const files = async (): Promise<Record<string, string>> =>
      Object.fromEntries(await Promise.all((await readdir(sub)).sort().map(async (n) => [n, (await readFile(join(sub, n))).toString('base64')] as const)));
    const before = await files();
    const data = await readReportData(out);
    await expect(writeStore(out, {
      quarterly: failing([]), vaccines: [], windows: [], meta,
      reports: { reports: EXPECTED_REPORTS, vaccines: EXPECTED_VACCINES, events: EXPECTED_EVENTS },
    })).rejects.toThrow();
    await expect(writeStore(out, {
      quarterly: [], vaccines: [], windows: [], meta,
      reports: { reports: failing(EXPECTED_REPORTS), vaccines: EXPECTED_VACCINES, events: EXPECTED_EVENTS },
    })).rejects.toThrow('producer failed');
    const after = await files();
    expect(after).toEqual(before);
    expect(Object.keys(after)).toEqual(['store.parquet.new']);
    expect(await readReportData(out)).toEqual(data);
    await rm(sub, { recursive: true, force: true });
  });
});

describe('a store whose report tables break the shape is an error naming the file', () => {
  const REPORT = (id: number, received: string, sex = 'F'): string =>
    `(${id}, '${received}', '${received.slice(0, 4)}Q1', NULL, NULL, 'Unknown', '${sex}'${', NULL'.repeat(REPORT_TABLE_COLUMNS.length - 7)})`;
  const cases: Array<[string, string, RegExp]> = [
    ['only reports', 'CREATE TABLE reports (vaers_id BIGINT)', /incomplete report tables: .*bad-0\.duckdb: has reports, lacks report_vaccines, report_events/],
    ['a sex code', `${REPORT_TABLES_SQL} INSERT INTO reports VALUES ${REPORT(1, '2004-01-02', 'X')}`, /bad-1\.duckdb: reports: row 1: sex 'X' is not one of F, M, U/],
    ['the order', `${REPORT_TABLES_SQL} INSERT INTO reports VALUES ${REPORT(1, '2004-01-02')}, ${REPORT(2, '2004-01-02')}`, /bad-2\.duckdb: reports: row 2: not in store order/],
    ['a quarter', `${REPORT_TABLES_SQL} INSERT INTO reports VALUES ${REPORT(1, '2004-05-02')}`, /bad-3\.duckdb: reports: row 1: quarter '2004Q1' is not the quarter of 2004-05-02/],
    ['a VAX row of no report', `${REPORT_TABLES_SQL} INSERT INTO reports VALUES ${REPORT(2, '2004-01-02')}, ${REPORT(1, '2004-01-02')};
      INSERT INTO report_vaccines VALUES (1, 'A', NULL, NULL, NULL, NULL, NULL, NULL), (2, 'B', NULL, NULL, NULL, NULL, NULL, NULL)`,
    /bad-4\.duckdb: report_vaccines: row 2: vaers_id 2 is not a report, or the rows are not in the reports' order/],
    ['a column', 'CREATE TABLE reports (vaers_id BIGINT); CREATE TABLE report_vaccines (x INTEGER); CREATE TABLE report_events (x INTEGER)', /bad-5\.duckdb: reports: .*received/],
  ];
  for (const [i, [what, statements, error]] of cases.entries()) {
    it(what, async () => {
      const file = join(dir, `bad-${i}.duckdb`);
      await sql(file, statements, false);
      await expect(readReportData(file)).rejects.toThrow(error);
    });
  }
});
