/**
 * The build's evidence step: fills the evidence columns (src/domain/columns.ts kind `evidence`)
 * of every quarterly row an analysis stores, from the window's reports of that analysis
 * (quarters q-3..q, the analysis's subset), as the rows stream to the store.
 *
 * `evidenceInputs(data, items)` is taken once, right after the read and before the build lets the
 * reports go: per report its quarter, its items (src/mining/items.ts `reportItems`, the one place
 * that says which vaccine items a report names, per item kind) and its evidence (evidence.ts `ReportEvidence`).
 * `withEvidence` then groups, per window, the reports of the stored pairs and the onsets per
 * vaccine and per event, and decorates each row: pairEvidence of the pair's reports, and the two
 * onset KS tests (the pair's onsets against the window's reports naming the event but not the
 * vaccine, and against those naming the vaccine but not the event; Van Holle et al. 2012).
 */
import { subsetMask, type AnalysisDefinition } from '../domain/analysis-rules.js';
import { parseQuarter, type QuarterIndex } from '../domain/quarter.js';
import { isSerious, OUTCOME, SEX_CODES } from '../domain/report-rules.js';
import type { EvidenceValues, QuarterlyRow } from '../domain/columns.js';
import type { ReportDetails } from '../vaers/report-details.js';
import type { VaersData } from '../vaers/read.js';
import type { ReportItems } from './items.js';
import { WINDOW_QUARTERS } from './counts.js';
import {
  completenessScore, daysBetween, legalWording, NARRATIVE_MIN_CHARS, onsetCounts, onsetDays, onsetKs, pairEvidence, without, type ReportEvidence,
} from './evidence.js';

/** What the evidence step needs of the read, kept after the build lets the reports go. */
export interface EvidenceInputs {
  /** Per report (index as VaersData.reports): quarter index. */
  quarter: Uint16Array;
  /** Report i's vaccine items are `vaccines[vaccineStart[i] .. vaccineStart[i + 1] - 1]`. */
  vaccineStart: Int32Array;
  vaccines: Int32Array;
  eventStart: Int32Array;
  events: Int32Array;
  evidence: ReportEvidence[];
  /** Vaccine item and event names, by index (pair key `v * eventNames.length + e`). */
  vaccineNames: readonly string[];
  eventNames: readonly string[];
  details: ReportDetails;
}

function runs(lists: ReadonlyArray<readonly number[]>): { start: Int32Array; values: Int32Array } {
  const start = new Int32Array(lists.length + 1);
  lists.forEach((l, i) => { start[i + 1] = start[i] + l.length; });
  const values = new Int32Array(start[lists.length]);
  lists.forEach((l, i) => values.set(l, start[i]));
  return { start, values };
}

/** Whether some VAX row of report i has a value in column `of` (string numbers, -1 null). */
function anyVaxValue(details: ReportDetails, of: Int32Array, i: number): boolean {
  for (let k = details.vaccines.start[i]; k < details.vaccines.start[i + 1]; k++) if (of[k] >= 0 && details.strings[of[k]].trim() !== '') return true;
  return false;
}

/** The evidence of report i of the read (evidence.ts ReportEvidence). */
export function reportEvidence(details: ReportDetails, i: number): ReportEvidence {
  const lag = daysBetween(details.vaxDate[i], details.received[i]);
  const onset = onsetDays(details.numdays[i], details.onsetDate[i], details.vaxDate[i]);
  const outcomes = details.outcomes[i];
  const recovd = details.recovd[i] >= 0 ? details.strings[details.recovd[i]] : null;
  const narrative = details.narrative ? (details.narrative[i] ?? '') : null;
  const lab = details.labData ? (details.labData[i] ?? '').trim() : null;
  const completeness = completenessScore({
    onset: Number.isFinite(details.numdays[i]) || (details.onsetDate[i] !== 0 && details.vaxDate[i] !== 0),
    outcome: recovd === 'Y' || recovd === 'N' || isSerious(outcomes),
    sex: SEX_CODES[details.sex[i]] !== 'U',
    age: Number.isFinite(details.age[i]),
    vaccination_date: details.vaxDate[i] !== 0,
    dose: anyVaxValue(details, details.vaccines.dose, i),
    lot: anyVaxValue(details, details.vaccines.lot, i),
    ...(narrative === null ? {} : { narrative: narrative.trim().length >= NARRATIVE_MIN_CHARS }),
    ...(lab === null ? {} : { lab_data: lab !== '' }),
  });
  return {
    lagDays: lag !== null && lag >= 0 ? lag : null,
    legal: narrative === null ? null : legalWording(narrative),
    onsetDays: onset, completeness, serious: isSerious(outcomes), died: (outcomes & OUTCOME.DIED) !== 0,
  };
}

/**
 * Takes what the evidence step needs from the read (call before the reports are let go): one
 * input per item kind of the build (`items`: src/mining/items.ts, products or VAX_TYPE codes,
 * the one place that says which vaccine items a report names), sharing the reports' quarters,
 * events and evidence.
 */
