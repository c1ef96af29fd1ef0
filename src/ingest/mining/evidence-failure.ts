/**
 * Vaccine failure per report, in the build (the evidence columns `failure_n`, `failure_lack_n`,
 * `failure_disease_n`, `failure_late_n`): the rule of src/domain/vaccine-failure.ts applied to
 * each of a pair's reports, over the evidence tables' indexes (a worker thread has no names). The
 * main thread turns the rule into arrays once per item kind (`failureTables`, from the item and
 * event names); `failureCounts` counts a pair's failure reports from them.
 */
import { failureReasons, termFailureTest, type FailureTest } from '../../domain/vaccine-failure.js';

/** The failure rule of every vaccine item as arrays (sent to the workers with the evidence tables). */
export interface FailureTables {
  /** Per event item: 1 for a lack-of-effect term. */
  eventLack: Uint8Array;
  /** Per vaccine item: its reaction window in days (a live vaccine), -1 none. */
  itemWindow: Int32Array;
  /** Per vaccine item v: the event items of the diseases it prevents, `prevented[preventedStart[v] .. preventedStart[v + 1] - 1]`. */
  preventedStart: Int32Array;
  prevented: Int32Array;
  /** Per vaccine item: its late effects (event items not counted by onset), as runs. */
  lateStart: Int32Array;
  late: Int32Array;
}

/**
 * The failure tables of one item kind: `vaxTypes[v]` is vaccine item v's type in words (the
 * vax_type of a product, the long name of a VAX_TYPE code), `events` the event item names.
 */
export function failureTables(vaxTypes: readonly string[], events: readonly string[]): FailureTables {
  const anyTest = termFailureTest('');
  const eventLack = Uint8Array.from(events, (e) => (anyTest.isLackOfEffect(e) ? 1 : 0));
  const itemWindow = new Int32Array(vaxTypes.length).fill(-1);
  const prevented: number[][] = [], late: number[][] = [];
  vaxTypes.forEach((type, v) => {
    const test = termFailureTest(type);
    if (test.windowDays !== null) itemWindow[v] = test.windowDays;
    const own: number[] = [], lateOwn: number[] = [];
    events.forEach((e, k) => {
      if (test.prevents(e)) own.push(k);
      if (test.isLateEffect(e)) lateOwn.push(k);
    });
    prevented.push(own);
    late.push(lateOwn);
  });
  const runs = (lists: number[][]): { start: Int32Array; values: Int32Array } => {
    const start = new Int32Array(lists.length + 1);
    lists.forEach((l, i) => { start[i + 1] = start[i] + l.length; });
    return { start, values: Int32Array.from(lists.flat()) };
  };
  const p = runs(prevented), l = runs(late);
  return { eventLack, itemWindow, preventedStart: p.start, prevented: p.values, lateStart: l.start, late: l.values };
}

/** What failureCounts reads of the evidence tables: per report its events (runs) and its onset days, not capped (-1 unknown). */
export interface FailureInputs {
  eventStart: Int32Array;
  events: Int32Array;
  onsetAny: Int32Array;
  failure: FailureTables;
}

function inRun(start: Int32Array, values: Int32Array, v: number, x: number): boolean {
  for (let k = start[v]; k < start[v + 1]; k++) if (values[k] === x) return true;
  return false;
}

/** The failure test of vaccine item v over event indexes. */
function indexTest(f: FailureTables, v: number): FailureTest<number> {
  return {
    windowDays: f.itemWindow[v] >= 0 ? f.itemWindow[v] : null,
    isLackOfEffect: (e) => f.eventLack[e] === 1,
    prevents: (e) => inRun(f.preventedStart, f.prevented, v, e),
    isLateEffect: (e) => inRun(f.lateStart, f.late, v, e),
  };
}

/**
 * The failure reports among `reports` (report indexes) of pair (v, e): how many, and how many
 * meet each condition (a report may meet several).
 * Example: a varicella item (window 42), reports with onsets 100 and 10 naming Infection only: n 1, late 1.
 */
export function failureCounts(t: FailureInputs, v: number, e: number, reports: readonly number[]): { n: number; lack: number; disease: number; late: number } {
  const test = indexTest(t.failure, v);
  const out = { n: 0, lack: 0, disease: 0, late: 0 };
  for (const r of reports) {
    const terms = t.events.subarray(t.eventStart[r], t.eventStart[r + 1]);
    const reasons = failureReasons(test, terms, t.onsetAny[r] < 0 ? null : t.onsetAny[r], e);
    if (reasons.lackOfEffect) out.lack++;
    if (reasons.disease) out.disease++;
    if (reasons.lateOnset) out.late++;
    if (reasons.lackOfEffect || reasons.disease || reasons.lateOnset) out.n++;
  }
  return out;
}
