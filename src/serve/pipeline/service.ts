/**
 * The /pipeline resource (spec 4.2, 7 "Pipeline", 8): raw query and Accept header -> format ->
 * parameters -> registry (result.ts) -> renderer (render.ts). Transport-free: `answer` returns
 * status, headers and body as a value; src/http/pipeline-route.ts sends it.
 *
 * Answers: 200 json / brief (text/plain Markdown) / html; 400 Error object (spec 2.5) with
 * `allowed` (unknown format, role, status, phase) or `usage` (missing sponsor for json/brief,
 * bad limit, sponsor too long); 503 when the registry does not answer; 502 when it answers an
 * error or an unexpected body. With format html (or a browser's Accept) the errors are the page
 * with an alert and the same status; an unknown `format` is always answered in JSON. No error
 * body contains a trial identifier (redactTrialIds).
 */
import type { ParamError } from '../query/error-object.js';
import { ctgovOptionsFromEnv, ctgovOptionsWith, UpstreamError, type CtgovOptions } from './ctgov.js';
import {
  chooseFormat,
  formValues,
  isParamError,
  parsePipelineQuery,
  rawQueryFromUrl,
  sponsorRequired,
  SPONSOR_REQUIRED,
  type FormValues,
  type PipelineFormat,
  type PipelineQuery,
  type RawQuery,
} from './params.js';
import { RENDERERS } from './render.js';
import type { RenderInput } from './render-context.js';
import { runPipeline, type PipelineResult } from './result.js';

/** Cache lifetime of 200 answers (the registry updates daily). */
export const CACHE_CONTROL = 'public, max-age=60';

/** Spec 7 "Pipeline": the status of each kind of registry failure. */
export const UPSTREAM_STATUS = { unavailable: 503, bad_response: 502 } as const;

/** One answer of GET /pipeline. */
export interface PipelineAnswer {
  /** 200; 400 a bad parameter; 502 the registry answered an error; 503 it did not answer. */
  status: 200 | 400 | 502 | 503;
  /**
   * Response headers (lower-case names) in the order they are set: `vary: Accept`,
   * `content-security-policy` (html), `cache-control` (200 only), `content-type`.
   */
  headers: Record<string, string>;
  /** The `content-type` header's value. */
  contentType: string;
  body: string;
  /** The registry failure behind a 502/503, for the transport's log (never sent). */
  upstreamFailure?: UpstreamError['kind'];
}

/** Replaces anything shaped like an NCT id (defence in depth: error bodies carry none). */
export function redactTrialIds(text: string): string {
  return text.replace(/NCT\s*0*\d{1,8}/gi, '[trial id]');
}

/** Renders `input` in `format` as an answer with `status` (headers: see PipelineAnswer). */
function rendered(status: PipelineAnswer['status'], format: PipelineFormat, input: RenderInput): PipelineAnswer {
  const { contentType, body, headers: formatHeaders } = RENDERERS[format](input);
  const headers: Record<string, string> = { vary: 'Accept', ...formatHeaders };
  if (status === 200) headers['cache-control'] = CACHE_CONTROL;
  headers['content-type'] = contentType;
  return { status, headers, contentType, body };
}

/** An error answer: `error` with its message redacted, rendered in `format`. */
function failed(status: Exclude<PipelineAnswer['status'], 200>, format: PipelineFormat, form: FormValues, error: ParamError): PipelineAnswer {
  return rendered(status, format, { form, error: { ...error, error: redactTrialIds(error.error) } });
}

/** The transport-free /pipeline resource over one registry. */
export class PipelineService {
  /** @param registry where and how to reach ClinicalTrials.gov (ctgovOptionsFromEnv / ctgovOptionsWith). */
  constructor(readonly registry: CtgovOptions) {}

  /** The service over the registry named by `options`; anything left out comes from CTGOV_BASE_URL / CTGOV_TIMEOUT_MS (ctgovOptionsWith). */
  static over(options: Partial<CtgovOptions>): PipelineService {
    return new PipelineService(ctgovOptionsWith(options));
  }

  /** Answers a request URL (its query string: rawQueryFromUrl) with its `Accept` header (answer). */
  answerUrl(url: string, accept: string | undefined): Promise<PipelineAnswer> {
    return this.answer(rawQueryFromUrl(url), accept);
  }

  /**
   * Answers one request given its raw query (rawQueryFromUrl) and `Accept` header. Bad input
   * and registry failures are answers (400, 502, 503), never thrown; it throws only for an
   * unexpected fault (a bug), which the transport turns into a 500.
   */
  async answer(raw: RawQuery, accept: string | undefined): Promise<PipelineAnswer> {
    const form = formValues(raw);
    const format = chooseFormat(raw.format, accept);
    if (isParamError(format)) return failed(400, 'json', form, format);
    const query = parsePipelineQuery(raw);
    if (isParamError(query)) return failed(400, format, form, query);
    if (query.sponsor === null) {
      return sponsorRequired(format) ? failed(400, format, form, SPONSOR_REQUIRED) : rendered(200, format, { form });
    }
    const result = await this.run(query);
    if (result instanceof UpstreamError) {
      const answer = failed(UPSTREAM_STATUS[result.kind], format, form, { error: `ClinicalTrials.gov: ${result.message}` });
      return { ...answer, upstreamFailure: result.kind };
    }
    return rendered(200, format, { form, result });
  }

  /** Runs the query against the registry; a registry failure is returned, anything else thrown. */
  private async run(query: PipelineQuery): Promise<PipelineResult | UpstreamError> {
    try {
      return await runPipeline(query, this.registry);
    } catch (error) {
      if (error instanceof UpstreamError) return error;
      throw error;
    }
  }
}

/** The registry options from the environment (CTGOV_BASE_URL, CTGOV_TIMEOUT_MS). @throws Error naming a malformed variable. */
export function pipelineOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<CtgovOptions> {
  return ctgovOptionsFromEnv(env);
}
