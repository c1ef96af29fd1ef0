/**
 * The explorer on the type-level analysis `types` of the embedded default store (items are
 * VAERS VAX_TYPE codes): the front door lists the codes, a code x event pair opens with its
 * series plot, and its Reports view is the case series of the code (every report with a VAX row
 * of that code). Every expected number is read from the API itself. In headless Chromium
 * against the real server; skips when the store or Chromium is absent.
 */
import { describe, expect, it } from 'vitest';
import { hasDefaultStore } from '../helpers/default-store.js';
import { chromiumAvailable } from '../helpers/browser.js';
import { browserSession, canvasPixels, open, settled } from './page.js';

const hasStore = hasDefaultStore('explorer types-views tests');
const hasChromium = chromiumAvailable();

const CODE = 'FLU3';
const EVENT = 'Guillain-Barre syndrome';
const PAIR_PATH = `/?analysis=types&vaccine=${CODE}&pair_vaccine=${CODE}&pair_event=${encodeURIComponent(EVENT)}`;

describe.skipIf(!hasStore || !hasChromium)('explorer on the type-level analysis types of the default store', () => {
  const session = browserSession('default');
  const json = async (url: string) => (await session.app.inject({ url })).json();

  it('front door: the codes of /analyses/types/vaccines, FLU3 with its flagged pairs', async () => {
    const flu3 = ((await json('/analyses/types/vaccines')).vaccines as Array<{ vaccine: string; flagged_pairs: number; vax_type_names: string[] }>).find((v) => v.vaccine === CODE)!;
    expect(flu3.flagged_pairs).toBeGreaterThan(0);
    expect(flu3.vax_type_names).toEqual([expect.stringMatching(/^INFLUENZA/)]);
    await open(session.page, session.base, '/?analysis=types');
    const row = session.page.locator(`#types-table tbody tr[data-type="${CODE}"]`);
    expect(await row.locator('td').nth(2).textContent()).toBe(String(flu3.flagged_pairs));
    // The code's long name under it, and on hover of the codes cell.
    expect(await row.locator('th .type-name').textContent()).toBe(flu3.vax_type_names[0]);
    expect(await row.locator('td').nth(0).getAttribute('title')).toBe(`${CODE}: ${flu3.vax_type_names[0]}`);
  });

  it('a code x event pair opens with its series, and its Reports are the code\'s case series', async () => {
    const api = await json(`/analyses/types/cases?vaccine=${CODE}&event=${encodeURIComponent(EVENT)}&limit=20`);
    expect(api.n_reports).toBeGreaterThan(48);
    const { page, base } = session;
    await open(page, base, PAIR_PATH);
    expect(await page.textContent('#detail-title')).toBe(`${CODE} — ${EVENT}`);
    expect((await canvasPixels(page, '#plot', [11, 46, 89])).colour).toBeGreaterThan(50);
    await page.click('#view-reports');
    await settled(page);
    expect(await page.textContent('#reports-summary')).toContain(`${api.n_reports} reports name`);
    expect(session.errors).toEqual([]);
  });
});
