/**
 * The notes of the resources we added to the specification (4.3 analyses, 4.4 case series, 4.5
 * vaccines, 4.6 operations, 4.7 the report view, 4.8 triage), written once: each is both the
 * OpenAPI description of its routes (the route files set `description` from here) and its
 * section of /llms.txt (notes.ts assembles RESOURCE_NOTES with the rest).
 */
import { EXPORT_LIMITS } from '../serve/export/files.js';
import { CASES_PARAMETERS } from '../serve/cases/params.js';
import { ANALYSIS_TABLES, EXPORT_FORMATS, EXPORT_TABLES } from '../serve/export/params.js';
import { REPORT_EVENT_COLUMNS, REPORT_VACCINE_COLUMNS } from '../domain/store-schema.js';
import { EVIDENCE_SCOPE } from '../domain/columns.js';
import { CASES_NOTE } from '../serve/cases/render.js';
import { ANALYSIS_ALIASES, ANALYSIS_MODIFIERS, SUBSET_ANALYSES } from '../domain/analysis-rules.js';
import { JSON_REPORT_COLUMNS, STORED_REPORT_COLUMNS } from '../domain/report-columns.js';
import { TEXT_EXPANSION_MAX_WORDS, TEXT_MAX_CHARS, TEXT_MIN_LETTERS, TEXT_PREFIX_MAX_WORDS, TEXT_USAGE } from '../serve/narratives/query.js';
import { DEADLINE_RETRY_AFTER_SECONDS } from './deadline.js';
import { SNIPPET_CHARS } from '../serve/narratives/snippet.js';
import { LAG_INTERVALS } from '../serve/cases/timing.js';
import { ONSET_MAX_DAYS } from '../domain/report-days.js';
import { ONSET_COMPARATOR_MIN } from '../domain/triage-evidence.js';
import { CAUTIONS } from '../serve/triage/cautions.js';
import { TRIAGE_PARAMETERS } from '../serve/triage/params.js';
import { FOLD_OVERLAP, HEAD_OVERLAP } from '../serve/triage/group.js';
import type { ParameterSpec } from '../serve/query/parameters.js';
import { INTERACTIONS_PARAMETERS, MASKING_PARAMETERS, SERIES_PARAMETERS } from '../serve/interactions/params.js';
import { INTERACTION_CAVEAT, MIN_CO_REPORTS, MIN_TRIPLE_REPORTS } from '../domain/interactions.js';

/** A Markdown table cell (its `|` escaped). */
const cell = (text: string): string => text.replace(/\|/g, '\\|');

/** The rows `| name | type | default | meaning |` of a parameter table. */
function parameterRows(parameters: readonly ParameterSpec[]): string[] {
  return parameters.map((p) => `| ${p.name} | ${p.schema.type} | ${p.schema.default ?? ''} | ${cell(p.description)} |`);
}

