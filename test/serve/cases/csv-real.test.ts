/**
 * Issue 35 item 2 on the real 1990-2006 default store (with its narratives): CSV cells a
 * spreadsheet would run as a formula are neutralised (a leading `'`), in the line listing of
 * `/cases?format=csv`, on the reports the issue names (77395 begins `+swelling`, 28812 `@ 1030PM`),
 * while the JSON keeps the text as written and numbers stay numbers (negative IC025 in the
 * `/triage` CSV). Skipped with a message when the default store is absent.
 */
import { parse } from 'csv-parse/sync';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultApp } from '../../helpers/default-app.js';
import { hasDefaultStore } from '../../helpers/default-store.js';

const haveStore = hasDefaultStore('CSV formula neutralisation real-data test');

describe.skipIf(!haveStore)('CSV cells on the real default store', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await defaultApp();
  }, 120_000);

  it.each([
    [77395, 'text=swelling+thigh+warmth&from=1995Q3&to=1995Q3', '+swelling in rt thigh w/warmth'],
    [28812, 'text=monitor+respirations&from=1991Q1&to=1991Q1', '@ 1030PM, monitor went off'],
  ])('report %i: its narrative cell gets a leading quote in CSV; the JSON keeps the text as written', async (id, query, start) => {
    const json = await app.inject(`/cases?${query}&limit=500`);
    expect(json.statusCode).toBe(200);
    const report = (json.json().reports as Array<{ vaers_id: number; narrative: string }>).find((r) => r.vaers_id === id);
    expect(report?.narrative.startsWith(start)).toBe(true);
    const csv = await app.inject(`/cases?${query}&limit=500&format=csv`);
    expect(csv.statusCode).toBe(200);
    const rows = parse(csv.body, { columns: true }) as Array<Record<string, string>>;
    const row = rows.find((r) => r.vaers_id === String(id));
    expect(row).toBeDefined();
    expect(row!.narrative).toBe(`'${report!.narrative}`);
    // No cell of the listing starts a formula.
    for (const r of rows) for (const cell of Object.values(r)) expect(cell, `report ${r.vaers_id}`).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('numbers stay numbers: the negative IC025 of /triage in CSV are written as numbers, not text', async () => {
    const csv = await app.inject('/triage?quarter=2006Q4&format=csv&limit=500');
    expect(csv.statusCode).toBe(200);
    const rows = parse(csv.body, { columns: true }) as Array<Record<string, string>>;
    const negative = rows.filter((r) => r.ic025.startsWith('-'));
    expect(negative.length).toBeGreaterThan(0);
    for (const r of negative) expect(Number(r.ic025)).toBeLessThan(0);
    expect(rows.some((r) => r.ic025.startsWith("'"))).toBe(false);
  });
});
