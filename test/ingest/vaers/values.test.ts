import { describe, expect, it } from 'vitest';
import { parseQuarter } from '../../../src/domain/quarter.js';
import { parseVaersId, recvdateQuarter } from '../../../src/ingest/vaers/values.js';

describe('VAERS_ID as an integer', () => {
  it('drops the zero padding of both releases', () => {
    expect(parseVaersId('025001')).toBe(25001);
    expect(parseVaersId('0025001')).toBe(25001);
    expect(parseVaersId('0117862')).toBe(117862);
    expect(parseVaersId(' 7 ')).toBe(7);
  });
  it('rejects what is not a non-negative integer', () => {
    for (const cell of ['', ' ', '12a', '-3', '1.5', '1e5', 'ID']) expect(parseVaersId(cell)).toBeNull();
  });
});

describe('quarter of RECVDATE (docs/design.md: quarter of a report = quarter of RECVDATE, MM/DD/YYYY)', () => {
  it('maps months to quarters', () => {
    expect(recvdateQuarter('01/04/1999')).toBe(parseQuarter('1999Q1'));
    expect(recvdateQuarter('03/31/1999')).toBe(parseQuarter('1999Q1'));
    expect(recvdateQuarter('04/01/1999')).toBe(parseQuarter('1999Q2'));
    expect(recvdateQuarter('07/02/1990')).toBe(parseQuarter('1990Q3'));
    expect(recvdateQuarter('12/31/2006')).toBe(parseQuarter('2006Q4'));
    expect(recvdateQuarter('1/5/2021')).toBe(parseQuarter('2021Q1'));
  });
  it('accepts 29 February only in leap years', () => {
    expect(recvdateQuarter('02/29/2000')).toBe(parseQuarter('2000Q1'));
    expect(recvdateQuarter('02/29/2004')).toBe(parseQuarter('2004Q1'));
    expect(recvdateQuarter('02/29/1999')).toBeNull();
    expect(recvdateQuarter('02/29/1900')).toBeNull();
  });
  it('rejects impossible or foreign dates', () => {
    for (const cell of ['', '13/45/1999', '00/10/1999', '04/31/1999', '1999-01-04', '01/04/99', 'UNKNOWN', '12/01/0199']) {
      expect(recvdateQuarter(cell), cell).toBeNull();
    }
  });
});