export function evidenceInputs<K>(data: VaersData, items: ReadonlyMap<K, ReportItems>): Map<K, EvidenceInputs> {
  const ev = runs(data.reports.map((r) => r.events));
  const quarter = Uint16Array.from(data.reports, (r) => r.quarter);
  const evidence = data.reports.map((_, i) => reportEvidence(data.details, i));
  return new Map([...items].map(([kind, { names, lists }]) => {
    const vax = runs(lists);
    return [kind, {
      quarter, vaccineStart: vax.start, vaccines: vax.values, eventStart: ev.start, events: ev.values, evidence,
      vaccineNames: names, eventNames: data.events, details: data.details,
    }];
  }));
}

/** One window's grouping: the stored pairs' reports, the onsets per vaccine and per event (counts per day). */
interface WindowGroups {
  pairReports: Map<number, number[]>;
  vaccineOnsets: Map<number, Int32Array>;
  eventOnsets: Map<number, Int32Array>;
}

function count(map: Map<number, Int32Array>, key: number, day: number): void {
  let counts = map.get(key);
  if (!counts) map.set(key, (counts = onsetCounts([])));
  counts[day]++;
}

function push<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Groups the reports of window `q` kept by `mask` (report indexes by quarter in `byQuarter`). */
function windowGroups(inputs: EvidenceInputs, byQuarter: Map<QuarterIndex, number[]>, mask: Uint8Array, stored: ReadonlySet<number>, q: QuarterIndex): WindowGroups {
  const nEvents = inputs.eventNames.length;
  const groups: WindowGroups = { pairReports: new Map(), vaccineOnsets: new Map(), eventOnsets: new Map() };
  for (let quarter = q - WINDOW_QUARTERS + 1; quarter <= q; quarter++) {
    for (const r of byQuarter.get(quarter) ?? []) {
      if (!mask[r]) continue;
      const onset = inputs.evidence[r].onsetDays;
      for (let a = inputs.vaccineStart[r]; a < inputs.vaccineStart[r + 1]; a++) {
        const v = inputs.vaccines[a];
        if (onset !== null) count(groups.vaccineOnsets, v, onset);
        for (let b = inputs.eventStart[r]; b < inputs.eventStart[r + 1]; b++) {
          const key = v * nEvents + inputs.events[b];
          if (stored.has(key)) push(groups.pairReports, key, r);
        }
      }
      if (onset !== null) for (let b = inputs.eventStart[r]; b < inputs.eventStart[r + 1]; b++) count(groups.eventOnsets, inputs.events[b], onset);
    }
  }
  return groups;
}

const NO_ONSETS = onsetCounts([]);
/** The other sample of an onset test (overwritten by each test). */
const SCRATCH = onsetCounts([]);

/** The evidence of pair (v, e) in a window's grouping. */
function evidenceOf(inputs: EvidenceInputs, groups: WindowGroups, v: number, e: number): EvidenceValues {
  const reports = groups.pairReports.get(v * inputs.eventNames.length + e) ?? [];
  const values = pairEvidence(reports.map((r) => inputs.evidence[r]));
  const onsets = onsetCounts(reports.flatMap((r) => (inputs.evidence[r].onsetDays === null ? [] : [inputs.evidence[r].onsetDays!])));
  const vsVaccines = onsetKs(onsets, without(groups.eventOnsets.get(e) ?? NO_ONSETS, onsets, SCRATCH));
  const vsEvents = onsetKs(onsets, without(groups.vaccineOnsets.get(v) ?? NO_ONSETS, onsets, SCRATCH));
  values.onset_d_other_vaccines = vsVaccines?.d ?? null;
  values.onset_p_other_vaccines = vsVaccines?.p ?? null;
  values.onset_d_other_events = vsEvents?.d ?? null;
  values.onset_p_other_events = vsEvents?.p ?? null;
  return values;
}

/**
 * The rows of one analysis with their evidence, in the order given (rowsPass: window by window).
 * `stored` holds the pair keys (`v * events + e`) the analysis stores (its fit's flagged pairs).
 * Each row is completed in place (rowsPass makes a new object per row). A row whose names are not
 * those of the read (never, for the build's own rows) passes unchanged.
 */
export async function* withEvidence(
  inputs: EvidenceInputs, rows: AsyncIterable<QuarterlyRow>, analysis: AnalysisDefinition, stored: ReadonlySet<number>,
): AsyncGenerator<QuarterlyRow> {
  const mask = subsetMask(analysis, inputs.details);
  const byQuarter = new Map<QuarterIndex, number[]>();
  inputs.quarter.forEach((q, r) => push(byQuarter, q, r));
  const vaccineIndex = new Map(inputs.vaccineNames.map((name, i) => [name, i]));
  const eventIndex = new Map(inputs.eventNames.map((name, i) => [name, i]));
  let current = null as { quarter: string; groups: WindowGroups } | null;
  for await (const row of rows) {
    const v = vaccineIndex.get(row.drug);
    const e = eventIndex.get(row.event);
    const q = parseQuarter(row.quarter);
    if (v === undefined || e === undefined || q === null) {
      yield row;
      continue;
    }
    if (current?.quarter !== row.quarter) current = { quarter: row.quarter, groups: windowGroups(inputs, byQuarter, mask, stored, q) };
    yield Object.assign(row, evidenceOf(inputs, current.groups, v, e));
  }
}
