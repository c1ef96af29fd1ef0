/**
 * The OpenAPI schemas of GET /triage and GET /analyses/NAME/triage: the query parameters (from
 * params.ts TRIAGE_PARAMETERS), the answer with its pair object (the caution codes from the one
 * table of cautions.ts), and the error answers. Fastify's validation is off for these routes
 * (parseTriageQuery validates); the schemas document.
 */
import { ERROR_OBJECT_SCHEMA } from '../query/error-object.js';
import { answerHeaders } from '../query/responses.js';
import { CAUTION_CODES } from './cautions.js';
import { TRIAGE_PARAMETERS } from './params.js';

/** The query string schema. */
export const TRIAGE_QUERY_SCHEMA = {
  type: 'object',
  properties: Object.fromEntries(TRIAGE_PARAMETERS.map((p) => [p.name, { ...p.schema, description: p.description, ...(p.name === 'quarter' ? { pattern: '^[0-9]{4}Q[1-4]$' } : {}) }])),
} as const;

const NOTE = { type: 'object', required: ['code', 'text'], properties: { code: { type: 'string' }, text: { type: 'string', description: 'A sentence with the figures to check.' } } } as const;
const ONSET_TEST = { type: 'object', properties: { d: { type: 'number', nullable: true }, p: { type: 'number', nullable: true }, n: { type: 'integer', nullable: true, description: 'Onsets of the comparator sample.' } } } as const;
const NUMBER = { type: 'number', nullable: true } as const;

/** One pair of the queue. */
const PAIR_SCHEMA = {
  type: 'object',
  description: 'A flagged pair of the window with its evidence, reasons (why look) and cautions (why doubt).',
  properties: {
    vaccine: { type: 'string' }, vax_type: { type: 'string' }, event: { type: 'string' }, n: { type: 'integer' },
    n_cases: { type: 'integer', nullable: true, description: 'Distinct cases: each suspected-duplicate cluster once.' },
    eb05: NUMBER, prr: NUMBER, ic025: NUMBER, n_methods_flagged: { type: 'integer' }, score: { type: 'number' },
    reasons: { type: 'array', items: { ...NOTE, properties: { ...NOTE.properties, code: { type: 'string', enum: ['strong_disproportionality', 'special_interest', 'new', 'serious', 'onset_clustered', 'well_documented'] } } } },
    cautions: { type: 'array', items: { ...NOTE, properties: { ...NOTE.properties, code: { type: 'string', enum: CAUTION_CODES } } } },
    lag: { type: 'object', description: 'Days from vaccination to receipt, and from onset to receipt (`from_onset`, the reporting delay late_reports reads).', properties: {
      median_days: NUMBER, q1_days: NUMBER, q3_days: NUMBER, share_over_365: NUMBER,
      from_onset: { type: 'object', properties: { n: { type: 'integer', nullable: true }, median_days: NUMBER, q1_days: NUMBER, q3_days: NUMBER } },
    } },
    legal_share: NUMBER, term_category: { type: 'string', nullable: true },
    onset: { type: 'object', properties: {
      n: { type: 'integer', nullable: true }, median_days: NUMBER, vs_other_vaccines: ONSET_TEST, vs_other_events: ONSET_TEST,
      comparator_min: { type: 'integer', description: 'The fewest comparator onsets an onset reason needs.' },
      note: { type: 'string', nullable: true, description: 'Why the onset tests give no reason (a comparator under comparator_min onsets).' },
    } },
    completeness: { type: 'object', properties: { mean: NUMBER, well_documented_share: NUMBER } },
    serious_share: NUMBER, template_share: NUMBER,
    co_reported: { type: 'object', nullable: true, description: 'The co-reported vaccine type (VAX_TYPE code) on at least half of the pair\'s reports, with which the event is more frequent without the pair\'s vaccine than with the vaccine without it.', properties: {
      vaccine: { type: 'string', description: 'The VAX_TYPE code.' }, share: { type: 'number' },
      products: { type: 'array', items: { type: 'object', properties: { vaccine: { type: 'string' }, n: { type: 'integer' } } }, description: 'The products of that type named on the pair\'s reports.' },
      type_event: { type: 'integer', nullable: true, description: 'Reports of the window naming the type and the event, not the pair\'s vaccine.' },
      type_reports: { type: 'integer', nullable: true, description: 'Reports of the window naming the type, not the pair\'s vaccine.' },
      own_event: { type: 'integer', nullable: true, description: 'The pair\'s reports not naming the type.' },
      own_reports: { type: 'integer', nullable: true, description: 'Reports of the window naming the pair\'s vaccine, not the type.' },
    } },
    failure: { type: 'object', nullable: true, description: 'Failure reports among the pair\'s reports (null: a store built without the per-report counts): the share, the count and how many name a lack-of-effect term, a disease the vaccine prevents, or have onset past a live vaccine\'s reaction window.', properties: {
      share: { type: 'number' }, n: { type: 'integer' }, lack_of_effect: { type: 'integer' }, disease: { type: 'integer' }, late_onset: { type: 'integer' },
      window_days: { type: 'integer', nullable: true, description: 'The live vaccine\'s reaction window in days, else null.' },
    } },
    event_groups: { type: 'array', items: { type: 'string' }, description: 'Only when the store has an analysis of event groups (`groups`) and this analysis counts preferred terms: the group items whose terms include this pair\'s event (their pairs: /analyses/groups/triage?event=ITEM; docs/event-groups.md).' },
    related_events: { type: 'array', description: 'With group=signal: the pairs folded under this one.', items: { type: 'object', properties: { event: { type: 'string' }, n: { type: 'integer' }, overlap: { type: 'number' }, via: { type: 'string', nullable: true }, group: { type: 'string', description: 'The narrow event group shared with the head, when the pair joined by it.' } } } },
    first_flagged: { type: 'string' }, new: { type: 'boolean' },
  },
} as const;

