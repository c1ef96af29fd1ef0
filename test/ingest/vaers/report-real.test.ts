/**
 * The report values on the real current-layout files (the case series' data): the full 1999 year
 * of `../shared/data/vaers-modern-layout` (35 DATA columns, VAX_DOSE_SERIES, zero-padded ids),
 * checked report by report against the raw CSVs read independently (test/helpers/raw-vaers.ts
 * and csv-parse here); and the 2025 release's VAX and SYMPTOMS files of
 * `../shared/data/vaers-vax-symptoms` (trailing ORDER column, leading-zero ids; no DATA file
 * there), through the row functions directly.
 */
import { createReadStream, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createGunzip } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readCsv } from '../../../src/ingest/vaers/csv.js';
import { readVaers } from '../../../src/ingest/vaers/read.js';
import { OUTCOME } from '../../../src/domain/report-rules.js';
import { symptomsRow, symptomsRowColumns, vaxRow, vaxRowColumns, type SymptomsRowColumns, type SymptomsRowValues, type VaxRowColumns, type VaxRowValues } from '../../../src/ingest/vaers/rows.js';
import { loadRawReports } from '../../helpers/raw-vaers.js';
import { SHARED_DATA } from '../../helpers/paths.js';
import { rawCsvRecords } from '../../helpers/raw-csv.js';

const modern = resolve(SHARED_DATA, 'vaers-modern-layout');
const vaxSymptoms = resolve(SHARED_DATA, 'vaers-vax-symptoms');
const VAX_2025 = resolve(vaxSymptoms, '2025VAERSVAX.partial.csv.gz');
const SYMPTOMS_2025 = resolve(vaxSymptoms, '2025VAERSSYMPTOMS.partial.csv.gz');
if (!existsSync(modern)) console.warn(`test/ingest/vaers/report-real: ${modern} is absent; real-data tests skipped`);
if (!existsSync(VAX_2025)) console.warn(`test/ingest/vaers/report-real: ${vaxSymptoms} is absent; 2025 row tests skipped`);

/** A gzipped Windows-1252 CSV as header-keyed records (independent of src/ingest/vaers/csv.ts). */
const rawCsv = rawCsvRecords;

/** Every record of a CSV through the project's reader and a row function. */
async function rowsThrough<C, R>(file: string, columns: (c: Map<string, number>, label: string, line: number) => C, row: (f: string[], at: C) => R): Promise<{ header: string[]; rows: R[] }> {
  let at: C;
  let header: string[] = [];
  const rows: R[] = [];
  await readCsv([createReadStream(file), createGunzip()], file, {
    onHeader: (c, line) => {
      header = [...c.keys()];
      at = columns(c, file, line);
    },
    onRecord: (fields) => rows.push(row(fields, at)),
  });
  return { header, rows };
}

