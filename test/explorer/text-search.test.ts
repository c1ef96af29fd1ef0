/**
 * The Reports view's search of the narratives and the report view, in headless Chromium against
 * the real server over the hand-made case fixture built with --narratives (test/serve/cases/fixture.ts
 * CASE_NARRATIVES; the matches are worked by hand there). Skips when Chromium is absent.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { buildStore } from '../../src/ingest/mining/build.js';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { chromiumAvailable, launchBrowser, type TestBrowser } from '../helpers/browser.js';
import { CASE_NARRATIVES, writeCaseFolder } from '../serve/cases/fixture.js';
import { collectErrors, open, screenshot, settled, startServer } from './page.js';

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn('explorer text-search test skipped: no Chromium (set CHROMIUM_PATH)');

describe.skipIf(!hasChromium)('explorer: search the narratives, snippets, the report view', () => {
  let app: FastifyInstance;
  let base: string;
  let browser: TestBrowser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'explorer-text-'));
    const vaers = await writeCaseFolder(join(dir, 'vaers'), CASE_NARRATIVES);
    await buildStore({ vaers, out: join(dir, 'text.parquet'), analyses: 'all,serious', workers: 1, narratives: true });
    ({ app, base } = await startServer(join(dir, 'text.parquet')));
    browser = await launchBrowser();
    page = await browser.newPage();
    errors = collectErrors(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const listed = async (): Promise<string[]> => page.$$eval('#listing details.report', (nodes) => nodes.map((n) => n.getAttribute('data-vaers-id') ?? ''));

  it('the search box filters the reports, puts the query in the URL and marks the matches', async () => {
    await open(page, base, '/?vaccine=ROTAVIRUS&view=reports');
    expect(await listed()).toEqual(['106', '104', '103', '102', '101']);
    await page.fill('#text-input', 'intussuscep*');
    await page.click('#text-form button[type=submit]');
    await page.waitForURL(/text=intussuscep/);
    await settled(page);
    expect(new URL(page.url()).searchParams.get('text')).toBe('intussuscep*');
    expect(await listed()).toEqual(['106', '102', '101']);
    expect(await page.textContent('#reports-summary')).toContain('whose narratives match “intussuscep*”');
    expect(await page.$$eval('#listing .snippet mark', (marks) => marks.map((m) => m.textContent))).toEqual(['intussusceptions', 'INTUSSUSCEPTION', 'Intussusception']);
    expect(await page.textContent('#listing details[data-vaers-id="106"] .snippet')).toBe('Symptoms: Fever 40%_C; intussusceptions ruled out');
    // The matches show in the list itself: every report is still collapsed, and its snippet is visible.
    expect(await page.$$eval('#listing details.report', (ds) => ds.filter((d) => (d as HTMLDetailsElement).open).length)).toBe(0);
    for (const id of ['106', '102', '101']) expect(await page.isVisible(`#listing details[data-vaers-id="${id}"] .snippet mark`), id).toBe(true);
    await screenshot(page, 'text-search');
  });

  it('a linked search opens with its query in the box; a bad query shows the API\'s error', async () => {
    await open(page, base, `/?vaccine=ROTAVIRUS&view=reports&text=${encodeURIComponent('"guillain barre"')}`);
    expect(await page.inputValue('#text-input')).toBe('"guillain barre"');
    expect(await listed()).toEqual([]);
    expect(await page.textContent('#reports-summary')).toMatch(/^0 reports/);
    await open(page, base, '/?vaccine=ROTAVIRUS&view=reports&text=ab');
    expect(await page.textContent('#detail-error')).toContain('text must hold at least 3 letters or digits');
  });

  it('each report opens its report view: a readable page with every section', async () => {
    await open(page, base, '/?vaccine=ROTAVIRUS&view=reports&text=target');
    expect(await listed()).toEqual(['101']);
    await page.click('#listing details[data-vaers-id="101"] summary');
    await Promise.all([page.waitForURL(/\/reports\/101$/), page.click('#listing details[data-vaers-id="101"] a.report-link')]);
    expect(await page.textContent('h1')).toBe('VAERS report 101');
    expect(await page.textContent('.caveat')).toBe(HYPOTHESIS);
    expect(await page.$$eval('h2', (hs) => hs.map((h) => h.textContent))).toEqual(['Report', 'Narratives', 'Vaccines', 'Events (MedDRA terms)', 'Possible duplicates', 'Analyses keeping this report']);
    expect(await page.$$eval('.narrative', (ps) => ps.map((p) => p.textContent))).toEqual(['Intussusception on day 3; surgery.', 'Ultrasound: target sign']);
    expect(await page.$$eval('tbody tr', (rows) => rows.length)).toBe(2);
    await screenshot(page, 'report-view');
  });

  it('had no page errors and no console errors (but the 400 of the bad query)', () => {
    expect(errors.filter((e) => !/400/.test(e))).toEqual([]);
  });
});
