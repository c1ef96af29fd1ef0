/**
 * One renderer per `/pipeline` format (spec 4.2: json, brief as text/plain Markdown, html), in
 * a registry keyed by the format enum (`FORMAT_VALUES`, also the 400 answer's `allowed` list).
 * Every renderer has one signature: it gets the request's form values and the result or the
 * error, and returns a content type, a body and the headers of that format. Every format
 * states REGISTRY_CAVEAT (spec 1: registry facts, not efficacy or safety conclusions).
 *
 * Errors: json and brief answer the spec 2.5 Error object (JSON); html answers the page with
 * an alert (html.ts).
 */
import { REGISTRY_CAVEAT } from '../query/caveats.js';
import { errorBody } from '../query/error-object.js';
import { renderBrief } from './brief.js';
import { HTML_CSP, renderHtml } from './html.js';
import { SPONSOR_REQUIRED, STATUS_ALL, type PipelineFormat, type PipelineQuery } from './params.js';
import type { PipelineResult, PipelineStudy } from './result.js';
import type { Rendered, Renderer } from './render-context.js';
import { resultNotes, SOURCE_NAME } from './wording.js';


/** JSON body of a 200 answer (format=json). Field meanings: docs/api.md "API: /pipeline"; spec 2.6. */
export interface PipelineJson {
  sponsor: string;
  role: PipelineQuery['role'];
  status: string[] | 'ALL';
  phase: string[] | null;
  limit: number;
  limit_requested: number | null;
  n_studies: number;
  n_returned: number;
  n_rejected: number;
  phase_counts: Record<string, number>;
  status_counts: Record<string, number>;
  studies: PipelineStudy[];
  notes: string[];
  caveat: string;
  source: string;
}

/** The format=json body as an object (schema: pipelineJsonSchema in schema.ts). */
export function renderJson(result: PipelineResult): PipelineJson {
  const q = result.query;
  return {
    sponsor: q.sponsor ?? '',
    role: q.role,
    status: q.status === STATUS_ALL ? STATUS_ALL : [...q.status],
    phase: q.phase === null ? null : [...q.phase],
    limit: q.limit,
    limit_requested: q.limitRequested,
    n_studies: result.n_studies,
    n_returned: result.studies.length,
    n_rejected: result.n_rejected,
    phase_counts: result.phase_counts,
    status_counts: result.status_counts,
    studies: result.studies,
    notes: resultNotes(result),
    caveat: REGISTRY_CAVEAT,
    source: SOURCE_NAME,
  };
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A renderer of a format whose errors are the spec 2.5 Error object: `render` for a result,
 * the Error object (JSON) for an error or for no result (SPONSOR_REQUIRED).
 */
function withJsonErrors(render: (result: PipelineResult) => Rendered): Renderer {
  return ({ result, error }) => {
    if (result && !error) return render(result);
    const err = error ?? SPONSOR_REQUIRED;
    return { contentType: JSON_TYPE, body: JSON.stringify(errorBody(err.error, err)) };
  };
}

/** The registry: keys are exactly the spec 4.2 format enum (FORMAT_VALUES). */
export const RENDERERS: Record<PipelineFormat, Renderer> = {
  json: withJsonErrors((result) => ({ contentType: JSON_TYPE, body: JSON.stringify(renderJson(result)) })),
  brief: withJsonErrors((result) => ({ contentType: 'text/plain; charset=utf-8', body: renderBrief(result) })),
  html: (input) => ({ contentType: 'text/html; charset=utf-8', body: renderHtml(input), headers: { 'content-security-policy': HTML_CSP } }),
};
