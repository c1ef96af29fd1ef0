/**
 * Issue 12 on the embedded default store (VAERS 1990-2006 with its report tables): the front
 * door (GET /vaccines and the emerging pairs), pair links that behave like links, the analysis
 * selector, the Compare analyses panel and the Reports view (GET /cases), in headless Chromium
 * against the real server. Every expected number is read from the API itself. Screenshots of
 * each view go to artifacts/screenshots/default-*.png. Skips when the store or Chromium is absent.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { hasDefaultStore } from '../helpers/default-store.js';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { chromiumAvailable, launchBrowser, type TestBrowser } from '../helpers/browser.js';
import { barValues, canvasPixels, collectErrors, column, open, screenshot, settled } from './page.js';
import { defaultServer } from '../helpers/default-app.js';

const hasStore = hasDefaultStore('explorer default-views tests');
const hasChromium = chromiumAvailable();

const VACCINE = 'ROTAVIRUS (ROTASHIELD)';
const EVENT = 'Intussusception';
const q = encodeURIComponent;
const PAIR_PATH = `/?vaccine=ROTAVIRUS&pair_vaccine=${q(VACCINE)}&pair_event=${EVENT}`;
/** The breakdowns in which every report falls in exactly one bar. */
const PARTITIONS = ['age_group', 'sex', 'onset_interval', 'serious', 'received_year'];

interface VaccineEntry { vaccine: string; vax_type: string; flagged_pairs: number; emerging_pairs: number }
interface PairRow { vaccine: string; event: string; emerging: boolean }