/** The table of caution codes as served (`caution_codes`). */
const CAUTION_TABLE_SCHEMA = {
  type: 'array', description: 'The caution codes: code, label, artefact (ranks after the pairs without one) and description.',
  items: { type: 'object', required: ['code', 'label', 'artefact', 'description'], properties: { code: { type: 'string', enum: CAUTION_CODES }, label: { type: 'string' }, artefact: { type: 'boolean' }, description: { type: 'string' } } },
} as const;

/** The answers. */
export const TRIAGE_RESPONSES = {
  200: {
    description: 'The window\'s flagged pairs in triage order (pairs with an artefact caution after the others), with analysis, quarter, total, limit, offset, group, hypothesis (the caveat), note and the table of caution codes.',
    headers: answerHeaders('Rows of the queue before limit and offset (after the filters, `caution` and `group`).'),
    content: {
      'application/json': {
        schema: {
          type: 'object', required: ['analysis', 'quarter', 'total', 'limit', 'offset', 'group', 'hypothesis', 'note', 'caution_codes', 'pairs'],
          properties: {
            analysis: { type: 'string' }, quarter: { type: 'string', nullable: true, description: 'The window (its last quarter); null when the analysis has no row.' },
            total: { type: 'integer', minimum: 0 }, limit: { type: 'integer' }, offset: { type: 'integer' }, group: { type: 'string', enum: ['signal', 'none'] },
            hypothesis: { type: 'string' }, note: { type: 'string' }, evidence_note: { type: 'string', description: 'Why evidence fields are null (no evidence columns, or no narratives).' },
            caution_codes: CAUTION_TABLE_SCHEMA, pairs: { type: 'array', items: PAIR_SCHEMA },
          },
          additionalProperties: false,
        },
      },
      'text/csv': { schema: { type: 'string' } },
    },
  },
  400: { description: 'Bad parameter (spec 2.5 Error object).', content: { 'application/json': { schema: ERROR_OBJECT_SCHEMA } } },
  404: { description: 'No such analysis.', content: { 'application/json': { schema: ERROR_OBJECT_SCHEMA } } },
  503: { description: 'No store loaded yet.', content: { 'application/json': { schema: ERROR_OBJECT_SCHEMA } } },
} as const;

/** The routes' summary. */
export const TRIAGE_SUMMARY = 'Triage queue: the flagged pairs of one window ranked by the evidence of their reports (reporting delay, legal wording, term category, co-reported vaccines, time to onset, completeness, seriousness, novelty), one row per signal; orders hypotheses, does not assess causality';
