/**
 * The cautions of GET /interactions on the real default store (src/serve/interactions/cautions.ts;
 * docs/interactions.md "Cautions"): in the window ending 2006Q4, the medication-error triples of
 * the former top 10 are cautioned (non_clinical_term), as are Enema administration (a treatment),
 * PREVNAR + VARIVAX x Rash morbilliform (MMR, a third vaccine type, on every report) and
 * PEDIARIX + PREVNAR x Premature baby (no excess within age groups); the cautioned triples rank
 * after every triple without one, so none of them is in the first 10. Skips with a message
 * without data/vaers (no default store).
 */
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultApp } from '../../helpers/default-app.js';
import { hasDefaultStore } from '../../helpers/default-store.js';

const haveStore = hasDefaultStore('interaction cautions real-data test');

interface Triple { vaccine1: string; vaccine2: string; event: string; n111: number; omega025: number; cautions: Array<{ code: string; text: string }>; omega_age: { e111: number; omega025: number } | null }

describe.skipIf(!haveStore)('GET /interactions cautions on the real default store', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await defaultApp();
  }, 300_000);

  it('2006Q4: the former top 10\'s medication errors, treatment, third vaccine and infant-age triples are cautioned and rank after the rest', async () => {
    const res = await app.inject({ url: '/interactions?quarter=2006Q4&limit=500' });
    expect(res.statusCode).toBe(200);
    const all: Triple[] = res.json().interactions;
    const find = (v1: string, v2: string, event: string): Triple => all.find((t) => t.vaccine1 === v1 && t.vaccine2 === v2 && t.event === event)!;
    const codes = (t: Triple): string[] => t.cautions.map((c) => c.code);
    const errors = all.filter((t) => t.event === 'Medication error');
    expect(errors.length).toBeGreaterThanOrEqual(3);
    for (const t of errors) expect(codes(t), `${t.vaccine1} + ${t.vaccine2}`).toContain('non_clinical_term');
    expect(codes(find('TETANUS DIPHTHERIA (NO BRAND NAME)', 'TETANUS TOXOID (NO BRAND NAME)', 'Medication error'))).toContain('non_clinical_term');
    expect(codes(find('PNEUMO (PREVNAR)', 'ROTAVIRUS (ROTATEQ)', 'Enema administration'))).toEqual(['treatment_term']);
    const rash = find('PNEUMO (PREVNAR)', 'VARICELLA (VARIVAX)', 'Rash morbilliform');
    expect(rash.cautions.find((c) => c.code === 'third_vaccine')?.text).toMatch(/^100% of the 15 reports also name vaccine type MMR/);
    const premature = find('DTAP + HEPB + IPV (PEDIARIX)', 'PNEUMO (PREVNAR)', 'Premature baby');
    expect(codes(premature)).toContain('age_confounded');
    expect(premature.omega_age!.omega025).toBeLessThanOrEqual(0);
    expect(premature.omega025).toBeGreaterThan(0);
    // cautioned triples after every other: the first cautioned comes after the last uncautioned
    const firstCautioned = all.findIndex((t) => t.cautions.length > 0);
    expect(all.slice(firstCautioned).every((t) => t.cautions.length > 0)).toBe(true);
    expect(firstCautioned).toBeGreaterThanOrEqual(10);
    console.log(`interactions 2006Q4: ${all.length - firstCautioned} of ${all.length} triples cautioned; first 10: ${all.slice(0, 10).map((t) => `${t.vaccine1} + ${t.vaccine2} x ${t.event}`).join('; ')}`);
  }, 300_000);
});
