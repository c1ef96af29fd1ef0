/**
 * The legal-wording rule (src/ingest/mining/evidence.ts legalWording) on a committed sample of real
 * VAERS narratives (test/ingest/mining/fixtures/legal-sample.csv): 160 narratives drawn at random (seed
 * 31) from those the former rule matched (the bare words "claim(s)" and "court" included), 100
 * of them matched by the present rule and 60 only by the former, each labelled litigation or not
 * by reading it, with the phrase that decided the label. The rule's precision on the sample (the
 * share of the narratives it matches that are litigation) must be at least 0.9.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { legalWording } from '../../../src/ingest/mining/evidence.js';

interface Labelled { vaers_id: string; label: 'litigation' | 'not'; deciding_phrase: string; symptom_text: string }
const SAMPLE: Labelled[] = parse(readFileSync(new URL('./fixtures/legal-sample.csv', import.meta.url)), { columns: true });

/** The former rule: any of these words, whole, any case. */
const FORMER = /\b(legal|lawsuits?|attorneys?|lawyers?|litigation|litigants?|court|claims?|plaintiffs?|sued|deposition|petitioner)\b/i;

describe('legal wording on the labelled sample', () => {
  it('holds at least 150 labelled narratives, each with its deciding phrase', () => {
    expect(SAMPLE.length).toBeGreaterThanOrEqual(150);
    for (const row of SAMPLE) {
      expect(['litigation', 'not']).toContain(row.label);
      expect(row.deciding_phrase.length).toBeGreaterThan(0);
    }
  });

  it('the rule\'s precision is at least 0.9 (the former rule\'s was about 0.6 on the same sample)', () => {
    const matched = SAMPLE.filter((r) => legalWording(r.symptom_text));
    const precision = matched.filter((r) => r.label === 'litigation').length / matched.length;
    const former = SAMPLE.filter((r) => FORMER.test(r.symptom_text));
    const formerPrecision = former.filter((r) => r.label === 'litigation').length / former.length;
    console.log(`legal wording: the rule matches ${matched.length} of ${SAMPLE.length}, precision ${precision.toFixed(3)}; former rule ${former.length}, precision ${formerPrecision.toFixed(3)}`);
    expect(matched.length).toBeGreaterThanOrEqual(90);
    expect(precision).toBeGreaterThanOrEqual(0.9);
    expect(formerPrecision).toBeLessThan(0.7);
    // Recall on the sample: the litigation narratives the rule misses.
    expect(SAMPLE.filter((r) => r.label === 'litigation' && !legalWording(r.symptom_text)).map((r) => r.vaers_id)).toEqual([]);
  });
});
