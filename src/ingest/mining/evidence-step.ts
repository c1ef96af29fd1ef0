/**
 * The build's evidence step: the evidence columns (src/domain/columns.ts kind `evidence`) of
 * the quarterly rows the triage queue can hold (the pair flagged in the window; null for the other
 * stored rows: columns.ts EVIDENCE_SCOPE), from the window's reports of that analysis (quarters
 * q-3..q, the analysis's subset). They are computed where the rows are scored, in the build's
 * worker threads (passes.ts rowsPasses sends each window's stored pair keys; worker.ts answers
 * their statistics and evidence together), so that both cores share the work.
 *
 * `evidenceInputs(data, items)` is taken once, right after the read and before the build lets the
 * reports go: per report its quarter, its items (src/ingest/mining/items.ts `reportItems`, the one place
 * that says which vaccine items a report names, per item kind) and its evidence (evidence.ts
 * `ReportEvidence`), as typed arrays (`EvidenceTables`, sent to each worker once per item kind).
 * `WindowEvidence.window` then groups, per window, the reports of the flagged pairs and the onsets
 * per vaccine and per event, and gives each pair pairEvidence of its reports and the two onset KS
 * tests (the pair's onsets against the window's reports naming the event but not the vaccine, and
 * against those naming the vaccine but not the event; Van Holle et al. 2012).
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { QuarterIndex } from '../../domain/quarter.js';
import { isSerious, OUTCOME, SEX_CODES } from '../../domain/report-rules.js';
import { EVIDENCE_NUMBER_COLUMNS, type EvidenceValues } from '../../domain/columns.js';
import type { ReportDetails } from '../vaers/report-details.js';
import type { VaersData } from '../vaers/read.js';
import { hasText, textChunks, TEXT_CHUNK_REPORTS } from '../vaers/text-chunks.js';
import { reportItems, type ReportItems } from './items.js';
import type { ItemKind } from '../../domain/analysis-rules.js';
import { dayNumber, onsetDaysFrom, quantileSorted } from '../../domain/report-days.js';
import { vaxType } from '../../domain/vaccine-type.js';
import { vaxTypeName } from '../../domain/vax-type-names.js';
import {
  completenessScore, daysBetween, legalWording, NARRATIVE_MIN_CHARS, onsetCounts, onsetDays, onsetKs, onsetLagDays, pairEvidenceAt, without, type ReportEvidence,
} from './evidence.js';
import { coReportedType, relatedPairs, type PairScores, type WindowLinks } from './evidence-links.js';
import { ChunkGrouping, type WindowGroups } from './evidence-groups.js';
import { failureCounts, failureTables, type FailureTables } from './evidence-failure.js';
import { SIGNATURE_HASHES, templateShare, writeSignature } from './evidence-template.js';

/**
 * What the evidence step needs of the read, as typed arrays only (so that it is sent to the
 * build's worker threads once per item kind, protocol.ts `EvidenceSetup`): per report (index as
 * VaersData.reports) its quarter, items, events and evidence (evidence.ts `ReportEvidence`, one
 * array per field).
 */
export interface EvidenceTables {
  /** Per report: quarter index. */
  quarter: Uint16Array;
  /** Report i's vaccine items are `vaccines[vaccineStart[i] .. vaccineStart[i + 1] - 1]`. */
  vaccineStart: Int32Array;
  vaccines: Int32Array;
  eventStart: Int32Array;
  events: Int32Array;
  /** Number of event names (pair key `v * nEvents + e`). */
  nEvents: number;
  /** Per report: lag days, NaN when null. */
  lagDays: Float64Array;
  /** Per report: onset days 0..60, -1 when null. */
  onsetDays: Int8Array;
  /** Per report: 1 legal wording, 0 none, -1 unknown (no narratives). */
  legal: Int8Array;
  completeness: Float64Array;
  serious: Uint8Array;
  died: Uint8Array;
  /** Per report: days from onset to receipt, NaN when null. */
  onsetLagDays: Float64Array;
  /** Per report: its case (evidence.ts ReportEvidence.caseKey). */
  caseKey: Float64Array;
  /** Per report: the MinHash signature of its narrative (evidence-template.ts), SIGNATURE_HASHES values from i * SIGNATURE_HASHES. */
  signatures: Uint32Array;
  /** Per report: 1 when it has a signature (a narrative of NARRATIVE_MIN_CHARS or more). */
  hasSignature: Uint8Array;
  /** Whether the build kept the narratives (else no template share). */
  narratives: boolean;
  /** Per report: onset days after vaccination, not capped (-1 unknown): the failure rule's late onset. */
  onsetAny: Int32Array;
  /** Per report: VAX_DATE (yyyymmdd, 0 unknown). */
  vaxDate: Int32Array;
  /** Per report: RECVDATE as a day number (NaN unknown). */
  receivedDay: Float64Array;
  /** Report i's VAX_TYPE codes (indexes into EvidenceInputs.typeNames) are `types[typeStart[i] .. typeStart[i + 1] - 1]`. */
  typeStart: Int32Array;
  types: Int32Array;
  nTypes: number;
  /** Per vaccine item: its own type index (-1 unknown). */
  itemType: Int32Array;
  /** Whether the vaccine items are the types (an analysis `@types`). */
  itemsAreTypes: boolean;
  /** The vaccine failure rule of each vaccine item (evidence-failure.ts). */
  failure: FailureTables;
}

