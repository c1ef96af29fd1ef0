/**
 * What a resource's service returns to src/http (one shape for every store-backed resource): a
 * 200 with its body bytes, headers and the key of its ETag (src/http/answer.ts adds the ETag,
 * 304 and content coding), or an error status with the Error object (spec 2.5) and its headers.
 * And the case series of a generation, or the 503 a resource answers without it.
 */
import type { CasesService } from '../cases/service.js';
import { errorBody, type ErrorBody } from '../query/error-object.js';
import type { Generation } from './generation.js';

/** A resource's answer: status, headers, body (and for a 200 the ETag key; `vary` when it negotiates on more than Accept-Encoding). */
export type ResourceAnswer =
  | { status: 200; body: Buffer; headers: Record<string, string>; key: string; vary?: string }
  | ErrorAnswer;

/** An answer with the Error object. */
export interface ErrorAnswer {
  status: 400 | 404 | 503;
  body: ErrorBody;
  headers?: Record<string, string>;
}

/**
 * The generation's case series (the report tables; loaded after the default analysis, so a
 * request waits for it), or the 503 answer without it: with the load's error when the tables
 * could not be read, with `noReports` when the store has none.
 */
export async function casesOf(generation: Generation, noReports: string): Promise<{ cases: CasesService } | { answer: ErrorAnswer }> {
  let cases: CasesService | null;
  try {
    cases = await generation.cases;
  } catch (error) {
    return { answer: { status: 503, body: errorBody(`the report tables of the store could not be read (${(error as Error).message})`) } };
  }
  return cases ? { cases } : { answer: { status: 503, body: errorBody(noReports) } };
}