/** Section 4.3: the analyses (crude, stratified, subsets of the reports), our addition to the specification. */
export function analysesNotes(): string {
  return `A store holds one or more analyses of the same reports; GET /signals answers the default one (the first built). GET /analyses lists them as JSON: {default, analyses: [{name, title, description, subset, items, stratified_by, strata, default, deduplicated, reports, pairs, rows, windows, reports_through, fits_at_bound, fits_not_converged, windows_skipped, partial_windows, signals}], hypothesis}; strata is the build's named choice of strata for stratified E (sex,age6,year by default: sex x Empirica's AGE_GROUP_6 00_01, 02_05, 06_17, 18_64, 65_above, unknown x year of RECVDATE; sex,age13,year: the 13 CDC WONDER age groups), null for crude E. The age is AGE_YRS, else CAGE_YR + CAGE_MO when AGE_YRS is blank. GET /analyses/{analysis} is one entry plus fits: per fitted window {quarter, alpha1, beta1, alpha2, beta2, p, neg_log_lik, converged, at_bound (the hyperparameters on a bound of openEBGM's box), n_pairs, n_reports}; a fit on a bound shrinks EB05, and small subsets rarely reach EB05 >= 2 (MGPS shrinks harder with little data): read PRR, ROR and IC beside it. GET /analyses/{analysis}/signals serves analysis {analysis} with the whole contract of 4.1 (every parameter, format, header and error); an unknown name is a 404 Error object whose allowed lists the names. Every answer of both paths carries X-REPORTS-Analysis with the analysis's name.

- all: every report; E = n_vaccine * n_event / N over the window (the computation of this specification).
- stratified: every report; E = sum over strata s of n_vaccine,s * n_event,s / N_s, strata = sex (F, M, U) x CDC WONDER age group x year of RECVDATE (DuMouchel 1999; openEBGM processRaw(stratify = TRUE); how FDA and CDC run MGPS on VAERS). Age confounds crude E: infant vaccines share infant events.
- ${SUBSET_ANALYSES.map((a) => (a.brief === null ? a.name : `${a.name} (${a.brief})`)).join(', ')}: only the reports that satisfy the rule, stratified E; reports without the needed age or sex are left out of an age or sex subset.
- Items: items is what a pair's vaccine is, vaccine (the product, VAERS VAX_NAME) or vax_type (the VAERS VAX_TYPE code of each VAX row, e.g. FLU3). The modifier @types makes the items VAX_TYPE codes (e.g. serious@types); ${[...ANALYSIS_ALIASES].map(([alias, name]) => `${alias} is ${name}`).join(', ')}, the items of Oracle Empirica Signal's VAERS runs. In such an analysis a pair's vaccine and vax_type are the code; vaccine (and q) match the code or its long name (FLU3 or INFLUENZA (SEASONAL) TRIVALENT, case-insensitive; q also by a substring of the long name), and its case series (GET /analyses/{analysis}/cases) is every report with a VAX row of the code, whatever its product.
- Event groups (docs/event-groups.md): the modifier @groups makes a pair's event an event group instead of a preferred term (groups is stratified@groups; items event_group). A group is a medical concept named by public vaccine-safety sources (Brighton Collaboration case definitions, CDC's VAERS standard operating procedures, the SPEAC AESI list: seizures, Guillain-Barre syndrome, myocarditis and pericarditis, anaphylaxis, ...), its terms as the VAERS files spell them, each narrow or broad: the event named by the group's label counts the reports carrying any of its narrow terms, LABEL (broad) those carrying any of its terms; a report counts once per group however many of its terms it carries, and N and the strata are those of the term analyses. The shipped groups are data/event-groups/aesi.csv; build --event-groups FILE takes a user's file (CSV group_id,group_label,term,scope,source,version). GET /analyses lists a groups analysis's event_groups: {file, digest (SHA-256), groups: [{id, label, source, version, items, terms: [{term, scope}]}], terms_in_no_report}. Its case series (GET /analyses/{analysis}/cases?event=LABEL) is every report carrying any of the item's terms, with group_terms: [{event, group_id, term, scope, reports}]; in GET /analyses/{analysis}/triage of a term analysis each pair lists event_groups, the group items counting its event.
- In every analysis n is the report count; MGPS (EB05, EB50, EB95) and IC use the analysis's E; PRR and ROR use the crude 2x2 report table of the analysis's reports.
${ANALYSIS_MODIFIERS.map((m) => `- NAME@${m.name} (e.g. stratified@${m.name}), a modifier of any analysis: ${m.description}`).join('\n')} deduplicated says so (true).`;
}

/** The JSON report fields as the notes name them (src/domain/report-columns.ts), in order. */
const REPORT_FIELDS_NOTES = JSON_REPORT_COLUMNS.flatMap((c) => {
  const notes = 'notes' in c.json ? c.json.notes : c.json.name;
  return notes === null ? [] : [notes];
}).join(', ');

/** The timing breakdowns of a case series (src/serve/cases/timing.ts), as the notes list them. */
const TIMING_NOTES = `lag_interval: days from VAX_DATE to RECVDATE: ${LAG_INTERVALS.join(', ')} (unknown: VAX_DATE blank or after RECVDATE); lag: {n, median_days, q1_days, q3_days, share_over_365} of the known lags (quantiles by linear interpolation); onset_comparison (vaccine and event given, not q; else null): {max_days: ${ONSET_MAX_DAYS}, pair and other_vaccines: {n, median_days, days: reports per onset day 0..${ONSET_MAX_DAYS}}, ks: {d, p, method} or null}, the onset days (NUMDAYS when a whole number >= 0, else ONSET_DATE - VAX_DATE) of these reports against the event's reports naming no matched vaccine (same quarters, analysis and text), two-sample Kolmogorov-Smirnov as SciPy ks_2samp (method auto)`;