/** The evidence inputs of one item kind: the tables, and the read's report columns the main thread keeps (for the subset masks). */
export interface EvidenceInputs {
  tables: EvidenceTables;
  details: ReportDetails;
  /** The VAX_TYPE codes the tables' `types` index (the co-reported type's name). */
  typeNames: readonly string[];
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

/**
 * The evidence of report i of the read (evidence.ts ReportEvidence); its narrative and LAB_DATA
 * are `text`'s entry `k` (default: `details`' own columns at i; a column null when not kept).
 */
export function reportEvidence(details: ReportDetails, i: number, text: Pick<ReportDetails, 'narrative' | 'labData'> = details, k = i): ReportEvidence {
  const lag = daysBetween(details.vaxDate[i], details.received[i]);
  const onset = onsetDays(details.numdays[i], details.onsetDate[i], details.vaxDate[i]);
  const outcomes = details.outcomes[i];
  const recovd = details.recovd[i] >= 0 ? details.strings[details.recovd[i]] : null;
  const narrative = text.narrative ? (text.narrative[k] ?? '') : null;
  const lab = text.labData ? (text.labData[k] ?? '').trim() : null;
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
    onsetLagDays: onsetLagDays(details.received[i], details.vaxDate[i], details.onsetDate[i], details.numdays[i]),
    caseKey: Number.isNaN(details.cluster[i]) ? details.id[i] : details.cluster[i],
  };
}

/** How long evidenceInputs runs before it lets the event loop turn (ms). */
const YIELD_MS = 20;

/**
 * Takes what the evidence step needs from the read (call before the reports are let go): one
 * input per item kind of the build (`items`: src/ingest/mining/items.ts, products or VAX_TYPE codes,
 * the one place that says which vaccine items a report names), sharing the reports' quarters,
 * events and evidence. Asynchronous only to yield to the event loop every YIELD_MS (the build's
 * fits run in the workers meanwhile, and this thread dispatches their chunks).
 */
