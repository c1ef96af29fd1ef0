/**
 * The /pipeline HTML page in a real browser (headless system Chromium via playwright-core):
 * the table renders, a hostile study title is shown as text and never runs, the search form
 * works. Skipped with a message when /usr/bin/chromium is absent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { REGISTRY_CAVEAT } from '../../../src/serve/query/caveats.js';
import { chromiumAvailable, CHROMIUM_PATH, launchBrowser, type TestBrowser } from '../../helpers/browser.js';
import { FakeCtgov } from './fake-ctgov.js';
import { HOSTILE_TITLE, pipelineApp, writeFixture } from './helpers.js';

const available = chromiumAvailable();
if (!available) console.warn(`pipeline browser tests skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`);

describe.skipIf(!available)('GET /pipeline HTML page in headless Chromium', () => {
  let fake: FakeCtgov;
  let app: FastifyInstance;
  let browser: TestBrowser;
  let origin: string;

  beforeAll(async () => {
    fake = await FakeCtgov.start(writeFixture());
    app = await pipelineApp(fake.baseUrl);
    origin = await app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await fake?.close();
  });

  it('negotiates HTML for the browser; the table renders and the hostile title is text', async () => {
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
    const response = await page.goto(`${origin}/pipeline?sponsor=Pfizer`);
    expect(response?.headers()['content-type']).toMatch(/^text\/html/);
    await expect(page.title()).resolves.toBe('Pfizer: trials - pipeline');
    const rows = page.locator('table#studies tbody tr');
    await expect(rows.count()).resolves.toBe(7);
    await expect(page.locator('table#studies thead th').allTextContents()).resolves.toEqual(
      ['Study', 'Title', 'Role', 'Status', 'Phase', 'Lead sponsor', 'Start'],
    );
    const hostileRow = page.locator('table#studies tbody tr', { hasText: 'NCT00000014' });
    await expect(hostileRow.locator('td').first().textContent()).resolves.toBe(HOSTILE_TITLE);
    await expect(page.locator('table script, table img').count()).resolves.toBe(0);
    await expect(page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).resolves.toBeUndefined();
    expect(dialogs).toEqual([]);
    await expect(page.locator('#caveat').textContent()).resolves.toBe(REGISTRY_CAVEAT);
    await expect(page.locator('#n-studies').textContent()).resolves.toBe('7');
    await expect(page.locator('#status-counts li').allTextContents()).resolves.toEqual(
      ['RECRUITING: 4', 'NOT_YET_RECRUITING: 1', 'ACTIVE_NOT_RECRUITING: 1', 'ENROLLING_BY_INVITATION: 1'],
    );
    await page.close();
  });

  it('without sponsor shows the search form; submitting it lists the studies', async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/pipeline`);
    await expect(page.locator('table').count()).resolves.toBe(0);
    await page.getByLabel('Sponsor (lead sponsor name, whole words)').fill('Pfizer');
    await page.getByLabel('Role').selectOption('collaborator');
    await page.getByLabel('Status').fill('ALL');
    await Promise.all([page.waitForURL(/sponsor=Pfizer/), page.getByRole('button', { name: 'Search' }).click()]);
    const roles = await page.locator('table#studies tbody tr td:nth-child(3)').allTextContents();
    expect(roles).toEqual(['collaborator', 'collaborator']);
    await expect(page.locator('#sponsor').inputValue()).resolves.toBe('Pfizer');
    await page.close();
  });
});