/** Section 4.4: the case series, our addition to the specification. */
export function casesNotes(): string {
  const rows = parameterRows(CASES_PARAMETERS);
  return `The reports behind a query. ${CASES_NOTE}

| Parameter | Type | Default | Meaning |
|---|---|---|---|
${rows.join('\n')}

- Matching is that of /signals (the same code) over every report's names, not only flagged pairs: with vaccine and event, the reports naming a matched vaccine AND a matched event; with one, the reports naming a match; with q, the reports naming a vaccine or an event q matches. At least one is required; an unknown name is a 200 with n_reports 0.
- JSON body: query (as given), analysis (analysis path only), vaccines and events (matched names; in an analysis of event groups, the group items, and group_terms: [{event, group_id, term, scope, reports}] the selected reports carrying each of their terms), from, to, reports_through, n_reports, duplicates (keep or collapse, as asked), reports_folded (reports folded by collapse, 0 with keep), hypothesis, note, breakdowns (distinct reports by sex; age_group (CDC WONDER); onset_interval of NUMDAYS: 0, 1, 2, 3, 4-7, 8-14, 15-30, 31-60, 61-120, >120, unknown; serious (21 CFR 600.80) and each outcome flag; dose of the matched vaccine; received_year; state and manufacturer (top 20 and the rest); co_vaccines and co_events: the 20 other vaccines and events most named on these reports, since co-administered vaccines share reports; ${TIMING_NOTES}), limit, offset, returned, reports (the page: newest RECVDATE first, then VAERS_ID descending; each with ${REPORT_FIELDS_NOTES}).
- text: full-text search of the six narrative fields (SYMPTOM_TEXT, LAB_DATA, HISTORY, CUR_ILL, OTHER_MEDS, PRIOR_VAX), alone or with vaccine/event/q. ${TEXT_USAGE}. Words are runs of letters and digits; %, _, regex or SQL syntax are plain text; each word or prefix may lie in any field, a phrase within one field. With text, query.text echoes its canonical form and each listed report carries snippet: {field, text (about ${SNIPPET_CHARS} characters around the first match, … marking cut text), matches: [{start, end}] (UTF-16 offsets into text)} or null. Index: an inverted index of the folded words built in memory at load (src/serve/narratives), not a library (minisearch ranks every match and took 470 MB for these texts).
- What a text may cost: every term is required; OR, AND, NOT in capitals as terms of their own and parentheses outside quotes are a 400 saying so (use word* or one query per alternative, -word for NOT). A repeated term counts once (query.text shows the text without repeats). A prefix may expand to at most ${TEXT_PREFIX_MAX_WORDS} distinct words of the narratives, all the prefixes of a text to ${TEXT_EXPANSION_MAX_WORDS}: over either, a 400 naming the prefix and the limit. The text is searched once per query, in worker threads; the case series of a query is cached apart from its page, so offset, limit and format only render a page. A request past its deadline, or when too much work already waits, is a 503 Error object with Retry-After: ${DEADLINE_RETRY_AFTER_SECONDS} (4.6).
- Suspected duplicates: the build links reports judged to be one case (src/ingest/linkage); each listed report's cluster is the VAERS_ID of the report standing for its cluster (itself for that one), null in none. duplicates=collapse counts each cluster once in n_reports, the breakdowns and the listing: the cluster's representative when the series holds it, else its newest report there.
- format=csv: the line listing of the page, RFC 4180, CRLF, one row per report; a narrative column when the store keeps narratives; snippet_field and snippet columns with text.
- Headers: X-Total-Count (n_reports), X-Limit, X-Offset, X-REPORTS-Through, X-REPORTS-Build, X-REPORTS-Hypothesis, Cache-Control public, max-age=60; X-REPORTS-Analysis on the analysis path.
- Errors (400 Error object with the caveat): no filter, vaccine and drug different, a query too short, a quarter not YYYYQn, from after to, limit outside 1..500, offset below 0, an unknown format, duplicates or parameter (with allowed), a repeated parameter; a text over ${TEXT_MAX_CHARS} characters, with fewer than ${TEXT_MIN_LETTERS} letters or digits to find, only exclusions, an unbalanced quote, an operator (OR, AND, NOT, parentheses) or a prefix over its limits (usage: the text rule), or text on a store built without --narratives. A store without report tables: 503.`;
}