export async function evidenceInputs(data: VaersData, items: ReadonlyMap<ItemKind, ReportItems>): Promise<Map<ItemKind, EvidenceInputs>> {
  const ev = runs(data.reports.map((r) => r.events));
  const quarter = Uint16Array.from(data.reports, (r) => r.quarter);
  const n = data.reports.length;
  const lagDays = new Float64Array(n), completeness = new Float64Array(n);
  const onsetDays = new Int8Array(n), legal = new Int8Array(n), serious = new Uint8Array(n), died = new Uint8Array(n);
  const onsetLag = new Float64Array(n), caseKey = new Float64Array(n);
  const signatures = new Uint32Array(n * SIGNATURE_HASHES), hasSignature = new Uint8Array(n);
  const onsetAny = new Int32Array(n), vaxDate = new Int32Array(n), receivedDay = new Float64Array(n);
  const d = data.details;
  let lastYield = performance.now();
  // The narratives and LAB_DATA a chunk of reports at a time (read back from the build's scratch file when it holds them: report-text.ts).
  const chunks = hasText(d) ? textChunks(d, ['narrative', 'labData'], TEXT_CHUNK_REPORTS) : [{ start: 0, count: n, columns: { narrative: null, labData: null } }];
  for await (const { start, count, columns: text } of chunks) {
    for (let k = 0; k < count; k++) {
      const i = start + k;
      // The build's fits run meanwhile (build.ts): let this thread hand the workers their next chunks every ~20 ms.
      if ((i & 255) === 0 && performance.now() - lastYield > YIELD_MS) {
        await yieldToEventLoop();
        lastYield = performance.now();
      }
      const e = reportEvidence(d, i, text, k);
      onsetLag[i] = e.onsetLagDays ?? Number.NaN;
      caseKey[i] = e.caseKey;
      const narrative = text.narrative?.[k] ?? null;
      if (narrative !== null && narrative.trim().length >= NARRATIVE_MIN_CHARS && writeSignature(narrative, signatures, i * SIGNATURE_HASHES)) hasSignature[i] = 1;
      lagDays[i] = e.lagDays ?? Number.NaN;
      onsetDays[i] = e.onsetDays ?? -1;
      legal[i] = e.legal === null ? -1 : e.legal ? 1 : 0;
      completeness[i] = e.completeness;
      serious[i] = e.serious ? 1 : 0;
      died[i] = e.died ? 1 : 0;
      onsetAny[i] = onsetDaysFrom(d.numdays[i], daysBetween(d.vaxDate[i], d.onsetDate[i])) ?? -1;
      vaxDate[i] = d.vaxDate[i];
      receivedDay[i] = dayNumber(d.received[i]) ?? Number.NaN;
    }
  }
  // The reports' VAX_TYPE codes (every kind's co-reported type counts them) and each product's own code.
  const typed = items.get('vax_type_code') ?? reportItems(data, 'vax_type_code');
  const typeRuns = runs(typed.lists);
  const typeIndex = new Map(typed.names.map((name, i) => [name, i]));
  const productType = Int32Array.from(data.vaccines, (_, v) => {
    const codes = [...(data.vaxTypeCodes.get(v) ?? [])].sort();
    return codes.length ? typeIndex.get(codes[0]) ?? -1 : -1;
  });
  return new Map([...items].map(([kind, { lists, events }]) => {
    const vax = runs(lists);
    // The event items of the kind: the terms, or its own (event groups: items.ts reportEventGroups).
    const own = events ? runs(events.lists) : ev;
    const byType = kind === 'vax_type_code';
    const itemNames = items.get(kind)!.names;
    const tables: EvidenceTables = {
      quarter, vaccineStart: vax.start, vaccines: vax.values, eventStart: own.start, events: own.values, nEvents: events?.names.length ?? data.events.length,
      lagDays, onsetDays, legal, completeness, serious, died, onsetLagDays: onsetLag, caseKey, signatures, hasSignature, narratives: hasText(data.details),
      onsetAny, vaxDate, receivedDay, typeStart: typeRuns.start, types: typeRuns.values, nTypes: typed.names.length,
      itemType: byType ? Int32Array.from(itemNames, (_, v) => v) : productType, itemsAreTypes: byType,
      failure: failureTables(itemNames.map((name) => (byType ? vaxTypeName(name) ?? name : vaxType(name))), events?.names ?? data.events),
    };
    return [kind, { tables, details: data.details, typeNames: typed.names }];
  }));
}

/**
 * Sets each report's case key (ReportEvidence.caseKey: its cluster's representative, else its own
 * VAERS_ID) in the evidence tables from `details.cluster`, for tables taken before the linkage
 * ended (build.ts runs it beside the counts). The tables of every item kind share the one array.
 */
export function setCaseKeys(inputs: ReadonlyMap<unknown, EvidenceInputs>, details: ReportDetails): void {
  for (const { tables } of inputs.values()) {
    for (let i = 0; i < tables.caseKey.length; i++) tables.caseKey[i] = Number.isNaN(details.cluster[i]) ? details.id[i] : details.cluster[i];
  }
}

const NO_ONSETS = onsetCounts([]);
/** The other sample of an onset test (overwritten by each test). */
const SCRATCH = onsetCounts([]);

function total(counts: ArrayLike<number>): number {
  let sum = 0;
  for (let d = 0; d < counts.length; d++) sum += counts[d];
  return sum;
}

/** The received days of evidenceOf (one call at a time per thread), grown as needed. */
let receivedScratch = new Float64Array(256);

/**
 * The evidence of pair key `key` (= v * nEvents + e) in a window's grouping, with the two onset
 * KS tests (WindowEvidence asks it for the pairs flagged in the window only).
 */
