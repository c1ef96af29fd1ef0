/**
 * GET /triage and GET /analyses/NAME/triage: the pairs one window flags, in triage order
 * (rank.ts), one row per signal unless `group=none` (group.ts), with their evidence, reasons and
 * cautions; JSON or CSV. Parameters: params.ts (one table). Bad input is a 400 Error object (spec
 * 2.5). Every answer carries the caveat (src/serve/query/caveats.ts), says triage orders hypotheses and
 * does not assess causality, and (JSON) carries the table of caution codes (cautions.ts), which
 * the explorer reads.
 */
import { HYPOTHESIS } from '../query/caveats.js';
import { errorBody, type ErrorBody } from '../query/error-object.js';
import { matchNames, type Vocabulary } from '../query/names.js';
import { csvCell } from '../../domain/csv-cell.js';
import type { TriageWindow } from '../store/triage-rows.js';
import { CAUTIONS, type CautionSpec } from './cautions.js';
import { foldSignals, narrowGroups } from './group.js';
import { TRIAGE_USAGE, type TriageParams } from './params.js';
import { hasArtefact, rankPairs, type TriagePair } from './rank.js';

export { parseTriageQuery, TRIAGE_LIMIT_DEFAULT, TRIAGE_PARAMETERS, TRIAGE_USAGE, type TriageParams } from './params.js';

/** The sentence every triage answer carries besides the caveat. */
export const TRIAGE_NOTE = 'Triage orders hypotheses for review by the evidence of their reports; it does not assess causality.';

/** The JSON answer of GET /triage. */
export interface TriageAnswer {
  analysis: string;
  quarter: string | null;
  total: number;
  limit: number;
  offset: number;
  group: TriageParams['group'];
  hypothesis: string;
  note: string;
  /** Why legal_share is null throughout (a store built without narratives or without the evidence columns), else absent. */
  evidence_note?: string;
  /** The caution codes (cautions.ts CAUTIONS): code, label, artefact, description. */
  caution_codes: readonly CautionSpec[];
  pairs: TriagePair[];
}

/** A rendered answer: status, content type and body. */
export interface TriageResult {
  status: 200 | 400;
  type: string;
  body: string | ErrorBody;
  /** For a 200: the rows before paging (X-Total-Count). */
  total?: number;
}

/** The CSV columns of a pair, flattened (reasons and cautions as their codes joined by `;`, related events as `event (n)` joined by `;`). */
const CSV_COLUMNS: ReadonlyArray<[string, (p: TriagePair) => unknown]> = [
  ['rank', () => null], ['vaccine', (p) => p.vaccine], ['vax_type', (p) => p.vax_type], ['event', (p) => p.event], ['n', (p) => p.n], ['n_cases', (p) => p.n_cases],
  ['eb05', (p) => p.eb05], ['prr', (p) => p.prr], ['ic025', (p) => p.ic025], ['n_methods_flagged', (p) => p.n_methods_flagged], ['score', (p) => p.score],
  ['reasons', (p) => p.reasons.map((r) => r.code).join(';')], ['cautions', (p) => p.cautions.map((c) => c.code).join(';')],
  ['related_events', (p) => p.related_events.map((r) => `${r.event} (${r.n})`).join(';')],
  ['lag_median_days', (p) => p.lag.median_days], ['lag_q1_days', (p) => p.lag.q1_days], ['lag_q3_days', (p) => p.lag.q3_days],
  ['lag_share_over_365', (p) => p.lag.share_over_365], ['onset_lag_median_days', (p) => p.lag.from_onset.median_days],
  ['legal_share', (p) => p.legal_share], ['term_category', (p) => p.term_category],
  ['co_vaccine', (p) => p.co_reported?.vaccine ?? null], ['co_share', (p) => p.co_reported?.share ?? null], ['template_share', (p) => p.template_share],
  ['failure_share', (p) => p.failure?.share ?? null],
  ['onset_n', (p) => p.onset.n], ['onset_median_days', (p) => p.onset.median_days],
  ['onset_d_other_vaccines', (p) => p.onset.vs_other_vaccines.d], ['onset_p_other_vaccines', (p) => p.onset.vs_other_vaccines.p], ['onset_n_other_vaccines', (p) => p.onset.vs_other_vaccines.n],
  ['onset_d_other_events', (p) => p.onset.vs_other_events.d], ['onset_p_other_events', (p) => p.onset.vs_other_events.p], ['onset_n_other_events', (p) => p.onset.vs_other_events.n],
  ['completeness_mean', (p) => p.completeness.mean], ['well_documented_share', (p) => p.completeness.well_documented_share],
  ['serious_share', (p) => p.serious_share], ['first_flagged', (p) => p.first_flagged], ['new', (p) => p.new],
];

