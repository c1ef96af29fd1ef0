/**
 * The triage's second round on the fixture store (test/serve/triage/fixture.ts): no credit below EB05 1,
 * the co-reported vaccine, one signal one row (group=signal and group=none), the delay from onset,
 * the onset comparators' sizes, vaccine failure, template reports, distinct cases; and the one
 * table of caution codes as the answer, OpenAPI and /llms.txt serve it.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/http/app.js';
import { CAUTIONS } from '../../../src/serve/triage/cautions.js';
import { getJson, keys } from '../../http/helpers.js';
import { writeTriageStore } from './fixture.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildApp({ storePath: await writeTriageStore() });
});
afterAll(async () => app.close());

interface Pair { vaccine: string; event: string; score: number; reasons: Array<{ code: string; text: string }>; cautions: Array<{ code: string; text: string }>; [k: string]: unknown }
const codes = (notes: Array<{ code: string }>): string[] => notes.map((n) => n.code);
const find = (pairs: Pair[], vaccine: string, event: string): Pair => pairs.find((p) => p.vaccine === vaccine && p.event === event)!;

describe('GET /triage, second round', () => {
  it('no credit below EB05 1: an EB05 0.7 pair keeps its reasons but they add nothing, and it ranks after every EB05 >= 2 pair without an artefact', async () => {
    const pairs: Pair[] = (await getJson(app, '/triage?caution=exclude')).body.pairs;
    const fluzone = find(pairs, 'INFLUENZA (SEASONAL) (FLUZONE)', 'Haematemesis');
    expect(codes(fluzone.reasons)).toEqual(['new', 'serious', 'well_documented']);
    expect(fluzone.reasons[2].text).toMatch(/These reasons count nothing in the score: EB05 0.7/);
    expect(fluzone.score).toBe(0); // 2 methods x 0.25 - few_reports 0.5
    expect(pairs.indexOf(fluzone)).toBe(pairs.length - 1);
    // few_reports counts distinct cases: 3 reports of one case
    expect(fluzone.cautions).toEqual([{ code: 'few_reports', text: 'Only 1 distinct case among the 3 reports (suspected duplicates counted once).' }]);
    expect(fluzone.n_cases).toBe(1);
  });

  it('co_reported names the other vaccine type, its products, the share and both rates, and ranks the pair with the artefacts', async () => {
    const pairs: Pair[] = (await getJson(app, '/triage?group=none')).body.pairs;
    const polio = find(pairs, 'POLIO VIRUS, INACT. (POLIOVAX)', 'Intussusception');
    expect(polio.cautions).toEqual([{ code: 'co_reported', text: '96% of the 56 reports also name vaccine type RV (ROTAVIRUS RHESUS REASSORTANT TETRAVALENT) (ROTAVIRUS (ROTASHIELD) 54): Intussusception is on 20% (40 of 200) of the window\'s reports naming RV but not the type of POLIO VIRUS, INACT. (POLIOVAX), against 0% (2 of 500) of the reports naming its type but not RV: a bystander of that type\'s reports.' }]);
    expect(polio.co_reported).toEqual({ vaccine: 'RV', share: 54 / 56, products: [{ vaccine: 'ROTAVIRUS (ROTASHIELD)', n: 54 }], type_event: 40, type_reports: 200, own_event: 2, own_reports: 500 });
    // EB05 1.7: the weight 0.7 on new, serious and documented
    expect(polio.score).toBe(2.806);
    // after the 5 pairs without an artefact caution, and the artefacts FLUARIX 4.322, LYMERIX 3.322, ENGERIX-B 3
    expect(pairs.indexOf(polio)).toBe(8);
  });

  it('group=none lists every pair; group=signal folds the related pair under the strongest, which lists it', async () => {
    const none = (await getJson(app, '/triage?group=none')).body;
    expect(none.total).toBe(11);
    expect(none.group).toBe('none');
    const vomiting = find(none.pairs, 'ROTAVIRUS (ROTASHIELD)', 'Vomiting');
    expect(vomiting.related_events).toEqual([]);
    expect(keys(none.pairs).slice(0, 2)).toEqual(['ROTAVIRUS (ROTASHIELD)|Intussusception', 'ROTAVIRUS (ROTASHIELD)|Vomiting']);
    const signal = (await getJson(app, '/triage')).body;
    expect(signal.total).toBe(10);
    expect(keys(signal.pairs)).not.toContain('ROTAVIRUS (ROTASHIELD)|Vomiting');
    expect(signal.pairs[0].related_events).toEqual([{ event: 'Vomiting', n: 30, overlap: 0.8, via: null }]);
  });

  it('onset: each comparator\'s size is served; a comparator under the minimum gives no onset reason and says so', async () => {
    const pairs: Pair[] = (await getJson(app, '/triage?group=none')).body.pairs;
    const vomiting = find(pairs, 'ROTAVIRUS (ROTASHIELD)', 'Vomiting');
    expect(codes(vomiting.reasons)).toEqual(['strong_disproportionality', 'new']);
    expect(vomiting.onset).toEqual({
      n: 10, median_days: 3, vs_other_vaccines: { d: 0.2, p: 0.001, n: 3 }, vs_other_events: { d: 0.2, p: 0.001, n: 300 }, comparator_min: 10,
      note: 'No onset reason from these tests: the comparator of other vaccines (3 onsets) has fewer than 10 onsets (both KS p are below 0.01).',
    });
    expect(vomiting.score).toBe(3.129); // log2(2.6) + 0.75 + new 1
  });

  it('late_reports reads the delay from onset: VARIVAX x Herpes zoster (511.5 days from vaccination, 200 from onset) has none', async () => {
    const pairs: Pair[] = (await getJson(app, '/triage')).body.pairs;
    const zoster = find(pairs, 'VARICELLA (VARIVAX)', 'Herpes zoster');
    expect(zoster.cautions).toEqual([]);
    expect(zoster.lag).toEqual({ median_days: 511.5, q1_days: 300, q3_days: 700, share_over_365: 0.6, from_onset: { n: 40, median_days: 200, q1_days: 100, q3_days: 400 } });
  });

  it('vaccine_failure: the disease the vaccine prevents after it (not herpes zoster after varicella vaccine); template_reports', async () => {
    const pairs: Pair[] = (await getJson(app, '/triage')).body.pairs;
    expect(find(pairs, 'VARICELLA (VARIVAX)', 'Varicella').cautions).toEqual([
      { code: 'vaccine_failure', text: 'Varicella is a disease VARICELLA vaccines prevent, reported after the vaccine: vaccine failure, not an adverse reaction.' },
    ]);
    const fluarix = find(pairs, 'INFLUENZA (SEASONAL) (FLUARIX)', 'Skin irritation');
    expect(codes(fluarix.cautions)).toEqual(['template_reports']);
    expect(fluarix.cautions[0].text).toMatch(/^63% of the pair's narratives are one template/);
    expect(fluarix.template_share).toBe(0.625);
  });

  it('serves the one table of caution codes: in the answer, the OpenAPI enum and the /llms.txt notes', async () => {
    const { body } = await getJson(app, '/triage?limit=1');
    expect(body.caution_codes).toEqual(CAUTIONS);
    expect(body.caution_codes.filter((c: { artefact: boolean }) => c.artefact).map((c: { code: string }) => c.code))
      .toEqual(['late_reports', 'legal_reports', 'non_clinical_term', 'co_reported', 'vaccine_failure', 'template_reports', 'post_withdrawal', 'stimulated']);
    const openapi = (await getJson(app, '/openapi.json')).body;
    const answer = openapi.paths['/triage'].get.responses['200'].content['application/json'].schema;
    expect(answer.properties.pairs.items.properties.cautions.items.properties.code.enum).toEqual(CAUTIONS.map((c) => c.code));
    expect(openapi.paths['/triage'].get.parameters.map((p: { name: string }) => p.name)).toContain('group');
    const notes = (await app.inject({ url: '/llms.txt' })).body;
    for (const c of CAUTIONS) expect(notes).toContain(`| ${c.code} | ${c.artefact ? 'yes' : 'no'} |`);
    expect(notes).toContain('| group | string | signal |');
  });
});
