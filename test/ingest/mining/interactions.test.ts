import { describe, expect, it } from 'vitest';
import { interactionRows, type InteractionReport } from '../../../src/ingest/mining/interactions.js';
import { omega } from '../../../src/stats/omega.js';

/** A deterministic pseudo-random report list over 4 vaccines and 3 events in quarters 0..5. */
function reports(): InteractionReport[] {
  let seed = 7;
  const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const out: InteractionReport[] = [];
  for (let i = 0; i < 600; i++) {
    const vaccines = [0, 1, 2, 3].filter((v) => next() < [0.6, 0.5, 0.3, 0.2][v]);
    const events = [0, 1, 2].filter((e) => next() < (vaccines.includes(0) && vaccines.includes(1) && e === 0 ? 0.6 : 0.2));
    if (vaccines.length > 0 && events.length > 0) out.push({ quarter: Math.floor(next() * 6), vaccines, events });
  }
  return out;
}

describe('interactionRows (the build\'s Omega step)', () => {
  const all = reports();
  const names = { vaccines: ['D', 'C', 'B', 'A'], events: ['e0', 'e1', 'e2'] };
  const rows = interactionRows(all, { analysis: 'all', ...names, minCoReports: 10 });

  it('counts every stored triple as a brute-force recount of the window\'s reports does', () => {
    expect(rows.length).toBeGreaterThan(20);
    for (const row of rows) {
      const q = Number(row.quarter.slice(-1)) - 1 + Number(row.quarter.slice(0, 4)) * 4;
      const window = all.filter((r) => r.quarter > q - 4 && r.quarter <= q);
      const v1 = names.vaccines.indexOf(row.vaccine1), v2 = names.vaccines.indexOf(row.vaccine2), e = names.events.indexOf(row.event);
      const has = (r: InteractionReport, v: number): boolean => r.vaccines.includes(v);
      const count = (f: (r: InteractionReport) => boolean): number => window.filter(f).length;
      const counts = {
        n111: count((r) => has(r, v1) && has(r, v2) && r.events.includes(e)), n11: count((r) => has(r, v1) && has(r, v2)),
        n1_1: count((r) => has(r, v1) && r.events.includes(e)), n_11: count((r) => has(r, v2) && r.events.includes(e)),
        n1: count((r) => has(r, v1)), n_1: count((r) => has(r, v2)), n__1: count((r) => r.events.includes(e)), N: window.length,
      };
      expect(row).toMatchObject(counts);
      expect(row).toMatchObject(omega(counts));
      expect(row.vaccine1 < row.vaccine2).toBe(true);
      expect(counts.n11).toBeGreaterThanOrEqual(10);
      expect(counts.n111).toBeGreaterThanOrEqual(3);
    }
  });

  it('leaves out exactly the pairs under the bound and the triples under 3 reports', () => {
    const q = 5, window = all.filter((r) => r.quarter > q - 4 && r.quarter <= q);
    const expected: string[] = [];
    for (let v1 = 0; v1 < 4; v1++) for (let v2 = v1 + 1; v2 < 4; v2++) {
      const both = window.filter((r) => r.vaccines.includes(v1) && r.vaccines.includes(v2));
      if (both.length < 10) continue;
      for (let e = 0; e < 3; e++) if (both.filter((r) => r.events.includes(e)).length >= 3) expected.push([names.vaccines[v1], names.vaccines[v2]].sort().join('+') + `|${names.events[e]}`);
    }
    const stored = rows.filter((r) => r.quarter === '0001Q2').map((r) => `${r.vaccine1}+${r.vaccine2}|${r.event}`);
    expect(stored.sort()).toEqual(expected.sort());
  });

  it('refuses vaccines that are not distinct and ascending', () => {
    expect(() => interactionRows([{ quarter: 0, vaccines: [1, 1], events: [0] }], { analysis: 'all', ...names, minCoReports: 1 })).toThrow(/distinct and ascending/);
  });
});
