/**
 * The triage evidence that links pairs (src/ingest/mining/evidence-links.ts, src/ingest/mining/passes.ts
 * relatedByPair), the delay from onset and the narrative template (src/ingest/mining/evidence.ts), and
 * the vaccine failure rule (src/serve/triage/failure.ts), on hand-worked examples.
 */
import { describe, expect, it } from 'vitest';
import { coReported, relatedPairs } from '../../../src/ingest/mining/evidence-links.js';
import { onsetLagDays } from '../../../src/ingest/mining/evidence.js';
import { random as seededRandom } from '../../../bench/prng.js';
import { resemblance, resembles, SIGNATURE_HASHES, TEMPLATE_RESEMBLANCE, templateShare, writeSignature } from '../../../src/ingest/mining/evidence-template.js';
import { relatedByPair } from '../../../src/ingest/mining/passes.js';
import { failureKind } from '../../../src/serve/triage/failure.js';

/** Reports as vaccine lists (vaccines P=0, R=1, D=2); events X=0, Y=1 (key v * 2 + e). */
function tables(vaccines: number[][]) {
  const start = [0];
  for (const v of vaccines) start.push(start[start.length - 1] + v.length);
  return { vaccineStart: Int32Array.from(start), vaccines: Int32Array.from(vaccines.flat()), nEvents: 2 };
}

describe('co-reported vaccine', () => {
  // 10 reports of P x X: 9 also name R, 6 also name D (one names R twice).
  const reports = [[0, 1], [0, 1], [0, 1, 1], [0, 1, 2], [0, 1, 2], [0, 1, 2], [0, 1, 2], [0, 1, 2], [0, 1, 2], [0]];
  const t = tables(reports);
  const keys = [0 * 2 + 0, 1 * 2 + 0, 2 * 2 + 0]; // P x X, R x X, D x X
  const reportsOf = (j: number) => (j === 0 ? reports.map((_, i) => i) : []);
  it('names the vaccine on at least half of the reports whose pair with the event has the highest EB05 above the pair\'s own', () => {
    const { coVaccine, coShare } = coReported(t, keys, reportsOf, Float64Array.from([2, 5, 8]));
    expect([coVaccine[0], coShare[0]]).toEqual([2, 0.6]); // D: 6 of 10, EB05 8 > R's 5
    const weaker = coReported(t, keys, reportsOf, Float64Array.from([2, 5, 1.5]));
    expect([weaker.coVaccine[0], weaker.coShare[0]]).toEqual([1, 0.9]); // D's pair is weaker than P's: R, 9 of 10 (R named twice counts once)
  });
  it('none when the other pairs are weaker, absent, or the pair is not flagged', () => {
    expect(coReported(t, keys, reportsOf, Float64Array.from([9, 5, 8])).coVaccine[0]).toBe(-1);
    expect(coReported(t, [0], reportsOf, Float64Array.from([2])).coVaccine[0]).toBe(-1);
    expect(coReported(t, keys, reportsOf, Float64Array.from([2, 5, 8]), Uint8Array.from([0, 1, 1])).coVaccine[0]).toBe(-1);
    // a null EB05 (NaN) is below any
    expect(coReported(t, keys, reportsOf, Float64Array.from([Number.NaN, 5, Number.NaN])).coVaccine[0]).toBe(1);
  });
});

describe('related pairs', () => {
  it('pairs of one vaccine, both flagged, whose reports overlap by at least half of the smaller, both ways', () => {
    // keys: A x X {1,2,3,4}, A x Y {3,4,5} (overlap 2/3), B x X {1,2,3,4} (another vaccine), A x Z {9} (none shared)
    const nEvents = 3;
    const keys = [0, 1, 3, 2];
    const sets = [[1, 2, 3, 4], [3, 4, 5], [1, 2, 3, 4], [9]];
    const triples = relatedPairs(nEvents, keys, (j) => sets[j], Uint8Array.from([1, 1, 1, 1]));
    expect(Array.from(triples)).toEqual([0, 1, 2 / 3, 1, 0, 2 / 3]);
    expect(relatedPairs(nEvents, keys, (j) => sets[j], Uint8Array.from([1, 0, 1, 1])).length).toBe(0);
    const names = ['X', 'Y', 'Z'];
    expect(relatedByPair(triples, (k) => names[keys[k] % nEvents])).toEqual(new Map([[0, '[["Y",0.667]]'], [1, '[["X",0.667]]']]));
  });
});

