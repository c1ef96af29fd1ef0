/**
 * The analyses' rules, defined once: the build (src/ingest/mining) counts each analysis's reports by
 * them, and the case series (src/serve/cases) restricts `/analyses/NAME/cases` by them, both on the
 * same columns ({@link RuleColumns}).
 *
 * An analysis is a subset of the reports plus a way to compute the expected count E (docs/design.md
 * "Statistics, precisely" -> Analyses):
 * - `all`: every report, crude E = n_vaccine * n_event / N (the specification's tool chain).
 * - `stratified`: every report, E summed over strata (by default sex (F, M, U) x Empirica's
 *   AGE_GROUP_6 x year of RECVDATE; `--strata`, {@link parseStrata}), `E = sum_s n_vaccine,s * n_event,s / N_s` (DuMouchel 1999, section 2;
 *   openEBGM `processRaw(stratify = TRUE)`), as Empirica Signal runs VAERS for FDA and CDC.
 * - the subsets `serious`, `death`, `pediatric`, `adult`, `elderly`, `female`, `male`: only the
 *   reports that satisfy the rule, with stratified E.
 * In every analysis `n` is the report count; MGPS and IC use the analysis's E; PRR and ROR keep
 * the crude 2x2 report table of the analysis's reports (as Empirica and openEBGM do).
 *
 * Items: an analysis counts vaccine x event pairs whose vaccine is, by default, the product
 * (`VAX_NAME`). A modifier after `@` changes that ({@link analysisRule}, the table
 * {@link ANALYSIS_MODIFIERS}): `SUBSET@types` counts VAERS `VAX_TYPE` codes (`FLU3`, `HPV4`) instead, a
 * report once per type however many products of that type it names (the items of Oracle
 * Empirica Signal's VAERS runs for FDA and CDC); `types` is `stratified@types`. `SUBSET@groups`
 * counts event groups instead of preferred terms (src/domain/event-groups.ts: the shipped groups
 * of data/event-groups, or `build --event-groups FILE`), a report once per group however many of
 * the group's terms it carries; `groups` is `stratified@groups`.
 *
 * Ground floor: this file imports nothing outside src/domain.
 */
import { AGE_GROUPS, AGE_GROUPS_6, ageGroup6Of, isRepresentative, isSerious, OUTCOME, SEX_CODES, type RuleColumns } from './report-rules.js';

/** One analysis: its name, words for people and its rule. */
export interface AnalysisDefinition {
  name: string;
  title: string;
  /** One sentence on what the analysis is. */
  description: string;
  /** The subset rule in words, or null for every report. */
  subset: string | null;
  /** The subset rule in the few words of the notes (/llms.txt), or null when the name says it. */
  brief: string | null;
  /** Whether E is stratified (by sex, age group and year of RECVDATE). */
  stratified: boolean;
  /** What the pairs' `vaccine` is: the product (`VAX_NAME`) or the VAERS `VAX_TYPE` code ({@link ItemKind}). */
  items: ItemKind;
  /** True when report `i` of `reports` belongs to the analysis. */
  keeps(reports: RuleColumns, i: number): boolean;
  /** Whether each suspected-duplicate cluster counts once (the `@dedup` modifier); absent: false. */
  deduplicated?: boolean;
}

/**
 * What an analysis counts as the vaccine of a pair: `vaccine`, the product (trimmed `VAX_NAME`,
 * e.g. `INFLUENZA (SEASONAL) (FLUZONE)`); `vax_type_code`, the VAERS `VAX_TYPE` code of each VAX row
 * (e.g. `FLU3`), a report naming the type once however many of its products it names. (Not the
 * spec's `vax_type`, the product name without its suffix: docs/glossary.md.)
 */
export type ItemKind = 'vaccine' | 'vax_type_code' | 'event_group';

/**
 * The item kinds, the default (products) first. `event_group`: the vaccine is the product, and the
 * event an event group (src/domain/event-groups.ts `eventGroupItems`) instead of a preferred term.
 */
export const ITEM_KINDS: readonly ItemKind[] = ['vaccine', 'vax_type_code', 'event_group'];

const STRATIFIED_E = 'E is stratified by sex, age group and year of report (DuMouchel 1999; the strata: stratified_by); n, PRR and ROR use the crude report table.';
const every = (): boolean => true;
const sexIs = (code: string) => (r: RuleColumns, i: number): boolean => SEX_CODES[r.sex[i]] === code;

