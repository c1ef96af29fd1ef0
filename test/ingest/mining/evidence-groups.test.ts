/**
 * The evidence step's grouping by quarter (src/ingest/mining/evidence-groups.ts): a window's
 * figures read from its four quarters' groupings equal those of grouping the window's reports at
 * once, on a hand-made example and on a made-up history of several quarters; a chunk of windows
 * groups each quarter once; WindowEvidence.windows (a chunk) answers as WindowEvidence.window (one
 * window at a time).
 */
import { describe, expect, it } from 'vitest';
import { ChunkGrouping, quarterGroups, WindowGroups, type GroupingTables, type QuarterGroups } from '../../../src/ingest/mining/evidence-groups.js';
import { WindowEvidence, type EvidenceTables } from '../../../src/ingest/mining/evidence-step.js';
import { failureTables } from '../../../src/ingest/mining/evidence-failure.js';
import { random as seededRandom } from '../../../bench/prng.js';

/** A report: quarter, vaccine items, events, onset days (-1 unknown), VAX_DATE (0 unknown). Types: item v has type v % 2. */
type Report = [number, number[], number[], number, number];

function runs(lists: number[][]): { start: Int32Array; values: Int32Array } {
  const start = [0];
  for (const l of lists) start.push(start[start.length - 1] + l.length);
  return { start: Int32Array.from(start), values: Int32Array.from(lists.flat()) };
}

function tablesOf(reports: readonly Report[], nEvents: number, nItems: number): EvidenceTables {
  const vax = runs(reports.map((r) => r[1]));
  const ev = runs(reports.map((r) => r[2]));
  const ty = runs(reports.map((r) => [...new Set(r[1].map((v) => v % 2))].sort()));
  const size = reports.length;
  return {
    quarter: Uint16Array.from(reports, (r) => r[0]), vaccineStart: vax.start, vaccines: vax.values, eventStart: ev.start, events: ev.values, nEvents,
    lagDays: Float64Array.from(reports, (_, i) => (i * 37) % 500), onsetDays: Int8Array.from(reports, (r) => r[3]),
    legal: new Int8Array(size).fill(-1), completeness: Float64Array.from(reports, (_, i) => (i % 5) / 4),
    serious: Uint8Array.from(reports, (_, i) => i % 3 === 0 ? 1 : 0), died: Uint8Array.from(reports, (_, i) => i % 7 === 0 ? 1 : 0),
    onsetLagDays: Float64Array.from(reports, (_, i) => (i % 4 === 0 ? Number.NaN : i)), caseKey: Float64Array.from(reports, (_, i) => 1000 + (i >> 1)),
    signatures: new Uint32Array(size * 32), hasSignature: new Uint8Array(size), narratives: false,
    onsetAny: Int32Array.from(reports, (r) => r[3]), vaxDate: Int32Array.from(reports, (r) => r[4]), receivedDay: Float64Array.from(reports, (_, i) => 10_000 + i),
    typeStart: ty.start, types: ty.values, nTypes: 2, itemType: Int32Array.from({ length: nItems }, (_, v) => v % 2), itemsAreTypes: false,
    failure: failureTables(Array.from({ length: nItems }, () => 'VACCINE'), Array.from({ length: nEvents }, (_, e) => `E${e}`)),
  };
}

/** Report indexes of each quarter, ascending. */
function byQuarter(reports: readonly Report[]): Map<number, number[]> {
  const map = new Map<number, number[]>();
  reports.forEach((r, i) => map.set(r[0], [...(map.get(r[0]) ?? []), i]));
  return map;
}

/** Every figure of a window's grouping for the given keys, vaccine items, events and two types, as plain values. */
function figures(groups: WindowGroups, keys: number[], items: number[], events: number[]): unknown {
  return {
    pairs: keys.map((k) => [...groups.pairReports(k)]),
    vaccineOnsets: items.map((v) => (groups.vaccineOnsets(v) ? [...groups.vaccineOnsets(v)!] : null)),
    eventOnsets: events.map((e) => (groups.eventOnsets(e) ? [...groups.eventOnsets(e)!] : null)),
    lastVaxDate: items.map((v) => groups.lastVaxDate(v) ?? null),
    datedReports: items.map((v) => groups.datedReports(v)),
    type: [0, 1].map((t) => groups.types.type.get(t) ?? null),
    typeEvent: [0, 1].flatMap((t) => events.map((e) => groups.types.typeEvent.get(t * 100 + e) ?? null)),
    typeType: [1, 2].map((tt) => groups.types.typeType.get(tt) ?? null),
    typeTypeEvent: [1, 2].flatMap((tt) => events.map((e) => groups.types.typeTypeEvent.get(tt * 100 + e) ?? null)),
  };
}

