import { describe, expect, it } from 'vitest';
import { readVaers } from '../../../src/ingest/vaers/read.js';
import { SKIP } from '../../../src/ingest/vaers/skips.js';
import { dataDetailColumns, dataDetails, symptomsRow, symptomsRowColumns, vaxRow, vaxRowColumns } from '../../../src/ingest/vaers/rows.js';
import { isoDate, parseDecimal, parseVaersDate, recvdateQuarter } from '../../../src/ingest/vaers/values.js';
import { OUTCOME } from '../../../src/domain/report-rules.js';
import { MODERN_DATA_HEADER, OLD_DATA_HEADER, tempDir } from './fixtures.js';
import { EXPECTED_UNPARSEABLE, NARRATIVE_101, writeReportFolder } from './report-fixtures.js';

const header = (names: string[]): Map<string, number> => new Map(names.map((n, i) => [n, i]));

describe('report values: dates, numbers, the rows of each file', () => {
  it('reads MM/DD/YYYY dates that exist as yyyymmdd, ISO and quarter; anything else is null', () => {
    expect(parseVaersDate('10/19/1998')).toBe(19981019);
    expect(parseVaersDate(' 3/2/2004 ')).toBe(20040302);
    expect(parseVaersDate('02/29/2000')).toBe(20000229);
    for (const cell of ['', '02/29/2021', '02/30/2005', '13/01/2005', '00/10/2005', '2005-07-01', '1/1/05', '01/01/1899']) expect(parseVaersDate(cell)).toBeNull();
    expect(isoDate(20040302)).toBe('2004-03-02');
    expect(recvdateQuarter('12/31/2005')).toBe(2005 * 4 + 3);
    expect(parseDecimal(' 1.0 ')).toBe(1);
    expect(parseDecimal('-2')).toBe(-2);
    expect(parseDecimal('.5')).toBe(0.5);
    for (const cell of ['', 'two', '1e3', '0x10', '1.2.3', 'NaN', 'Infinity']) expect(parseDecimal(cell)).toBeNull();
  });

  it('DATA details: blanks are null, unreadable cells null and listed; outcome columns the header has are known', () => {
    const at = dataDetailColumns(header(OLD_DATA_HEADER));
    expect(at.outcomesKnown).toBe(OUTCOME.DIED | OUTCOME.L_THREAT | OUTCOME.ER_VISIT | OUTCOME.HOSPITAL | OUTCOME.X_STAY | OUTCOME.DISABLE);
    expect(dataDetailColumns(header(MODERN_DATA_HEADER)).outcomesKnown).toBe(255);
    const row = (cells: Record<string, string>): string[] => OLD_DATA_HEADER.map((n) => cells[n] ?? '');
    expect(dataDetails(row({ STATE: ' CA ', VAX_DATE: '03/01/2004', NUMDAYS: '1', RECOVD: 'n', SYMPTOM_TEXT: ' text ', LAB_DATA: 'WBC 9', RPT_DATE: '03/05/2004', HOSPDAYS: '2', V_FUNDBY: ' OTH ' }), at, true)).toEqual({
      state: 'CA', vaxDate: 20040301, onsetDate: null, numdays: 1, recovd: 'N', narrative: ' text ', bad: null,
      labData: 'WBC 9', history: null, curIll: null, otherMeds: null, priorVax: null, allergies: null,
      rptDate: 20040305, dateDied: null, hospdays: 2, adminBy: null, fundBy: 'OTH', splttype: null, formVers: null, todaysDate: null,
    });
    expect(dataDetails(row({ AGE_YRS: '-1', SEX: 'f', ONSET_DATE: '1/32/2004', NUMDAYS: '1,5', RECOVD: 'maybe', SYMPTOM_TEXT: 'x', DATEDIED: '02/30/2004', HOSPDAYS: 'x' }), at, false)).toEqual({
      state: null, vaxDate: null, onsetDate: null, numdays: null, recovd: null, narrative: null, labData: null, history: null, curIll: null, otherMeds: null, priorVax: null, allergies: null, rptDate: null, dateDied: null, hospdays: null, adminBy: null, fundBy: null, splttype: null, formVers: null, todaysDate: null,
      bad: [{ field: 'AGE_YRS', cell: '-1' }, { field: 'ONSET_DATE', cell: '1/32/2004' }, { field: 'NUMDAYS', cell: '1,5' }, { field: 'RECOVD', cell: 'maybe' },
        { field: 'DATEDIED', cell: '02/30/2004' }, { field: 'HOSPDAYS', cell: 'x' }],
    });
  });

  it('VAX rows: both dose columns, blanks null, ORDER ignored, leading-zero ids as integers', () => {
    const modern = vaxRowColumns(header(['VAERS_ID', 'VAX_TYPE', 'VAX_MANU', 'VAX_LOT', 'VAX_DOSE_SERIES', 'VAX_ROUTE', 'VAX_SITE', 'VAX_NAME', 'ORDER']), 'x', 1);
    expect(vaxRow(['0791393', 'VARZOS', 'GSK', '', '2', '', ' ', ' ZOSTER (SHINGRIX) ', '2'], modern)).toEqual({
      id: 791393, name: 'ZOSTER (SHINGRIX)', type: 'VARZOS', manufacturer: 'GSK', lot: null, dose: '2', route: null, site: null,
    });
    const old = vaxRowColumns(header(['VAERS_ID', 'VAX_TYPE', 'VAX_MANU', 'VAX_LOT', 'VAX_DOSE', 'VAX_ROUTE', 'VAX_SITE', 'VAX_NAME']), 'x', 1);
    expect(vaxRow(['25001', 'FLU3', 'CSL', 'L1', '1', 'IM', 'LA', 'FLU'], old)).toMatchObject({ id: 25001, dose: '1', lot: 'L1', site: 'LA' });
    expect(vaxRow(['x1', 'FLU3', '', '', '', '', '', 'FLU'], old).id).toBeNull();
    expect(() => vaxRowColumns(header(['VAERS_ID', 'VAX_TYPE']), '2000VAERSVAX.csv', 1)).toThrow(/2000VAERSVAX\.csv line 1: header lacks column VAX_NAME/);
  });

  it('SYMPTOMS rows: terms in SYMPTOMn order with their SYMPTOMVERSIONn, blanks skipped, ORDER ignored', () => {
    const names = ['VAERS_ID', 'SYMPTOM1', 'SYMPTOMVERSION1', 'SYMPTOM2', 'SYMPTOMVERSION2', 'SYMPTOM3', 'SYMPTOMVERSION3', 'ORDER'];
    const at = symptomsRowColumns(header(names), 'x', 1);
    expect(symptomsRow(['0791393', 'Rash', '28.00', '', '', ' Pyrexia ', '', '2'], at)).toEqual({
      id: 791393, terms: [{ term: 'Rash', version: '28.00' }, { term: 'Pyrexia', version: null }],
    });
    const noVersions = symptomsRowColumns(header(['VAERS_ID', 'SYMPTOM2', 'SYMPTOM1']), 'x', 1);
    expect(symptomsRow(['7', 'B', 'A'], noVersions).terms).toEqual([{ term: 'A', version: null }, { term: 'B', version: null }]);
  });
});

