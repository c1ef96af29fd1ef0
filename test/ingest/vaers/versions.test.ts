/**
 * Follow-up versions (src/ingest/vaers/versions.ts): a report is its latest version (highest
 * ORDER of its VAX and SYMPTOMS rows, across all files); rows of earlier versions are dropped and
 * counted. Hand-made fixtures with exact answers, and the real 2025 files of
 * ../shared/data/vaers-vax-symptoms against a plain CSV scan (csv-parse, no project code).
 */
import { existsSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatQuarter } from '../../../src/domain/quarter.js';
import { readVaers, type VaersData } from '../../../src/ingest/vaers/read.js';
import { SKIP } from '../../../src/ingest/vaers/skips.js';
import { parseVersion } from '../../../src/ingest/vaers/versions.js';
import { SHARED_DATA } from '../../helpers/paths.js';
import { rawCsvRecords } from '../../helpers/raw-csv.js';
import { dataCsv, followUpFiles, tempDir, writeFiles } from './fixtures.js';


/** The vaccines and events of a read report, by name. */
function namesOf(data: VaersData, id: number): { vaccines: string[]; events: string[]; quarter: string } | undefined {
  const r = data.reports.find((x) => x.id === id);
  return r && { vaccines: r.vaccines.map((i) => data.vaccines[i]), events: r.events.map((i) => data.events[i]), quarter: formatQuarter(r.quarter) };
}

describe('follow-up versions on hand-made files', () => {
  it('parses ORDER: a positive integer, else version 1', () => {
    expect([parseVersion('3'), parseVersion(' 2 '), parseVersion(''), parseVersion(undefined), parseVersion('0'), parseVersion('2.5'), parseVersion('x')])
      .toEqual([3, 2, 1, 1, 1, 1, 1]);
  });

  it('keeps the latest version of each report, across years, and counts what it drops', async () => {
    const dir = await tempDir();
    await writeFiles(dir, followUpFiles());
    const data = await readVaers(dir);
    expect(data.reportsRead).toBe(6);
    expect(data.reports.map((r) => r.id)).toEqual([21, 10, 11, 12, 20]);
    expect(namesOf(data, 10)).toEqual({ vaccines: ['ZOSTER B', 'ZOSTER C'], events: ['Pain'], quarter: '2025Q1' });
    expect(namesOf(data, 11)).toEqual({ vaccines: ['ZOSTER A'], events: ['Pain'], quarter: '2025Q1' });
    expect(namesOf(data, 12)).toEqual({ vaccines: ['ZOSTER A'], events: ['Headache'], quarter: '2025Q3' });
    // The follow-up's DATA row gives the receipt quarter as written (2024Q1), its rows the vaccines and events.
    expect(namesOf(data, 20)).toEqual({ vaccines: ['FLU NEW'], events: ['Urticaria'], quarter: '2024Q1' });
    expect(data.versions).toEqual({ followUpReports: 3, reportsWithSeveralVersions: 2, vaxRowsDropped: 2, symptomsRowsDropped: 3, dataRowsDropped: 1 });
    expect(data.skipped.map((s) => [s.reason, s.count])).toEqual([
      [SKIP.EARLIER_VERSION_DATA, 1], [SKIP.VAX_EARLIER_VERSION, 2], [SKIP.SYMPTOMS_EARLIER_VERSION, 3],
    ]);
    expect(data.skipped[1].examples).toEqual(['VAERS_ID 20 (2024VAERSVAX.csv line 2): ORDER 1 of 2', 'VAERS_ID 10 (2025VAERSVAX.csv line 2): ORDER 1 of 2']);
    // Dropped rows leave no trace in the report tables: report 10 keeps 2 VAX rows and 1 term.
    expect(data.details.vaccines.name.length).toBe(6);
    expect(data.details.events.term.length).toBe(5);
  });
});

const real = resolve(SHARED_DATA, 'vaers-vax-symptoms');
const realPresent = existsSync(join(real, '2025VAERSVAX.partial.csv.gz'));
if (!realPresent) console.warn(`test/ingest/vaers/versions: ${real} is absent; the real 2025 test is skipped`);