describe('evidence grouping by quarter', () => {
  // Items A=0 (type 0), B=1 (type 1); events X=0, Y=1 (nEvents 100, so that a key reads v * 100 + e); quarters Q..Q+4.
  const Q = 8000;
  const REPORTS: Report[] = [
    [Q, [0], [0], 1, 20000105], // 0
    [Q + 1, [0, 1], [0, 1], 3, 20000301], // 1
    [Q, [0], [0, 1], -1, 0], // 2
    [Q + 3, [0], [0], 2, 20000210], // 3
    [Q + 2, [1], [0], 1, 0], // 4
    [Q + 4, [0], [0], 5, 20010101], // 5: after the window ending at Q + 3
  ];
  const t = tablesOf(REPORTS, 100, 2);
  const all = new Uint8Array(REPORTS.length).fill(1);

  it('hand-made window Q..Q+3: A x X is reports 0, 2, 1, 3 (quarter order, then report order); onsets, dates and type counts summed over the quarters', () => {
    const quarters = byQuarter(REPORTS);
    const grouping = new ChunkGrouping(t, (q) => quarters.get(q) ?? [], all, new Set([0, 1, 100]), new Set([0, 1]));
    const groups = grouping.window(Q + 3);
    expect([...groups.pairReports(0)]).toEqual([0, 2, 1, 3]);
    expect([...groups.pairReports(1)]).toEqual([2, 1]);
    expect([...groups.pairReports(100)]).toEqual([1, 4]);
    expect([...groups.pairReports(101)]).toEqual([]); // B x Y is not wanted: no list
    // A's onsets: days 1, 3, 2 (report 2 has none); X's: 1, 3, 2, 1
    expect(Array.from(groups.vaccineOnsets(0)!.slice(0, 4))).toEqual([0, 1, 1, 1]);
    expect(Array.from(groups.eventOnsets(0)!.slice(0, 4))).toEqual([0, 2, 1, 1]);
    expect(groups.eventOnsets(2)).toBeUndefined();
    expect([groups.lastVaxDate(0), groups.datedReports(0), groups.lastVaxDate(1) , groups.datedReports(1)]).toEqual([20000301, 3, 20000301, 1]);
    // type 0 (A) on reports 0..3, type 1 (B) on 1 and 4; types 0 and 1 together on report 1, with X and Y
    expect([groups.types.type.get(0), groups.types.type.get(1), groups.types.typeType.get(1), groups.types.typeType.get(2)]).toEqual([4, 2, 1, 1]);
    expect([groups.types.typeEvent.get(0), groups.types.typeEvent.get(1), groups.types.typeTypeEvent.get(100), groups.types.typeTypeEvent.get(101)]).toEqual([4, 2, 1, 1]);
    // The next window lets Q go and does not see report 0 or 2.
    expect([...grouping.window(Q + 4).pairReports(0)]).toEqual([1, 3, 5]);
  });

  it('a made-up history of 10 quarters: every window read from its quarters equals grouping its reports at once, with a subset mask; each quarter grouped once per chunk', () => {
    const draw = seededRandom(41);
    const pick = (k: number, of: number): number[] => [...new Set(Array.from({ length: 1 + Math.floor(draw() * k) }, () => Math.floor(draw() * of)))].sort((a, b) => a - b);
    const reports: Report[] = Array.from({ length: 400 }, () => [
      Q + Math.floor(draw() * 10), pick(3, 5), pick(4, 6), draw() < 0.2 ? -1 : Math.floor(draw() * 61), draw() < 0.3 ? 0 : 20000101 + Math.floor(draw() * 28),
    ]);
    const tables = tablesOf(reports, 100, 5);
    const mask = Uint8Array.from(reports, (_, i) => (i % 5 === 0 ? 0 : 1));
    const keys = [...Array(5).keys()].flatMap((v) => [...Array(6).keys()].map((e) => v * 100 + e));
    const quarters = byQuarter(reports);
    const asked: number[] = [];
    const grouping = new ChunkGrouping(tables, (q) => {
      asked.push(q);
      return quarters.get(q) ?? [];
    }, mask, new Set(keys), new Set([0, 2, 3]));
    for (let q = Q; q < Q + 10; q++) {
      const windowReports = [...Array(4).keys()].flatMap((k) => quarters.get(q - 3 + k) ?? []);
      const direct: QuarterGroups = quarterGroups(tables as GroupingTables, windowReports, mask, new Set(keys), new Set([0, 2, 3]));
      const merged = grouping.window(q);
      expect(figures(merged, keys, [0, 1, 2, 3, 4], [0, 1, 2, 3, 4, 5])).toEqual(figures(new WindowGroups([direct]), keys, [0, 1, 2, 3, 4], [0, 1, 2, 3, 4, 5]));
    }
    // 13 quarters (Q-3..Q+9), each asked for once: not 4 per window.
    expect(asked).toEqual([...Array(13).keys()].map((k) => Q - 3 + k));
  });

  it('WindowEvidence.windows (a chunk, each quarter grouped once) answers each window as WindowEvidence.window does alone', () => {
    const draw = seededRandom(7);
    const reports: Report[] = Array.from({ length: 200 }, () => [Q + Math.floor(draw() * 8), [Math.floor(draw() * 3)], [Math.floor(draw() * 3), 3], draw() < 0.3 ? -1 : Math.floor(draw() * 20), 20000101]);
    const tables = tablesOf(reports, 4, 3);
    const evidence = new WindowEvidence(tables, new Uint8Array(reports.length).fill(1));
    const requests = [Q + 3, Q + 4, Q + 5, Q + 6, Q + 7].map((quarter, w) => {
      const keys = Float64Array.from([0, 1, 3, 4, 5, 7, 8, 11].filter((_, i) => (i + w) % 3 !== 0));
      return { quarter, keys, scores: { eb05: Float64Array.from(keys, (_, j) => j), flagged: Uint8Array.from(keys, (_, j) => (j % 2 === 0 ? 1 : 0)) } };
    });
    const chunk = evidence.windows(requests);
    requests.forEach((r, w) => {
      const alone = evidence.window(r.quarter, r.keys, r.scores);
      expect(Array.from(chunk[w].values)).toEqual(Array.from(alone.values));
      expect(chunk[w].links).toEqual(alone.links);
      expect(chunk[w].values.some((x) => x > 0)).toBe(true); // the windows have reports
    });
  });
});
