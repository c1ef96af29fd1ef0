/**
 * The explorer on event groups (public/js/groups.js), over the event-groups fixture store
 * (test/helpers/groups-fixture.ts: `stratified` and `groups` with a user's grouping file): a group
 * pair's view lists the group's terms with their term-level pairs' n and EB05 as
 * /analyses/stratified/signals serves them, each a link to that pair; a term pair's view names its
 * groups, and a click opens the group pair. Every expected number is read from the API. In
 * headless Chromium against the real server; skips without Chromium.
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../helpers/browser.js';
import { GARDASIL, writeGroupsStore } from '../helpers/groups-fixture.js';
import { browserSession, open, settled } from './page.js';

const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn('explorer event-groups tests skipped: no Chromium');

describe.skipIf(!hasChromium)('explorer on event groups', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rs-groups-explorer-'));
  const session = browserSession(async () => (await writeGroupsStore(dir)).store, () => rm(dir, { recursive: true, force: true }));
  const json = async (url: string) => (await session.app.inject({ url })).json();
  const pairPath = (analysis: string, event: string) =>
    `/?analysis=${analysis}&vaccine=${encodeURIComponent(GARDASIL)}&pair_vaccine=${encodeURIComponent(GARDASIL)}&pair_event=${encodeURIComponent(event)}`;

  it('a group pair lists its terms beside their term-level pairs (n, EB05), each a link', async () => {
    const { page, base } = session;
    await open(page, base, pairPath('groups', 'Fainting (broad)'));
    await page.waitForSelector('#detail-groups:not([hidden])');
    const text = (await page.textContent('#detail-groups'))!;
    const terms = await json(`/analyses/stratified/signals?vaccine=${encodeURIComponent(GARDASIL)}&limit=500`) as Array<{ event: string; n: number; eb05: number }>;
    const group = (await json(`/analyses/groups/signals?vaccine=${encodeURIComponent(GARDASIL)}&event=${encodeURIComponent('Fainting (broad)')}`) as Array<{ n: number; eb05: number }>)[0];
    expect(text).toContain(`Event group “Fainting” (test source; n ${group.n}, EB05 ${group.eb05.toFixed(2)})`);
    const syncope = terms.find((t) => t.event === 'Syncope')!;
    expect(text).toContain(`Syncope (narrow; n ${syncope.n}, EB05 ${syncope.eb05.toFixed(2)})`);
    const dizziness = terms.find((t) => t.event === 'Dizziness');
    expect(text).toContain(`Dizziness (broad; ${dizziness ? `n ${dizziness.n}, EB05 ${dizziness.eb05.toFixed(2)}` : 'not flagged'})`);
    await page.click('#detail-groups a:text-is("Syncope")');
    await settled(page);
    expect(await page.textContent('#detail-title')).toBe(`${GARDASIL} — Syncope`);
    expect(new URL(page.url()).searchParams.get('analysis')).toBe('stratified');
    expect(session.errors).toEqual([]);
  });

  it('a term pair names its groups; a click opens the group pair', async () => {
    const { page, base } = session;
    await open(page, base, pairPath('stratified', 'Syncope'));
    await page.waitForSelector('#detail-groups:not([hidden])');
    expect(await page.textContent('#detail-groups')).toBe('Syncope is in the event groups Fainting, Fainting (broad) (analysis “groups”: a report counts once per group).');
    await page.click('#detail-groups a:text-is("Fainting")');
    await settled(page);
    expect(await page.textContent('#detail-title')).toBe(`${GARDASIL} — Fainting`);
    expect(new URL(page.url()).searchParams.get('analysis')).toBe('groups');
    expect(session.errors).toEqual([]);
  });
});
