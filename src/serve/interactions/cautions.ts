/**
 * Cautions of GET /interactions (docs/interactions.md "Cautions"): why a triple with Omega025 > 0
 * is likely a reporting pattern rather than an interaction worth a look, each `{code, text}` with
 * the figures a reviewer can check, counted from the reports held in memory for /cases
 * (src/serve/cases/index.ts) over the window's reports:
 * - `non_clinical_term`: the event is a medication error, product issue, ... (the term categories,
 *   data/terms/non-clinical.csv): two products given where one was due is reported as an error;
 * - `treatment_term`: the event names a treatment or procedure (TREATMENT_PATTERN: Enema
 *   administration is the treatment of intussusception), not a reaction;
 * - `third_vaccine`: at least half of the triple's reports name a third vaccine type (VAX_TYPE, every
 *   brand together) with which the event is more frequent: its rate on the window's reports naming
 *   that type and neither vaccine is above its rate on the reports naming both vaccines but not
 *   that type (ACEL-IMUNE + COMVAX x Intussusception: RotaShield on 29 of 30);
 * - `copies`: the triple's reports are copies of a few: at most half as many distinct cases as
 *   reports (the build's duplicate clusters), or at least half of its narratives identical once
 *   case, digits and spacing are folded (one incident reported 14 times);
 * - `age_confounded`: Omega within age groups (AGE_GROUPS, the CDC WONDER groups: the expected
 *   count summed over them, src/stats/omega.ts omegaStratified) has Omega025 <= 0: the excess is
 *   the age of those who receive both vaccines (infants), not the combination.
 * Each row also carries `omega_age` (`{e111, omega, omega025}`). A row with a caution ranks after
 * every row without one (answered by service.ts).
 */
import { termCategory, TERM_CATEGORY_TEXT } from '../../domain/term-category.js';
import { AGE_GROUPS, ageGroupOf } from '../../domain/report-rules.js';
import type { InteractionRow, OmegaCounts } from '../../domain/interactions.js';
import { vaxTypeName } from '../../domain/vax-type-names.js';
import { omegaStratified } from '../../stats/omega.js';
import type { ReportIndex } from '../cases/index.js';

/** A caution of a triple: its code and a sentence with the figures. */
export interface InteractionNote {
  code: 'non_clinical_term' | 'treatment_term' | 'third_vaccine' | 'copies' | 'age_confounded';
  text: string;
}

/** What a triple carries besides its stored row. */
export interface TripleEvidence {
  cautions: InteractionNote[];
  /** Omega within age groups, or null when the reports are not held (a store without report tables). */
  omega_age: { e111: number; omega: number; omega025: number } | null;
}

/** Event terms that name a treatment or procedure (whole words, any case). */
export const TREATMENT_PATTERN = /\b(?:administration|therapy|intubation|ventilation|resuscitation|transfusion|dialysis|surgery|autopsy)\b/i;
/** Share of the triple's reports naming a third type, and the share of copies, from which a caution applies. */
export const THIRD_VACCINE_SHARE = 0.5;
export const COPIES_SHARE = 0.5;

const pct = (x: number): string => `${Math.round(x * 100)}%`;
const fmt = (x: number): string => String(Math.round(x * 100) / 100);

/** The window's reports as the cautions read them: per report its products, types, events, age group, case and folded narrative. */
interface WindowReports {
  reports: number[];
  products: Map<number, Set<number>>;
  types: Map<number, Set<string>>;
  events: Map<number, Set<number>>;
  /** Reports per product (ids), per type, and N and event counts per age group. */
  byProduct: Map<number, number[]>;
  byType: Map<string, number[]>;
  stratumN: Int32Array;
  stratumEvent: Map<number, Int32Array>;
  stratumOf: Map<number, number>;
}

