/**
 * An independent count of the exact duplicate groups in the raw VAERS files, for the linkage
 * tests only: plain CSV parsing (test/helpers/raw-csv.ts: csv-parse, iconv-lite), no project code under src/.
 *
 * A report is a DATA row (first row of a VAERS_ID) joined with its VAX and SYMPTOMS rows by
 * VAERS_ID, kept when it has a RECVDATE, a non-empty VAX_NAME and a non-empty SYMPTOM term (the
 * build's rule). Its exact key is the raw trimmed AGE_YRS, SEX, STATE, VAX_DATE, ONSET_DATE,
 * CAGE_YR and CAGE_MO cells (the age at onset: with AGE_YRS blank, reports 228277 and 228281 are
 * women of 37 and 30 by CAGE_YR, not one case) with the sorted distinct VAX_NAME values and the sorted distinct terms, for reports whose
 * VAX_DATE and ONSET_DATE are both written (other cells may be blank, and blank agrees with
 * blank). A group is two or more such reports with the same key; the figure quoted for 1990-2006 is 434 groups holding
 * 1,083 reports beyond the first of each.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { rawCsvRecords as readCsvGz } from '../../helpers/raw-csv.js';

/** One exact group: the VAERS_IDs of its reports, in file order. */
export type ExactGroup = number[];

/** The `<YEAR>VAERSDATA.csv.gz` years present in `folder`, ascending. */
export function yearsIn(folder: string): number[] {
  if (!existsSync(folder)) return [];
  const years: number[] = [];
  for (let year = 1990; year <= 2030; year++) if (existsSync(path.join(folder, `${year}VAERSDATA.csv.gz`))) years.push(year);
  return years;
}

/** The cells of the raw files the exact keys read, per kept report (readRawReports). */
export interface RawReports {
  /** VAERS_ID -> the trimmed AGE_YRS, SEX, STATE, VAX_DATE, ONSET_DATE, CAGE_YR and CAGE_MO cells, in file order. */
  data: Map<number, string[]>;
  vaccines: Map<number, Set<string>>;
  events: Map<number, Set<string>>;
}

/** The DATA cells of an exact key, in key order (see the module header). */
const KEY_CELLS = ['AGE_YRS', 'SEX', 'STATE', 'VAX_DATE', 'ONSET_DATE', 'CAGE_YR', 'CAGE_MO'] as const;

/** Reads the raw files of `years` in `folder` once, for exactGroups (a read takes the most of its time). */
export function readRawReports(folder: string, years: readonly number[]): RawReports {
  const data = new Map<number, string[]>();
  const vaccines = new Map<number, Set<string>>();
  const events = new Map<number, Set<string>>();
  const add = (into: Map<number, Set<string>>, id: number, cell: string | undefined): void => {
    const value = (cell ?? '').trim();
    if (value === '') return;
    let set = into.get(id);
    if (set === undefined) into.set(id, (set = new Set()));
    set.add(value);
  };
  for (const year of years) {
    for (const row of readCsvGz(path.join(folder, `${year}VAERSDATA.csv.gz`))) {
      const id = Number((row.VAERS_ID ?? '').trim());
      if (Number.isInteger(id) && !data.has(id) && (row.RECVDATE ?? '').trim() !== '') data.set(id, KEY_CELLS.map((c) => (row[c] ?? '').trim()));
    }
    for (const row of readCsvGz(path.join(folder, `${year}VAERSVAX.csv.gz`))) add(vaccines, Number(row.VAERS_ID), row.VAX_NAME);
    for (const row of readCsvGz(path.join(folder, `${year}VAERSSYMPTOMS.csv.gz`))) {
      for (let k = 1; k <= 5; k++) add(events, Number(row.VAERS_ID), row[`SYMPTOM${k}`]);
    }
  }
  return { data, vaccines, events };
}

/**
 * The exact duplicate groups of the reports of `raw` (readRawReports; see the module header). With
 * `calculatedAge` false the key leaves out CAGE_YR and CAGE_MO: the looser key of the duplicates'
 * first count (458 groups, 1,110 reports beyond the first in 1990-2006). Also gives each report's
 * CAGE_YR + CAGE_MO / 12 (NaN when blank), to tell why a looser group is not one case.
 */
export function exactGroups(raw: RawReports, calculatedAge = true): ExactGroup[] & { cage: Map<number, number> } {
  const { data, vaccines, events } = raw;
  const byKey = new Map<string, number[]>();
  const cage = new Map<number, number>();
  for (const [id, row] of data) {
    const [yr, mo] = row.slice(5);
    cage.set(id, yr === '' ? NaN : Number(yr) + (mo === '' ? 0 : Number(mo)));
    const v = vaccines.get(id);
    const e = events.get(id);
    if (v === undefined || e === undefined) continue;
    const cells = calculatedAge ? row : row.slice(0, 5);
    if (cells[3] === '' || cells[4] === '') continue;
    const key = cells.concat([[...v].sort().join('|'), [...e].sort().join('|')]).join('\t');
    const group = byKey.get(key);
    if (group === undefined) byKey.set(key, [id]);
    else group.push(id);
  }
  return Object.assign([...byKey.values()].filter((g) => g.length > 1), { cage });
}