/** The analyses over products, in their canonical order. Age rules read NaN (unknown) as outside every range. */
const PRODUCT_ANALYSES: ReadonlyArray<Omit<AnalysisDefinition, 'items'>> = [
  { name: 'all', title: 'All reports, crude', subset: null, brief: null, stratified: false, keeps: every,
    description: 'Every report; E = n_vaccine * n_event / N from the whole window (the specification\'s computation).' },
  { name: 'stratified', title: 'All reports, stratified', subset: null, brief: null, stratified: true, keeps: every,
    description: `Every report. ${STRATIFIED_E}` },
  { name: 'serious', title: 'Serious reports', stratified: true,
    subset: 'any of DIED, L_THREAT, HOSPITAL, X_STAY, DISABLE, BIRTH_DEFECT is Y (21 CFR 600.80; ER_VISIT alone is not serious)',
    brief: 'any of DIED, L_THREAT, HOSPITAL, X_STAY, DISABLE, BIRTH_DEFECT is Y; ER_VISIT alone is not serious, 21 CFR 600.80',
    keeps: (r, i) => isSerious(r.outcomes[i]),
    description: `Reports of a death, a life-threatening event, a hospitalisation or its prolongation, a disability or a birth defect. ${STRATIFIED_E}` },
  { name: 'death', title: 'Deaths', stratified: true, subset: 'DIED is Y', brief: 'DIED', keeps: (r, i) => (r.outcomes[i] & OUTCOME.DIED) !== 0,
    description: `Reports of a death. ${STRATIFIED_E}` },
  { name: 'pediatric', title: 'Pediatric (under 18)', stratified: true, subset: 'age < 18 years (AGE_YRS, else CAGE_YR + CAGE_MO; reports without an age are left out)', brief: 'age < 18',
    keeps: (r, i) => r.age[i] < 18, description: `Reports of patients under 18 years. ${STRATIFIED_E}` },
  { name: 'adult', title: 'Adults (18 to 64)', stratified: true, subset: '18 <= age < 65 years (AGE_YRS, else CAGE_YR + CAGE_MO; reports without an age are left out)', brief: '18 to 64',
    keeps: (r, i) => r.age[i] >= 18 && r.age[i] < 65, description: `Reports of patients aged 18 to 64 years. ${STRATIFIED_E}` },
  { name: 'elderly', title: 'Elderly (65 and over)', stratified: true, subset: 'age >= 65 years (AGE_YRS, else CAGE_YR + CAGE_MO; reports without an age are left out)', brief: '65 and over',
    keeps: (r, i) => r.age[i] >= 65, description: `Reports of patients aged 65 years or more. ${STRATIFIED_E}` },
  { name: 'female', title: 'Female', stratified: true, subset: 'SEX is F (reports without F or M are left out)', brief: null,
    keeps: sexIs('F'), description: `Reports of female patients. ${STRATIFIED_E}` },
  { name: 'male', title: 'Male', stratified: true, subset: 'SEX is M (reports without F or M are left out)', brief: null,
    keeps: sexIs('M'), description: `Reports of male patients. ${STRATIFIED_E}` },
];

/** The base analyses (items: products), in their canonical order; a modifier (`@types`) derives others from them ({@link analysisRule}). */
export const ANALYSES: readonly AnalysisDefinition[] = PRODUCT_ANALYSES.map((a) => ({ ...a, items: 'vaccine' }));

/**
 * The analyses of the default store (`serve` without `--store`, built from data/vaers into the
 * cache, src/cache/), the default analysis first: the one list, which `build --analyses default`
 * builds too. An analysis added here joins the default store (and changes its cache key, so the
 * next start rebuilds).
 */
export const DEFAULT_ANALYSES: readonly string[] = ['all', 'stratified', 'serious', 'death', 'pediatric', 'elderly', 'types', 'groups'];

/** The names of ANALYSES, in order. */
export const ANALYSIS_NAMES: readonly string[] = ANALYSES.map((a) => a.name);

/** The analyses that keep a subset of the reports (a subset rule), in order. */
export const SUBSET_ANALYSES: readonly AnalysisDefinition[] = ANALYSES.filter((a) => a.subset !== null);

/**
 * A modifier of an analysis, written after its name with `@` (`stratified@dedup`): it turns the
 * analysis into another one of the same reports. One row per modifier in {@link ANALYSIS_MODIFIERS}.
 */
export interface AnalysisModifier {
  /** Its name after `@`. */
  name: string;
  /** What it does, in one sentence (the notes, the README). */
  description: string;
  /** The analysis `base` with the modifier applied (its name is `base.name@name`). */
  apply(base: AnalysisDefinition): AnalysisDefinition;
}

const DEDUP_RULE = 'one report per suspected-duplicate cluster: its representative (reports in no cluster are kept)';