function push<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Groups the reports of quarters from..to (quarter indexes). */
function windowReports(index: ReportIndex, from: number, to: number): WindowReports {
  const { data } = index;
  const w: WindowReports = {
    reports: [], products: new Map(), types: new Map(), events: new Map(), byProduct: new Map(), byType: new Map(),
    stratumN: new Int32Array(AGE_GROUPS.length), stratumEvent: new Map(), stratumOf: new Map(),
  };
  for (let r = 0; r < data.count; r++) {
    if (data.quarter[r] < from || data.quarter[r] > to) continue;
    const products = new Set<number>(), types = new Set<string>(), events = new Set<number>();
    for (let row = data.vaccines.start[r]; row < data.vaccines.start[r + 1]; row++) {
      if (index.vaccineId[row] >= 0) products.add(index.vaccineId[row]);
      const type = data.vaccines.type.at(row);
      if (type) types.add(type);
    }
    if (products.size === 0) continue;
    for (let row = data.events.start[r]; row < data.events.start[r + 1]; row++) if (index.eventId[row] >= 0) events.add(index.eventId[row]);
    const age = Number.isFinite(data.age[r]) ? data.age[r] : null;
    const stratum = ageGroupOf(age);
    w.reports.push(r);
    w.products.set(r, products);
    w.types.set(r, types);
    w.events.set(r, events);
    w.stratumOf.set(r, stratum);
    w.stratumN[stratum]++;
    for (const p of products) push(w.byProduct, p, r);
    for (const t of types) push(w.byType, t, r);
    for (const e of events) {
      let counts = w.stratumEvent.get(e);
      if (!counts) w.stratumEvent.set(e, (counts = new Int32Array(AGE_GROUPS.length)));
      counts[stratum]++;
    }
  }
  return w;
}

/** Omega within age groups of (v1, v2, e): the cells counted per age group. */
function omegaByAge(w: WindowReports, v1: number, v2: number, e: number): NonNullable<TripleEvidence['omega_age']> {
  const cells = AGE_GROUPS.map((_, s): OmegaCounts => ({ n111: 0, n11: 0, n1_1: 0, n_11: 0, n1: 0, n_1: 0, n__1: w.stratumEvent.get(e)?.[s] ?? 0, N: w.stratumN[s] }));
  const seen = new Set<number>();
  for (const r of [...(w.byProduct.get(v1) ?? []), ...(w.byProduct.get(v2) ?? [])]) {
    if (seen.has(r)) continue;
    seen.add(r);
    const c = cells[w.stratumOf.get(r)!];
    const has1 = w.products.get(r)!.has(v1), has2 = w.products.get(r)!.has(v2), hasE = w.events.get(r)!.has(e);
    if (has1) { c.n1++; if (hasE) c.n1_1++; }
    if (has2) { c.n_1++; if (hasE) c.n_11++; }
    if (has1 && has2) { c.n11++; if (hasE) c.n111++; }
  }
  const result = omegaStratified(cells);
  return { e111: result.e111, omega: result.omega, omega025: result.omega025 };
}

/** The third-vaccine caution of a triple whose reports are `triple`, or null. */
function thirdVaccine(w: WindowReports, row: InteractionRow, v1: number, v2: number, e: number, triple: readonly number[]): InteractionNote | null {
  // The types of the two vaccines themselves: those every report naming only v1 (or v2) carries.
  const typesOf = (v: number): Set<string> => {
    const counts = new Map<string, number>();
    const reports = w.byProduct.get(v) ?? [];
    for (const r of reports) for (const t of w.types.get(r)!) counts.set(t, (counts.get(t) ?? 0) + 1);
    return new Set([...counts].filter(([, n]) => n === reports.length).map(([t]) => t));
  };
  const mine = new Set([...typesOf(v1), ...typesOf(v2)]);
  const shared = new Map<string, number>();
  for (const r of triple) for (const t of w.types.get(r)!) if (!mine.has(t)) shared.set(t, (shared.get(t) ?? 0) + 1);
  let best: { type: string; share: number; typeEvent: number; typeReports: number; bothEvent: number; bothReports: number } | null = null;
  for (const [type, count] of shared) {
    if (count / triple.length < THIRD_VACCINE_SHARE) continue;
    let typeReports = 0, typeEvent = 0, bothReports = 0, bothEvent = 0;
    for (const r of w.byType.get(type) ?? []) {
      const products = w.products.get(r)!;
      if (products.has(v1) || products.has(v2)) continue;
      typeReports++;
      if (w.events.get(r)!.has(e)) typeEvent++;
    }
    for (const r of w.byProduct.get(v1) ?? []) {
      if (!w.products.get(r)!.has(v2) || w.types.get(r)!.has(type)) continue;
      bothReports++;
      if (w.events.get(r)!.has(e)) bothEvent++;
    }
    const typeRate = typeReports > 0 ? typeEvent / typeReports : 0, bothRate = bothReports > 0 ? bothEvent / bothReports : 0;
    if (typeRate > bothRate && (best === null || typeRate > best.typeEvent / best.typeReports)) best = { type, share: count / triple.length, typeEvent, typeReports, bothEvent, bothReports };
  }
  if (!best) return null;
  const long = vaxTypeName(best.type);
  const both = best.bothReports > 0 ? `${pct(best.bothEvent / best.bothReports)} (${best.bothEvent} of ${best.bothReports})` : 'none (no report names both without it)';
  return {
    code: 'third_vaccine',
    text: `${pct(best.share)} of the ${row.n111} reports also name vaccine type ${best.type}${long ? ` (${long})` : ''}; ${row.event} is on ${pct(best.typeEvent / best.typeReports)} (${best.typeEvent} of ${best.typeReports}) of the window's ${best.type} reports naming neither vaccine, against ${both} of the reports naming both without ${best.type}: the third vaccine's event, not the pair's.`,
  };
}

