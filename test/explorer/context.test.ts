/**
 * Issue 36, "context travels" and "the queue pages", on the embedded default store in headless
 * Chromium against the real server. Every expected figure is read from the API:
 * - the front door shows one page of the queue (GET /triage?caution=exclude, 20 pairs) and the
 *   next on request; on the whole queue no pair whose EB05 is below 1 (the noise the rank rules
 *   give no credit) ranks above a pair with EB05 >= 2;
 * - a queue pair opens in the queue's analysis and window (in the URL), its series row of that
 *   window marked with the queue's n, and its Reports tab on the window's quarters (the n_reports
 *   of /analyses/NAME/cases?from&to), with "All time" giving the all-time n_reports;
 * - each table says its analysis and which n; Compare asks the type-level `types` analysis by the
 *   product's VAX_TYPE code (ROTASHIELD -> RV).
 * Skips when the store or Chromium is absent.
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../helpers/browser.js';
import { hasDefaultStore } from '../helpers/default-store.js';
import { browserSession, column, open, settled } from './page.js';

const hasStore = hasDefaultStore('explorer context tests');
const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn('explorer context tests skipped: no Chromium (install Debian "chromium" or set CHROMIUM_PATH)');

interface QueuePair { vaccine: string; event: string; n: number; eb05: number | null; cautions: Array<{ code: string }> }
interface Queue { analysis: string; quarter: string; total: number; pairs: QueuePair[] }

/** `2006Q4` -> `2006Q1`: the first quarter of the 4-quarter window ending there (worked by hand). */
function windowStartOf(quarter: string): string {
  const [year, q] = quarter.split('Q').map(Number);
  const index = year * 4 + (q - 1) - 3;
  return `${Math.floor(index / 4)}Q${(index % 4) + 1}`;
}