/** The analysis modifiers, one row each; a name takes each at most once, in any order. */
export const ANALYSIS_MODIFIERS: readonly AnalysisModifier[] = [
  {
    name: 'dedup',
    description: 'Counts each suspected-duplicate cluster once (src/ingest/linkage, after vigiMatch, Noren 2007): only the cluster\'s representative is kept, so a subset analysis keeps a cluster only when its representative satisfies the subset rule.',
    apply: (base) => ({
      ...base, name: `${base.name}@dedup`, title: `${base.title}, duplicates folded`, deduplicated: true,
      description: `${base.description} Each suspected-duplicate cluster counts once (its representative).`,
      subset: base.subset === null ? DEDUP_RULE : `${base.subset}; ${DEDUP_RULE}`,
      brief: base.brief === null ? 'duplicates folded' : `${base.brief}; duplicates folded`,
      keeps: (r, i) => base.keeps(r, i) && isRepresentative(r, i),
    }),
  },
  {
    name: 'types',
    description: 'the items are VAERS VAX_TYPE codes (FLU3, HPV4, ...) instead of products (VAX_NAME): a report counts once per type, however many products of that type it names',
    apply: (base) => ({
      ...base, name: `${base.name}@types`, items: 'vax_type_code', title: `${base.title}, by vaccine type`,
      description: `${base.description} Items: VAERS VAX_TYPE codes (a report counts once per type, however many products of that type it names).`,
    }),
  },
  {
    name: 'groups',
    description: 'the events are event groups (data/event-groups, or build --event-groups FILE) instead of preferred terms: a report counts once per group, however many of the group\'s terms it carries',
    apply: (base) => ({
      ...base, name: `${base.name}@groups`, items: 'event_group', title: `${base.title}, by event group`,
      description: `${base.description} Events: event groups (a report counts once per group, however many of the group's terms it carries; docs/event-groups.md).`,
    }),
  },
];

/** Names that stand for a modified name: `types` is every report, stratified E, by VAERS VAX_TYPE code (Empirica's "VAERS All reports" run). */
export const ANALYSIS_ALIASES: ReadonlyMap<string, string> = new Map([['types', 'stratified@types'], ['groups', 'stratified@groups']]);

/**
 * The analysis names in words, derived from the rules (for the CLI's help and the schemas'
 * descriptions): the base names, the modifiers and the aliases, e.g. `all, stratified, serious,
 * ...; NAME@dedup, NAME@types; types = stratified@types`.
 */
export function analysisNamesText(): string {
  const modifiers = ANALYSIS_MODIFIERS.map((m) => `NAME@${m.name}`).join(', ');
  const aliases = [...ANALYSIS_ALIASES].map(([alias, name]) => `${alias} = ${name}`).join(', ');
  return `${ANALYSIS_NAMES.join(', ')}; ${modifiers}; ${aliases}`;
}



/** Definitions already derived, by name (one object per name, so `keeps` and the definition compare equal between calls: the build shares counts by `keeps`). */
const derived = new Map<string, AnalysisDefinition>();

/**
 * The analysis of that name: a base name (`serious`), an alias (`types`) or a base with
 * modifiers of ANALYSIS_MODIFIERS (`serious@types`, `stratified@dedup`), each at most once;
 * undefined when this program does not know it (a store built by another version may hold one).
 * The definition's `name` is the name as given.
 */
export function analysisRule(name: string): AnalysisDefinition | undefined {
  const parsed = parseAnalysisName(name);
  return parsed.ok ? parsed.analysis : undefined;
}

/**
 * Parses an analysis name (see {@link analysisRule}).
 * @returns the definition, or why the name is unknown (an unknown base or modifier, a modifier named twice), in words naming the choices.
 */
export function parseAnalysisName(name: string): { ok: true; analysis: AnalysisDefinition } | { ok: false; error: string } {
  const known = derived.get(name);
  if (known) return { ok: true, analysis: known };
  const [baseName, ...modifiers] = (ANALYSIS_ALIASES.get(name) ?? name).split('@');
  const base = ANALYSES.find((a) => a.name === baseName);
  const choices = ANALYSIS_MODIFIERS.map((m) => `@${m.name}`).join(', ');
  if (!base) return { ok: false, error: `unknown analysis "${baseName}" (choose from ${ANALYSIS_NAMES.join(', ')}, each optionally with ${choices}; or ${[...ANALYSIS_ALIASES.keys()].join(', ')})` };
  let analysis: AnalysisDefinition = base;
  for (const [i, modifierName] of modifiers.entries()) {
    const modifier = ANALYSIS_MODIFIERS.find((m) => m.name === modifierName);
    if (!modifier) return { ok: false, error: `unknown modifier "@${modifierName}" in "${name}" (choose from ${choices})` };
    if (modifiers.indexOf(modifierName) !== i) return { ok: false, error: `modifier "@${modifierName}" is named twice in "${name}"` };
    if (modifierName === 'groups' && modifiers.includes('types')) return { ok: false, error: `"${name}": @types and @groups cannot be combined (an analysis counts products by event groups, or VAX_TYPE codes by terms)` };
    analysis = modifier.apply(analysis);
  }
  if (analysis !== base || name !== base.name) {
    analysis = { ...analysis, name };
    if (derived.size < 1000) derived.set(name, analysis);
  }
  return { ok: true, analysis };
}