/** Section 4.7: the report view, our addition to the specification. */
export function reportsNotes(): string {
  const fields = STORED_REPORT_COLUMNS.filter((c) => c.json === null).map((c) => c.store).join(', ');
  return `One report, whole. JSON by default; a readable HTML page (no scripts) with format=html or when Accept prefers text/html to application/json (a browser), as /pipeline. JSON body: the case-series fields of 4.4 (narrative: SYMPTOM_TEXT), events as [{term, version}] (version: its SYMPTOMVERSIONn, null when absent), the further fields ${fields} (the narratives as written, null when blank or when the store keeps none; dates ISO; current-layout-only fields null in the older layout), analyses (the names of the store's analyses whose subset rule keeps the report), possible_duplicates ([{vaers_id, weight, agreed}]: the reports the build's linkage linked to this one, heaviest Fellegi-Sunter match weight first, with the fields that agreed; the HTML page links each), reports_through, hypothesis. vaers_id not a positive integer, an unknown format or parameter: 400 Error object; no report with that VAERS_ID: 404 Error object. Headers: X-REPORTS-Through, X-REPORTS-Build, X-REPORTS-Hypothesis, Cache-Control public, max-age=60, ETag.`;
}

/** Section 4.5: the vaccine listing (the explorer's front door), our addition to the specification. */
export function vaccinesNotes(): string {
  return `Every vaccine name (VAERS VAX_NAME) of the served store, sorted by name, as JSON: {analysis, reports_through, vaccines: [{vaccine, vax_type, vax_type_codes, vax_type_names, reports, first_quarter, latest_quarter, flagged_pairs, emerging_pairs}], hypothesis}. vax_type is the rule of 2.1; vax_type_codes are the VAERS VAX_TYPE codes seen with the name and vax_type_names their long names in the same order (null for a code the table data/vax-types/vax-types.csv lacks); reports counts the distinct reports naming it, and first_quarter / latest_quarter are the quarters (RECVDATE) of the first and latest of them (all three null for a store without report tables); flagged_pairs counts its pairs that GET /signals serves in the default analysis (named in analysis), and emerging_pairs those of them with emerging true. GET /analyses/{analysis}/vaccines is the same listing with flagged_pairs and emerging_pairs counted in that analysis (X-REPORTS-Analysis names it; an unknown name is a 404 Error object whose allowed lists the names); for an analysis whose items are VAX_TYPE codes (types, SUBSET@types) it lists the codes, each its own vax_type and only vax_type_codes entry, reports counting the reports with a VAX row of the code. Takes no parameters: any parameter is a 400 Error object. Headers as /analyses: Cache-Control public, max-age=60, X-REPORTS-Through, ETag.`;
}

/** Section 4.6: running the service: health, caching, compression, metrics, store swaps. */
export function operationsNotes(): string {
  return `- GET /healthz: 200 {"ok":true} while the process answers. GET /readyz: 200 {ready, reports_through, analyses, store_build, build, load_seconds} once a store is completely loaded (every analysis and the case series); 503 Error object while it loads or when none could be loaded, with analyses {ready, loading, building} (a first store serves its default analysis before the others are loaded; a route of an analysis still building answers 503 with Retry-After); while the default store is prepared the 503 also carries state ("building", "waiting" for another process, or "loading" from the cache: nothing is built), phase, step of steps, percent (null when the phase gives no count) and left_seconds, and while it is built building: true and builder ("this process" or "process PID"), with Retry-After. Both Cache-Control no-store.
- ETag: every 200 of /signals, /analyses/{analysis}/signals, /cases, /analyses/{analysis}/cases, /analyses, /vaccines, /reports/{vaers_id}, /triage and /analyses/{analysis}/triage carries a weak ETag derived from the served program and store (X-REPORTS-Build) and the normalised query, equal on every replica serving the same store; If-None-Match with it (or *) answers 304 Not Modified without a body.
- Content coding: with Accept-Encoding, bodies of 1 KB or more are sent with brotli (br) or gzip (q-values honoured, br preferred); Vary: Accept-Encoding. The cached answers keep their compressed bytes.
- GET /metrics: Prometheus text format: http_requests_total and http_request_duration_seconds by method, route pattern and status; reporting_signals_answer_cache_hits_total / _misses_total by resource; reporting_signals_store_info (store_build, build, reports_through, analyses), store load seconds and loads by result; process metrics.
- Deadline: every request has one (10 s by default; the operator sets REPORTING_SIGNALS_DEADLINE_MS): a request not answered by then is answered 503 with the Error object and Retry-After: ${DEADLINE_RETRY_AFTER_SECONDS}, and its work stops; a request that only waits for the store's load is not cut. A client that closes its connection stops its request's work. GET /cases also answers 503 with Retry-After when too much work already waits.
- The store can be replaced while the service runs (SIGHUP, or serve --watch): the new store is loaded beside the old one, every block of it read once, and swapped in once complete, unless it would drop an analysis or the narratives of the current one (refused; SIGUSR2 forces it); requests in flight finish on the old one, and every answer comes from one store; X-REPORTS-Build and X-REPORTS-Through then change (the 12 hex digits of X-REPORTS-Build cover the program and the store; store_build, a digest of the store's metadata without build time and durations, is the same for builds of the same inputs by the same code).
- A store that cannot be read at request time (a corrupt block) answers 503 with the Error object and Retry-After, and /readyz answers 503 until the store is replaced.
- Every answer carries X-Content-Type-Options: nosniff. CSV answers neutralise formulas: a text cell starting with =, +, -, @, tab or carriage return gets a leading apostrophe (numbers are written as numbers).`;
}

