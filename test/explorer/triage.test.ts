/**
 * The explorer's triage front door and the pair's timing histograms, in headless Chromium
 * against the real server:
 * - on the small store of test/explorer/fixture.ts, GET /triage answered by request interception
 *   with a queue in the route's shape (two clinical pairs, two with artefact cautions; caution=exclude
 *   and caution=only answered as the route does): the queue
 *   in rank order with its labels (the API's text as title), the artefacts in their own section,
 *   never hidden; and the fallback to the front door without triage when /triage is a 404;
 * - on the embedded default store, RotaShield x Intussusception's Reports view: the onset
 *   histogram (this pair against the event after other vaccines, with the KS p-value) and the lag
 *   histogram, from the /cases breakdowns.
 * Skips when Chromium (or, for the second part, the default store) is absent.
 */
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Route } from 'playwright-core';
import { chromiumAvailable, CHROMIUM_PATH } from '../helpers/browser.js';
import { hasDefaultStore } from '../helpers/default-store.js';
import { CAUTIONS } from '../../src/serve/triage/cautions.js';
import { CLASS_EVENT, HTML_EVENT, PAGED_VACCINE, SECOND_PRODUCT, writeExplorerStore } from './fixture.js';
import { browserSession, column, open, screenshot, settled } from './page.js';

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn(`explorer triage tests skipped: no Chromium at ${CHROMIUM_PATH} (install Debian "chromium" or set CHROMIUM_PATH)`);
const hasStore = hasDefaultStore('explorer timing histograms on the default store');

/** The triage route's URLs (/triage, /analyses/NAME/triage), not the page's own js/triage.js. */
const TRIAGE_URL = (url: URL): boolean => /\/triage$/.test(url.pathname);

const label = (code: string, text: string) => ({ code, text });
const pair = (vaccine: string, event: string, score: number, reasons: Array<{ code: string; text: string }>, cautions: Array<{ code: string; text: string }>) => ({
  vaccine, vax_type: vaccine.startsWith('HEP') ? 'HEP B' : 'ROTAVIRUS', event, n: 12, eb05: 3.25, prr: 4.5, ic025: 1.2, n_methods_flagged: 4, score, reasons, cautions,
  lag: { median_days: 40, q1_days: 10, q3_days: 90, share_over_365: 0.1 }, legal_share: 0, term_category: null,
  onset: { n: 10, median_days: 2, vs_other_vaccines: { d: 0.5, p: 0.01 }, vs_other_events: { d: 0.4, p: 0.05 } },
  completeness: { mean: 0.8, well_documented_share: 0.6 }, serious_share: 0.5, first_flagged: '2023Q2', new: false,
});

/** A /triage answer in the route's shape: ranks 1 and 2 clinical, 3 and 4 with artefact cautions. */
const TRIAGE = {
  analysis: 'all', quarter: '2023Q4', total: 4, limit: 100, offset: 0, caution_codes: CAUTIONS,
  hypothesis: 'A rank orders hypotheses for review; it is not evidence that a vaccine causes an event.',
  note: 'Score: disproportionality, then evidence.',
  pairs: [
    { ...pair(PAGED_VACCINE, CLASS_EVENT, 9.5, [label('strong_disproportionality', 'EB05 3.25 is at least 2'), label('onset_clustered', 'Onsets cluster in days 0-7 against other vaccines (KS p 0.01)')], []),
      // A folded row's cautions (issue 46): one the caution table knows, one it does not (shown by its code as words).
      related_events: [{ event: 'Test event 07', n: 9, overlap: 0.75, cautions: [label('vaccine_failure', 'The term says the vaccine did not work'), label('some_new_caution', 'A caution this page has never seen')] }] },
    pair('HEP B (ENGERIX-B)', HTML_EVENT, 7.25, [label('serious', 'Half of the reports are serious')], [label('few_reports', 'Only 12 reports')]),
    pair(PAGED_VACCINE, 'Test event 05', 3.5, [label('new', 'First flagged in 2023Q4')], [label('late_reports', '60% of the reports arrived more than a year after vaccination')]),
    pair(SECOND_PRODUCT, CLASS_EVENT, 1.25, [], [label('legal_reports', 'Legal wording in 40% of the narratives'), label('fit_at_bound', 'The prior fit is at a bound')]),
  ],
};

