/**
 * Issue 6: the explorer page at `/`, end to end in headless Chromium against the real server
 * (buildApp + listen on port 0) over a small store written by the test (test/explorer/fixture.ts).
 * Screenshots of the main views go to artifacts/screenshots/.
 */
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { chromiumAvailable, CHROMIUM_PATH, launchBrowser, type TestBrowser } from '../helpers/browser.js';
import { CLASS_EVENT, HTML_EVENT, PAGED_VACCINE, SECOND_PRODUCT, writeExplorerStore } from './fixture.js';
import { canvasPixels, column, open, screenshot, settled, startServer } from './page.js';

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn(`explorer browser tests skipped: no Chromium at ${CHROMIUM_PATH} (install Debian "chromium" or set CHROMIUM_PATH)`);

const SERIES_PATH = `/?vaccine=ROTAVIRUS&pair_vaccine=${encodeURIComponent(PAGED_VACCINE)}&pair_event=${CLASS_EVENT}`;
const FLAGGED_RED: [number, number, number] = [200, 58, 58];

describe.skipIf(!hasChromium)('explorer page on a small store', () => {
  let storePath: string;
  let app: FastifyInstance;
  let base: string;
  let browser: TestBrowser;
  let page: Page;
  /** Content-Security-Policy violations and console errors of every view the tests open (issue 35). */
  const violations: string[] = [];

  beforeAll(async () => {
    storePath = await writeExplorerStore();
    ({ app, base } = await startServer(storePath));
    browser = await launchBrowser();
    page = await browser.newPage();
    await page.exposeFunction('reportViolation', (text: string) => { violations.push(text); });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        (window as unknown as { reportViolation(text: string): void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content.Security.Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    if (storePath) await rm(dirname(storePath), { recursive: true, force: true });
  });

  it('serves the page at / with the caveat in it, hidden from the OpenAPI document', async () => {
    const root = await app.inject({ url: '/' });
    expect(root.statusCode).toBe(200);
    expect(root.headers['content-type']).toMatch(/^text\/html/);
    expect(root.body).toContain(HYPOTHESIS);
    expect((await app.inject({ url: '/explorer/vendor/uplot/uPlot.esm.js' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/explorer/js/app.js' })).statusCode).toBe(200);
    const paths = Object.keys((await app.inject({ url: '/openapi.json' })).json().paths ?? {});
    expect(paths).toContain('/signals');
    expect(paths.filter((p) => p === '/' || p.startsWith('/explorer'))).toEqual([]);
  });

  it('shows the caveat, reports_through and the build before any search', async () => {
    await open(page, base, '/');
    expect(await page.textContent('#hypothesis')).toBe(HYPOTHESIS);
    expect(await page.isVisible('#hypothesis')).toBe(true);
    expect(await page.textContent('#reports-through')).toBe('2023Q4');
    expect(await page.textContent('#build')).toMatch(/^api-[0-9a-f]{12} src-\S+/);
    // the front door: the vaccine types of GET /vaccines (no report tables here: no latest report)
    expect(await page.isVisible('#front')).toBe(true);
    expect(await column(page, '#types-table', 0)).toEqual(['HEP B', 'ROTAVIRUS']);
    expect(await column(page, '#types-table', 3)).toEqual(['1', '32']);
    expect(await column(page, '#types-table', 5)).toEqual(['—', '—']);
    expect(await page.isVisible('#results')).toBe(false);
    await screenshot(page, 'fixture-start');
  });

  it('searches, offers suggestions from the data, and lists pairs with the total from X-Total-Count', async () => {
    await open(page, base, '/');
    await page.selectOption('#search-mode', 'event');
    await page.fill('#search-text', 'Intus');
    await page.waitForSelector(`#suggestions option[value="${CLASS_EVENT}"]`, { state: 'attached' });
    await page.selectOption('#search-mode', 'vaccine');
    await page.fill('#search-text', 'ROTAVIRUS');
    await page.click('button[type=submit]');
    await settled(page);
    expect(new URL(page.url()).searchParams.get('vaccine')).toBe('ROTAVIRUS');
    expect(await page.textContent('#total')).toContain('32 pairs');
    expect(await page.locator('#pairs tbody tr').count()).toBe(20);
    // default sort: eb05 descending (Test event 30 has the highest peak EB05)
    expect((await column(page, '#pairs', 2))[0]).toBe('Test event 30');
    expect(await page.getAttribute('#pairs th:has(button[data-sort=eb05])', 'aria-sort')).toBe('descending');
    expect(await page.getAttribute('#pairs th:has(button[data-sort=n])', 'aria-sort')).toBe('none');
    const csv = await page.getAttribute('#download-csv', 'href');
    expect(csv).toBe('/signals?vaccine=ROTAVIRUS&sort=eb05&order=desc&limit=20&offset=0&format=csv');
    const csvAnswer = await app.inject({ url: csv! });
    expect(csvAnswer.headers['content-type']).toMatch(/^text\/csv/);
    expect(csvAnswer.body.trim().split(/\r?\n/)).toHaveLength(21);
    await screenshot(page, 'fixture-results');
  });

  it('sorts by a column header button (aria-sort follows) and keeps the sort in the URL', async () => {
    await open(page, base, '/?vaccine=ROTAVIRUS');
    await page.click('#pairs button[data-sort=eb05]');
    await settled(page);
    expect(await page.getAttribute('#pairs th:has(button[data-sort=eb05])', 'aria-sort')).toBe('ascending');
    expect(new URL(page.url()).searchParams.get('order')).toBe('asc');
    const eb05 = (await column(page, '#pairs', 4)).map(Number);
    expect(eb05[0]).toBeCloseTo(1.1, 9);
    expect(eb05).toEqual([...eb05].sort((a, b) => a - b));
    // keyboard: the header button is a real button
    await page.focus('#pairs button[data-sort=n]');
    await page.keyboard.press('Enter');
    await settled(page);
    expect(await page.getAttribute('#pairs th:has(button[data-sort=n])', 'aria-sort')).toBe('descending');
    expect(new URL(page.url()).searchParams.get('sort')).toBe('n');
  });

  it('pages with Next/Previous and X-Total-Count', async () => {
    await open(page, base, '/?vaccine=ROTAVIRUS');
    expect(await page.isDisabled('#prev')).toBe(true);
    await page.click('#next');
    await settled(page);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(await page.locator('#pairs tbody tr').count()).toBe(12);
    expect(await page.textContent('#page-info')).toBe('Page 2 of 2 (rows 21–32 of 32)');
    expect(await page.isDisabled('#next')).toBe(true);
    expect(await page.getAttribute('#download-csv', 'href')).toContain('offset=20');
    await page.click('#prev');
    await settled(page);
    expect(await page.locator('#pairs tbody tr').count()).toBe(20);
  });

  it('opens the quarterly series of a row (its event is a link) as a drawn uPlot plot with flagged quarters and the COVID band', async () => {
    await open(page, base, '/?vaccine=ROTAVIRUS');
    const row = page.locator('#pairs tbody tr', { hasText: CLASS_EVENT }).filter({ has: page.locator('th', { hasText: PAGED_VACCINE }) });
    await row.locator('a.event-link').click();
    await settled(page);
    const url = new URL(page.url());
    expect(url.searchParams.get('pair_vaccine')).toBe(PAGED_VACCINE);
    expect(url.searchParams.get('pair_event')).toBe(CLASS_EVENT);
    expect(await row.getAttribute('aria-current')).toBe('true');
    expect(await page.textContent('#detail-title')).toBe(`${PAGED_VACCINE} — ${CLASS_EVENT}`);
    const pixels = await canvasPixels(page, '#plot', FLAGGED_RED);
    expect(pixels.opaque).toBeGreaterThan(pixels.total * 0.05);
    expect(pixels.colour).toBeGreaterThan(50); // the red markers of the flagged quarters
    const legend = await page.locator('#plot .u-legend .u-label').allTextContents();
    expect(legend).toEqual(expect.arrayContaining(['EB05', 'EB95', 'EB50 (quarterly median)', 'Flagged by ≥ 2 methods (EB05)', 'Reference 1', 'Reference 2']));
    expect(legend).not.toContain('EWMA of EB05'); // absent from the series quarters: skipped
    expect(await page.locator('#plot .u-axis').count()).toBeGreaterThanOrEqual(2);
    expect(await page.textContent('#plot-caption')).toContain('11 quarters flagged');
    expect(await page.textContent('#plot-caption')).toContain('yellow band: the COVID-19 era');
    expect(await page.locator('#series-table tbody tr').count()).toBe(20);
    const seriesHref = await page.getAttribute('#download-series', 'href');
    const series = (await app.inject({ url: seriesHref! })).json();
    expect(series.vaccine).toBe(PAGED_VACCINE);
    expect(series.quarters).toHaveLength(20);
    await screenshot(page, 'fixture-series');
  });

  it('restores the view from the URL in a fresh tab, and Back returns to the previous state', async () => {
    const path = `${SERIES_PATH}&sort=n&order=asc&page=2`;
    const other = await browser.newPage();
    await open(other, base, path);
    expect(await other.inputValue('#search-text')).toBe('ROTAVIRUS');
    expect(await other.getAttribute('#pairs th:has(button[data-sort=n])', 'aria-sort')).toBe('ascending');
    expect(await other.textContent('#page-info')).toContain('Page 2 of 2');
    expect(await other.textContent('#detail-title')).toBe(`${PAGED_VACCINE} — ${CLASS_EVENT}`);
    expect((await canvasPixels(other, '#plot', FLAGGED_RED)).colour).toBeGreaterThan(50);
    await other.click('#close-detail');
    await settled(other);
    expect(await other.isVisible('#detail')).toBe(false);
    await other.goBack();
    await settled(other);
    expect(await other.isVisible('#detail')).toBe(true);
    await other.close();
  });

  it('shows the class view: every product of the vaccine type for one event', async () => {
    await open(page, base, SERIES_PATH);
    await page.click('#view-class');
    await settled(page);
    expect(new URL(page.url()).searchParams.get('view')).toBe('class');
    expect(await page.getAttribute('#view-class', 'aria-pressed')).toBe('true');
    expect(await column(page, '#class-table', 0)).toEqual([PAGED_VACCINE, SECOND_PRODUCT]);
    expect(await page.textContent('#class-note')).toContain('2 products');
    const legend = await page.locator('#class-plot .u-legend .u-label').allTextContents();
    expect(legend).toEqual(expect.arrayContaining([`${PAGED_VACCINE} EB05`, `${SECOND_PRODUCT} EB05`]));
    expect((await canvasPixels(page, '#class-plot', [31, 95, 168])).colour).toBeGreaterThan(50);
    await screenshot(page, 'fixture-class');
  });

  it('shows an empty state for an unknown query (spec 7: 200 with an empty list)', async () => {
    await open(page, base, '/?q=no+such+vaccine+or+event');
    expect(await page.isVisible('#empty')).toBe(true);
    expect(await page.textContent('#empty')).toContain('No pairs match “no such vaccine or event”');
    expect(await page.isVisible('#results')).toBe(false);
    expect(await page.isVisible('#error')).toBe(false);
    await screenshot(page, 'fixture-empty');
  });

  it('shows the error message of an API 400 (spec 7: too short query)', async () => {
    const api = await app.inject({ url: '/signals?q=ab&sort=eb05&order=desc&limit=20&offset=0' });
    expect(api.statusCode).toBe(400);
    await open(page, base, '/?q=ab');
    expect(await page.isVisible('#error')).toBe(true);
    expect(await page.textContent('#error')).toBe(api.json().error);
    expect(await page.textContent('#hypothesis')).toBe(HYPOTHESIS);
    expect(await page.textContent('#reports-through')).toBe('2023Q4');
    expect(await page.isVisible('#results')).toBe(false);
    await screenshot(page, 'fixture-error');
  });

  it('shows the API error of /cases in the Reports view of a store without report tables (503)', async () => {
    const api = await app.inject({ url: `/cases?vaccine=${encodeURIComponent(PAGED_VACCINE)}&event=${CLASS_EVENT}&limit=20&offset=0` });
    expect(api.statusCode).toBe(503);
    await open(page, base, `${SERIES_PATH}&view=reports`);
    expect(await page.isVisible('#detail-error')).toBe(true);
    expect(await page.textContent('#detail-error')).toBe(api.json().error);
    expect(await page.isVisible('#reports-body')).toBe(false);
    expect(await page.textContent('#hypothesis')).toBe(HYPOTHESIS);
  });

  it('writes data strings as text, never as HTML', async () => {
    await open(page, base, `/?vaccine=${encodeURIComponent('HEP B (ENGERIX-B)')}`);
    expect(await column(page, '#pairs', 2)).toEqual([HTML_EVENT]);
    expect(await page.locator('#pairs img, #pairs b').count()).toBe(0);
    await page.click('#pairs a.event-link');
    await settled(page);
    expect(await page.textContent('#detail-title')).toBe(`HEP B (ENGERIX-B) — ${HTML_EVENT}`);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  });

  it('ran every view above under the explorer\'s Content-Security-Policy (no inline script, frame-ancestors none) without a violation', async () => {
    const res = await app.inject({ url: '/' });
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    await open(page, base, SERIES_PATH);
    expect(violations).toEqual([]);
  });
});
