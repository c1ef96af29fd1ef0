/**
 * Readable resources beside /openapi.json (spec 4.1 "Other readable resources"):
 * - `/llms.txt`: plain-text API notes whose content is that of the specification, section by
 *   section (1 to 9), in our own words, with our documented choice for each point the spec
 *   leaves "not shown". The field, parameter and header tables are generated from the same
 *   schemas and parameter table as the validator and /openapi.json (src/serve/signals/schemas.ts,
 *   src/serve/signals/parameters.ts, src/serve/pipeline/schema.ts), so the notes cannot drift from them;
 * - `/.well-known/api-catalog`: the machine index, an RFC 9727 API catalog in the RFC 9264
 *   linkset JSON form (`application/linkset+json`).
 */
import { LIMIT_MAX, MIN_QUERY_LENGTH } from '../serve/query/parameters.js';
import { FORMATS, LIMIT_DEFAULT, SIGNALS_PARAMETERS } from '../serve/signals/parameters.js';
import { CLASS_SCHEMA, ERROR_SCHEMA, PAIR_SCHEMA, PROFILE_SCHEMA, QUARTER_SCHEMA, SERIES_SCHEMA, SIGNALS_HEADERS } from '../serve/signals/schemas.js';
import { LIMIT_DEFAULT as PIPELINE_LIMIT_DEFAULT, LIMIT_MAX as PIPELINE_LIMIT_MAX } from '../serve/pipeline/params.js';
import { pipelineJsonSchema, pipelineQuerySchema, studySchema } from '../serve/pipeline/schema.js';
import { HYPOTHESIS, REGISTRY_CAVEAT } from '../serve/query/caveats.js';
import { RESOURCE_NOTES } from './notes-resources.js';

/** RFC 9727 media type of the catalog (linkset JSON with the api-catalog profile). */
export const API_CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

/**
 * The RFC 9727 catalog: one linkset entry per API, anchored at the resource, with its
 * `service-desc` (OpenAPI), `service-doc` (notes) and `status` (health) links.
 * @param origin the configured base (`PUBLIC_BASE_URL`, e.g. `https://signals.example.org`), or '' for
 *   relative links (never the request's Host).
 */
export function apiCatalog(origin: string, anchors: readonly string[]): object {
  const link = (path: string, type: string) => [{ href: `${origin}${path}`, type }];
  const entry = (anchor: string) => ({
    anchor: `${origin}${anchor}`,
    'service-desc': link('/openapi.json', 'application/vnd.oai.openapi+json;version=3.0'),
    'service-doc': link('/llms.txt', 'text/plain'),
    status: link('/readyz', 'application/json'),
  });
  return { linkset: anchors.map(entry) };
}