describe.skipIf(!hasChromium)('explorer triage front door (GET /triage answered by interception)', () => {
  let storePath: string | undefined;
  const session = browserSession(async () => (storePath = await writeExplorerStore()), async () => {
    if (storePath) await rm(dirname(storePath), { recursive: true, force: true });
  });
  const asked: string[] = [];
  /** Makes the page's /triage requests answer `status` with the JSON `body`. */
  const answerTriage = async (status: number, body: object): Promise<void> => {
    await session.page.unroute(TRIAGE_URL);
    await session.page.route(TRIAGE_URL, (route: Route) => {
      asked.push(route.request().url());
      // A queue answers caution=exclude and caution=only as the route does: by the artefact cautions.
      const caution = new URL(route.request().url()).searchParams.get('caution');
      const answer = 'pairs' in body && caution !== null && caution !== 'include'
        ? (() => {
          const pairs = (body as typeof TRIAGE).pairs.filter((p) => p.cautions.some((c) => ['late_reports', 'legal_reports', 'non_clinical_term'].includes(c.code)) === (caution === 'only'));
          return { ...body, pairs, total: pairs.length };
        })()
        : body;
      return route.fulfill({ status, contentType: 'application/json; charset=utf-8', body: JSON.stringify(answer) });
    });
  };

  it('leads with the queue in rank order, reasons and cautions as labels with their text as title; artefact pairs in their own section', async () => {
    const { page, base } = session;
    await answerTriage(200, TRIAGE);
    await open(page, base, '/');
    // the queue without artefacts, and the artefacts (ranked after every other pair) for their section
    expect(asked.map((u) => { const url = new URL(u); return `${url.pathname}?${url.searchParams}`; }).sort()).toEqual(['/analyses/all/triage?caution=exclude&limit=20&offset=0', '/analyses/all/triage?caution=only&limit=20']);
    expect(await page.isVisible('#triage-section')).toBe(true);
    expect(await page.textContent('#triage-title')).toBe('Triage queue');
    // the queue first on the page, above the vaccine types
    const order = await page.$$eval('#front h2', (hs) => hs.map((h) => h.id));
    expect(order.indexOf('triage-title')).toBeLessThan(order.indexOf('types-title'));
    expect(await column(page, '#triage-table', 0)).toEqual(['1', '2']);
    expect(await column(page, '#triage-table', 1)).toEqual([PAGED_VACCINE, 'HEP B (ENGERIX-B)']);
    expect(await column(page, '#triage-table', 2)).toEqual([CLASS_EVENT, HTML_EVENT]); // HTML shown as text
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await column(page, '#triage-table', 4)).toEqual(['3.250', '3.250']);
    expect(await column(page, '#triage-table', 5)).toEqual(['9.500', '7.250']);
    const first = page.locator('#triage-table tbody tr').first();
    expect(await first.locator('li.reason').allTextContents()).toEqual(['strong disproportionality', 'onset clustered']);
    expect(await first.locator('li.reason').first().getAttribute('title')).toBe('EB05 3.25 is at least 2');
    // the cautions of the event folded under it, marked so, each with its sentence as title
    expect(await first.locator('td.cautions li').allTextContents()).toEqual(['vaccine failure (folded: Test event 07)', 'some new caution (folded: Test event 07)']);
    expect(await first.locator('td.cautions li').evaluateAll((lis) => lis.map((li) => [li.getAttribute('data-code'), li.getAttribute('data-folded'), li.getAttribute('title')]))).toEqual([
      ['vaccine_failure', 'Test event 07', 'Test event 07, folded under this row: The term says the vaccine did not work'],
      ['some_new_caution', 'Test event 07', 'Test event 07, folded under this row: A caution this page has never seen'],
    ]);
    expect(await first.locator('td.cautions li.artefact').count()).toBe(1);
    // the related events folded into the first pair, in a row under it (the API's related_events)
    expect(await page.textContent('#triage-table tbody tr.related-events')).toBe('Related events, mostly the same reports: Test event 07 (9 reports, 75% shared)');
    const second = page.locator('#triage-table tbody tr:not(.related-events)').nth(1);
    expect(await second.locator('li.caution').allTextContents()).toEqual(['few reports']);
    expect(await second.locator('li.caution').getAttribute('title')).toBe('Only 12 reports');
    // the artefacts: below, in their section, with their ranks and cautions
    expect(await page.isVisible('#artefacts-section')).toBe(true);
    expect(await page.textContent('#artefacts-title')).toMatch(/^Possible artefacts/);
    expect(await column(page, '#artefacts-table', 0)).toEqual(['3', '4']);
    expect(await column(page, '#artefacts-table', 2)).toEqual(['Test event 05', CLASS_EVENT]);
    const artefact = page.locator('#artefacts-table tbody tr').nth(1);
    expect(await artefact.locator('li.caution').allTextContents()).toEqual(['legal reports', 'fit at bound']);
    expect(await artefact.locator('li.caution.artefact').allTextContents()).toEqual(['legal reports']);
    expect(await artefact.locator('li.caution').first().getAttribute('title')).toBe('Legal wording in 40% of the narratives');
    expect(await page.textContent('#triage-summary')).toContain('4 flagged pairs in the window ending 2023Q4');
    expect(await page.textContent('#triage-summary')).toContain('2 with an artefact caution are listed under “Possible artefacts”');
    expect(await page.textContent('#triage-caveat')).toBe(TRIAGE.hypothesis);
    // the rest of the front door is still there
    expect(await page.isVisible('#types-section')).toBe(true);
    await screenshot(page, 'fixture-triage');
  });

  it('a pair of the queue opens the pair view', async () => {
    const { page, base } = session;
    await open(page, base, '/');
    await page.locator('#triage-table tbody tr').first().locator('a.event-link').click();
    await settled(page);
    const url = new URL(page.url());
    expect([url.searchParams.get('pair_vaccine'), url.searchParams.get('pair_event')]).toEqual([PAGED_VACCINE, CLASS_EVENT]);
    // in the queue's window (TRIAGE.quarter) and analysis (`all`, the default: left out of the URL); its reports the window's quarters
    expect(['analysis', 'window', 'from', 'to'].map((k) => url.searchParams.get(k))).toEqual([null, '2023Q4', '2023Q1', '2023Q4']);
    expect(await page.textContent('#detail-title')).toBe(`${PAGED_VACCINE} — ${CLASS_EVENT}`);
    expect(await page.isVisible('#triage-section')).toBe(false);
  });

  it('falls back to the front door without triage when /triage is a 404; another error is said above the rest of the front door', async () => {
    const { page, base } = session;
    await answerTriage(404, { error: 'no such route' });
    await open(page, base, '/');
    expect(await page.isVisible('#triage-section')).toBe(false);
    expect(await page.getAttribute('#triage-section', 'data-state')).toBe('absent');
    expect(await page.isVisible('#front-error')).toBe(false);
    expect(await column(page, '#types-table', 0)).toEqual(['HEP B', 'ROTAVIRUS']);
    expect(await page.isVisible('#emerging-section')).toBe(true);
    await answerTriage(400, { error: 'limit must be an integer from 1 to 50' });
    await open(page, base, '/');
    expect(await page.getAttribute('#triage-section', 'data-state')).toBe('error');
    expect(await page.textContent('#triage-summary')).toBe('The triage queue could not be loaded: limit must be an integer from 1 to 50');
    expect(await page.isVisible('#types-section')).toBe(true);
  });

  it('had no page errors and no console errors (but the answers the routes above made fail)', () => {
    expect(session.errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  });
});