/** Section 4.8: the triage queue, our addition to the specification (parameters and cautions from their tables). */
export function triageNotes(): string {
  const rows = parameterRows(TRIAGE_PARAMETERS);
  const cautions = CAUTIONS.map((c) => `| ${c.code} | ${c.artefact ? 'yes' : 'no'} | ${cell(c.description)} |`);
  return `The pairs one window flags (n_methods_flagged >= 2: the serving floor of /signals), ranked for review by the evidence of their reports (vigiRank, Caster et al. 2014). Triage orders hypotheses; it does not assess causality. Analysis: stratified when the store has it, else the default; an unknown analysis is a 404 Error object. Bad input is a 400 Error object.

| Parameter | Type | Default | Meaning |
|---|---|---|---|
${rows.join('\n')}

JSON body: {analysis, quarter, total, limit, offset, group, hypothesis (the caveat), note, evidence_note (only when the evidence is missing), caution_codes (the table below: code, label, artefact, description), pairs: [{vaccine, vax_type, event, n, n_cases (suspected duplicates once), eb05, prr, ic025, n_methods_flagged, score, reasons, cautions, lag: {median_days, q1_days, q3_days, share_over_365 (vaccination to receipt), from_onset: {n, median_days, q1_days, q3_days} (onset to receipt)}, legal_share, term_category, onset: {n, median_days, vs_other_vaccines: {d, p, n}, vs_other_events: {d, p, n} (n: the comparator's onsets), comparator_min, note}, completeness: {mean, well_documented_share}, serious_share, template_share, co_reported: {vaccine (VAX_TYPE code), share, products: [{vaccine, n}], type_event, type_reports, own_event, own_reports} or null, failure: {share, n, lack_of_effect, disease, late_onset, window_days} or null, related_events: [{event, n, overlap, via, group}], first_flagged, new, event_groups (only in a term analysis of a store with an analysis of event groups: the group items counting the pair's event; also the last CSV column)}]}. reasons and cautions are [{code, text}], the text a sentence with the figures.

- Evidence over the window's reports of the analysis, computed by the build: reporting lag VAX_DATE -> RECVDATE and delay from onset (ONSET_DATE, else VAX_DATE + NUMDAYS) to RECVDATE (median and quartiles type 7); legal_share: share of narratives naming litigation (lawsuit, attorney, lawyer, litigation, plaintiff, legal but not legal guardian; court and claim only in legal context such as court of federal claims or a claim filed: precision 0.98 on a labelled sample of 160 narratives); onset days (NUMDAYS when whole, else ONSET_DATE - VAX_DATE; 0..60) with two-sample KS D and p against the same event after other vaccines and other events after the same vaccine (Van Holle et al. 2012), and each comparator's size; distinct cases; the largest share of narratives on one template; the co-reported vaccine type (VAX_TYPE: every brand of a type together; the event's rate on the reports naming it but not the vaccine's own type against the own type without it); failure reports (a lack-of-effect term, a disease the vaccine prevents, a live vaccine's onset past its 42-day reaction window); the vaccine's latest vaccination date in the window; the spread of the receipt dates; the related events; completeness (vigiGrade adaptation, well documented above 0.8); serious share.
- Reasons: strong_disproportionality (EB05 >= 2), special_interest (a new serious pair with 5+ distinct cases and IC025 > 0 whose event is a narrow term of an event group of the store: its reasons count in full whatever its EB05), new (first flagged within the window's four quarters), serious (share >= 0.5), onset_clustered (both KS p < 0.01 with 3+ onsets, each comparator with at least ${ONSET_COMPARATOR_MIN} onsets; else onset.note says why not), well_documented (share >= 0.5).
- Score: log2(EB05) (0 below 1) + 0.25 per flagging method + w x (1 new + serious share + 1 onset clustered + half the well-documented share), w = min(1, max(0, EB05 - 1)), 1 for special_interest: no credit below EB05 1 otherwise; - 0.5 few_reports, - 0.25 fit_at_bound. Order: pairs with an artefact caution after all others, then score, EB05, n descending.
- group=signal (default): flagged pairs of one vaccine whose reports overlap by at least ${FOLD_OVERLAP} (shared reports / the smaller pair's) are linked, and so are pairs of one vaccine whose events share a narrow event group of the store; walking the queue, each pair not yet placed heads a signal that grows through links to pairs overlapping the head by at least ${HEAD_OVERLAP}; the head lists them in related_events ({event, n, overlap with the head, via: the pair it joined through or null, group: the shared event group}); a head carries the artefact cautions of folded pairs sharing at least half of its reports, and says so; group=none lists every pair.

| Caution | Artefact | Meaning |
|---|---|---|
${cautions.join('\n')}`;
}