describe('readVaers details: the kept reports\' own values, both layouts', () => {
  it('keeps only the kept reports, in reading order, their VAX rows and distinct events; counts unreadable cells of kept reports only', async () => {
    const dir = await tempDir();
    await writeReportFolder(dir);
    const data = await readVaers(dir);
    const d = data.details;
    expect(d.count).toBe(data.reports.length);
    expect([...d.id]).toEqual(data.reports.map((r) => r.id));
    expect([...d.id]).toEqual([101, 102, 103, 105, 900001, 900003]);
    expect(data.skipped.map((s) => [s.reason, s.count])).toEqual([[SKIP.BAD_RECVDATE, 2], [SKIP.NO_VACCINE, 1]]);
    expect(d.unparseable).toEqual(EXPECTED_UNPARSEABLE);
    expect(d.narrative).toBeNull();
    const text = (k: number): string | null => (k < 0 ? null : d.strings[k]);
    const runs = (start: Int32Array, column: Int32Array): Array<Array<string | null>> =>
      [...d.id].map((_, i) => [...column.subarray(start[i], start[i + 1])].map(text));
    expect(runs(d.vaccines.start, d.vaccines.dose)).toEqual([['1', null], [null], ['1'], ['2'], ['1'], ['UNK', '1']]);
    expect(runs(d.events.start, d.events.term)).toEqual([['Pyrexia', 'Seizure', 'Rash'], ['Headache'], ['Pneumonia'], ['Rash', 'Pyrexia'], ['Pain in extremity', 'Injection site pain'], ['Death']]);
    expect(runs(d.events.start, d.events.version)[0]).toEqual(['8.1', '8.1', null]);
    expect([...d.received]).toEqual([20040305, 20040305, 20051231, 20050615, 20210110, 20210301]);
    expect([...d.outcomesKnown]).toEqual([63, 63, 63, 63, 255, 255]);
  });

  it('with narratives: SYMPTOM_TEXT as written (a blank one is null)', async () => {
    const dir = await tempDir();
    await writeReportFolder(dir);
    const data = await readVaers(dir, { narratives: true });
    expect(data.details.narrative).toEqual([NARRATIVE_101, null, null, null, 'Sore arm', null]);
    expect(data.details.allergies).toEqual([null, null, null, null, 'Penicillin', null]);
    expect(data.details.labData).toEqual(['WBC 12.1', null, null, null, null, null]);
    expect([...data.details.rptDate]).toEqual([20040304, 0, 0, 0, 0, 0]);
    expect([...data.details.todaysDate]).toEqual([0, 0, 0, 0, 20210109, 0]);
  });
});
