/**
 * Issue 6 on the embedded default store (the default store built into the cache, VAERS 1990-2006): the page in
 * headless Chromium against the real server, with real names (`ROTAVIRUS (ROTASHIELD)` x
 * `Intussusception`). Saves screenshots (artifacts/screenshots/default-*.png;
 * docs/explorer.png is the top of a11y-front-1400.png, test/explorer/a11y.test.ts). Skips when the store or Chromium is absent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { hasDefaultStore } from '../helpers/default-store.js';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { chromiumAvailable, CHROMIUM_PATH, launchBrowser, type TestBrowser } from '../helpers/browser.js';
import { canvasPixels, column, open, screenshot, settled } from './page.js';
import { defaultServer } from '../helpers/default-app.js';

const hasStore = hasDefaultStore('explorer default-store tests');
const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn(`explorer default-store tests skipped: no Chromium at ${CHROMIUM_PATH}`);

const VACCINE = 'ROTAVIRUS (ROTASHIELD)';
const EVENT = 'Intussusception';
const q = encodeURIComponent;

describe.skipIf(!hasStore || !hasChromium)('explorer page on the embedded default store', () => {
  let app: FastifyInstance;
  let base: string;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    ({ app, base } = await defaultServer());
    browser = await launchBrowser();
    page = await browser.newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('lists the pairs of an event with the total of X-Total-Count, the caveat, reports_through and build', async () => {
    const api = await app.inject({ url: `/signals?event=${EVENT}&limit=1` });
    await open(page, base, `/?event=${EVENT}`);
    const total = Number(api.headers['x-total-count']);
    expect(total).toBeGreaterThan(0);
    expect(await page.textContent('#total')).toContain(`${total} pair`);
    expect(await column(page, '#pairs', 0)).toContain(VACCINE);
    expect(await page.textContent('#hypothesis')).toBe(HYPOTHESIS);
    expect(await page.textContent('#reports-through')).toBe(api.headers['x-reports-through']);
    expect(await page.textContent('#build')).toBe(api.headers['x-reports-build']);
    await screenshot(page, 'default-results');
  });

  it('pages and sorts a vaccine with many pairs', async () => {
    await open(page, base, `/?vaccine=${q(VACCINE)}&sort=n`);
    const total = Number((await app.inject({ url: `/signals?vaccine=${q(VACCINE)}&limit=1` })).headers['x-total-count']);
    const n = (await column(page, '#pairs', 3)).map(Number);
    expect(n).toEqual([...n].sort((a, b) => b - a));
    if (total > 20) {
      await page.click('#next');
      await settled(page);
      expect(await page.textContent('#page-info')).toContain('Page 2 of');
      const next = (await column(page, '#pairs', 3)).map(Number);
      expect(next[0]).toBeLessThanOrEqual(n[n.length - 1]);
    }
  });

  it(`opens the series of ${VACCINE} x ${EVENT}: the plot is drawn, the COVID era is out of range`, async () => {
    await open(page, base, `/?event=${EVENT}`);
    await page.locator('#pairs tbody tr', { has: page.locator('th', { hasText: VACCINE }) }).first().locator('a.event-link').click();
    await settled(page);
    expect(await page.textContent('#detail-title')).toBe(`${VACCINE} — ${EVENT}`);
    const pixels = await canvasPixels(page, '#plot', [11, 46, 89]);
    expect(pixels.opaque).toBeGreaterThan(pixels.total * 0.05);
    expect(pixels.colour).toBeGreaterThan(50); // the EB50 line
    expect(await page.textContent('#plot-caption')).toContain('outside these quarters');
    expect(await page.textContent('#plot-caption')).toContain('log scale'); // EB95 reaches ~100 in 1999
    const series = (await app.inject({ url: (await page.getAttribute('#download-series', 'href'))! })).json();
    expect(await page.locator('#series-table tbody tr').count()).toBe(series.quarters.length);
    await screenshot(page, 'default-series');
    const restored = await browser.newPage();
    await open(restored, base, new URL(page.url()).search ? `/${new URL(page.url()).search}` : '/');
    expect(await restored.textContent('#detail-title')).toBe(`${VACCINE} — ${EVENT}`);
    expect((await canvasPixels(restored, '#plot', [11, 46, 89])).colour).toBeGreaterThan(50);
    await restored.close();
  });

  it('combines a vaccine type and an event in the URL (the analyses-compared view the README showed before)', async () => {
    await open(page, base, `/?vaccine=ROTAVIRUS&event=${EVENT}&pair_vaccine=${q(VACCINE)}&pair_event=${EVENT}`);
    expect(await page.textContent('#total')).toContain('vaccine “ROTAVIRUS” and event “Intussusception”');
    expect(await column(page, '#pairs', 0)).toContain(VACCINE);
    expect((await canvasPixels(page, '#plot', [200, 58, 58])).colour).toBeGreaterThan(50);
    await page.click('#view-compare');
    await settled(page);
    expect(Number(await page.getAttribute('#compare-plot', 'data-lines'))).toBeGreaterThan(1);
    await screenshot(page, 'default-readme');
  });

  it('shows the class view of the ROTAVIRUS type for Intussusception', async () => {
    await open(page, base, `/?event=${EVENT}&pair_vaccine=${q(VACCINE)}&pair_event=${EVENT}&view=class`);
    const products = await column(page, '#class-table', 0);
    expect(products).toContain(VACCINE);
    expect(await page.locator('#class-plot canvas').count()).toBe(1);
    await screenshot(page, 'default-class');
  });
});