/** Section 4.9: co-reported vaccines, Omega interactions and masking (our addition; docs/interactions.md). */
export function interactionsNotes(): string {
  const table = (parameters: readonly ParameterSpec[]): string => `| Parameter | Type | Default | Meaning |\n|---|---|---|---|\n${parameterRows(parameters).join('\n')}`;
  return `${INTERACTION_CAVEAT}

GET /interactions: the vaccine pairs x event of one window (the store's default analysis) whose Omega025 > 0 (Noren et al., Stat Med 2008;27:3057), ranked by Omega025 descending, then n111, the triples with a caution after every other. For reports of the window: n111 name both vaccines and the event, n11 (n11.) both vaccines, n1_1 (n1.1) vaccine1 and the event, n_11 (n.11) vaccine2 and the event, n1, n_1 each vaccine, n__1 the event, N all; f_ij the rate of the event among the reports with vaccine1 = i and vaccine2 = j, o_ij its odds, g11 = 1 - 1/(max(o00, o10) + max(o00, o01) - o00 + 1), e111 = g11 * n11, omega = log2((n111 + 0.5)/(e111 + 0.5)), omega025 and omega975 the log2 of the 2.5% and 97.5% quantiles of Gamma(n111 + 0.5, rate e111 + 0.5). Computed by the build for the pairs co-reported on at least ${MIN_CO_REPORTS} reports of the window, stored for the triples on at least ${MIN_TRIPLE_REPORTS} (fewer is never a signal). JSON: {analysis, quarter, total, limit, offset, min_co_reports, min_triple_reports, hypothesis, caveat, interactions: [{vaccine1, vaccine2, event, n111, n11, n1_1, n_11, n1, n_1, n__1, N, g11, e111, omega, omega025, omega975, cautions, omega_age}]}. With the reports held: cautions [{code, text}]: non_clinical_term (a medication error, product issue, ... term), treatment_term (a treatment or procedure), third_vaccine (a third vaccine type on at least half of the triple's reports with which the event is more frequent), copies (at most half as many distinct cases as reports, or half the narratives identical once folded), age_confounded (Omega025 within age groups <= 0); omega_age {e111, omega, omega025}: the expected count summed over the CDC WONDER age groups.

${table(INTERACTIONS_PARAMETERS)}

GET /interactions/series: one triple in every window from the first to the last stored one: {analysis, vaccine1, vaccine2, event, min_co_reports, min_triple_reports, hypothesis, caveat, note, windows_stored, series: [{quarter, stored, signal, ...the fields above}]} (stored false: below either bound).

${table(SERIES_PARAMETERS)}

GET /masking: for a pair (vaccine, event) in a window of the default analysis, counted from the store's reports: {analysis, quarter, vaccine, event, n, n_vaccine, n_event, N, prr, eb05, hypothesis, caveat, note, maskers_total, maskers: [{vaccine, reports, with_vaccine, with_event, with_pair, prr_without, masking_ratio}], unmasked: {without, n, n_vaccine, n_event, N, prr, eb05} or null}. masking_ratio = the pair's PRR on the reports that do not name the masker / its PRR on every report (Maignen et al., Pharmacoepidemiol Drug Saf 2014;23:195); above 1, the masker's reports hide part of the pair's disproportionality. unmasked: the pair without the reports of the vaccine named by without (default: the top masker); its EB05 uses the window's fitted prior (not refitted) and the crude E of the remaining reports.

${table(MASKING_PARAMETERS)}

Errors: a 400 Error object for an unknown or repeated parameter, a missing required one, a quarter not YYYYQn or outside the stored windows, an unknown vaccine or event name (names are exact), the same vaccine twice, limit outside 1..500, offset below 0. 503: no store yet, a store without the interactions table (built before it) or, for /masking, without report tables. Headers: X-REPORTS-Analysis, X-REPORTS-Through, X-Total-Count (/interactions), Cache-Control public, max-age=60, ETag.`;
}