describe('delay from onset and narrative template', () => {
  it('onset is ONSET_DATE, else VAX_DATE + NUMDAYS; null when unknown or after receipt', () => {
    expect(onsetLagDays(20000101, 0, 19990101, Number.NaN)).toBe(365);
    expect(onsetLagDays(20000101, 19990101, 0, 10)).toBe(355);
    expect(onsetLagDays(20000101, 19990101, 0, Number.NaN)).toBeNull();
    expect(onsetLagDays(19990101, 0, 19990201, Number.NaN)).toBeNull();
  });
  it('template: near-identical narratives (case, digits, punctuation folded) resemble; different texts do not; the share of the largest group', () => {
    const form = 'This case was reported by a pharmacist and described the occurrence of swelling of tongue in an adult subject of unspecified gender who was vaccinated with influenza virus vaccine (Fluarix) for prophylaxis. On an unspecified date in October 2006 the subject received an unspecified dose.';
    const texts = [
      form,
      form.toUpperCase().replace('2006', '2005').replace(/\./g, ' -- '),
      form.replace('influenza virus vaccine', 'influenza vaccine'),
      'Patient reported local irritation, swelling and redness and slight fever. Patient reports exceptional tiredness and runny nose. Local reaction continued to worsen.',
      'Presented to the ER 30 minutes after Flu injection with localized irritation. Right side of upper arm, proximal forearm, shoulder and back all red itchy.',
    ];
    const signatures = new Uint32Array(texts.length * SIGNATURE_HASHES);
    const has = Uint8Array.from(texts, (t, i) => (writeSignature(t, signatures, i * SIGNATURE_HASHES) ? 1 : 0));
    expect(Array.from(has)).toEqual([1, 1, 1, 1, 1]);
    expect(resemblance(signatures, 0, 1)).toBe(1); // identical once folded
    expect(resemblance(signatures, 0, 2)).toBeGreaterThanOrEqual(0.7); // one word changed in a long form
    expect(resemblance(signatures, 0, 3)).toBeLessThan(0.2);
    expect(templateShare(signatures, has, [0, 1, 2, 3, 4])).toBe(0.6); // 3 of 5
    expect(templateShare(signatures, Uint8Array.from([0, 0, 0, 1, 1]), [0, 1, 2, 3, 4])).toBe(0.5); // 1 of the 2 narratives
    expect(templateShare(signatures, new Uint8Array(5), [0, 1])).toBeNull();
    expect(writeSignature('too short', new Uint32Array(SIGNATURE_HASHES), 0)).toBe(false);
  });
  it('templateShare with band tables (32+ narratives) equals the plain greedy grouping on perturbed copies of a few forms', () => {
    const random = seededRandom(7);
    for (const size of [40, 200, 1000]) {
      const forms = 1 + Math.floor(size / 50);
      const signatures = new Uint32Array(size * SIGNATURE_HASHES);
      const has = new Uint8Array(size);
      for (let r = 0; r < size; r++) {
        has[r] = random() < 0.9 ? 1 : 0;
        const form = Math.floor(random() * forms);
        const mismatches = Math.floor(random() * 14); // around the 9 a resemblance of 0.7 allows
        for (let k = 0; k < SIGNATURE_HASHES; k++) signatures[r * SIGNATURE_HASHES + k] = form * 1000 + k;
        for (let m = 0; m < mismatches; m++) signatures[r * SIGNATURE_HASHES + Math.floor(random() * SIGNATURE_HASHES)] = 1e6 + Math.floor(random() * 1e6);
      }
      const reports = Array.from({ length: size }, (_, r) => r);
      // The definition: greedy in report order, each narrative in the first group whose first member it resembles.
      const seeds: number[] = [], sizes: number[] = [];
      for (const r of reports.filter((x) => has[x])) {
        const c = seeds.findIndex((s) => resemblance(signatures, s, r) >= TEMPLATE_RESEMBLANCE);
        if (c >= 0) sizes[c]++;
        else { seeds.push(r); sizes.push(1); }
      }
      expect(seeds.length).toBeGreaterThan(forms); // some copies drift too far and start groups
      expect(templateShare(signatures, has, reports)).toBe(Math.max(...sizes) / reports.filter((x) => has[x]).length);
    }
  });
  it('resembles (early exit) answers as resemblance >= TEMPLATE_RESEMBLANCE for every number of equal minima, mismatches first or last', () => {
    for (let equal = 0; equal <= SIGNATURE_HASHES; equal++) {
      for (const mismatchesFirst of [true, false]) {
        const signatures = new Uint32Array(2 * SIGNATURE_HASHES);
        for (let k = 0; k < SIGNATURE_HASHES; k++) {
          const same = mismatchesFirst ? k >= SIGNATURE_HASHES - equal : k < equal;
          signatures[k] = k;
          signatures[SIGNATURE_HASHES + k] = same ? k : k + 1000;
        }
        expect(resemblance(signatures, 0, 1)).toBe(equal / SIGNATURE_HASHES);
        expect(resembles(signatures, 0, 1)).toBe(resemblance(signatures, 0, 1) >= TEMPLATE_RESEMBLANCE);
      }
    }
  });
});

describe('vaccine failure', () => {
  it('a lack-of-effect term, or the disease the vaccine type prevents; not zoster after varicella vaccine, not polio after polio vaccine', () => {
    expect(failureKind('HEP B', 'Drug ineffective')).toBe('lack_of_effect');
    expect(failureKind('VARICELLA', 'Varicella')).toBe('prevented_disease');
    expect(failureKind('MEASLES + MUMPS + RUBELLA + VARICELLA', 'varicella')).toBe('prevented_disease');
    expect(failureKind('ZOSTER', 'Herpes zoster')).toBe('prevented_disease');
    expect(failureKind('VARICELLA', 'Herpes zoster')).toBeNull();
    expect(failureKind('DTAP + HEPB + IPV', 'Hepatitis B')).toBe('prevented_disease');
    expect(failureKind('HEP A', 'Hepatitis B')).toBeNull();
    expect(failureKind('PNEUMO', 'Pneumococcal sepsis')).toBe('prevented_disease');
    expect(failureKind('POLIO VIRUS, ORAL', 'Poliomyelitis')).toBeNull();
  });
});
