/**
 * The narrative index on the real 1990-2006 VAERSDATA files: for a few
 * queries, the reports it finds equal those found by a plain scan written here without project
 * code: each file gunzipped, decoded from Windows-1252 by iconv-lite, parsed by csv-parse, every
 * field folded (NFKD, marks removed, lower case) and tested with one regular expression.
 * Skipped with a message when ../shared/data/vaers is absent.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { NarrativeIndex } from '../../../src/serve/narratives/index.js';
import { parseTextQuery } from '../../../src/serve/narratives/query.js';
import { readNarratives } from '../../helpers/narrative-records.js';
import { SHARED_DATA } from '../../helpers/paths.js';
import { rawCsvRecords } from '../../helpers/raw-csv.js';

const vaers = path.resolve(SHARED_DATA, 'vaers');
const YEARS = Array.from({ length: 17 }, (_, i) => 1990 + i);
const present = YEARS.every((year) => existsSync(path.join(vaers, `${year}VAERSDATA.csv.gz`)));
if (!present) console.warn(`narratives real-data test skipped: ${vaers} lacks the 1990-2006 <YEAR>VAERSDATA.csv.gz files`);

const COLUMNS = ['SYMPTOM_TEXT', 'LAB_DATA', 'HISTORY', 'CUR_ILL', 'OTHER_MEDS', 'PRIOR_VAX'];

/** Every report (first row per integer VAERS_ID) with its six fields folded: NFKD, combining marks removed, lower case. */
function rawFoldedFields(): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const year of YEARS) {
    for (const row of rawCsvRecords(path.join(vaers, `${year}VAERSDATA.csv.gz`))) {
      const id = row.VAERS_ID.trim();
      if (!/^\d+$/.test(id) || out.has(Number(id))) continue;
      out.set(Number(id), COLUMNS.map((c) => (row[c] ?? '').normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()));
    }
  }
  return out;
}

/** A word (or words separated by non-letters/digits) standing whole; `prefix` leaves its end open. */
const wordRe = (words: string, prefix = false): RegExp =>
  new RegExp(`(?<![\\p{L}\\p{N}])${words.split(' ').join('[^\\p{L}\\p{N}]+')}${prefix ? '' : '(?![\\p{L}\\p{N}])'}`, 'u');

/** Query text -> which reports hold it, as a test over the folded fields. */
const ORACLES: Array<[string, (fields: string[]) => boolean]> = [
  ['attorney', (f) => f.some((t) => wordRe('attorney').test(t))],
  ['intussusception', (f) => f.some((t) => wordRe('intussusception').test(t))],
  ['intussus*', (f) => f.some((t) => wordRe('intussus', true).test(t))],
  ['"mercury poisoning"', (f) => f.some((t) => wordRe('mercury poisoning').test(t))],
  ['"guillain barre"', (f) => f.some((t) => wordRe('guillain barre').test(t))],
  ['legal -court', (f) => f.some((t) => wordRe('legal').test(t)) && !f.some((t) => wordRe('court').test(t))],
  ['seizure* fever -"febrile seizure"', (f) => f.some((t) => wordRe('seizure', true).test(t)) && f.some((t) => wordRe('fever').test(t)) && !f.some((t) => wordRe('febrile seizure').test(t))],
];

describe.skipIf(!present)('narrative index on the real 1990-2006 reports against a plain scan', () => {
  let index: NarrativeIndex;
  let raw: Map<number, string[]>;
  beforeAll(async () => {
    index = NarrativeIndex.build(await readNarratives(vaers, 1990, 2006));
    raw = rawFoldedFields();
  }, 300_000);

  it('indexes every report of the files', () => {
    expect(index.size).toBe(raw.size);
    expect(index.size).toBe(203_446);
  });

  it.each(ORACLES)('%s: the same reports as the scan', (text, holds) => {
    const parsed = parseTextQuery(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const expected = [...raw].filter(([, fields]) => holds(fields)).map(([id]) => id).sort((a, b) => a - b);
    const found = [...index.search(parsed.query)].map((r) => index.idAt(r)).sort((a, b) => a - b);
    expect(expected.length).toBeGreaterThan(0);
    expect(found).toEqual(expected);
  });
});
