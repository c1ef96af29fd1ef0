/**
 * The triage's third round on hand-set rows (src/serve/triage/rank.ts triagePair, pair-cautions.ts,
 * group.ts): vaccine failure decided per report (the share and why), post_withdrawal and
 * stimulated with their figures, the special-interest credit for a new serious pair with few
 * reports, and a head carrying the artefact cautions of a folded pair that covers most of its
 * reports, or of a pair of the same narrow event group.
 */
import { describe, expect, it } from 'vitest';
import type { TriageRow } from '../../../src/serve/store/triage-rows.js';
import { foldSignals } from '../../../src/serve/triage/group.js';
import { rankPairs, triagePair, type WindowContext } from '../../../src/serve/triage/rank.js';
import { PLAIN_EVIDENCE } from './fixture.js';

const row = (vaccine: string, event: string, fields: Partial<TriageRow> = {}): TriageRow => ({
  ...PLAIN_EVIDENCE, vaccine, event, n: 100, eb05: 3, prr: 4, ic025: 1.5, n_methods_flagged: 4, first_flagged: '2000Q1', failure_n: 0, ...fields,
});
const context: WindowContext = { quarter: '2001Q1', at_bound: '', vaxTypeOf: (v) => v.replace(/ \([^)]*\)$/, '') };
const codes = (notes: Array<{ code: string }>): string[] => notes.map((n) => n.code);