/** GET /export and GET /analyses/{analysis}/export (issue 36: the whole tables for analysts). */
export function exportNotes(): string {
  return `Whole tables as one file each, for pandas, R or DuckDB: table= ${EXPORT_TABLES.join(', ')}; format= ${EXPORT_FORMATS.join(' or ')} (default csv). /analyses/{analysis}/export serves ${ANALYSIS_TABLES.join(' and ')} of that analysis; /export the default analysis's and the report tables. The file is streamed with Content-Length and Content-Disposition: attachment; the caveat is in X-REPORTS-Hypothesis. Bad input is a 400 Error object with allowed; an unknown analysis a 404.

- pairs: every pair the analysis serves, the /signals fields (spec 2.1): n sums the quarterly n over the flagged windows, which overlap (not distinct reports).
- quarterly: one row per pair and 4-quarter window (quarter = its last quarter), the store's columns: analysis, drug (the vaccine), event, quarter, n (reports in the window), expected, the MGPS, PRR, ROR and IC statistics with their bounds, n_methods_flagged, is_signal_any, ewma_eb05 and the triage evidence (${EVIDENCE_SCOPE}).
- reports (one row per report, with its narratives when the store keeps them), report_vaccines (one row per report and vaccine: ${REPORT_VACCINE_COLUMNS.map(([name]) => name).join(', ')}), report_events (one row per report and event: ${REPORT_EVENT_COLUMNS.map(([name]) => name).join(', ')}): long format, joined on vaers_id.
- CSV: a header line, comma-separated, quotes where needed, empty cells for null, true/false; a text cell starting with =, +, -, @, a tab or CR gets a leading ' (as every CSV of the service). Parquet: zstd, typed columns.
- Each file is written once per served store and then served again; HEAD answers the headers without writing it (Content-Length once written). At most ${EXPORT_LIMITS.exports} exports at once: past it 503 with Retry-After. A client that leaves before its file is written stops the writing; one that stops reading for ${EXPORT_LIMITS.idleSeconds} s is disconnected.`;
}

/** The resource notes in section order: /llms.txt prints `### section title` and the body; the routes use the body as their OpenAPI description. */
export const RESOURCE_NOTES: ReadonlyArray<{ section: string; title: string; body: () => string }> = [
  { section: '4.3', title: 'GET /analyses and GET /analyses/{analysis}/signals (our addition)', body: analysesNotes },
  { section: '4.4', title: 'GET /cases and GET /analyses/{analysis}/cases (our addition)', body: casesNotes },
  { section: '4.5', title: 'GET /vaccines and GET /analyses/{analysis}/vaccines (our addition)', body: vaccinesNotes },
  { section: '4.6', title: 'Health, revalidation, compression, metrics (our addition)', body: operationsNotes },
  { section: '4.7', title: 'GET /reports/{vaers_id} (our addition)', body: reportsNotes },
  { section: '4.8', title: 'GET /triage and GET /analyses/{analysis}/triage (our addition)', body: triageNotes },
  { section: '4.9', title: 'GET /interactions, GET /interactions/series and GET /masking (our addition)', body: interactionsNotes },
  { section: '4.10', title: 'GET /export and GET /analyses/{analysis}/export (our addition)', body: exportNotes },
];