/** The copies caution of a triple's reports, or null. */
function copies(index: ReportIndex, row: InteractionRow, triple: readonly number[]): InteractionNote | null {
  const { data } = index;
  const cases = new Set(triple.map((r) => (Number.isFinite(data.cluster[r]) ? data.cluster[r] : data.id[r]))).size;
  const narratives = data.narrative ? triple.map((r) => data.narrative![r]).filter((t): t is string => typeof t === 'string' && t.trim() !== '') : [];
  const groups = new Map<string, number>();
  for (const t of narratives) {
    const key = t.toLowerCase().replace(/[0-9]+/g, '0').replace(/\s+/g, ' ').trim();
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  const largest = Math.max(0, ...groups.values());
  if (cases <= triple.length * COPIES_SHARE) {
    return { code: 'copies', text: `The ${triple.length} reports are ${cases} distinct case${cases === 1 ? '' : 's'} (suspected duplicates, the build's linkage): copies of a few reports.` };
  }
  if (triple.length >= 3 && narratives.length > 0 && largest >= narratives.length * COPIES_SHARE && largest > 1) {
    return { code: 'copies', text: `${largest} of the ${narratives.length} narratives of the ${row.n111} reports are identical once case, digits and spacing are folded: one report copied.` };
  }
  return null;
}

/**
 * The cautions and the Omega within age groups of each row of one window (`rows`, the window's
 * stored signals) from the reports of quarters from..to held in `index`; keyed as `rowKey`.
 */
export function windowTripleEvidence(rows: readonly InteractionRow[], index: ReportIndex, from: number, to: number): Map<string, TripleEvidence> {
  const w = windowReports(index, from, to);
  const out = new Map<string, TripleEvidence>();
  for (const row of rows) {
    const cautions: InteractionNote[] = [];
    const category = termCategory(row.event);
    if (category !== null) cautions.push({ code: 'non_clinical_term', text: `"${row.event}" is ${TERM_CATEGORY_TEXT[category]} (category ${category}): a reporting pattern of the two products, not a reaction.` });
    else if (TREATMENT_PATTERN.test(row.event)) cautions.push({ code: 'treatment_term', text: `"${row.event}" names a treatment or procedure, not a reaction (the care of another event).` });
    const v1 = index.vaccineIdOf.get(row.vaccine1), v2 = index.vaccineIdOf.get(row.vaccine2), e = index.eventIdOf.get(row.event);
    let omegaAge: TripleEvidence['omega_age'] = null;
    if (v1 !== undefined && v2 !== undefined && e !== undefined) {
      const set2 = new Set(w.byProduct.get(v2) ?? []);
      const triple = (w.byProduct.get(v1) ?? []).filter((r) => set2.has(r) && w.events.get(r)!.has(e));
      const third = thirdVaccine(w, row, v1, v2, e, triple);
      if (third) cautions.push(third);
      const copied = copies(index, row, triple);
      if (copied) cautions.push(copied);
      const byAge = omegaByAge(w, v1, v2, e);
      omegaAge = byAge;
      if (row.omega025 > 0 && byAge.omega025 <= 0) {
        cautions.push({ code: 'age_confounded', text: `Within age groups the expected count is ${fmt(byAge.e111)}, not ${fmt(row.e111)}: Omega ${fmt(byAge.omega)}, Omega025 ${fmt(byAge.omega025)} <= 0. The excess is the age of those who receive both vaccines, not the combination.` });
      }
    }
    out.set(rowKey(row), { cautions, omega_age: omegaAge });
  }
  return out;
}

/** A row's key: its vaccines and event. */
export function rowKey(row: Pick<InteractionRow, 'vaccine1' | 'vaccine2' | 'event'>): string {
  return `${row.vaccine1}\0${row.vaccine2}\0${row.event}`;
}