/** A JSON schema property as the tables read it (a loose view of the `as const` schemas). */
interface PropertySchema {
  type?: string | readonly string[];
  enum?: readonly unknown[];
  items?: PropertySchema & { $ref?: string };
  $ref?: string;
  anyOf?: readonly PropertySchema[];
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

interface ObjectSchema {
  required?: readonly string[];
  properties: Record<string, PropertySchema>;
}

/** Markdown table cell: pipes escaped, line breaks flattened. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

/** The type of a property in words, e.g. `array of Pair`, `string, nullable`. */
function typeOf(p: PropertySchema): { type: string; nullable: boolean } {
  if (p.anyOf) {
    const parts = p.anyOf.map(typeOf);
    return { type: parts.filter((x) => x.type !== 'null').map((x) => x.type).join(' or '), nullable: parts.some((x) => x.type === 'null' || x.nullable) };
  }
  const types = p.type === undefined ? [] : typeof p.type === 'string' ? [p.type] : [...p.type];
  const nullable = types.includes('null');
  if (types.length === 1 && nullable) return { type: 'null', nullable: true };
  let type = types.filter((t) => t !== 'null').join(' or ') || 'any';
  if (type === 'array' && p.items) type = `array of ${p.items.$ref ? p.items.$ref.replace('#', '') : typeOf(p.items).type}`;
  if (type === 'object' && !p.items) type = 'object';
  if (p.enum) type += ` (one of ${p.enum.join(', ')})`;
  return { type, nullable };
}

/** A field table of an object schema: field, type, nullable, required, meaning. */
function fieldTable(schema: ObjectSchema, extra: Record<string, string> = {}): string {
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(schema.properties).map(([name, p]) => {
    const { type, nullable } = typeOf(p);
    const meaning = [p.description ?? '', extra[name] ?? ''].filter((x) => x !== '').join(' ');
    return `| ${name} | ${cell(type)} | ${nullable ? 'yes' : 'no'} | ${required.has(name) ? 'yes' : 'no'} | ${cell(meaning)} |`;
  });
  return ['| Field | Type | Nullable | Required | Meaning |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** The /signals parameter table (spec 4.1) from SIGNALS_PARAMETERS. */
function signalsParameterTable(): string {
  const rows = SIGNALS_PARAMETERS.map((p) => {
    const s = p.schema;
    const bounds: string[] = [];
    if (s.enum) bounds.push(s.enum.join(', '));
    if (s.minimum !== undefined && s.maximum !== undefined) bounds.push(`${s.minimum} to ${s.maximum}`);
    else if (s.minimum !== undefined) bounds.push(`at least ${s.minimum}`);
    return `| ${p.name} | ${s.type} | no | ${s.default ?? 'none'} | ${cell(bounds.join('; ') || '-')} | ${cell(p.description)} |`;
  });
  return ['| Parameter | Type | Required | Default | Allowed / bounds | Meaning |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

/** The /pipeline parameter table (spec 4.2) from its querystring schema. */
function pipelineParameterTable(): string {
  const props = pipelineQuerySchema.properties as Record<string, PropertySchema>;
  const rows = Object.entries(props).map(([name, p]) => {
    const required = name === 'sponsor' ? 'yes for json and brief' : 'no';
    const def = p.default !== undefined ? String(p.default) : name === 'format' ? 'by Accept' : 'none';
    const bounds = [p.enum ? p.enum.join(', ') : '', p.minimum !== undefined ? `at least ${p.minimum}` : ''].filter((x) => x !== '').join('; ');
    return `| ${name} | ${p.type ?? 'string'} | ${required} | ${def} | ${cell(bounds || '-')} | ${cell(p.description ?? '')} |`;
  });
  return ['| Parameter | Type | Required | Default | Allowed / bounds | Meaning |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

/** The 4.1 response-header table from SIGNALS_HEADERS. */
function headerTable(): string {
  const rows = Object.entries(SIGNALS_HEADERS as Record<string, PropertySchema>).map(([name, h]) => {
    const value = h.enum ? ` Value: \`${h.enum.join(', ')}\`.` : '';
    return `| ${name} | ${h.type} | ${cell(`${h.description ?? ''}${value}`.trim())} |`;
  });
  return ['| Header | Type | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** Our notes on Pair fields (section 2.1), appended to the schema descriptions. */
const PAIR_FIELD_NOTES: Record<string, string> = {
  vax_type: 'Rule: the last parenthetical group at the end of the name goes (nested groups together), then a numeral suffix joined by "-" or a space: COVID19 (COVID19 (MODERNA)) -> COVID19, COVID19-2 (COVID19-2 (MODERNA)) -> COVID19, INFLUENZA (SEASONAL) (FLUZONE) -> INFLUENZA (SEASONAL), HPV (GARDASIL 9) -> HPV.',
  peak_in_covid_era: 'Always present in our answers (optional in the spec schema).',
  background_note: 'For COVID-19 vaccines: their own volume dominates the 2021-2022 background. For other vaccines with peak_in_covid_era true: the peak falls when COVID-19 reports shrank the background.',
};

/** Meanings of the pipeline JSON body fields (section 2.6), appended to the schema descriptions. */
const PIPELINE_FIELD_NOTES: Record<string, string> = {
  role: 'The role asked for: lead, collaborator (collaborator and not lead) or any.',
  n_returned: 'Study rows in this response.',
  studies: 'Study rows (below).',
  notes: 'Plain sentences about the answer.',
  caveat: 'The sentence: registry facts, not efficacy or safety conclusions.',
  source: 'The registry the facts come from.',
};

/** Meanings of the study row fields (section 2.6), appended to the schema descriptions. */
const STUDY_FIELD_NOTES: Record<string, string> = {
  title: 'Brief title.',
  lead_sponsor: 'Lead sponsor name.',
  overall_status: 'Registry overall status.',
  phases: 'Registry phases.',
  start_date: 'Start date as the registry gives it.',
  url: 'Registry page of the study.',
};

/** The title, the one-paragraph summary and the other readable resources. */
function notesIntro(): string {
  return `# reporting-signals query service

> Two read-only HTTP services on one host. (A) GET /signals: vaccine x adverse-event pairs from VAERS, the US voluntary vaccine-reporting system, with disproportionality statistics aggregated from quarterly rows. (B) GET /pipeline: clinical-trial registry facts (ClinicalTrials.gov) per sponsor. Signals is the main service; pipeline is described as far as it is specified.

Other readable resources on this host, with the same content as these notes: /openapi.json (OpenAPI 3, version 1.0.0, machine-readable), /.well-known/api-catalog (machine index, RFC 9727 linkset), /llms.txt (these notes), /healthz (liveness), /readyz (readiness), /metrics (Prometheus).`;
}

/** Section 1: what the service does, the caveat sentence, what it does not provide. */
function whatTheServiceDoes(): string {
  return `## 1. What the service does

- GET /signals answers pairs (vaccine name, event term), each with statistics aggregated from its quarterly rows.
- Reports are voluntary; counts are reporting counts, not incidence; disproportionate reporting is a hypothesis, not evidence of causation. Every response carries this caveat: the header X-REPORTS-Hypothesis, or a \`hypothesis\` field in object bodies and error bodies. The sentence is:
  "${HYPOTHESIS}"
- \`vaccine\` and \`drug\` are one parameter: the vaccine name (VAERS VAX_NAME). The stored column is named \`drug\`.
- Not provided by the signals service: regulatory label status, novelty flags, substance or ATC class, PDF output, a trial-registry join, trial identifiers, a trend derivation, \`n_unique\` (distinct report ids), a \`background=no_covid\` refit. \`format=label\`, \`format=pdf\` and \`sort=trend\` are rejected with HTTP 400.
- Pair rows never carry \`ebgm\`, \`prr\`, \`ror\`, \`ic\` or \`ic025\` (nor \`n_unique\`); the quarterly values appear only in \`format=series\`. There is no \`ebgm\` column; \`eb50\` on a quarter is the quarterly posterior median, not an EBGM.
- GET /pipeline answers registry facts about a sponsor's trials. ${REGISTRY_CAVEAT} Adverse-event signals from another reporting system are served elsewhere, not here.`;
}

/** Section 2.1: the Pair field table, with our notes on vax_type, peak_in_covid_era, background_note, and the aggregation rule. */
function pairFields(): string {
  return `### 2.1 Pair

A row of the default JSON array, of \`pairs\` in profile and class bodies, and of CSV (same columns, same order). Quarter strings have the form \`<year>Q<1-4>\`.

${fieldTable(PAIR_SCHEMA as unknown as ObjectSchema, PAIR_FIELD_NOTES)}

Aggregation rule: only quarters with \`n_methods_flagged >= 2\` enter the aggregate (the floor of the interactive application). Fields defined on the full series (eb05_peak_pre2021, eb05_peak_pre2021_quarter, eb05_peak_quarter) read every quarter of the pair; ties of a peak go to the earliest quarter. A pair with no quarter at the floor is not served. Our reading where the spec leaves room: ewma_eb05 is the peak EWMA EB05 over the flagged quarters; quarters_flagged counts flagged quarters whose is_signal_any is true; first_quarter and latest_quarter are over the flagged quarters; emerging means first_quarter is the latest quarter of the data or one of the three before it.`;
}

/** Sections 2.2 to 2.5: the Profile, Series, Quarter, Class and Error object field tables. */
function objectFields(): string {
  return `### 2.2 Profile object (format=profile)

${fieldTable(PROFILE_SCHEMA as unknown as ObjectSchema)}

### 2.3 Series object (format=series)

${fieldTable(SERIES_SCHEMA as unknown as ObjectSchema)}

Quarter object (items of \`quarters\`):

${fieldTable(QUARTER_SCHEMA as unknown as ObjectSchema)}

### 2.4 Class object (format=class)

${fieldTable(CLASS_SCHEMA as unknown as ObjectSchema)}

### 2.5 Error object

Every error answer of both services (400, 404, 405, 431, 502, 503) has this body.

${fieldTable(ERROR_SCHEMA as unknown as ObjectSchema)}`;
}

/** Section 2.6: the pipeline response facts and our JSON body and study row tables. */
function pipelineResponseFields(): string {
  return `### 2.6 Pipeline response

- \`n_studies\` is the registry total for the chosen role (and status and phase); 0 for an unknown sponsor.
- Each study row states which role the sponsor holds: \`role\` is \`lead\` or \`collaborator\`.
- Phase counts and status counts cover only the studies in that response.
- Fields beyond these are not shown in the specification. Our JSON body (format=json):

${fieldTable(pipelineJsonSchema as unknown as ObjectSchema, PIPELINE_FIELD_NOTES)}

Study row:

${fieldTable(studySchema as unknown as ObjectSchema, STUDY_FIELD_NOTES)}`;
}

/** Section 3: states and transitions (none). */
function statesAndTransitions(): string {
  return `## 3. States and transitions

Not shown in the specification. Our service has none: both resources are read-only; the signal store is built offline (\`reporting-signals build\`) and only read while serving, so an answer changes only when a new store is deployed.`;
}

/** Section 4.1, the request: the parameter table, number forms and matching rules of GET /signals. */
function signalsRequest(): string {
  return `### 4.1 GET /signals

No request body; every input is a query parameter; in the query string \`+\` means a space. At least one of \`vaccine\` (or \`drug\`), \`event\`, \`q\` must be present. Values are trimmed; an empty value (\`vaccine=\`) counts as absent.

${signalsParameterTable()}

Numbers (limit, offset, min_eb05, min_n): decimal, trimmed, an optional leading sign (a literal + is sent as %2B; \`-0\` is 0); min_eb05 and min_n may have a fraction and an exponent.

Matching:
- vaccine: an exact vaccine name, an exact vaccine type (e.g. COVID19) or a VAERS VAX_TYPE abbreviation present in the data (e.g. HPV9, TD), all ignoring case; a type or abbreviation expands to every product of that type. A partial name is an unknown vaccine (200, empty list).
- event: a preferred term equal to the value ignoring case selects that term only (\`pain\` -> \`Pain\`); otherwise every term containing the value ignoring case, when the value has at least ${MIN_QUERY_LENGTH} characters.
- q (only when vaccine and event are both omitted; ignored otherwise): union of the pairs of the vaccines it matches (as vaccine, or a name containing it ignoring case, at least ${MIN_QUERY_LENGTH} characters) and of the events it matches (as event). With format=class and no vaccine, q is the vaccine seed.
- min_eb05 and min_n apply after the aggregate and before the total; a pair whose eb05 is null does not pass min_eb05.
- Sorting: eb05 (default), n, latest (latest_quarter); order desc (default) or asc; nulls last in both orders; ties by vaccine then event, so pages are stable.`;
}

/** Section 4.1, the answers: the success table per format and the response-header table of GET /signals. */
function signalsResponses(): string {
  return `Success responses (HTTP 200):

| format | Content type | Body |
|---|---|---|
| json (or omitted) | application/json | Array of Pair (the page). |
| csv | text/csv | RFC 4180: a header row, then the page; the same columns as the JSON rows in the same order; CRLF line ends; null is an empty field. |
| series | application/json | Series object for one pair: the one with the highest peak EB05 when several match. Needs vaccine and event, or q alone. Quarters ascending; ic025 only when the data has it. No match: n_pairs_matched 0, quarters [], empty names, a note that repeats the query. |
| profile | application/json | Profile object; pairs is the page. |
| class | application/json | Class object: every product of the vaccine type of vaccine (or of the q seed); an optional event keeps only that event. |
| brief | text/plain | Markdown: the caveat sentence; a line "Query: vaccine=..., event=..., q=..." with the query filters; a line "Filters: min_eb05 >= X, min_n >= Y" with the thresholds, or "Filters: none (no min_eb05 or min_n threshold)"; "Pairs matched by the query: M; left out by the filters: F; remaining: R" (F = pairs the query matched that the thresholds removed); "This page: rows A to B of R ...; left out by this page: P"; the page as a table; a note that n is not unique reports and n_unique is not in the extract. |

Formats: ${FORMATS.join(', ')}. An unknown vaccine or event yields HTTP 200 with an empty list (empty array, CSV header only, empty pairs, or an empty series).

Response headers on every 200 (all formats):

${headerTable()}

The three X-REPORTS- headers carry a neutral word in place of the reporting system's name. X-REPORTS-Build and X-REPORTS-Hypothesis are on every answer of the signals service, errors included.`;
}

/** Section 4.2: GET /pipeline, its parameter table and our choices. */
function pipelineEndpoint(): string {
  return `### 4.2 GET /pipeline

${REGISTRY_CAVEAT}

${pipelineParameterTable()}

- sponsor is trimmed, then matched against the lead sponsor name (the sponsor's role is chosen by role); a family name that contains it counts; never expanded to other companies.
- Unknown sponsor: HTTP 200 with n_studies 0.
- limit: default ${PIPELINE_LIMIT_DEFAULT}, stops at ${PIPELINE_LIMIT_MAX} (a larger value is served as ${PIPELINE_LIMIT_MAX} and limit_requested says so).
- Without format a browser (Accept preferring text/html) receives HTML and other clients JSON; format=brief is text/plain Markdown.
- Not shown in the specification, our choices: the body of format=json is the table in 2.6; format=html is a page for browsers with the same facts; status takes ALL or comma-separated registry statuses (see the table), phase takes comma-separated registry phases or 1, 2, 3, 4, early1, na.`;
}

/** Section 5: authentication and CORS. */
function authentication(): string {
  return `## 5. Authentication

- GET /signals needs no API key (auth: none). Cross-origin requests are allowed from any origin: Access-Control-Allow-Origin: * on every answer, errors and preflight included; Access-Control-Expose-Headers lists X-Total-Count, X-Limit, X-Offset, X-REPORTS-Through, X-REPORTS-Build, X-REPORTS-Hypothesis, X-REPORTS-Analysis so that a page can read them; preflight allows GET and HEAD.
- GET /pipeline: not shown in the specification; our choice is the same: no key, CORS *.`;
}

/** Section 6: events (none). */
function events(): string {
  return `## 6. Events

Not shown in the specification. The services emit no webhooks, notifications or events.`;
}

/** Section 7, signals: the error table of GET /signals and our choices where the spec says "not shown". */
function signalsErrors(): string {
  return `### Signals

| Condition | Status | Body |
|---|---|---|
| None of vaccine, drug, event, q given | 400 | Error object. |
| vaccine and drug both given and different | 400 | Error object. |
| A query (vaccine, event or q) shorter than ${MIN_QUERY_LENGTH} characters that is neither an exact name nor an abbreviation | 400 | Error object whose error says the query is too short. |
| Unknown format (including label and pdf) | 400 | Error object with error and allowed (the list of formats). |
| sort=trend | 400 | Error object. |
| min_eb05 or min_n not a number | 400 | Error object. |
| min_eb05 below 0 | 400 | Error object. |
| Unknown vaccine or event | 200 | Empty list, never a server error. |

Not shown in the specification, our choices (each a 400 Error object naming the allowed values, with usage):
- min_n below 0: 400.
- limit outside 1..${LIMIT_MAX} or not an integer; offset below 0 or not an integer: 400.
- unknown sort (with allowed) or order (with allowed): 400.
- a parameter given more than once: 400.
- an unknown parameter, including background (no background=no_covid refit): 400 with allowed (the parameter names).
- format=series without vaccine and event, or q alone: 400 with usage; format=class without vaccine or q: 400 with usage.
- A method other than GET or HEAD on /signals or /pipeline: 405 with header Allow: GET, HEAD.
- A request line and headers above 64 KiB: 431 (answered before routing, still with the caveat header and CORS *).
- An unknown path: 404.
- The store missing or unreadable: the server still starts and /signals answers 503.
- If-None-Match matching the ETag of the answer (or *): 304 Not Modified, no body (section 4.6).`;
}

/** Section 7, pipeline: the error table of GET /pipeline and our choices. */
function pipelineErrors(): string {
  return `### Pipeline

| Condition | Status | Body |
|---|---|---|
| Unknown sponsor | 200 | n_studies 0. |
| Upstream registry does not respond | 503 | Error object; contains no trial identifiers. |
| Upstream registry returns an error (or an unexpected body) | 502 | Error object; contains no trial identifiers. |

Not shown in the specification, our choices: sponsor missing with format json or brief is a 400 Error object with usage (format html shows the empty search page); the pipeline error bodies use the Error object fields (error, hypothesis, allowed, usage); an unknown role, status, phase or format is a 400 with allowed; a limit that is not a whole number or is below 1 is a 400 with usage. With format html the errors are the page with an alert and the same status.`;
}

/** Section 8: the limits table and our choices. */
function limits(): string {
  return `## 8. Limits

| Limit | Value | Applies to |
|---|---|---|
| limit default | ${LIMIT_DEFAULT} | signals |
| limit default | ${PIPELINE_LIMIT_DEFAULT} | pipeline |
| limit maximum | ${LIMIT_MAX} | signals |
| limit maximum | ${PIPELINE_LIMIT_MAX} | pipeline |
| offset default | 0 | signals |
| Minimum length of an event substring or query that is not an exact name or abbreviation | ${MIN_QUERY_LENGTH} characters | signals |
| Cache lifetime | Cache-Control: public, max-age=60 | signals 200 responses |
| Request line and headers | 64 KiB (our choice) | both |

- Rate limits: not shown in the specification; none are applied.
- limit outside its bounds: not shown in the specification; signals answers 400 (limit must be 1..${LIMIT_MAX}); pipeline serves a limit above ${PIPELINE_LIMIT_MAX} as ${PIPELINE_LIMIT_MAX} and answers 400 below 1.`;
}

/** Section 9: versioning and the build identifier header. */
function versioning(): string {
  return `## 9. Versioning

- The interface description (/openapi.json) carries version 1.0.0. Paths carry no version segment.
- The deployed build is identified by the header X-REPORTS-Build: \`api-<12 hex>\` (the first 12 hex digits of a SHA-256 over the served program files) and \`src-<revision>\` (the first line of a VERSION file written on the server at deploy; \`dev\` when absent).
- Versioning and deprecation policy: not shown in the specification. Ours: a breaking change would raise the major version of the interface description; there is no deprecation schedule.`;
}

/** Sections joined by one blank line, as Markdown paragraphs. */
function paragraphs(...sections: string[]): string {
  return sections.join('\n\n');
}

/** Plain-text API notes served at /llms.txt: the content of the specification, sections 1 to 9. */
export function apiNotes(): string {
  const sections = [
    notesIntro(),
    whatTheServiceDoes(),
    paragraphs('## 2. Resources and their fields', pairFields(), objectFields(), pipelineResponseFields()),
    statesAndTransitions(),
    paragraphs('## 4. Endpoints', signalsRequest(), signalsResponses(), pipelineEndpoint(), ...RESOURCE_NOTES.map((n) => `### ${n.section} ${n.title}\n\n${n.body()}`)),
    authentication(),
    events(),
    paragraphs('## 7. Errors', 'Every error body is the Error object of 2.5.', signalsErrors(), pipelineErrors()),
    limits(),
    versioning(),
  ];
  return `${paragraphs(...sections)}\n`;
}