describe.skipIf(!existsSync(modern))('report details of the real 1999 year in the current layout', () => {
  it('match the raw files report by report (outcomes, state, age, NUMDAYS, VAX rows with VAX_DOSE_SERIES, terms with versions)', async () => {
    const data = await readVaers(modern, { narratives: true });
    const d = data.details;
    const raw = await loadRawReports(modern, [1999]);
    expect(d.count).toBe(raw.reports.length);
    const text = (k: number): string | null => (k < 0 ? null : d.strings[k]);
    const index = new Map([...d.id].map((id, i) => [id, i]));
    const bits: Array<[keyof typeof OUTCOME, 'died' | 'lThreat' | 'erVisit' | 'hospital' | 'xStay' | 'disable' | 'birthDefect' | 'ofcVisit']> = [
      ['DIED', 'died'], ['L_THREAT', 'lThreat'], ['ER_VISIT', 'erVisit'], ['HOSPITAL', 'hospital'], ['X_STAY', 'xStay'], ['DISABLE', 'disable'], ['BIRTH_DEFECT', 'birthDefect'], ['OFC_VISIT', 'ofcVisit'],
    ];
    const counts = { died: 0, erVisit: 0, rawDied: 0, rawErVisit: 0 };
    for (const r of raw.reports) {
      const i = index.get(r.id)!;
      expect(i, `VAERS_ID ${r.id}`).toBeDefined();
      for (const [bit, key] of bits) expect((d.outcomes[i] & OUTCOME[bit]) !== 0, `${r.id} ${bit}`).toBe(r[key]);
      expect(d.outcomesKnown[i]).toBe(255); // the current layout has every outcome column
      expect(text(d.state[i]) ?? '').toBe(r.state);
      expect(Number.isNaN(d.age[i]) ? null : d.age[i]).toBe(r.age);
      expect(text(d.ageSource[i])).toBe(r.ageSource);
      if (r.numdays !== null) expect(d.numdays[i]).toBe(r.numdays);
      const doses = [...d.vaccines.dose.subarray(d.vaccines.start[i], d.vaccines.start[i + 1])].map(text).filter((x) => x !== null);
      expect(new Set(doses)).toEqual(new Set(r.doses));
      expect([...d.events.term.subarray(d.events.start[i], d.events.start[i + 1])].map(text)).toEqual(r.events);
      counts.died += d.outcomes[i] & OUTCOME.DIED ? 1 : 0;
      counts.erVisit += d.outcomes[i] & OUTCOME.ER_VISIT ? 1 : 0;
      counts.rawDied += r.died ? 1 : 0;
      counts.rawErVisit += r.erVisit ? 1 : 0;
    }
    expect(counts.died).toBe(counts.rawDied);
    expect(counts.erVisit).toBe(counts.rawErVisit);
    expect(counts.died).toBeGreaterThan(50);
    expect(counts.erVisit).toBeGreaterThan(1000);
    // Every VAX row of a kept report is there, its dose from VAX_DOSE_SERIES.
    const rawVax = rawCsv(resolve(modern, '1999VAERSVAX.csv.gz')).filter((v) => index.has(Number(v.VAERS_ID)) && v.VAX_NAME.trim() !== '');
    expect(d.vaccines.name.length).toBe(rawVax.length);
    expect(d.vaccines.dose.filter((k) => k >= 0).length).toBe(rawVax.filter((v) => v.VAX_DOSE_SERIES.trim() !== '').length);
    expect(rawVax.filter((v) => v.VAX_DOSE_SERIES.trim() !== '').length).toBeGreaterThan(15_000);
    expect(d.unparseable).toEqual([]);
  });

  it('VAERS_ID 0117862 as the raw row gives it', async () => {
    const data = await readVaers(modern, { narratives: true });
    const d = data.details;
    const i = [...d.id].indexOf(117862);
    const raw = rawCsv(resolve(modern, '1999VAERSDATA.csv.gz')).find((r) => r.VAERS_ID === '0117862')!;
    expect([raw.STATE, raw.AGE_YRS, raw.SEX, raw.VAX_DATE, raw.ONSET_DATE, raw.NUMDAYS, raw.HOSPITAL, raw.RECOVD]).toEqual(['OH', '80.0', 'F', '10/19/1998', '10/22/1998', '3', 'Y', 'N']);
    const text = (k: number): string | null => (k < 0 ? null : d.strings[k]);
    expect({ received: d.received[i], state: text(d.state[i]), age: d.age[i], vaxDate: d.vaxDate[i], onsetDate: d.onsetDate[i], numdays: d.numdays[i], recovd: text(d.recovd[i]) })
      .toEqual({ received: 19990104, state: 'OH', age: 80, vaxDate: 19981019, onsetDate: 19981022, numdays: 3, recovd: 'N' });
    expect(d.outcomes[i]).toBe(OUTCOME.HOSPITAL);
    expect(d.narrative![i]).toBe(raw.SYMPTOM_TEXT);
    const narratives = { labData: d.labData![i], history: d.history![i], curIll: d.curIll![i], otherMeds: d.otherMeds![i], priorVax: d.priorVax![i], allergies: d.allergies![i] };
    const cell = (name: string): string | null => (raw[name].trim() === '' ? null : raw[name]);
    expect(narratives).toEqual({ labData: cell('LAB_DATA'), history: cell('HISTORY'), curIll: cell('CUR_ILL'), otherMeds: cell('OTHER_MEDS'), priorVax: cell('PRIOR_VAX'), allergies: cell('ALLERGIES') });
    expect([raw.RPT_DATE, raw.TODAYS_DATE, raw.FORM_VERS, raw.V_ADMINBY, raw.V_FUNDBY, raw.HOSPDAYS, raw.DATEDIED]).toEqual(['12/29/1998', '', '1', 'PVT', 'PVT', '', '']);
    expect({ rptDate: d.rptDate[i], todaysDate: d.todaysDate[i], formVers: text(d.formVers[i]), adminBy: text(d.adminBy[i]), fundBy: text(d.fundBy[i]), hospdays: d.hospdays[i], dateDied: d.dateDied[i] })
      .toEqual({ rptDate: 19981229, todaysDate: 0, formVers: '1', adminBy: 'PVT', fundBy: 'PVT', hospdays: NaN, dateDied: 0 });
    const v = d.vaccines;
    const k = v.start[i];
    expect(v.start[i + 1] - k).toBe(1);
    expect([v.name[k], v.type[k], v.manufacturer[k], v.lot[k], v.dose[k], v.route[k], v.site[k]].map(text))
      .toEqual(['INFLUENZA (SEASONAL) (FLUZONE)', 'FLU3', 'CONNAUGHT LABORATORIES', '0965770', 'UNK', 'IM', 'RA']);
    const e = d.events;
    expect([...e.term.subarray(e.start[i], e.start[i + 1])].map(text)).toEqual(['Guillain-Barre syndrome', 'Myasthenic syndrome', 'Paralysis']);
    expect([...e.version.subarray(e.start[i], e.start[i + 1])].map(text)).toEqual(['8.10', '8.10', '8.10']);
  });
});

