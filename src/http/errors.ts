/**
 * The caveat sentence and the Error object of the specification (spec 1, 2.5). One function
 * builds every error body so that every error carries `hypothesis`.
 */

/** Spec 1: every response carries this caveat (header `X-REPORTS-Hypothesis` or a `hypothesis` field). */
export const HYPOTHESIS =
  'Reports are voluntary; counts are reporting counts, not incidence. Disproportionate reporting is a hypothesis, not evidence of causation.';

/** Spec 1 / 4.2: the pipeline's caveat. */
export const REGISTRY_CAVEAT = 'These are registry facts, not efficacy or safety conclusions.';

/** Spec 2.5 Error object. */
export interface ErrorBody {
  error: string;
  hypothesis: string;
  allowed?: string[];
  usage?: string;
}

/**
 * JSON schema of the spec 2.5 Error object, shared by every resource's responses (and so by
 * /openapi.json). `/signals` registers it under `$id: 'Error'`; other resources inline it.
 */
export const ERROR_OBJECT_SCHEMA = {
  type: 'object',
  description: 'Spec 2.5 Error object. Every error body carries `hypothesis`.',
  required: ['error', 'hypothesis'],
  properties: {
    error: { type: 'string', description: 'Message.' },
    hypothesis: { type: 'string', description: 'Voluntary-reporting sentence.' },
    allowed: { type: 'array', items: { type: 'string' }, description: 'Allowed values: the formats for an unknown `format`; also given for an unknown sort, order, parameter, status or phase, and the methods (GET, HEAD) on a 405.' },
    usage: { type: 'string', description: 'How to call the resource.' },
  },
  additionalProperties: false,
} as const;

/** Builds a spec 2.5 Error object. */
export function errorBody(error: string, extra: { allowed?: readonly string[]; usage?: string } = {}): ErrorBody {
  const body: ErrorBody = { error, hypothesis: HYPOTHESIS };
  if (extra.allowed) body.allowed = [...extra.allowed];
  if (extra.usage) body.usage = extra.usage;
  return body;
}

/** An error the HTTP layer turns into a 4xx/5xx answer with an Error object body. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: { allowed?: readonly string[]; usage?: string } = {},
  ) {
    super(message);
  }
}