/** The rows of a real gzipped CSV as records by header name (csv-parse, Windows-1252: test/helpers/raw-csv.ts). */
const plainRows = rawCsvRecords;

describe.skipIf(!realPresent)('follow-up versions on the real 2025 files (../shared/data/vaers-vax-symptoms)', () => {
  it('counts versions and dropped rows as a plain scan does, and keeps only the latest version of each report', async () => {
    const vax = plainRows(join(real, '2025VAERSVAX.partial.csv.gz'));
    const symptoms = plainRows(join(real, '2025VAERSSYMPTOMS.partial.csv.gz'));
    // The plain scan: per id the versions seen and the latest, over both files.
    const versions = new Map<number, Set<number>>();
    for (const r of [...vax, ...symptoms]) {
      const id = Number(r.VAERS_ID);
      versions.set(id, (versions.get(id) ?? new Set()).add(Number(r.ORDER)));
    }
    const latest = (id: number): number => Math.max(...(versions.get(id) as Set<number>));
    const dropped = (rows: Record<string, string>[]): number => rows.filter((r) => Number(r.ORDER) < latest(Number(r.VAERS_ID))).length;
    const ids = [...versions.keys()];

    const dir = await tempDir();
    await copyFile(join(real, '2025VAERSVAX.partial.csv.gz'), join(dir, '2025VAERSVAX.csv.gz'));
    await copyFile(join(real, '2025VAERSSYMPTOMS.partial.csv.gz'), join(dir, '2025VAERSSYMPTOMS.csv.gz'));
    // The VAERSDATA file is not in ../shared/data: one row per id, every report received 06/15/2025.
    await writeFiles(dir, { '2025VAERSDATA.csv': dataCsv('modern', ids.map((id) => ({ id: String(id).padStart(7, '0'), recvdate: '06/15/2025' }))) });
    const data = await readVaers(dir);

    expect(data.versions).toEqual({
      followUpReports: ids.filter((id) => latest(id) >= 2).length,
      reportsWithSeveralVersions: ids.filter((id) => (versions.get(id) as Set<number>).size >= 2).length,
      vaxRowsDropped: dropped(vax), symptomsRowsDropped: dropped(symptoms), dataRowsDropped: 0,
    });
    // The figures of this file: 389 ids with several ORDER values, 149 without ORDER 1.
    expect(data.versions.reportsWithSeveralVersions).toBe(389);
    expect(ids.filter((id) => !(versions.get(id) as Set<number>).has(1)).length).toBe(149);

    // Every report's vaccines and events are those of its latest version's rows, exactly.
    const latestNames = (rows: Record<string, string>[], names: (r: Record<string, string>) => string[]): Map<number, string[]> => {
      const out = new Map<number, Set<string>>();
      for (const r of rows) {
        const id = Number(r.VAERS_ID);
        if (Number(r.ORDER) !== latest(id)) continue;
        const set = out.get(id) ?? new Set<string>();
        for (const n of names(r)) if (n.trim() !== '') set.add(n.trim());
        out.set(id, set);
      }
      return new Map([...out].filter(([, s]) => s.size > 0).map(([id, s]) => [id, [...s].sort()]));
    };
    const vaccinesOf = latestNames(vax, (r) => [r.VAX_NAME]);
    const eventsOf = latestNames(symptoms, (r) => [1, 2, 3, 4, 5].map((k) => r[`SYMPTOM${k}`]));
    const expected = ids.filter((id) => vaccinesOf.has(id) && eventsOf.has(id));
    expect(data.reports.length).toBe(expected.length);
    let same = 0;
    for (const r of data.reports) {
      const v = r.vaccines.map((i) => data.vaccines[i]).sort();
      const e = r.events.map((i) => data.events[i]).sort();
      if (JSON.stringify(v) === JSON.stringify(vaccinesOf.get(r.id)) && JSON.stringify(e) === JSON.stringify(eventsOf.get(r.id))) same++;
    }
    expect(same).toBe(expected.length);
    // The example: 0791393, versions 2 and 3; version 3 adds "Pain" (and moves "Pain in extremity" to its second row).
    expect(versions.get(791393)).toEqual(new Set([2, 3]));
    expect(namesOf(data, 791393)?.events).toContain('Pain');
  }, 120_000);
});
