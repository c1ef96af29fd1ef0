/**
 * The triage's second round on the real default store (stratified analysis), the checks of its
 * issue: no more than 2 pairs with EB05 < 1 in the top 20 of 2001Q1 and 2004Q4; POLIOVAX x
 * Intussusception in 1999Q3 co-reported with ROTASHIELD; at most 4 ROTASHIELD rows in the 1999Q3
 * top 20, RotaShield x Intussusception first with vomiting among its related events; VARIVAX x
 * Herpes zoster in 1999Q3 not late; FLUMIST x Rhinorrhoea in 2006Q4 without legal wording and the
 * LYMErix litigation pairs still `legal_reports`; ROTATEQ x Intussusception's onset test against
 * other vaccines on too few onsets. Skips with a message without data/vaers (no default store).
 */
import { describe, expect, it } from 'vitest';
import { hasDefaultStore } from '../../helpers/default-store.js';
import { realTriageQueue } from './real-queue.js';

const haveStore = hasDefaultStore('triage second-round real-data test');

interface Pair {
  vaccine: string; event: string; n: number; eb05: number | null; score: number; legal_share: number | null;
  reasons: Array<{ code: string; text: string }>; cautions: Array<{ code: string; text: string }>;
  related_events: Array<{ event: string; n: number; overlap: number }>; co_reported: { vaccine: string; share: number; products: Array<{ vaccine: string; n: number }> } | null;
  lag: { median_days: number | null; from_onset: { median_days: number | null } };
  onset: { vs_other_vaccines: { n: number | null }; note: string | null };
}
const codes = (notes: Array<{ code: string }>): string[] => notes.map((n) => n.code);

describe.skipIf(!haveStore)('triage second round on the real default store', () => {
  const queue = realTriageQueue<Pair>();

  it('the top 20 of 2001Q1 and 2004Q4 hold at most 2 pairs with EB05 < 1 each', async () => {
    for (const quarter of ['2001Q1', '2004Q4']) {
      const top = await queue(`quarter=${quarter}&limit=20`);
      const weak = top.filter((p) => p.eb05 === null || p.eb05 < 1);
      console.log(`triage ${quarter}: ${weak.length} of the top 20 with EB05 < 1`);
      expect(weak.length, quarter).toBeLessThanOrEqual(2);
    }
  }, 120_000);

  it('1999Q3: RotaShield x Intussusception first, vomiting among its related events; at most 4 ROTASHIELD rows in the top 20', async () => {
    const top = await queue('quarter=1999Q3&limit=20');
    expect([top[0].vaccine, top[0].event]).toEqual(['ROTAVIRUS (ROTASHIELD)', 'Intussusception']);
    expect(top[0].related_events.map((r) => r.event)).toContain('Vomiting');
    const rota = top.filter((p) => p.vaccine === 'ROTAVIRUS (ROTASHIELD)');
    console.log(`triage 1999Q3: ${rota.length} ROTASHIELD rows in the top 20; related to intussusception: ${top[0].related_events.map((r) => `${r.event} ${r.n} ${r.overlap}`).join(', ')}`);
    expect(rota.length).toBeLessThanOrEqual(4);
    // group=none still lists every pair
    const none = await queue('quarter=1999Q3&limit=20&group=none&vaccine=ROTAVIRUS');
    expect(none.map((p) => p.event)).toContain('Vomiting');
  }, 120_000);

  it('1999Q3: POLIOVAX x Intussusception is co-reported with ROTASHIELD; VARIVAX x Herpes zoster is not late', async () => {
    const [polio] = await queue('quarter=1999Q3&group=none&vaccine=POLIO VIRUS, INACT. (POLIOVAX)&event=Intussusception');
    expect(polio.co_reported?.vaccine).toBe('RV'); // the VAX_TYPE of ROTASHIELD, named with its products
    expect(polio.co_reported?.products.map((p) => p.vaccine)).toEqual(['ROTAVIRUS (ROTASHIELD)']);
    expect(polio.co_reported!.share).toBeGreaterThanOrEqual(0.9);
    expect(polio.cautions.find((c) => c.code === 'co_reported')!.text).toMatch(/ROTAVIRUS \(ROTASHIELD\)/);
    const [zoster] = await queue('quarter=1999Q3&group=none&vaccine=VARICELLA (VARIVAX)&event=Herpes zoster');
    console.log(`triage 1999Q3 VARIVAX x Herpes zoster: vaccination to receipt ${zoster.lag.median_days} days, onset to receipt ${zoster.lag.from_onset.median_days} days`);
    expect(codes(zoster.cautions)).not.toContain('late_reports');
    expect(zoster.lag.from_onset.median_days!).toBeLessThan(zoster.lag.median_days!);
  }, 120_000);

  it('2006Q4: FLUMIST x Rhinorrhoea has legal share 0; the LYMErix litigation pairs keep legal_reports', async () => {
    const [flumist] = await queue('quarter=2006Q4&group=none&vaccine=INFLUENZA (SEASONAL) (FLUMIST)&event=Rhinorrhoea');
    expect(flumist.legal_share).toBe(0);
    const lymerix = await queue('quarter=2003Q4&group=none&vaccine=LYME (LYMERIX)&limit=500');
    const litigation = lymerix.filter((p) => (p.legal_share ?? 0) >= 0.5);
    console.log(`triage 2003Q4 LYMERIX: ${litigation.length} of ${lymerix.length} pairs with legal share >= 0.5`);
    expect(litigation.length).toBeGreaterThan(0);
    for (const p of litigation) expect(codes(p.cautions), p.event).toContain('legal_reports');
  }, 120_000);

  it('2006Q4: ROTATEQ x Intussusception serves its comparators\' sizes; one under the minimum gives no onset reason and says so', async () => {
    const [rotateq] = await queue('quarter=2006Q4&group=none&vaccine=ROTAVIRUS (ROTATEQ)&event=Intussusception');
    console.log(`triage 2006Q4 ROTATEQ x Intussusception: comparator of other vaccines ${rotateq.onset.vs_other_vaccines.n} onsets; note ${rotateq.onset.note}`);
    expect(rotateq.onset.vs_other_vaccines.n).toBe(3);
    expect(codes(rotateq.reasons)).not.toContain('onset_clustered');
    expect(rotateq.onset.note).toBe('No onset reason from these tests: the comparator of other vaccines (3 onsets) has fewer than 10 onsets.');
  }, 120_000);

  it('2006Q4: the FLUARIX pharmacist\'s template reports, TYPHIM VI x Chest pain co-reported with DRYVAX; 2001Q1: FLUZONE x Haematemesis counts its cases', async () => {
    const [fluarix] = await queue('quarter=2006Q4&group=none&vaccine=INFLUENZA (SEASONAL) (FLUARIX)&event=Skin irritation');
    expect(codes(fluarix.cautions)).toContain('template_reports');
    const [typhim] = await queue('quarter=2006Q4&group=none&vaccine=TYPHOID VI POLYSACCHARIDE (TYPHIM VI)&event=Chest pain');
    expect(typhim.co_reported?.vaccine).toBe('SMALL'); // the VAX_TYPE of DRYVAX
    expect(typhim.co_reported?.products.map((p) => p.vaccine)).toEqual(['SMALLPOX (DRYVAX)']);
    const [fluzone] = await queue('quarter=2001Q1&group=none&vaccine=INFLUENZA (SEASONAL) (FLUZONE)&event=Haematemesis');
    expect(fluzone.cautions.find((c) => c.code === 'few_reports')?.text).toBe('Only 2 distinct cases among the 3 reports (suspected duplicates counted once).');
  }, 120_000);
});