function evidenceOf(t: EvidenceTables, groups: WindowGroups, key: number): EvidenceValues {
  const v = Math.floor(key / t.nEvents);
  const e = key - v * t.nEvents;
  const reports = groups.pairReports(key);
  const values = pairEvidenceAt(t, reports);
  const onsets = onsetCounts([]);
  for (const r of reports) if (t.onsetDays[r] >= 0) onsets[t.onsetDays[r]]++;
  // Each comparator goes to SCRATCH in turn (its size, then its KS test).
  const otherVaccines = without(groups.eventOnsets(e) ?? NO_ONSETS, onsets, SCRATCH);
  const vsVaccines = onsetKs(onsets, otherVaccines);
  values.onset_n_other_vaccines = total(otherVaccines);
  const otherEvents = without(groups.vaccineOnsets(v) ?? NO_ONSETS, onsets, SCRATCH);
  const vsEvents = onsetKs(onsets, otherEvents);
  values.onset_n_other_events = total(otherEvents);
  values.onset_d_other_vaccines = vsVaccines?.d ?? null;
  values.onset_p_other_vaccines = vsVaccines?.p ?? null;
  values.onset_d_other_events = vsEvents?.d ?? null;
  values.onset_p_other_events = vsEvents?.p ?? null;
  const failure = failureCounts(t, v, e, reports);
  values.failure_n = failure.n;
  values.failure_lack_n = failure.lack;
  values.failure_disease_n = failure.disease;
  values.failure_late_n = failure.late;
  values.vaccine_last_vax_date = groups.lastVaxDate(v) ?? null;
  values.vaccine_dated_n = groups.datedReports(v);
  if (receivedScratch.length < reports.length) receivedScratch = new Float64Array(Math.max(reports.length, 2 * receivedScratch.length));
  let nReceived = 0;
  for (const r of reports) if (!Number.isNaN(t.receivedDay[r])) receivedScratch[nReceived++] = t.receivedDay[r];
  const received = receivedScratch.subarray(0, nReceived).sort(); // day numbers: the order of a sort by a - b
  const q1 = quantileSorted(received, 0.25), q3 = quantileSorted(received, 0.75);
  values.received_iqr_days = q1 === null || q3 === null ? null : q3 - q1;
  values.received_median_date = received.length ? yyyymmdd(received[Math.floor((received.length - 1) / 2)]) : null;
  return values;
}

/** A day number (days since 1970-01-01) as yyyymmdd. Example: yyyymmdd(0) = 19700101. */
function yyyymmdd(day: number): number {
  const date = new Date(day * 86_400_000);
  return date.getUTCFullYear() * 10_000 + (date.getUTCMonth() + 1) * 100 + date.getUTCDate();
}

/**
 * The report indexes of each quarter, ascending (`quarter[r]` report r's quarter, a Uint16:
 * EvidenceTables.quarter): `of(q)` a view of one array holding every report once, grouped by
 * quarter (a counting sort: 4 bytes a report, no JavaScript array per quarter).
 */
export class QuarterReports {
  private readonly order: Int32Array;
  /** `order[start[q] .. start[q + 1] - 1]` are quarter q's reports. */
  private readonly start: Int32Array;

  constructor(quarter: Uint16Array) {
    let last = 0;
    for (let r = 0; r < quarter.length; r++) if (quarter[r] > last) last = quarter[r];
    this.start = new Int32Array(last + 2);
    for (let r = 0; r < quarter.length; r++) this.start[quarter[r] + 1]++;
    for (let q = 0; q <= last; q++) this.start[q + 1] += this.start[q];
    const next = this.start.slice(0, last + 1);
    this.order = new Int32Array(quarter.length);
    for (let r = 0; r < quarter.length; r++) this.order[next[quarter[r]]++] = r;
  }

  /** Quarter q's report indexes, ascending (empty for a quarter without reports). */
  of(q: QuarterIndex): Int32Array {
    return q >= 0 && q + 1 < this.start.length ? this.order.subarray(this.start[q], this.start[q + 1]) : this.order.subarray(0, 0);
  }
}

/**
 * The evidence of one analysis's pairs, window by window: the tables of its item kind and its
 * subset mask (`subsetMask`, 1 for the reports the analysis keeps). Built where the rows are
 * scored (a worker thread of the build, worker.ts), from what protocol.ts `EvidenceSetup` carries.
 */
export class WindowEvidence {
  /** `byQuarter`: the tables' QuarterReports, when the caller has it (a worker keeps it per item kind). */
  constructor(private readonly tables: EvidenceTables, private readonly mask: Uint8Array, private readonly byQuarter = new QuarterReports(tables.quarter)) {}

