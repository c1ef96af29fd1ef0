/**
 * The pair view's "Co-reported vaccines" panel on the embedded default store, in headless Chromium
 * against the real server: for the vaccine x event of the top Omega signal of the latest window,
 * the panel lists the pair's interactions (GET /interactions) and its maskers (GET /masking) as the
 * API answers them, with the caveat. Every expected value is read from the API. Skips when the
 * store or Chromium is absent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { hasDefaultStore } from '../helpers/default-store.js';
import { chromiumAvailable, launchBrowser, type TestBrowser } from '../helpers/browser.js';
import { collectErrors, column, open, screenshot } from './page.js';
import { defaultServer } from '../helpers/default-app.js';

const hasStore = hasDefaultStore('explorer interactions panel test');
const hasChromium = chromiumAvailable();
const q = encodeURIComponent;

describe.skipIf(!hasStore || !hasChromium)('explorer: a pair\'s co-reported vaccines', () => {
  const held: { app?: FastifyInstance; base?: string; browser?: TestBrowser; page?: Page; errors?: string[] } = {};
  const json = async (url: string) => (await held.app!.inject({ url })).json();

  beforeAll(async () => {
    const [server, browser] = await Promise.all([defaultServer(), launchBrowser()]);
    Object.assign(held, server, { browser, page: await browser.newPage() });
    held.errors = collectErrors(held.page!);
  }, 300_000);

  afterAll(async () => held.browser?.close());

  it('lists the pair\'s interactions and maskers as the API answers them', async () => {
    const top = (await json('/interactions?limit=1')).interactions[0];
    const vaccine: string = top.vaccine1, event: string = top.event;
    const interactions = await json(`/interactions?vaccine=${q(vaccine)}&event=${q(event)}&limit=20`);
    const masking = await json(`/masking?vaccine=${q(vaccine)}&event=${q(event)}&limit=5`);
    const page = held.page!;
    await open(page, held.base!, `/?vaccine=${q(vaccine)}&pair_vaccine=${q(vaccine)}&pair_event=${q(event)}`);
    await page.click('#interactions-title');
    await page.waitForSelector('#masking-table:not([hidden])');
    expect(await column(page, '#interactions-table', 0)).toEqual(interactions.interactions.map((r: { vaccine1: string; vaccine2: string }) => (r.vaccine1 === vaccine ? r.vaccine2 : r.vaccine1)));
    expect(await column(page, '#interactions-table', 1)).toEqual(interactions.interactions.map((r: { n111: number }) => String(r.n111)));
    expect(await column(page, '#masking-table', 0)).toEqual(masking.maskers.map((m: { vaccine: string }) => m.vaccine));
    expect(await page.textContent('#interactions-caveat')).toContain('not a biological interaction');
    expect(await page.textContent('#masking-note')).toContain(`Without the reports of ${masking.unmasked.without}`);
    await screenshot(page, 'default-interactions');
    expect(held.errors).toEqual([]);
  }, 120_000);

  it('MMR II x Febrile convulsion: no signal with VARIVAX in 2006Q4, but its Omega series signals in 31 of 46 windows; picking the peak window 2004Q4 shows it with its counts', async () => {
    const mmr = 'MEASLES + MUMPS + RUBELLA (MMR II)';
    const varivax = 'VARICELLA (VARIVAX)';
    const event = 'Febrile convulsion';
    const series = await json(`/interactions/series?vaccine1=${q(mmr)}&vaccine2=${q(varivax)}&event=${q(event)}`) as { series: Array<{ quarter: string; stored: boolean; signal?: boolean; omega?: number; n111?: number; n11?: number; e111?: number; omega025?: number; omega975?: number }> };
    const signal = series.series.filter((w) => w.stored && w.signal);
    const peak = signal.reduce((a, b) => (b.omega! > a.omega! ? b : a));
    // The figures (issue 46, read from the same answer): 31 of 46 stored windows, the peak 2004Q4 with 27 of 895 co-reports.
    expect([signal.length, series.series.filter((w) => w.stored).length, peak.quarter, peak.n111, peak.n11]).toEqual([31, 46, '2004Q4', 27, 895]);
    const p3 = (x: number): string => Number(x.toPrecision(3)).toString();
    const text = `signals in 31 of 46 stored windows; peak 2004Q4: 27 of 895 co-reports, ${p3(peak.e111!)} expected, Omega ${p3(peak.omega!)} [${p3(peak.omega025!)}, ${p3(peak.omega975!)}]`;
    expect(text).toBe('signals in 31 of 46 stored windows; peak 2004Q4: 27 of 895 co-reports, 6.94 expected, Omega 1.89 [1.29, 2.38]');
    const page = held.page!;
    await open(page, held.base!, `/?vaccine=${q(mmr)}&pair_vaccine=${q(mmr)}&pair_event=${q(event)}`);
    await page.click('#interactions-title');
    await page.waitForSelector('#masking-table:not([hidden])');
    const latest = await json(`/interactions?vaccine=${q(mmr)}&event=${q(event)}&limit=20`) as { quarter: string; interactions: Array<{ vaccine1: string; vaccine2: string }> };
    expect(latest.interactions.some((r) => r.vaccine2 === varivax || r.vaccine1 === varivax)).toBe(false);
    await page.selectOption('#interactions-window', '2004Q4');
    await page.click('#interactions-window-form button');
    await page.waitForFunction(() => (document.getElementById('interactions-note')?.textContent ?? '').includes('2004Q4'));
    const given = await column(page, '#interactions-table', 0);
    const row = given.indexOf(varivax);
    expect(row).toBeGreaterThanOrEqual(0);
    expect((await column(page, '#interactions-table', 1))[row]).toBe('27');
    expect((await column(page, '#interactions-table', 6))[row]).toBe(text);
    expect(held.errors).toEqual([]);
  }, 120_000);
});
