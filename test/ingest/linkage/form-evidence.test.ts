/**
 * What a report's other fields say (src/ingest/linkage/form-evidence.ts, issue 43 round 9): a case's
 * label in the narrative, the numbers a form writes, HISTORY and PRIOR_VAX, RPT_DATE. The examples
 * are round 8's wrong links (and earlier rounds' twins), reduced to the fields that decide, each
 * beside the same-case pair the rule must leave alone.
 */
import { describe, expect, it } from 'vitest';
import { linkageFeatures } from '../../../src/ingest/linkage/features.js';
import { caseLabelOf, numbersOf } from '../../../src/ingest/linkage/form-evidence.js';
import { differentPatients, patientEvidence } from '../../../src/ingest/linkage/patient-evidence.js';
import { columnsOf, type FixtureReport } from './fixtures.js';

/** The reason two hand-made reports are different patients ('' when none); VAERS_IDs 1 and 1001 unless `ids` says. */
function reason(x: Partial<FixtureReport>, y: Partial<FixtureReport>, ids: readonly [number, number] = [1, 1001]): string {
  const base: FixtureReport = { id: 0, vaccines: [{ name: 'FLU3', lot: 'U1850AA' }], events: ['Erythema'], vaxDate: 20051024 };
  const columns = columnsOf([{ ...base, ...x, id: ids[0] }, { ...base, ...y, id: ids[1] }]);
  return differentPatients(linkageFeatures(columns), patientEvidence(columns.narrative, 2, columns), 0, 1);
}

describe('caseLabelOf', () => {
  it('reads a patient\'s label among several, not a count or a time', () => {
    expect(caseLabelOf('Case 1 -- Local reddened area 3-4 inches in dia.')).toBe('case 1');
    expect(caseLabelOf('pt #2 devel fever')).toBe('case 2');
    expect(caseLabelOf('Twin A had fever')).toBe('sibling A');
    expect(caseLabelOf('in case 2 doses were given')).toBe('');
    expect(caseLabelOf('case 2 days later')).toBe('');
    expect(caseLabelOf('mother gave baby a bath')).toBe('');
  });
});

describe('numbersOf', () => {
  it('leaves dates, years and ordinals out', () => {
    expect(numbersOf('On 1/10/01, fever of 99.6')).toEqual(numbersOf('fever of 99.6 in 2001'));
    expect(numbersOf('1st day measured 4x3, 2nd day 4x4')).toEqual(numbersOf('4 and 3'));
    expect(numbersOf('no numbers here').length).toBe(0);
  });
});

describe('differentPatients, round 9', () => {
  const area = 'Local reddened area of 3-4 inches in dia.';
  it('numbered: "Case 1" and "Case 2" of one reporter (Z02), not one case\'s two reports', () => {
    expect(reason({ narrative: `Case 1 -- ${area}` }, { narrative: `Case 2 -- ${area}` })).toBe('numbered');
    expect(reason({ narrative: `Case 1 -- ${area}` }, { narrative: `Case 1 -- ${area}` })).toBe('');
  });

  it('prior: PRIOR_VAX telling the other report\'s whole reaction as an earlier dose\'s (W007)', () => {
    const later = { narrative: 'pt recv vax & exp SOB not requiring med tx', priorVax: 'pt exp nausea p/1st dose;p/2nd dose severe nausea;' };
    expect(reason(later, { narrative: 'pt exp severe nausea p/2nd vax' })).toBe('prior');
    // One person's two reports of one reaction each name the earlier dose's hives: a part of the narrative, not the whole.
    const hives = '2nd dose of vax given 3DEC91 & 12 hrs later devel stomach cramps w/vomiting; 24 hrs later devel hives under arms, waist area, back of knees';
    expect(reason({ narrative: hives, priorVax: 'pt exp hives w/1st dose of Engerix-B vax;' }, { narrative: hives, priorVax: 'pt exp hives @ 47 y/o w/Hep B vax #1 dose' })).toBe('');
  });

  it('episode: an onset after the day the other form was written (Z38), not onsets a day apart', () => {
    const boy = { age: 4, sex: 'M' as const, vaxDate: 20061030 };
    expect(reason({ ...boy, onsetDate: 20061102, rptDate: 20061103 }, { ...boy, onsetDate: 20061031, rptDate: 20061101 })).toBe('episode');
    expect(reason({ ...boy, onsetDate: 20061101, rptDate: 20061103 }, { ...boy, onsetDate: 20061031, rptDate: 20061031 })).toBe('');
    // An RPT_DATE before the report's own vaccination is no form's day (R047).
    expect(reason({ ...boy, onsetDate: 20061102, rptDate: 20061103 }, { ...boy, onsetDate: 20061031, rptDate: 20061001 })).toBe('');
  });

  it('batch: two forms of one day copy their numbers and HISTORY when written twice (Z51, X60)', () => {
    const recruit = { age: 19, sex: 'F' as const, state: 'SC', vaxDate: 20021209, onsetDate: 20021211 };
    const text = (vitals: string): string => `Seen 2 days later at 4th BAS with rash on arms. ${vitals} Released to duty.`;
    expect(reason({ ...recruit, narrative: text('BP 192/86, P 104, R 16, T 99.1') }, { ...recruit, narrative: text('BP 166/100, P 87, R 16, T 98.6') }, [1, 2])).toBe('batch');
    expect(reason({ ...recruit, narrative: text('BP 192/86, P 104, R 16, T 99.1') }, { ...recruit, narrative: text('BP 192/86, P 104, R 16, T 99.1') }, [1, 2])).toBe('');
    const girl = { age: 11, sex: 'F' as const, state: 'MA', vaxDate: 19991116, onsetDate: 19991116, narrative: 'rt upper arm became reddened, blotchy' };
    expect(reason({ ...girl, history: 'NONE' }, { ...girl, history: 'asthma allergy to dust mites, cats, dogs;' }, [1, 3])).toBe('batch');
    expect(reason({ ...girl, history: 'NONE' }, { ...girl, history: 'none' }, [1, 3])).toBe('');
  });

  it('sibling: PRIOR_VAX stated in both, a sibling named in one only (Q56); a blank field says nothing', () => {
    const infant = { age: 0.3, sex: 'M' as const, narrative: 'inconsolable crying for 3 hours' };
    expect(reason({ ...infant, priorVax: 'pt exp rxn 14APR99 @ 3 1/2mo w/DTAP/HIB/IPV dose 2;' }, { ...infant, priorVax: 'pt sibling exp rxn 14APR99 @ 3 1/2mo w/DTAP/HIB/IPV dose 2;' })).toBe('sibling');
    expect(reason({ ...infant, priorVax: null }, { ...infant, priorVax: 'pt sibling exp hives @ 8mo w/tetramune dose 3;' })).toBe('');
  });
});