describe.skipIf(!hasStore || !hasChromium)('explorer: the queue pages, and its context travels to the pair and its reports', () => {
  const session = browserSession('default');
  const json = async (url: string) => (await session.app.inject({ url })).json();

  it('the front door shows the first 20 of the queue, the next 20 on request, and no noise above real signals', async () => {
    const { page, base } = session;
    const first = (await json('/analyses/all/triage?caution=exclude&limit=20')) as Queue;
    const second = (await json('/analyses/all/triage?caution=exclude&limit=20&offset=20')) as Queue;
    await open(page, base, '/');
    expect(await column(page, '#triage-table', 0)).toEqual(first.pairs.map((_, i) => String(i + 1)));
    expect(await column(page, '#triage-table', 2)).toEqual(first.pairs.map((p) => p.event));
    expect(await page.textContent('#triage-page-info')).toBe(`Page 1 of ${Math.ceil(first.total / 20)} (20 pairs a page)`);
    await page.click('#triage-next');
    await settled(page);
    expect(new URL(page.url()).searchParams.get('tpage')).toBe('2');
    expect(await column(page, '#triage-table', 0)).toEqual(second.pairs.map((_, i) => String(21 + i)));
    expect(await column(page, '#triage-table', 2)).toEqual(second.pairs.map((p) => p.event));
    // The whole queue: the last pair with EB05 >= 2 ranks above the first whose EB05 is below 1.
    const all = ((await json('/analyses/all/triage?caution=exclude&limit=500')) as Queue).pairs;
    const lastStrong = all.map((p) => p.eb05 !== null && p.eb05 >= 2).lastIndexOf(true);
    const firstWeak = all.findIndex((p) => p.eb05 === null || p.eb05 < 1);
    expect(lastStrong).toBeGreaterThan(0);
    if (firstWeak >= 0) expect(lastStrong).toBeLessThan(firstWeak);
    // the front door's first page: no pair below EB05 1, no artefact caution
    expect(first.pairs.every((p) => p.eb05 !== null && p.eb05 >= 1)).toBe(true);
  });

  it('a queue pair opens in the queue\'s analysis and window; its Reports tab on the window\'s quarters, "All time" on every quarter', async () => {
    const { page, base } = session;
    const queue = (await json('/analyses/all/triage?caution=exclude&limit=20')) as Queue;
    const top = queue.pairs[0];
    await open(page, base, '/');
    expect(await page.textContent('#triage-table caption')).toContain(`Analysis “${queue.analysis}”, window ending ${queue.quarter}`);
    await page.locator('#triage-table tbody tr').first().locator('a.event-link').click();
    await settled(page);
    const url = new URL(page.url());
    const from = windowStartOf(queue.quarter);
    expect(['pair_vaccine', 'pair_event', 'analysis', 'window', 'from', 'to'].map((k) => url.searchParams.get(k)))
      .toEqual([top.vaccine, top.event, queue.analysis === 'all' ? null : queue.analysis, queue.quarter, from, queue.quarter]);
    expect(await page.inputValue('#analysis')).toBe(queue.analysis);
    // the series: the window's row marked, the queue's n in the note
    const series = await json(`/analyses/${queue.analysis}/signals?vaccine=${encodeURIComponent(top.vaccine)}&event=${encodeURIComponent(top.event)}&format=series`);
    const row = (series.quarters as Array<{ quarter: string; n: number }>).find((q) => q.quarter === queue.quarter)!;
    expect(row.n).toBe(top.n);
    expect(await page.$$eval('#series-table tbody tr[aria-current=true] th', (th) => th.map((t) => t.textContent))).toEqual([queue.quarter]);
    expect(await page.textContent('#series-note')).toContain(`in the window ending ${queue.quarter} (analysis “${queue.analysis}” (the default)) the pair has n ${top.n} reports`);
    expect(await page.textContent('#series-table caption')).toContain('n is the pair’s reports received in the 4-quarter window ending at each quarter');
    // its reports: the window's quarters, the distinct reports of /cases with from and to
    const cases = `/analyses/${queue.analysis}/cases?vaccine=${encodeURIComponent(top.vaccine)}&event=${encodeURIComponent(top.event)}&limit=1`;
    const windowed = await json(`${cases}&from=${from}&to=${queue.quarter}`);
    const allTime = await json(cases);
    await page.click('#view-reports');
    await settled(page);
    expect([await page.inputValue('#range-from'), await page.inputValue('#range-to')]).toEqual([from, queue.quarter]);
    expect(await page.getAttribute('#reports-body', 'data-n-reports')).toBe(String(windowed.n_reports));
    expect(await page.textContent('#range-info')).toBe(`Showing reports received ${from}–${queue.quarter}, the triage window ending ${queue.quarter}.`);
    expect(await page.textContent('#reports-summary')).toContain('Each report counts once (distinct reports');
    await page.click('#range-all');
    await settled(page);
    expect(new URL(page.url()).searchParams.get('from')).toBeNull();
    expect(await page.getAttribute('#reports-body', 'data-n-reports')).toBe(String(allTime.n_reports));
    expect(await page.textContent('#range-info')).toBe(`Showing all time: reports received ${allTime.from}–${allTime.to}.`);
    await page.click('#range-window');
    await settled(page);
    expect(await page.getAttribute('#reports-body', 'data-n-reports')).toBe(String(windowed.n_reports));
  });

  it('a pair opened from a search: all time, the range shown; a bad quarter is the API\'s 400 message', async () => {
    const { page, base } = session;
    const pneumovax = 'PNEUMO (PNEUMOVAX)';
    const allTime = await json(`/cases?vaccine=${encodeURIComponent(pneumovax)}&event=Cellulitis&limit=1`);
    await open(page, base, `/?vaccine=${encodeURIComponent(pneumovax)}&pair_vaccine=${encodeURIComponent(pneumovax)}&pair_event=Cellulitis&view=reports`);
    expect(await page.isVisible('#range-form')).toBe(true);
    expect([await page.inputValue('#range-from'), await page.inputValue('#range-to')]).toEqual(['', '']);
    expect(await page.getAttribute('#reports-body', 'data-n-reports')).toBe(String(allTime.n_reports));
    expect(await page.isVisible('#range-window')).toBe(false);
    await page.fill('#range-from', '1989Q1');
    await page.click('#range-form button[type=submit]');
    await settled(page);
    const bad = await json(`/cases?vaccine=${encodeURIComponent(pneumovax)}&event=Cellulitis&from=1989Q1&limit=20`);
    expect(await page.textContent('#detail-error')).toContain(bad.error);
  });

  it('tables say their analysis and their n; Compare finds ROTASHIELD x Intussusception in `types` as RV', async () => {
    const { page, base } = session;
    await open(page, base, '/?vaccine=ROTAVIRUS&pair_vaccine=ROTAVIRUS+(ROTASHIELD)&pair_event=Intussusception&view=compare');
    expect(await page.textContent('#pairs caption')).toContain('analysis “all” (the default)');
    expect(await page.textContent('#pairs caption')).toContain('not a count of distinct reports');
    const rv = (await json('/analyses/types/signals?vaccine=RV&event=Intussusception'))[0];
    const types = page.locator('#compare-table tbody tr[data-analysis="types"]');
    expect(await types.locator('th').textContent()).toContain('as RV');
    expect(await types.locator('td').first().textContent()).toBe(rv.eb05.toFixed(3));
    expect(await types.locator('td').nth(2).textContent()).toBe(String(rv.n));
    expect(await page.textContent('#compare-table caption')).toContain('not a count of distinct reports');
  });

  it('had no page errors and no console errors (but the 400 asked above)', () => {
    expect(session.errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  });
});
