/**
 * What every /pipeline renderer gets and returns (shared by render.ts, the registry, and the
 * renderers of html.ts and brief.ts, so that no renderer imports the registry).
 */
import type { ParamError } from '../query/error-object.js';
import type { FormValues } from './params.js';
import type { PipelineResult } from './result.js';

/**
 * What a renderer gets: the form values, and a result (a 200), an error (a 400, 502 or 503,
 * its message already free of trial identifiers), or neither (html: the bare search form; json
 * and brief answer SPONSOR_REQUIRED, which is what a request without a sponsor gets from them).
 */
export interface RenderInput {
  form: FormValues;
  result?: PipelineResult;
  error?: ParamError;
}

/** A rendered body, with the headers the format adds (lower-case names). */
export interface Rendered {
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

/** The one signature of every format's renderer. */
export type Renderer = (input: RenderInput) => Rendered;
