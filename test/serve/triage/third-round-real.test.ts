/**
 * The triage's third round on the real default store (stratified analysis), the checks of its
 * issue: vaccine failure decided per report (VARIVAX x Infection in 2001Q1, ENGERIX-B x
 * Laboratory test abnormal in 2004Q4; not ZOSTAVAX x Herpes zoster in 2006Q4), bystanders judged
 * by vaccine type (DTAP (TRIPEDIA) x Injection site oedema in 2006Q4 not one; IPOL's injection-site
 * oedema one of DTaP, naming its brands), ROTASHIELD x Abdominal pain in 2001Q1 cautioned, the
 * early signals of special interest (SMALLPOX (DRYVAX) x Myocarditis in 2003Q1, MENACTRA x
 * Guillain-Barre syndrome in 2005Q4) in the top 20 while the top 20 of 2001Q1 and 2004Q4 hold at
 * most 2 pairs with EB05 < 1, and RotaShield and RotaTeq intussusception still first. Skips with a
 * message without data/vaers (no default store).
 */
import { describe, expect, it } from 'vitest';
import { hasDefaultStore } from '../../helpers/default-store.js';
import { realTriageQueue } from './real-queue.js';

const haveStore = hasDefaultStore('triage third-round real-data test');

interface Note { code: string; text: string }
interface Pair {
  vaccine: string; event: string; n: number; eb05: number | null; reasons: Note[]; cautions: Note[];
  failure: { share: number; n: number; lack_of_effect: number; late_onset: number } | null;
  co_reported: { vaccine: string; share: number; products: Array<{ vaccine: string; n: number }> } | null;
  related_events: Array<{ event: string; group?: string }>;
}
const codes = (notes: Note[]): string[] => notes.map((n) => n.code);

describe.skipIf(!haveStore)('triage third round on the real default store', () => {
  const queue = realTriageQueue<Pair>();
  const one = async (quarter: string, vaccine: string, event: string): Promise<Pair> =>
    (await queue(`quarter=${quarter}&group=none&vaccine=${encodeURIComponent(vaccine)}&event=${encodeURIComponent(event)}`))[0];

  it('vaccine failure per report: VARIVAX x Infection (2001Q1) and ENGERIX-B x Laboratory test abnormal (2004Q4) are; ZOSTAVAX x Herpes zoster (2006Q4) is not', async () => {
    const varivax = await one('2001Q1', 'VARICELLA (VARIVAX)', 'Infection');
    console.log(`triage 2001Q1 VARIVAX x Infection: ${JSON.stringify(varivax.failure)}`);
    expect(codes(varivax.cautions)).toContain('vaccine_failure');
    expect(varivax.failure!.share).toBeGreaterThanOrEqual(0.5);
    expect(varivax.failure!.late_onset).toBeGreaterThan(0);
    expect(varivax.cautions.find((c) => c.code === 'vaccine_failure')!.text).toMatch(/^\d+% of the 1020 reports \(\d+\) are failure reports \(\d+ name a lack-of-effect term, \d+ have onset past the live vaccine's 42-day reaction window\)/);
    const engerix = await one('2004Q4', 'HEP B (ENGERIX-B)', 'Laboratory test abnormal');
    console.log(`triage 2004Q4 ENGERIX-B x Laboratory test abnormal: ${JSON.stringify(engerix.failure)}`);
    expect(codes(engerix.cautions)).toContain('vaccine_failure');
    expect(engerix.failure!.lack_of_effect).toBe(engerix.failure!.n);
    const zostavax = await one('2006Q4', 'ZOSTER (ZOSTAVAX)', 'Herpes zoster');
    console.log(`triage 2006Q4 ZOSTAVAX x Herpes zoster: ${JSON.stringify(zostavax.failure)}`);
    expect(codes(zostavax.cautions)).not.toContain('vaccine_failure');
    expect(zostavax.failure!.share).toBeLessThan(0.5);
  }, 120_000);

  it('bystanders by vaccine type: DTAP (TRIPEDIA) x Injection site oedema (2006Q4) is not one; IPOL x Injection site oedema is one of DTAP, naming its brands', async () => {
    const tripedia = await one('2006Q4', 'DTAP (TRIPEDIA)', 'Injection site oedema');
    expect(tripedia.co_reported).toBeNull();
    const ipol = await one('2006Q4', 'POLIO VIRUS, INACT. (IPOL)', 'Injection site oedema');
    expect(ipol.co_reported?.vaccine).toBe('DTAP');
    expect(ipol.co_reported!.products.map((p) => p.vaccine)).toContain('DTAP (TRIPEDIA)');
    expect(ipol.co_reported!.products.length).toBeGreaterThan(1);
    console.log(`triage 2006Q4 IPOL x Injection site oedema: ${ipol.cautions.find((c) => c.code === 'co_reported')!.text}`);
  }, 120_000);

  it('ROTASHIELD x Abdominal pain (2001Q1) carries an artefact caution with its figures', async () => {
    const rota = await one('2001Q1', 'ROTAVIRUS (ROTASHIELD)', 'Abdominal pain');
    console.log(`triage 2001Q1 ROTASHIELD x Abdominal pain: ${rota.cautions.map((c) => `${c.code}: ${c.text}`).join(' | ')}`);
    expect(codes(rota.cautions).some((c) => c === 'stimulated' || c === 'post_withdrawal')).toBe(true);
    const top = await queue('quarter=2001Q1&limit=20');
    expect(top.map((p) => `${p.vaccine} x ${p.event}`)).not.toContain('ROTAVIRUS (ROTASHIELD) x Abdominal pain');
  }, 120_000);

  it('early signals of special interest come forward: DRYVAX x Myocarditis (2003Q1) and MENACTRA x Guillain-Barre syndrome (2005Q4) in the top 20; at most 2 pairs with EB05 < 1 in the top 20 of 2001Q1 and 2004Q4', async () => {
    for (const [quarter, vaccine, event] of [['2003Q1', 'SMALLPOX (DRYVAX)', 'Myocarditis'], ['2005Q4', 'MENINGOCOCCAL CONJUGATE (MENACTRA)', 'Guillain-Barre syndrome']]) {
      const top = await queue(`quarter=${quarter}&limit=20`);
      const rank = top.findIndex((p) => p.vaccine === vaccine && (p.event === event || p.related_events.some((r) => r.event === event)));
      console.log(`triage ${quarter} ${vaccine} x ${event}: rank ${rank + 1} of the top 20`);
      expect(rank, `${vaccine} x ${event}`).toBeGreaterThanOrEqual(0);
      const pair = await one(quarter, vaccine, event);
      expect(codes(pair.reasons)).toContain('special_interest');
    }
    for (const quarter of ['2001Q1', '2004Q4']) {
      const weak = (await queue(`quarter=${quarter}&limit=20`)).filter((p) => p.eb05 === null || p.eb05 < 1);
      expect(weak.length, quarter).toBeLessThanOrEqual(2);
    }
  }, 120_000);

  it('RotaShield x Intussusception stays first in 1999Q3 and RotaTeq x Intussusception in 2006Q4', async () => {
    const [first1999] = await queue('quarter=1999Q3&limit=1');
    expect([first1999.vaccine, first1999.event]).toEqual(['ROTAVIRUS (ROTASHIELD)', 'Intussusception']);
    const [first2006] = await queue('quarter=2006Q4&limit=1');
    expect([first2006.vaccine, first2006.event]).toEqual(['ROTAVIRUS (ROTATEQ)', 'Intussusception']);
  }, 120_000);
});
