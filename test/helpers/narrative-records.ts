/**
 * A second reader of the narratives of the official VAERSDATA files, independent of the store
 * build, for the narrative bench and the real-data tests of the text index: it yields the
 * NarrativeRecord the index takes, fields in NARRATIVE_FIELDS order (src/domain/report-columns.ts).
 */
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { NARRATIVE_FIELDS } from '../../src/domain/report-columns.js';
import { readCsv, requireColumns } from '../../src/ingest/vaers/csv.js';
import { parseVaersId } from '../../src/ingest/vaers/values.js';
import type { NarrativeRecord } from '../../src/serve/narratives/records.js';

/** `cell` as kept: null when blank (only white space), else as written. */
export function narrativeCell(cell: string | undefined): string | null {
  return cell === undefined || cell.trim() === '' ? null : cell;
}

/**
 * Reads the narratives of every `<YEAR>VAERSDATA.csv` or `.csv.gz` in `dir` (one per year, the
 * plain file preferred; zips are not read here) whose year lies in `from..to`, in year then file
 * order. Rows whose VAERS_ID is not an integer are skipped; a repeated VAERS_ID keeps its first row.
 * @throws UserError (from src/ingest/vaers/csv.ts) naming the file when one cannot be read or lacks a column.
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