describe.skipIf(!hasChromium || !hasStore)('explorer pair view: onset and lag histograms on the default store', () => {
  const session = browserSession('default');
  const VACCINE = 'ROTAVIRUS (ROTASHIELD)';
  const EVENT = 'Intussusception';

  it('the front door on the real data: the queue of /triage?caution=exclude, then the artefacts (ranked after it) in their own section', async () => {
    const { app, page, base } = session;
    const queue = (await app.inject({ url: '/analyses/all/triage?caution=exclude&limit=20' })).json();
    const artefacts = (await app.inject({ url: '/analyses/all/triage?caution=only&limit=20' })).json();
    expect(artefacts.total).toBeGreaterThan(0);
    await open(page, base, '/');
    expect(await page.getAttribute('#triage-section', 'data-state')).toBe('ready');
    expect((await column(page, '#triage-table', 2)).slice(0, 5)).toEqual(queue.pairs.slice(0, 5).map((p: { event: string }) => p.event));
    expect(await page.isVisible('#artefacts-section')).toBe(true);
    const ranks = (await column(page, '#artefacts-table', 0)).map(Number);
    expect(ranks[0]).toBe(queue.total + 1);
    expect(await column(page, '#artefacts-table', 2)).toEqual(artefacts.pairs.map((p: { event: string }) => p.event));
    for (const row of await page.locator('#artefacts-table tbody tr:not(.related-events)').all()) expect(await row.locator('li.caution.artefact').count()).toBeGreaterThan(0);
  });

  it('RotaShield x Intussusception: the onset bins of both groups sum to their n, the lag bars are /cases\' lag_interval, the KS p-value is shown', async () => {
    const { app, page, base } = session;
    const api = (await app.inject({ url: `/cases?vaccine=${encodeURIComponent(VACCINE)}&event=${EVENT}&limit=1` })).json();
    const c = api.breakdowns.onset_comparison;
    expect(c.pair.n).toBeGreaterThan(50);
    expect(c.other_vaccines.n).toBeGreaterThan(0);
    await open(page, base, `/?pair_vaccine=${encodeURIComponent(VACCINE)}&pair_event=${EVENT}&view=reports`);
    const onset = page.locator('figure.bars[data-chart="onset_comparison"]');
    const values = await onset.locator('tbody tr').evaluateAll((rows) => rows.map((tr) => (tr as HTMLElement).dataset.values!.split(',').map(Number)));
    expect(values.map((v) => v[0]).reduce((s, v) => s + v, 0)).toBe(c.pair.n);
    expect(values.map((v) => v[1]).reduce((s, v) => s + v, 0)).toBe(c.other_vaccines.n);
    // day 0 alone is the first bar; days 31-60 the last
    expect(values[0]).toEqual([c.pair.days[0], c.other_vaccines.days[0]]);
    const sum = (days: number[]) => days.slice(31, 61).reduce((s, v) => s + v, 0);
    expect(values[values.length - 1]).toEqual([sum(c.pair.days), sum(c.other_vaccines.days)]);
    const caption = await onset.locator('figcaption').textContent();
    expect(caption).toContain(`p = ${c.ks.p < 0.001 ? c.ks.p.toExponential(2) : c.ks.p.toFixed(3)}`);
    expect(caption).toContain(`D = ${c.ks.d.toFixed(3)}`);
    expect(await page.$$eval('figure.bars[data-chart="onset_comparison"] .bar.pair', (bars) => Math.max(...bars.map((b) => (b as HTMLElement).offsetWidth)))).toBeGreaterThan(50);
    const lag = await page.$$eval('figure.bars[data-chart="lag_interval"] tbody tr', (rows) => rows.map((tr) => [tr.querySelector('th')!.textContent, Number((tr as HTMLElement).dataset.value)]));
    expect(lag).toEqual(Object.entries(api.breakdowns.lag_interval));
    expect(lag.reduce((s, [, v]) => s + (v as number), 0)).toBe(api.n_reports);
    expect(await page.textContent('figure.bars[data-chart="lag_interval"] figcaption')).toContain(`Median ${Math.round(api.breakdowns.lag.median_days * 10) / 10} days`);
    await page.locator('#timing-title').scrollIntoViewIfNeeded();
    await screenshot(page, 'default-timing');
  });
});