/** Reports kept by an analysis: 1 at index i when `analysis.keeps(reports, i)`, else 0. */
export function subsetMask(analysis: AnalysisDefinition, reports: RuleColumns): Uint8Array {
  const mask = new Uint8Array(reports.count);
  for (let i = 0; i < reports.count; i++) mask[i] = analysis.keeps(reports, i) ? 1 : 0;
  return mask;
}

/**
 * One dimension of the strata: its name in `--strata`, its words, its number of levels for a
 * history whose reports' years run from `firstYear` to `lastYear`, and report i's level.
 */
interface StratumDimension {
  name: string;
  label: string;
  levels(firstYear: number, lastYear: number): number;
  levelOf(reports: RuleColumns, i: number, firstYear: number): number;
}

/**
 * The dimensions `--strata` can name. `age6` is Empirica Signal's `AGE_GROUP_6` (its VAERS
 * release notes: strata Sex x AGE_GROUP_6 x report received year), `age13` the 13 CDC WONDER
 * age groups; both read the report's age (`RuleColumns.age`, NaN: unknown).
 */
const DIMENSIONS: readonly StratumDimension[] = [
  { name: 'year', label: 'year of RECVDATE', levels: (first, last) => last - first + 1, levelOf: (r, i, first) => Math.floor(r.quarter[i] / 4) - first },
  { name: 'age6', label: `age group (AGE_GROUP_6: ${AGE_GROUPS_6.map((g) => g.label).join(', ')})`, levels: () => AGE_GROUPS_6.length, levelOf: (r, i) => ageGroup6Of(r.age[i]) },
  { name: 'age13', label: 'age group (CDC WONDER, 13 groups)', levels: () => AGE_GROUPS.length, levelOf: (r, i) => r.ageGroup[i] },
  { name: 'sex', label: 'sex (F, M, U)', levels: () => SEX_CODES.length, levelOf: (r, i) => r.sex[i] },
];

/** The strata of a build: the named choice (`sex,age6,year`) and its dimensions, outermost first. */
export interface StrataScheme {
  /** Canonical name: the dimensions in the order sex, age, year (as `--strata` takes them). */
  name: string;
  /** What a stratum is made of, in the stratum index's order (outermost first). */
  by: string[];
  dimensions: readonly StratumDimension[];
}

/** The default strata: sex x AGE_GROUP_6 x year of RECVDATE, Empirica Signal's standard VAERS runs. */
export const DEFAULT_STRATA = 'sex,age6,year';

/** The names `--strata` takes, in the canonical order of a scheme's name. */
export const STRATA_DIMENSIONS: readonly string[] = ['sex', 'age6', 'age13', 'year'];

/**
 * Parses a strata choice (`sex,age6,year`, `sex,age13,year`, or any set of `sex`, one of
 * `age6`/`age13`, and `year`, in any order).
 * @throws Error naming the choices on an unknown, repeated or missing dimension, or both age groupings.
 */
export function parseStrata(text: string = DEFAULT_STRATA): StrataScheme {
  const names = text.split(',').map((n) => n.trim()).filter((n) => n !== '');
  const choices = `choose from ${STRATA_DIMENSIONS.join(', ')}, e.g. ${DEFAULT_STRATA} (default) or sex,age13,year`;
  if (names.length === 0) throw new Error(`--strata: no dimension named (${choices})`);
  for (const name of names) {
    if (!STRATA_DIMENSIONS.includes(name)) throw new Error(`--strata: unknown dimension "${name}" (${choices})`);
    if (names.indexOf(name) !== names.lastIndexOf(name)) throw new Error(`--strata: "${name}" is named twice`);
  }
  if (names.includes('age6') && names.includes('age13')) throw new Error('--strata: name one age grouping, age6 or age13');
  const dimensions = DIMENSIONS.filter((d) => names.includes(d.name));
  return { name: STRATA_DIMENSIONS.filter((n) => names.includes(n)).join(','), by: dimensions.map((d) => d.label), dimensions };
}

/** Number of strata of a history whose reports' years run from `firstYear` to `lastYear`. */
export function strataCount(scheme: StrataScheme, firstYear: number, lastYear: number): number {
  return scheme.dimensions.reduce((count, d) => count * d.levels(firstYear, lastYear), 1);
}

/** Stratum index of report i: its levels of the scheme's dimensions, outermost first (0 <= index < strataCount). */
export function stratumOf(scheme: StrataScheme, reports: RuleColumns, i: number, firstYear: number, lastYear: number): number {
  let index = 0;
  for (const d of scheme.dimensions) index = index * d.levels(firstYear, lastYear) + d.levelOf(reports, i, firstYear);
  return index;
}
