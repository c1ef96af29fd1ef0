/**
 * GET /triage and GET /analyses/NAME/triage as one entry (src/http/triage-route.ts only speaks
 * HTTP): the query string parsed (params.ts), `quarter` checked against the analysis's quarters
 * (a 400 naming them), the window read through the store's generation (Generation.triageWindow:
 * at its first request of the generation, one window, then from memory), ranked and rendered
 * (service.ts), with the headers of the answer: X-REPORTS-Analysis always; for a 200
 * Content-Type, Cache-Control public, max-age=60, X-Total-Count (pairs before paging), X-Limit,
 * X-Offset and X-REPORTS-Through (empty when the store has none). The flow runs one way: route,
 * this entry, the generation, the store.
 */
import type { ErrorBody } from '../query/error-object.js';
import { errorBody } from '../query/error-object.js';
import { quarterOutside } from '../query/quarter-range.js';
import type { ResourceAnswer } from '../generation/answer.js';
import type { Generation } from '../generation/generation.js';
import { eventGroupsOfMeta, itemsOfTerms } from '../store/event-groups.js';
import { triageWindowOf } from '../store/triage-rows.js';
import { parseTriageQuery, TRIAGE_USAGE } from './params.js';
import { triageAnswer } from './service.js';

/**
 * The event-group items of each term (held per generation), for the pairs of an analysis of terms
 * in a store with an analysis of event groups; else undefined.
 */
function groupsOfTerms(generation: Generation, analysis: string): ReadonlyMap<string, readonly string[]> | undefined {
  if (generation.meta.analyses?.find((a) => a.name === analysis)?.items === 'event_group') return undefined;
  const byTerm = generation.hold('triage-term-groups', () => itemsOfTerms(eventGroupsOfMeta(generation.meta)));
  return byTerm.size > 0 ? byTerm : undefined;
}

/**
 * The answer of a triage request for `analysis` (a name the generation holds) to the raw query
 * string `query` (without `?`). Rejects with a StoreReadError when the store could not be read.
 */
export async function triageResource(generation: Generation, analysis: string, query: string): Promise<ResourceAnswer> {
  const headers = { 'x-reports-analysis': analysis };
  const params = parseTriageQuery(query);
  if ('error' in params) return { status: 400, headers, body: errorBody(params.error, params) };
  const read = await generation.triageWindow(analysis, params.quarter);
  if (params.quarter !== null) {
    const outside = quarterOutside('quarter', params.quarter, read.range, `the quarters of analysis ${analysis}`, TRIAGE_USAGE);
    if (outside) return { status: 400, headers, body: errorBody(outside.error, outside) };
  }
  const service = await generation.analyses.service(analysis)!;
  const result = triageAnswer(analysis, params, triageWindowOf(read, params.quarter), service.catalog, groupsOfTerms(generation, analysis));
  if (result.status !== 200) return { status: result.status, headers, body: result.body as ErrorBody };
  return {
    status: 200,
    key: `triage\0${analysis}\0${JSON.stringify(params)}`,
    body: Buffer.from(result.body as string),
    headers: {
      ...headers, 'content-type': result.type, 'cache-control': 'public, max-age=60', 'x-total-count': String(result.total),
      'x-limit': String(params.limit), 'x-offset': String(params.offset), 'x-reports-through': generation.meta.reports_through ?? '',
    },
  };
}