describe('GET /triage, third round', () => {
  it('vaccine_failure from the share of failure reports: 61 of 100 with why; 49 of 100 is not; the share is served on every pair', () => {
    const infection = triagePair(row('VARICELLA (VARIVAX)', 'Infection', { failure_n: 61, failure_lack_n: 50, failure_late_n: 40 }), context);
    expect(infection.cautions).toEqual([{ code: 'vaccine_failure', text: '61% of the 100 reports (61) are failure reports (50 name a lack-of-effect term, 40 have onset past the live vaccine\'s 42-day reaction window): about effectiveness, not an adverse reaction.' }]);
    expect(infection.failure).toEqual({ share: 0.61, n: 61, lack_of_effect: 50, disease: 0, late_onset: 40, window_days: 42 });
    const rash = triagePair(row('VARICELLA (VARIVAX)', 'Rash vesicular', { failure_n: 49, failure_late_n: 49 }), context);
    expect(rash.cautions).toEqual([]);
    expect(rash.failure?.share).toBe(0.49);
    // the disease itself: per report too (ZOSTAVAX x Herpes zoster, 1 of 37 past the window: no caution)
    expect(codes(triagePair(row('ZOSTER (ZOSTAVAX)', 'Herpes zoster', { n: 37, failure_n: 1, failure_disease_n: 1, failure_late_n: 1 }), context).cautions)).toEqual([]);
    // a store without the per-report counts falls back on the term
    expect(codes(triagePair(row('VARICELLA (VARIVAX)', 'Varicella', { failure_n: null }), context).cautions)).toEqual(['vaccine_failure']);
  });

  it('post_withdrawal: no dated report of the vaccine vaccinated inside the window (2000Q2 to 2001Q1), with the latest date', () => {
    const pair = triagePair(row('ROTAVIRUS (ROTASHIELD)', 'Abdominal pain', { vaccine_last_vax_date: 19991015, vaccine_dated_n: 45 }), context);
    expect(pair.cautions).toEqual([{ code: 'post_withdrawal', text: 'None of the window\'s 45 reports of ROTAVIRUS (ROTASHIELD) with a vaccination date was vaccinated inside the window (2000Q2 to 2001Q1): the latest vaccination is of 1999-10-15. The product was no longer given; these reports describe past vaccinations.' }]);
    // one vaccination on the window's first day is inside it
    expect(codes(triagePair(row('ROTAVIRUS (ROTASHIELD)', 'Abdominal pain', { vaccine_last_vax_date: 20000401, vaccine_dated_n: 45 }), context).cautions)).toEqual([]);
  });

  it('stimulated: the middle half received within 31 days, a median 180+ days after vaccination', () => {
    const pair = triagePair(row('ROTAVIRUS (ROTASHIELD)', 'Abdominal pain', { n: 16, lag_median_days: 388, received_iqr_days: 17, received_median_date: 20000622 }), context);
    expect(pair.cautions).toEqual([{ code: 'stimulated', text: 'The middle half of the 16 reports arrived within 17 days around 2000-06-22, a median 388 days after vaccination (at least 180 days after, within 31 days of one another): reports prompted together long after the events, not spontaneous ones.' }]);
    expect(codes(triagePair(row('A', 'B', { lag_median_days: 179, received_iqr_days: 1 }), context).cautions)).toEqual([]);
    expect(codes(triagePair(row('A', 'B', { lag_median_days: 400, received_iqr_days: 32 }), context).cautions)).toEqual([]);
  });

  it('special_interest: a new serious pair of an event group with 3+ cases and IC025 > 0 gets full credit below EB05 1; not without the group, not when old', () => {
    const fields = { n: 10, n_cases: 10, eb05: 0.95, ic025: 0.12, n_methods_flagged: 3, first_flagged: '2003Q1', serious_share: 0.9, well_documented_share: 0.6 };
    const groups = { ...context, quarter: '2003Q1', specialGroups: (event: string) => (event === 'Myocarditis' ? ['Myocarditis and pericarditis'] : []) };
    const pair = triagePair(row('SMALLPOX (DRYVAX)', 'Myocarditis', fields), groups);
    expect(codes(pair.reasons)).toEqual(['special_interest', 'new', 'serious', 'well_documented']);
    expect(pair.reasons[0].text).toBe('Myocarditis is a term of the event group Myocarditis and pericarditis (an adverse event of special interest) and the pair is new, serious (90%) and counts 10 distinct cases with IC025 0.12 > 0: its reasons count in full although EB05 is 0.95 (MGPS shrinks a new pair\'s few reports toward the prior).');
    // 3 methods x 0.25 + new 1 + serious 0.9 + half of 0.6
    expect(pair.score).toBe(2.95);
    expect(triagePair(row('SMALLPOX (DRYVAX)', 'Chest pain', fields), groups).score).toBe(0.75);
    expect(triagePair(row('SMALLPOX (DRYVAX)', 'Myocarditis', { ...fields, first_flagged: '2001Q1' }), groups).score).toBe(0.75);
    expect(triagePair(row('SMALLPOX (DRYVAX)', 'Myocarditis', { ...fields, ic025: -0.1 }), groups).score).toBe(0.75);
  });

  it('one syndrome, one row: a pair of the head\'s narrow event group folds under it; the head carries a folded artefact caution covering most of its reports', () => {
    const rows = [
      row('SMALLPOX (DRYVAX)', 'Pericarditis', { n: 17, eb05: 2.8 }),
      row('SMALLPOX (DRYVAX)', 'Myocarditis', { n: 10, eb05: 2.1 }),
      row('VARICELLA (VARIVAX)', 'Rash vesicular', { n: 120, related_events: '[["Drug ineffective",0.8]]' }),
      row('VARICELLA (VARIVAX)', 'Drug ineffective', { n: 90, failure_n: 90, failure_lack_n: 90, related_events: '[["Rash vesicular",0.8]]' }),
    ];
    const groupsOfTerm = new Map([['Pericarditis', ['Myocarditis and pericarditis']], ['Myocarditis', ['Myocarditis and pericarditis', 'Cardiac (broad)']]]);
    const folded = foldSignals(rankPairs(rows, context), rows, groupsOfTerm);
    expect(folded.map((p) => `${p.vaccine} x ${p.event}`)).toEqual(['SMALLPOX (DRYVAX) x Pericarditis', 'VARICELLA (VARIVAX) x Rash vesicular']);
    expect(folded[0].related_events).toEqual([{ event: 'Myocarditis', n: 10, overlap: 0, via: null, group: 'Myocarditis and pericarditis' }]);
    // Drug ineffective (vaccine_failure: the term) shares 0.8 x 90 = 72 of Rash vesicular's 120 reports (60%)
    expect(folded[1].cautions).toEqual([{ code: 'vaccine_failure', text: 'Folded under this row: VARICELLA (VARIVAX) x Drug ineffective shares about 72 of this row\'s 120 reports (60%) and carries it: 100% of the 90 reports (90) are failure reports (90 name a lack-of-effect term): about effectiveness, not an adverse reaction.' }]);
  });
});