describe.skipIf(!existsSync(VAX_2025))('the row functions on the 2025 release (trailing ORDER column, leading-zero ids)', () => {
  it('VAX rows: ORDER ignored, ids as integers, VAX_DOSE_SERIES as the dose; values as in the raw file', async () => {
    const { header, rows } = await rowsThrough<VaxRowColumns, VaxRowValues>(VAX_2025, vaxRowColumns, vaxRow);
    expect(header[header.length - 1]).toBe('ORDER');
    const raw = rawCsv(VAX_2025);
    expect(rows).toHaveLength(raw.length);
    expect(raw.some((r) => r.VAERS_ID.startsWith('0'))).toBe(true);
    rows.forEach((row, k) => {
      const r = raw[k];
      const orNull = (s: string): string | null => (s.trim() === '' ? null : s.trim());
      expect(row).toEqual({
        id: Number(r.VAERS_ID), name: r.VAX_NAME.trim(), type: orNull(r.VAX_TYPE), manufacturer: orNull(r.VAX_MANU), lot: orNull(r.VAX_LOT),
        dose: orNull(r.VAX_DOSE_SERIES), route: orNull(r.VAX_ROUTE), site: orNull(r.VAX_SITE),
      });
    });
    expect(rows[0]).toEqual({ id: 791393, name: 'ZOSTER (SHINGRIX)', type: 'VARZOS', manufacturer: 'GLAXOSMITHKLINE BIOLOGICALS', lot: null, dose: '2', route: null, site: null });
  });

  it('SYMPTOMS rows: every non-empty term with its SYMPTOMVERSIONn, ORDER never read as a term', async () => {
    const { header, rows } = await rowsThrough<SymptomsRowColumns, SymptomsRowValues>(SYMPTOMS_2025, symptomsRowColumns, symptomsRow);
    expect(header[header.length - 1]).toBe('ORDER');
    const raw = rawCsv(SYMPTOMS_2025);
    expect(rows).toHaveLength(raw.length);
    rows.forEach((row, k) => {
      const r = raw[k];
      const terms = [1, 2, 3, 4, 5].filter((n) => r[`SYMPTOM${n}`].trim() !== '')
        .map((n) => ({ term: r[`SYMPTOM${n}`].trim(), version: r[`SYMPTOMVERSION${n}`].trim() || null }));
      expect(row).toEqual({ id: Number(r.VAERS_ID), terms });
    });
    expect(rows[0]).toEqual({ id: 791393, terms: ['Coronary artery bypass', 'Dialysis', 'End stage renal disease', 'Herpes zoster', 'Pain in extremity'].map((term) => ({ term, version: '28.00' })) });
    expect(rows.every((r) => r.terms.every((t) => t.version !== null))).toBe(true);
  });
});