  /**
   * The evidence of pairs `keys` (pair keys `v * nEvents + e`) in the window ending at quarter
   * `q` (quarters q-3..q): `values` holds `EVIDENCE_NUMBER_COLUMNS.length` doubles per pair in
   * `keys` order (NaN for null; evidenceFromDoubles reads them back), and `links` the co-reported
   * vaccine and related pairs (evidence-links.ts) from the pairs' EB05 and flags in the window
   * (`scores`; without it, none). A pair without a report in the window has the evidence of no
   * report (counts 0, the rest null). With `scores`, the evidence is computed for the pairs
   * flagged in the window only (`scores.flagged`, src/domain/floor.ts isFlagged: the rows GET
   * /triage reads, its only reader besides the export; about a quarter of the stored rows): every
   * evidence value of the other pairs is null (NaN). Without `scores`, every pair's evidence
   * except the template share, the co-reported type and the related pairs. The same as `windows`
   * with this window alone.
   */
  window(q: QuarterIndex, keys: ArrayLike<number>, scores?: PairScores): WindowEvidenceValues {
    return this.windows([{ quarter: q, keys, scores }])[0];
  }

  /**
   * The evidence of several windows (as `window` gives each), their reports grouped once per
   * quarter (evidence-groups.ts ChunkGrouping): the windows of one chunk of the rows pass, best in
   * ascending quarter order (passes.ts sends consecutive windows).
   */
  windows(requests: ReadonlyArray<{ quarter: QuarterIndex; keys: ArrayLike<number>; scores?: PairScores }>): WindowEvidenceValues[] {
    // The pairs whose evidence is computed (with scores, the flagged ones), and the flagged pairs'
    // events (the two-type counts are kept for those only).
    const wanted = new Set<number>();
    const flaggedEvents = new Set<number>();
    for (const { keys, scores } of requests) {
      for (let j = 0; j < keys.length; j++) {
        if (!scores || scores.flagged[j]) wanted.add(keys[j]);
        if (scores?.flagged[j]) flaggedEvents.add(keys[j] % this.tables.nEvents);
      }
    }
    const grouping = new ChunkGrouping(this.tables, (quarter) => this.byQuarter.of(quarter), this.mask, wanted, flaggedEvents);
    return requests.map(({ quarter, keys, scores }) => this.evidence(grouping.window(quarter), keys, scores));
  }

  private evidence(groups: WindowGroups, keys: ArrayLike<number>, scores?: PairScores): WindowEvidenceValues {
    const width = EVIDENCE_NUMBER_COLUMNS.length;
    const out = new Float64Array(keys.length * width).fill(Number.NaN);
    const reportsOf = (j: number): readonly number[] => groups.pairReports(keys[j]);
    // The co-reported type of the flagged pairs (without scores, none).
    const co = coReportedType(this.tables, keys, reportsOf, groups.types, this.tables.nTypes, scores?.flagged ?? new Uint8Array(keys.length));
    const orNull = (x: number): number | null => (Number.isNaN(x) ? null : x);
    for (let j = 0; j < keys.length; j++) {
      // A pair not flagged in the window: its evidence stays null (NaN), none of it is computed.
      if (scores && !scores.flagged[j]) continue;
      const values = evidenceOf(this.tables, groups, keys[j]);
      values.co_share = orNull(co.coShare[j]);
      values.co_type_event = orNull(co.typeEvent[j]);
      values.co_type_reports = orNull(co.typeReports[j]);
      values.co_own_event = orNull(co.ownEvent[j]);
      values.co_own_reports = orNull(co.ownReports[j]);
      // The template share of the pairs GET /triage reads (flagged in the window), when narratives were kept.
      if (scores && this.tables.narratives) values.template_share = templateShare(this.tables.signatures, this.tables.hasSignature, reportsOf(j));
      EVIDENCE_NUMBER_COLUMNS.forEach((name, c) => { out[j * width + c] = values[name] ?? Number.NaN; });
    }
    const related = scores ? relatedPairs(this.tables.nEvents, keys, reportsOf, scores.flagged) : new Float64Array(0);
    return { values: out, links: { coVaccine: co.coVaccine, coProducts: co.products, related } };
  }
}

/** One window's evidence (WindowEvidence.window). */
export interface WindowEvidenceValues {
  values: Float64Array;
  links: WindowLinks;
}