describe.skipIf(!hasStore || !hasChromium)('explorer front door, analyses and reports on the embedded default store', () => {
  let app: FastifyInstance;
  let base: string;
  let browser: TestBrowser;
  let page: Page;
  let errors: string[];
  const json = async (url: string) => (await app.inject({ url })).json();

  beforeAll(async () => {
    ({ app, base } = await defaultServer());
    browser = await launchBrowser();
    page = await browser.newPage();
    errors = collectErrors(page);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('front door: lists the vaccine types of GET /vaccines and the emerging pairs', async () => {
    const listing = await json('/vaccines');
    const entries = listing.vaccines as VaccineEntry[];
    const types = [...new Set(entries.map((v) => v.vax_type))].sort((a, b) => a.localeCompare(b));
    const sum = (type: string, key: 'flagged_pairs' | 'emerging_pairs') => entries.filter((v) => v.vax_type === type).reduce((s, v) => s + v[key], 0);
    const emergingTotal = entries.reduce((s, v) => s + v.emerging_pairs, 0);
    expect(emergingTotal).toBeGreaterThan(0);

    await open(page, base, '/');
    expect(await page.textContent('#hypothesis')).toBe(HYPOTHESIS);
    expect(await page.isVisible('#front')).toBe(true);
    expect(await page.isVisible('#results')).toBe(false);
    expect(await column(page, '#types-table', 0)).toEqual(types);
    const rota = page.locator('#types-table tbody tr[data-type="ROTAVIRUS"]');
    expect(await rota.locator('td').nth(2).textContent()).toBe(String(sum('ROTAVIRUS', 'flagged_pairs')));
    expect(await rota.locator('td').nth(3).textContent()).toBe(String(sum('ROTAVIRUS', 'emerging_pairs')));
    expect(await rota.locator('td').nth(4).textContent()).toMatch(/^\d{4}Q[1-4]$/);
    // the emerging pairs: as many as /vaccines counts, each one emerging in its /signals answer
    expect(await page.textContent('#emerging-summary')).toContain(`${emergingTotal} emerging pairs`);
    const shown = page.locator('#emerging-table tbody tr');
    expect(await shown.count()).toBe(20);
    const vaccines = await column(page, '#emerging-table', 0);
    const events = await column(page, '#emerging-table', 1);
    for (let i = 0; i < 3; i++) {
      const rows = (await json(`/signals?vaccine=${q(vaccines[i])}&event=${q(events[i])}`)) as PairRow[];
      expect(rows.find((r) => r.vaccine === vaccines[i] && r.event === events[i])?.emerging).toBe(true);
    }
    const eb05 = (await column(page, '#emerging-table', 4)).map(Number);
    expect(eb05).toEqual([...eb05].sort((a, b) => b - a));
    await screenshot(page, 'default-front');

    // a type lists its pairs
    await rota.locator('th a').click();
    await settled(page);
    expect(new URL(page.url()).searchParams.get('vaccine')).toBe('ROTAVIRUS');
    const total = (await app.inject({ url: '/signals?vaccine=ROTAVIRUS&limit=1' })).headers['x-total-count'];
    expect(await page.textContent('#total')).toContain(`${total} pairs`);
    expect(await page.isVisible('#front')).toBe(false);
  });

  it('front door of another analysis: its counts come from /analyses/NAME/vaccines', async () => {
    const entries = (await json('/analyses/serious/vaccines')).vaccines as VaccineEntry[];
    const rotaFlagged = entries.filter((v) => v.vax_type === 'ROTAVIRUS').reduce((s, v) => s + v.flagged_pairs, 0);
    const emergingTotal = entries.reduce((s, v) => s + v.emerging_pairs, 0);
    expect(rotaFlagged).not.toBe((await json('/vaccines')).vaccines.filter((v: VaccineEntry) => v.vax_type === 'ROTAVIRUS').reduce((s: number, v: VaccineEntry) => s + v.flagged_pairs, 0));
    const asked: string[] = [];
    const listen = (request: { url(): string }) => asked.push(new URL(request.url()).pathname);
    page.on('request', listen);
    await open(page, base, '/?analysis=serious');
    page.off('request', listen);
    expect(asked).toContain('/analyses/serious/vaccines');
    expect(asked).not.toContain('/vaccines');
    expect(await page.textContent('#types-summary')).toContain('analysis “serious”');
    const rota = page.locator('#types-table tbody tr[data-type="ROTAVIRUS"]');
    expect(await rota.locator('td').nth(2).textContent()).toBe(String(rotaFlagged));
    expect(await page.textContent('#emerging-summary')).toContain(emergingTotal > 0 ? `${emergingTotal} emerging pair` : 'No emerging pair');
  });

  it('a pair name is a link: a click opens the pair in the page, its href opens the same view in a new page', async () => {
    await open(page, base, '/?vaccine=ROTAVIRUS');
    const row = page.locator('#pairs tbody tr').filter({ has: page.locator('th', { hasText: VACCINE }) }).filter({ hasText: EVENT });
    const link = row.locator('a.event-link');
    const href = await link.getAttribute('href');
    expect(href).toBe(PAIR_PATH.replace(/\(/g, '%28').replace(/\)/g, '%29').replace(/%20/g, '+'));
    expect(await row.locator('a.vaccine-link').getAttribute('href')).toBe(href);
    await link.click();
    await settled(page);
    expect(page.url()).toBe(base + href);
    expect(await page.textContent('#detail-title')).toBe(`${VACCINE} — ${EVENT}`);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('detail-title');
    expect(await row.getAttribute('aria-current')).toBe('true');
    expect((await canvasPixels(page, '#plot', [11, 46, 89])).colour).toBeGreaterThan(50);
    await screenshot(page, 'default-results');

    // the same href in a new page shows the same view
    const other = await browser.newPage();
    const otherErrors = collectErrors(other);
    await open(other, base, href!);
    expect(await other.textContent('#detail-title')).toBe(`${VACCINE} — ${EVENT}`);
    expect(await other.getAttribute('#view-series', 'aria-pressed')).toBe('true');
    expect((await canvasPixels(other, '#plot', [11, 46, 89])).colour).toBeGreaterThan(50);
    expect(otherErrors).toEqual([]);
    await other.close();

    // a middle click leaves the page alone and opens a new tab on the href
    await open(page, base, '/?vaccine=ROTAVIRUS');
    const [tab] = await Promise.all([browser.context.waitForEvent('page'), link.click({ button: 'middle' })]);
    await tab.waitForLoadState();
    expect(tab.url()).toBe(base + href);
    await tab.close();
    expect(new URL(page.url()).searchParams.get('pair_event')).toBeNull();

    // the keyboard: Enter on the focused link opens the pair
    await link.focus();
    await page.keyboard.press('Enter');
    await settled(page);
    expect(page.url()).toBe(base + href);
  });

  it('the analysis selector changes the answers and the URL', async () => {
    const analyses = await json('/analyses');
    expect(analyses.analyses[0].name).toBe(analyses.default);
    await open(page, base, '/?vaccine=ROTAVIRUS');
    expect(await page.$$eval('#analysis option', (os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(analyses.analyses.map((a: { name: string }) => a.name));
    expect(await page.inputValue('#analysis')).toBe(analyses.default);
    const crude = Number((await app.inject({ url: '/signals?vaccine=ROTAVIRUS&limit=1' })).headers['x-total-count']);
    const deaths = Number((await app.inject({ url: '/analyses/death/signals?vaccine=ROTAVIRUS&limit=1' })).headers['x-total-count']);
    expect(deaths).not.toBe(crude);
    await page.selectOption('#analysis', 'death');
    await settled(page);
    expect(new URL(page.url()).searchParams.get('analysis')).toBe('death');
    expect(await page.textContent('#total')).toContain(`${deaths} pair`);
    expect(await page.textContent('#total')).toContain('in the analysis “death”');
    expect(await page.getAttribute('#download-csv', 'href')).toMatch(/^\/analyses\/death\/signals\?vaccine=ROTAVIRUS&/);
    // links carry the analysis
    expect(await page.getAttribute('#pairs a.event-link >> nth=0', 'href')).toContain('analysis=death');
    await page.selectOption('#analysis', analyses.default);
    await settled(page);
    expect(new URL(page.url()).searchParams.has('analysis')).toBe(false);
    expect(await page.textContent('#total')).toContain(`${crude} pairs`);
    // Back restores the previous analysis
    await page.goBack();
    await settled(page);
    expect(await page.inputValue('#analysis')).toBe('death');
    expect(await page.textContent('#total')).toContain(`${deaths} pair`);
  });

  it('Compare analyses: one EB05 line per analysis that serves the pair, the others said absent', async () => {
    const analyses = (await json('/analyses')).analyses as Array<{ name: string; items: string }>;
    // A type-level analysis (items: VAX_TYPE codes, e.g. `types`) serves the product as its code (issue 36).
    const codes = ((await json('/vaccines')).vaccines as Array<{ vaccine: string; vax_type_codes: string[] }>).find((v) => v.vaccine === VACCINE)!.vax_type_codes;
    expect(codes).toHaveLength(1);
    const askedIn = (name: string): string => (analyses.find((a) => a.name === name)!.items === 'vax_type_code' ? codes[0] : VACCINE);
    const serving: string[] = [];
    for (const { name } of analyses) {
      const rows = (await json(`/analyses/${name}/signals?vaccine=${q(askedIn(name))}&event=${EVENT}`)) as PairRow[];
      if (rows.some((r) => r.vaccine === askedIn(name) && r.event === EVENT)) serving.push(name);
    }
    expect(serving.length).toBeGreaterThan(1);
    expect(serving.length).toBeLessThan(analyses.length);
    await open(page, base, PAIR_PATH);
    await page.click('#view-compare');
    await settled(page);
    expect(new URL(page.url()).searchParams.get('view')).toBe('compare');
    const legend = await page.locator('#compare-plot .u-legend .u-label').allTextContents();
    expect(legend.filter((l) => l.endsWith(' EB05'))).toEqual(serving.map((name) => `${name} EB05`));
    expect(legend).toContain(`${analyses[0].name} EB95 (band: EB05 to EB95)`);
    expect(await page.getAttribute('#compare-plot', 'data-lines')).toBe(String(serving.length));
    expect(await page.locator('#compare-plot .u-axis').count()).toBeGreaterThanOrEqual(2);
    const pixels = await canvasPixels(page, '#compare-plot', [31, 95, 168]);
    expect(pixels.opaque).toBeGreaterThan(pixels.total * 0.05);
    expect(pixels.colour).toBeGreaterThan(50);
    // the table: a row per analysis; the peak EB05 of the serving ones is their pair row's eb05
    expect(await page.locator('#compare-table tbody tr').count()).toBe(analyses.length);
    for (const { name } of analyses) {
      const tr = page.locator(`#compare-table tbody tr[data-analysis="${name}"]`);
      if (serving.includes(name)) {
        const row = ((await json(`/analyses/${name}/signals?vaccine=${q(askedIn(name))}&event=${EVENT}`)) as Array<PairRow & { eb05: number }>)[0];
        expect(Number(await tr.locator('td').first().textContent())).toBeCloseTo(row.eb05, 3);
      } else {
        expect(await tr.locator('td.absent').textContent()).toContain('Not served in this analysis');
      }
    }
    expect(await page.textContent('#compare-note')).toContain('sex × age group × year');
    await screenshot(page, 'default-compare');
  });

  it('Reports: breakdown bars add up to n_reports, the listing pages, the CSV downloads', async () => {
    const api = await json(`/cases?vaccine=${q(VACCINE)}&event=${EVENT}&limit=20&offset=0`);
    const n = api.n_reports as number;
    expect(n).toBeGreaterThan(20);
    await open(page, base, PAIR_PATH);
    await page.click('#view-reports');
    await settled(page);
    expect(new URL(page.url()).searchParams.get('view')).toBe('reports');
    expect(await page.textContent('#reports-caveat')).toContain('A case series is not a rate');
    expect(await page.textContent('#reports-summary')).toContain(`${n} reports name`);
    for (const key of PARTITIONS) {
      const values = await barValues(page, key);
      expect(values.length, key).toBeGreaterThan(0);
      expect(values.reduce((s, v) => s + v, 0), key).toBe(n);
      expect(await page.getAttribute(`figure.bars[data-chart="${key}"]`, 'data-partition')).toBe('true');
    }
    // outcomes do not partition the reports, and say so
    const byNumber = (a: number, b: number) => a - b;
    expect((await barValues(page, 'outcomes')).sort(byNumber)).toEqual(Object.values(api.breakdowns.outcomes as Record<string, number>).sort(byNumber));
    expect(await page.getAttribute('figure.bars[data-chart="outcomes"]', 'data-partition')).toBe('false');
    expect(await page.textContent('figure.bars[data-chart="outcomes"] figcaption')).toContain('do not add up');
    expect(await page.textContent('figure.bars[data-chart="outcomes"] thead')).toContain('Reports with the outcome');
    const widest = await page.$eval('figure.bars[data-chart="age_group"]', (f) => Math.max(...Array.from(f.querySelectorAll('.bar')).map((b) => (b as HTMLElement).offsetWidth)));
    expect(widest).toBeGreaterThan(50);
    expect(await barValues(page, 'co_vaccines')).toEqual(api.breakdowns.co_vaccines.top.map((r: { reports: number }) => r.reports));
    expect(await page.textContent('figure.bars[data-chart="co_vaccines"] figcaption')).toContain('share reports');

    // the listing: newest first, expandable, with the report's narrative (the default store keeps them)
    const ids = await page.$$eval('#listing details.report', (ds) => ds.map((d) => Number((d as HTMLElement).dataset.vaersId)));
    expect(ids).toEqual(api.reports.map((r: { vaers_id: number }) => r.vaers_id));
    const first = page.locator('#listing details.report').first();
    await first.locator('summary').click();
    expect(await first.getAttribute('open')).not.toBeNull();
    expect(await first.locator('.report-vaccines tbody tr').count()).toBe(api.reports[0].vaccines.length);
    const narrative = api.reports[0].narrative as string | null;
    expect(await first.locator('p.narrative').textContent()).toBe(narrative ?? 'No narrative in this store (it was built without narratives).');
    expect(await page.textContent('#listing-info')).toBe(`Reports 1–20 of ${n}, newest first (page 1 of ${Math.ceil(n / 20)})`);
    await screenshot(page, 'default-reports');

    // the CSV of the page: its header and one line per listed report
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-cases')]);
    const csv = await readFile((await download.path())!, 'utf8');
    // a narrative may hold line breaks inside its quoted field: read the records with a CSV parser
    const records = parse(csv) as string[][];
    expect(records[0].slice(0, 3)).toEqual(['vaers_id', 'received', 'quarter']);
    expect(records).toHaveLength(21);
    expect(records[1][0]).toBe(String(api.reports[0].vaers_id));

    // the next page of the listing
    await page.click('#reports-next');
    await settled(page);
    expect(new URL(page.url()).searchParams.get('rpage')).toBe('2');
    const page2 = await json(`/cases?vaccine=${q(VACCINE)}&event=${EVENT}&limit=20&offset=20`);
    expect(await page.getAttribute('#listing details.report >> nth=0', 'data-vaers-id')).toBe(String(page2.reports[0].vaers_id));
    expect(await page.textContent('#listing-info')).toContain(`Reports 21–${20 + page2.returned} of ${n}`);
    expect(await page.getAttribute('#download-cases', 'href')).toContain('offset=20');
  });

  it('Reports of a vaccine alone, from the pair list', async () => {
    const api = await json(`/cases?vaccine=${q(VACCINE)}&limit=1`);
    await open(page, base, `/?vaccine=${q(VACCINE)}`);
    await page.click('#query-reports');
    await settled(page);
    expect(new URL(page.url()).searchParams.get('view')).toBe('reports');
    expect(await page.textContent('#detail-title')).toBe(`Reports naming vaccine “${VACCINE}”`);
    expect(await page.isVisible('#view-series')).toBe(false);
    for (const key of PARTITIONS) expect((await barValues(page, key)).reduce((s, v) => s + v, 0), key).toBe(api.n_reports);
    // and in another analysis: the subset's reports
    const serious = await json(`/analyses/serious/cases?vaccine=${q(VACCINE)}&limit=1`);
    expect(serious.n_reports).toBeLessThan(api.n_reports);
    await page.selectOption('#analysis', 'serious');
    await settled(page);
    expect(await page.textContent('#reports-summary')).toContain(`${serious.n_reports} reports name`);
    expect(await page.getAttribute('#download-cases', 'href')).toMatch(/^\/analyses\/serious\/cases\?/);
  });

  it('shows an empty state for an unknown query, with the caveat', async () => {
    await open(page, base, '/?q=no+such+vaccine+or+event');
    expect(await page.isVisible('#empty')).toBe(true);
    expect(await page.textContent('#empty')).toContain('No pairs match “no such vaccine or event”');
    expect(await page.isVisible('#results')).toBe(false);
    expect(await page.isVisible('#front')).toBe(false);
    expect(await page.textContent('#hypothesis')).toBe(HYPOTHESIS);
    await screenshot(page, 'default-empty');
  });

  it('had no page errors and no console errors', () => {
    expect(errors).toEqual([]);
  });
});
