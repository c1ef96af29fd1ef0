/**
 * The Error object of the specification (spec 2.5): its type, its JSON schema, the one builder
 * of every error body (so that every error carries `hypothesis`), and the parameter-error value
 * that the parameter parsers of every resource return (errors as values, never thrown).
 */
import { HYPOTHESIS } from './caveats.js';

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

/**
 * A 400 answer as a value: the fields of the spec 2.5 Error object besides `hypothesis`
 * (a message, plus the accepted values in `allowed` or a call line in `usage`). The parameter
 * parsers of `/signals` and `/pipeline` return it; `errorBody` turns it into the body.
 */
export interface ParamError {
  error: string;
  allowed?: readonly string[];
  usage?: string;
}

/** Builds a spec 2.5 Error object. */
export function errorBody(error: string, extra: { allowed?: readonly string[]; usage?: string } = {}): ErrorBody {
  const body: ErrorBody = { error, hypothesis: HYPOTHESIS };
  if (extra.allowed) body.allowed = [...extra.allowed];
  if (extra.usage) body.usage = extra.usage;
  return body;
}