/** The CSV column of a pair's event groups (joined by `;`), after the others. */
const GROUPS_CSV_COLUMN: [string, (p: TriagePair) => unknown] = ['event_groups', (p) => p.event_groups?.join(';') ?? ''];

/** The pairs with the event-group items of their event (`event_groups`), when `groupsOfTerm` is given. */
function withEventGroups(pairs: TriagePair[], groupsOfTerm: ReadonlyMap<string, readonly string[]> | undefined): TriagePair[] {
  return groupsOfTerm ? pairs.map((p) => ({ ...p, event_groups: [...(groupsOfTerm.get(p.event) ?? [])] })) : pairs;
}

/**
 * The answer of one triage request over a window read from the store (`window`, the analysis's
 * `vocabulary` for the name filters and vax_type). `groupsOfTerm` (term -> the event-group items
 * counting it; src/serve/store/event-groups.ts itemsOfTerms), given for an analysis of terms in a
 * store with an analysis of event groups, adds each pair's `event_groups` (JSON and CSV).
 */
export function triageAnswer(analysis: string, params: TriageParams, window: TriageWindow, vocabulary: Vocabulary, groupsOfTerm?: ReadonlyMap<string, readonly string[]>): TriageResult {
  let rows = window.rows;
  if (params.vaccine !== undefined || params.event !== undefined || params.q !== undefined) {
    const names = matchNames(vocabulary, params, TRIAGE_USAGE);
    if (!names.ok) return { status: 400, type: 'application/json; charset=utf-8', body: errorBody(names.error.error, names.error) };
    const vaccines = new Set(names.vaccines ?? []), events = new Set(names.events ?? []);
    rows = rows.filter((r) => (names.union
      ? vaccines.has(r.vaccine) || events.has(r.event)
      : (names.vaccines === null || vaccines.has(r.vaccine)) && (names.events === null || events.has(r.event))));
  }
  let pairs = rankPairs(rows, {
    quarter: window.quarter ?? '', at_bound: window.at_bound, vaxTypeOf: (v) => vocabulary.vaxTypeOf.get(v) ?? v,
    specialGroups: (event) => narrowGroups(groupsOfTerm, event),
  });
  if (params.group === 'signal') pairs = foldSignals(pairs, rows, groupsOfTerm);
  if (params.caution !== 'include') pairs = pairs.filter((p) => hasArtefact(p) === (params.caution === 'only'));
  const page = withEventGroups(pairs.slice(params.offset, params.offset + params.limit), groupsOfTerm);
  if (params.format === 'csv') {
    const columns = groupsOfTerm ? [...CSV_COLUMNS, GROUPS_CSV_COLUMN] : CSV_COLUMNS;
    const lines = [columns.map(([name]) => name).join(',')];
    page.forEach((p, i) => lines.push(columns.map(([name, value]) => csvCell(name === 'rank' ? params.offset + i + 1 : value(p))).join(',')));
    return { status: 200, type: 'text/csv; charset=utf-8', body: `${lines.join('\r\n')}\r\n`, total: pairs.length };
  }
  const evidenceNote = !window.has_evidence
    ? 'this store has no triage evidence columns (an import, or a store built before them): the evidence fields are null; rebuild it with "reporting-signals build" to compute them'
    : window.rows.length > 0 && window.rows.every((r) => r.legal_share === null) ? 'this store was built without narratives (build --narratives), so legal_share is null and the legal_reports caution cannot apply' : undefined;
  const answer: TriageAnswer = {
    analysis, quarter: window.quarter, total: pairs.length, limit: params.limit, offset: params.offset, group: params.group, hypothesis: HYPOTHESIS, note: TRIAGE_NOTE,
    ...(evidenceNote ? { evidence_note: evidenceNote } : {}), caution_codes: CAUTIONS, pairs: page,
  };
  return { status: 200, type: 'application/json; charset=utf-8', body: JSON.stringify(answer), total: pairs.length };
}
