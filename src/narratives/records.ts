/**
 * The narrative fields of a VAERS report and a reader of them from the official
 * VAERSDATA files, for the bench and the real-data test (the store build reads its own way).
 *
 * The six fields, in this order (the order of `NarrativeRecord.fields`, of the index's field
 * numbers, and of the snippet's choice when a match lies in several): `SYMPTOM_TEXT` (the
 * reporter's own words), `LAB_DATA`, `HISTORY`, `CUR_ILL` (illness at vaccination), `OTHER_MEDS`,
 * `PRIOR_VAX` (earlier reactions). Text is kept as written (Windows-1252 decoded, untrimmed);
 * a blank field is null.
 */
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { readCsv, requireColumns } from '../vaers/csv.js';
import { parseVaersId } from '../vaers/values.js';

/** The narrative fields, by their VAERSDATA column names. */
export const NARRATIVE_FIELDS = ['SYMPTOM_TEXT', 'LAB_DATA', 'HISTORY', 'CUR_ILL', 'OTHER_MEDS', 'PRIOR_VAX'] as const;

/** One narrative field (a VAERSDATA column name). */
export type NarrativeField = (typeof NARRATIVE_FIELDS)[number];

/** One report's narratives: its VAERS_ID and the six fields in NARRATIVE_FIELDS order (null: blank). */
export interface NarrativeRecord {
  id: number;
  fields: ReadonlyArray<string | null>;
}

/** `cell` as kept: null when blank (only white space), else as written. */
export function narrativeCell(cell: string | undefined): string | null {
  return cell === undefined || cell.trim() === '' ? null : cell;
}

/**
 * Reads the narratives of every `<YEAR>VAERSDATA.csv` or `.csv.gz` in `dir` (one per year, the
 * plain file preferred; zips are not read here) whose year lies in `from..to`, in year then file
 * order. Rows whose VAERS_ID is not an integer are skipped; a repeated VAERS_ID keeps its first row.
 * @throws UserError (from src/vaers/csv.ts) naming the file when one cannot be read or lacks a column.
 */
export async function readNarratives(dir: string, from = 1990, to = 9999): Promise<NarrativeRecord[]> {
  const records: NarrativeRecord[] = [];
  const seen = new Set<number>();
  const names = existsSync(dir) ? readdirSync(dir).sort() : [];
  for (const name of names) {
    const m = /^(\d{4})VAERSDATA\.csv(\.gz)?$/i.exec(name);
    if (!m || Number(m[1]) < from || Number(m[1]) > to) continue;
    if (m[2] && names.includes(name.slice(0, -3))) continue;
    const path = join(dir, name);
    let at: number[] = [];
    const stages: Parameters<typeof readCsv>[0] = m[2] ? [createReadStream(path), createGunzip()] : [createReadStream(path)];
    await readCsv(stages, name, {
      onHeader: (columns, line) => {
        at = requireColumns(columns, ['VAERS_ID', ...NARRATIVE_FIELDS], name, line);
      },
      onRecord: (fields) => {
        const id = parseVaersId(fields[at[0]]);
        if (id === null || seen.has(id)) return;
        seen.add(id);
        records.push({ id, fields: NARRATIVE_FIELDS.map((_, k) => narrativeCell(fields[at[k + 1]])) });
      },
    });
  }
  return records;
}
