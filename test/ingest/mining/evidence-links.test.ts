/**
 * The triage evidence that links pairs (src/ingest/mining/evidence-links.ts, src/ingest/mining/passes.ts
 * relatedByPair), the delay from onset and the narrative template (src/ingest/mining/evidence.ts), and
 * the vaccine failure rule (src/domain/vaccine-failure.ts, src/ingest/mining/evidence-failure.ts), on hand-worked examples.
 */
import { describe, expect, it } from 'vitest';
import { countTypes, coReportedType, relatedPairs, typeCounts, type TypeCounts } from '../../../src/ingest/mining/evidence-links.js';
import { onsetLagDays } from '../../../src/ingest/mining/evidence.js';
import { random as seededRandom } from '../../../bench/prng.js';
import { resemblance, resembles, SIGNATURE_HASHES, TEMPLATE_RESEMBLANCE, templateShare, writeSignature } from '../../../src/ingest/mining/evidence-template.js';
import { relatedByPair } from '../../../src/ingest/mining/passes.js';
import { failureKind, failureReasons, failureRule, termFailureTest } from '../../../src/domain/vaccine-failure.js';
import { failureCounts, failureTables } from '../../../src/ingest/mining/evidence-failure.js';

describe('co-reported vaccine type', () => {
  // Products P=0 (type 0, IPV), R=1 and D=2 (both type 1, DTAP: two brands of one type); events X=0, Y=1.
  // Reports (vaccines, events): 6 of P x X name a DTaP brand (3 R, 3 D), 1 does not; 8 more DTaP
  // reports without P, 4 of them X; 4 P reports without DTaP, none X.
  const reports: Array<[number[], number[]]> = [
    [[0, 1], [0]], [[0, 1], [0]], [[0, 1], [0]], [[0, 2], [0]], [[0, 2], [0]], [[0, 2], [0]], [[0], [0]],
    [[1], [0]], [[1], [0]], [[2], [0]], [[2], [0]], [[1], [1]], [[1], [1]], [[2], [1]], [[2], [1]],
    [[0], [1]], [[0], [1]], [[0], [1]], [[0], [1]],
  ];
  const itemType = Int32Array.from([0, 1, 1]);
  const runs = (lists: number[][]) => {
    const start = [0];
    for (const l of lists) start.push(start[start.length - 1] + l.length);
    return { start: Int32Array.from(start), values: Int32Array.from(lists.flat()) };
  };
  const vax = runs(reports.map((r) => r[0]));
  const ev = runs(reports.map((r) => r[1]));
  const ty = runs(reports.map((r) => [...new Set(r[0].map((v) => itemType[v]))].sort()));
  const t = { vaccineStart: vax.start, vaccines: vax.values, eventStart: ev.start, events: ev.values, nEvents: 2, typeStart: ty.start, types: ty.values, itemType, itemsAreTypes: false };
  const counts = (): TypeCounts => {
    const c = typeCounts(new Set([0, 1]));
    reports.forEach((_, r) => countTypes(t, c, r, 2));
    return c;
  };
  const keysOf = [0 * 2 + 0, 1 * 2 + 0]; // P x X, R x X
  const reportsOf = (j: number) => (j === 0 ? [0, 1, 2, 3, 4, 5, 6] : [0, 1, 2, 7, 8]);
  it('P x X: DTAP (R and D together) on 6 of 7 reports, X on 4 of 8 DTAP reports without IPV against 1 of 5 IPV reports without DTAP', () => {
    const co = coReportedType(t, keysOf, reportsOf, counts(), 2, Uint8Array.from([1, 1]));
    expect([co.coVaccine[0], co.coShare[0]]).toEqual([1, 6 / 7]);
    expect([co.typeEvent[0], co.typeReports[0], co.ownEvent[0], co.ownReports[0]]).toEqual([4, 8, 1, 5]);
    // the products of the type on P x X's reports: R 3, D 3 (triples j, item, reports)
    expect(Array.from(co.products)).toEqual([0, 1, 3, 0, 2, 3]);
    // R x X, the other direction: IPV on 3 of its 5 reports, but X is on 1 of the 5 IPV reports without
    // DTAP against 4 of the 8 DTAP reports without IPV: R is not a bystander of IPV (only one direction holds)
    expect(co.coVaccine[1]).toBe(-1);
  });
  it('none when the pair is not flagged or no other type reaches half of its reports', () => {
    expect(coReportedType(t, keysOf, reportsOf, counts(), 2, Uint8Array.from([0, 0])).coVaccine[0]).toBe(-1);
    expect(coReportedType(t, keysOf, () => [6, 0], counts(), 2, Uint8Array.from([1, 1])).coVaccine[0]).toBe(1); // 1 of 2: half
    expect(coReportedType(t, keysOf, () => [6, 15, 0], counts(), 2, Uint8Array.from([1, 1])).coVaccine[0]).toBe(-1); // 1 of 3
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
  it('a signature is, per hash k, the least FNV-1a (offset basis 0x811c9dc5 ^ k * 0x9e3779b1, then mixed) of the folded "w1 w2 w3" shingle strings', () => {
    // The definition written plainly (one string per shingle), against writeSignature's run of codes.
    const fnv = (text: string, seed: number): number => {
      let h = (0x811c9dc5 ^ seed) >>> 0;
      for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
      h ^= h >>> 16;
      h = Math.imul(h, 0x85ebca6b);
      h ^= h >>> 13;
      return h >>> 0;
    };
    const texts = ['Fever 39.5 after the 2nd dose; fever again!', 'a bb ccc dddd', 'Café naïve patient: rash 12 hours later, rash spreading, rash']; // digit runs fold to 0 ('2nd' is '0nd'), other characters separate words
    const shingles = [['fever 0 0', '0 0 after', '0 after the', 'after the 0nd', 'the 0nd dose', '0nd dose fever', 'dose fever again'], ['a bb ccc', 'bb ccc dddd']];
    const into = new Uint32Array(SIGNATURE_HASHES + 1);
    texts.forEach((text, t) => {
      expect(writeSignature(text, into, 1)).toBe(true);
      const words = text.toLowerCase().replace(/[0-9]+/g, '0').split(/[^a-z0]+/).filter((w) => w !== '');
      const list = shingles[t] ?? words.slice(2).map((_, i) => `${words[i]} ${words[i + 1]} ${words[i + 2]}`);
      if (shingles[t]) expect(list).toEqual(words.slice(2).map((_, i) => `${words[i]} ${words[i + 1]} ${words[i + 2]}`));
      for (let k = 0; k < SIGNATURE_HASHES; k++) expect(into[1 + k]).toBe(Math.min(...list.map((s) => fnv(s, k * 0x9e3779b1))));
    });
  });
  it('templateShare with band tables (32+ narratives) equals the plain greedy grouping on perturbed copies of a few forms', () => {
    const random = seededRandom(7);
    // Sizes in an order that reuses the thread's band table: after a larger pair, a smaller one must not see its keys.
    for (const size of [40, 200, 1000, 33, 3000, 32, 500]) {
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

describe('vaccine failure per report', () => {
  it('the rule of a type: diseases it prevents, a live vaccine\'s 42-day window and its late effects', () => {
    const varicella = failureRule('VARICELLA');
    expect([...varicella.prevented]).toEqual(['varicella']);
    expect(varicella.windowDays).toBe(42);
    expect([...varicella.lateEffects]).toEqual(['herpes zoster']);
    expect(failureRule('HEP B').windowDays).toBeNull();
    expect(failureRule('MEASLES + MUMPS + RUBELLA').windowDays).toBe(42);
  });
  it('a report: lack of effect whatever the onset; a live vaccine\'s prevented disease or any event only past its window; not a late effect', () => {
    const varicella = termFailureTest('VARICELLA');
    expect(failureReasons(varicella, ['Infection'], 100, 'Infection')).toEqual({ lackOfEffect: false, disease: false, lateOnset: true });
    expect(failureReasons(varicella, ['Infection'], 42, 'Infection')).toEqual({ lackOfEffect: false, disease: false, lateOnset: false });
    expect(failureReasons(varicella, ['Varicella'], 10, 'Varicella')).toEqual({ lackOfEffect: false, disease: false, lateOnset: false });
    expect(failureReasons(varicella, ['Varicella', 'Rash'], 60, 'Rash')).toEqual({ lackOfEffect: false, disease: true, lateOnset: true });
    expect(failureReasons(varicella, ['Herpes zoster'], 400, 'Herpes zoster')).toEqual({ lackOfEffect: false, disease: false, lateOnset: false });
    expect(failureReasons(varicella, ['Drug ineffective', 'Infection'], null, 'Infection')).toEqual({ lackOfEffect: true, disease: false, lateOnset: false });
    const hepB = termFailureTest('HEP B');
    expect(failureReasons(hepB, ['Hepatitis B'], 3, 'Hepatitis B')).toEqual({ lackOfEffect: false, disease: true, lateOnset: false });
    expect(failureReasons(hepB, ['Laboratory test abnormal'], 400, 'Laboratory test abnormal')).toEqual({ lackOfEffect: false, disease: false, lateOnset: false });
  });
  it('the build counts a pair\'s failure reports over indexes as the rule over names does', () => {
    // items: VARIVAX-like (VARICELLA), ENGERIX-like (HEP B); events 0 Infection, 1 Drug ineffective, 2 Herpes zoster, 3 Laboratory test abnormal
    const events = ['Infection', 'Drug ineffective', 'Herpes zoster', 'Laboratory test abnormal'];
    const failure = failureTables(['VARICELLA', 'HEP B'], events);
    const lists = [[0], [0, 1], [0], [0], [2], [3, 1], [3]];
    const start = Int32Array.from([0, ...lists.map((_, i) => lists.slice(0, i + 1).flat().length)]);
    const t = { eventStart: start, events: Int32Array.from(lists.flat()), onsetAny: Int32Array.from([100, 5, 10, -1, 500, 0, 900]), failure };
    // varicella x Infection: reports 0 (day 100: late), 1 (drug ineffective), 2 (day 10), 3 (unknown onset): 2 of 4
    expect(failureCounts(t, 0, 0, [0, 1, 2, 3])).toEqual({ n: 2, lack: 1, disease: 0, late: 1 });
    // varicella x Herpes zoster at day 500: a late effect, not a failure
    expect(failureCounts(t, 0, 2, [4])).toEqual({ n: 0, lack: 0, disease: 0, late: 0 });
    // hep B x Laboratory test abnormal: 1 of 2 with drug ineffective; an inactivated vaccine has no window
    expect(failureCounts(t, 1, 3, [5, 6])).toEqual({ n: 1, lack: 1, disease: 0, late: 0 });
  });
});
