/**
 * Readable resources beside /openapi.json (spec 4.1 "Other readable resources"):
 * - `/llms.txt`: plain-text API notes, the content of the specification, generated from the
 *   same parameter table and format registry as the validator;
 * - `/.well-known/api-catalog`: the machine index, an RFC 9727 API catalog in the RFC 9264
 *   linkset JSON form (`application/linkset+json`).
 */
import { FORMATS, SIGNALS_PARAMETERS } from '../signals/parameters.js';
import { HYPOTHESIS, REGISTRY_CAVEAT } from './errors.js';

/** RFC 9727 media type of the catalog (linkset JSON with the api-catalog profile). */
export const API_CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

/**
 * The RFC 9727 catalog: one linkset entry per API, anchored at the resource, with its
 * `service-desc` (OpenAPI), `service-doc` (notes) and `status` (health) links.
 * @param origin `http://host:port` of the request, or '' for relative links.
 */
export function apiCatalog(origin: string): object {
  const link = (path: string, type: string) => [{ href: `${origin}${path}`, type }];
  const entry = (anchor: string) => ({
    anchor: `${origin}${anchor}`,
    'service-desc': link('/openapi.json', 'application/vnd.oai.openapi+json;version=3.0'),
    'service-doc': link('/llms.txt', 'text/plain'),
    status: link('/healthz', 'application/json'),
  });
  return { linkset: [entry('/signals'), entry('/pipeline')] };
}

/** Plain-text API notes served at /llms.txt. */
export function apiNotes(): string {
  const params = SIGNALS_PARAMETERS.map((p) => {
    const s = p.schema;
    const bits: string[] = [s.type];
    if (s.enum) bits.push(`one of ${s.enum.join(', ')}`);
    if (s.minimum !== undefined) bits.push(`min ${s.minimum}`);
    if (s.maximum !== undefined) bits.push(`max ${s.maximum}`);
    if (s.default !== undefined) bits.push(`default ${s.default}`);
    return `- ${p.name} (${bits.join('; ')}): ${p.description}`;
  });
  return `# reporting-signals query service

> Two read-only HTTP services. /signals: vaccine x adverse-event pairs from VAERS, the US voluntary vaccine-reporting system, with disproportionality statistics (MGPS EB05, PRR, ROR, IC) aggregated from quarterly rows. /pipeline: clinical-trial registry facts per sponsor.

${HYPOTHESIS} Every response carries this caveat (header X-REPORTS-Hypothesis, or a hypothesis field in object and error bodies).

Machine-readable description: /openapi.json (OpenAPI 3, version 1.0.0). Machine index: /.well-known/api-catalog (RFC 9727). Auth: none. CORS: any origin (*), on every answer.

## GET /signals

No request body; all inputs are query parameters; in the query string + means a space. At least one of vaccine (or drug), event, q must be present.

${params.join('\n')}

Formats (${FORMATS.join(', ')}):
- json (default): array of Pair (application/json).
- csv: same columns as the JSON rows, current page, header row, RFC 4180 (text/csv).
- series: one pair's quarters ascending (quarter, n, eb05, eb50, eb95, prr, ror, ic, ic025 only when the data has it, n_methods_flagged, is_signal_any); the pair with the highest peak EB05 when several match; needs vaccine and event, or q. No match: n_pairs_matched 0 and quarters [].
- profile: {query, kind (vaccine|event|pair), reports_through, n_pairs, returned, hypothesis, pairs}.
- class: {vax_type[], vaccines[] (every product of the type of vaccine or of the q seed), event, reports_through, n_pairs, hypothesis, pairs}; optional event keeps only that event.
- brief: text/plain Markdown: hypothesis, filters applied (Filters: none when none), rows the filters left out, rows the page left out, and a note that n is not unique reports and n_unique is not in the extract.

Pair fields (spec 2.1): vaccine, drug, vax_name (all the VAX_NAME), vax_type, event, n (sum of flagged quarterly counts; windows overlap, not unique reports), eb05 (peak quarterly EB05 among quarters with n_methods_flagged >= 2), eb05_peak_pre2021 and eb05_peak_pre2021_quarter (full series, before 2021Q1), eb05_peak_quarter (earliest quarter of the full-series maximum), peak_in_covid_era, background_note (COVID-19 vaccines; other vaccines peaking 2021Q1-2022Q4; else null), ewma_eb05 (peak EWMA over flagged quarters), n_methods_max, quarters_flagged (flagged quarters with is_signal_any), first_quarter, latest_quarter (over flagged quarters), emerging (first_quarter within the last four quarters of the data). Pair rows never carry ebgm, prr, ror, ic, ic025 or n_unique.

Matching: vaccine is an exact vaccine name, vaccine type (e.g. COVID19) or VAERS VAX_TYPE abbreviation (e.g. HPV9, TD), case-insensitive; a type or abbreviation expands to every product. event is an exact preferred term or a case-insensitive substring of at least 3 characters. q (when vaccine and event are omitted) is the union of vaccine matches (also substrings of vaccine names) and event matches. min_eb05 and min_n apply after the aggregate and before the total; a null eb05 does not pass min_eb05. Sort eb05 (default), n or latest; order desc (default) or asc; nulls last in both orders; ties by vaccine then event.

Headers on every 200: X-Total-Count, X-Limit, X-Offset, X-REPORTS-Through, X-REPORTS-Build (api-<12 hex> src-<deployed revision>), X-REPORTS-Hypothesis, Cache-Control: public, max-age=60.

Errors (Error object: error, hypothesis, allowed?, usage?):
- none of vaccine, drug, event, q: 400.
- vaccine and drug both given and different: 400.
- a query shorter than 3 characters that is neither an exact name nor an abbreviation: 400, "too short".
- unknown format (including label and pdf): 400 with allowed.
- sort=trend: 400.
- min_eb05 or min_n not a number; min_eb05 below 0: 400.
- unknown vaccine or event: 200 with an empty list, never a server error.
- not shown in the specification, our choices (400 naming the allowed values): limit outside 1..500 or not an integer; offset below 0 or not an integer; min_n below 0; unknown sort or order; a parameter given more than once; an unknown parameter (background=no_covid is not provided). An empty value counts as absent.
- a missing store: 503.
- unknown path: 404 Error object.

Not provided: regulatory label status, novelty flags, substance or ATC class, PDF output, a trial-registry join, trial identifiers, a trend derivation, n_unique, a background=no_covid refit.

## GET /pipeline

${REGISTRY_CAVEAT} Parameters: sponsor (required for json and brief; trimmed, matched against the lead sponsor name), role (lead | collaborator | any; default lead), status (none = ongoing; ALL), phase, limit (default 50, max 200), format (json | brief | html). Unknown sponsor: 200 with n_studies 0. Upstream registry not responding: 503; upstream error: 502.

## Versioning

Interface version 1.0.0; paths carry no version segment; the deployed build is in header X-REPORTS-Build.
`;
}
