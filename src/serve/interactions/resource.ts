/**
 * GET /interactions, GET /interactions/series and GET /masking as entries of one generation
 * (src/http/interactions-route.ts only speaks HTTP): each takes the raw query string, parses it
 * (params.ts), reads what it needs through the generation (the interaction signals and the MGPS
 * priors are held per generation, read at the first request; a series is a request-time read of
 * the file the generation loaded) and answers (service.ts) with its headers: X-REPORTS-Analysis
 * once the parameters are valid, and for a 200 Content-Type, Cache-Control public, max-age=60,
 * X-REPORTS-Through and X-Total-Count (/interactions). A store without the interactions table
 * (built before it) or without report tables (/masking) is a 503 saying so.
 */
import { parseAnalysisName, subsetMask } from '../../domain/analysis-rules.js';
import { HYPER_NAMES, type Hyperparameters } from '../../domain/mgps-prior.js';
import { errorBody } from '../query/error-object.js';
import { casesOf, type ResourceAnswer } from '../generation/answer.js';
import type { Generation } from '../generation/generation.js';
import { readInteractionSignals, readTripleSeries, type InteractionSignals } from '../store/interactions.js';
import { parseInteractionsQuery, parseMaskingQuery, parseSeriesQuery } from './params.js';
import { interactionsAnswer, maskingAnswer, namesOf, seriesAnswer, type InteractionsAnswer, type NameCheck, type Priors } from './service.js';

const NO_TABLE = 'this store has no interactions table (built before Omega was added): rebuild it with "reporting-signals build" to serve /interactions';
const NO_REPORTS = 'this store has no report tables, so /masking cannot count its reports';

/** The analysis the build computed interactions for (its metadata), else the store's default. */
function analysisOf(generation: Generation): string {
  const recorded = (generation.meta.parameters?.interactions as { analysis?: unknown } | undefined)?.analysis;
  return typeof recorded === 'string' ? recorded : generation.analyses.defaultName;
}

/** The interaction signals of the store (null: it has no interactions table), held per generation. */
function signalsOf(generation: Generation): Promise<InteractionSignals | null> {
  return generation.hold('interactions-signals', () => generation.read('the interactions', (store) => readInteractionSignals(store, analysisOf(generation))));
}

/** The MGPS prior of each window of the default analysis (null where a hyperparameter is missing), held per generation. */
function priorsOf(generation: Generation): Promise<Priors> {
  const analysis = generation.analyses.defaultName;
  return generation.hold('interactions-priors', () => generation.fittedWindows().then((all) => new Map((all.get(analysis) ?? [])
    .map((w) => [w.quarter, HYPER_NAMES.every((k) => w[k] !== null) ? (Object.fromEntries(HYPER_NAMES.map((k) => [k, w[k]])) as Hyperparameters) : null]))));
}

/** The name checks of the store's reports (none when it has no report tables or they failed to load). */
async function namesOfGeneration(generation: Generation): Promise<NameCheck> {
  const cases = await generation.cases.catch(() => null);
  return namesOf(cases?.index ?? null);
}

/** The answer with its headers and ETag key (`key`: the resource and its normalised parameters). */
function served(generation: Generation, analysis: string, result: InteractionsAnswer, key: string): ResourceAnswer {
  const headers: Record<string, string> = { 'x-reports-analysis': analysis };
  if (result.status !== 200) return { status: result.status, headers, body: result.body };
  return {
    status: 200, key, body: Buffer.from(JSON.stringify(result.body)),
    headers: {
      ...headers, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=60', 'x-reports-through': generation.through,
      ...(result.total !== undefined ? { 'x-total-count': String(result.total) } : {}),
    },
  };
}

/** GET /interactions: the Omega signals of one window. Rejects with a StoreReadError when the store could not be read. */
export async function interactionsResource(generation: Generation, query: string): Promise<ResourceAnswer> {
  const params = parseInteractionsQuery(query);
  if ('error' in params) return { status: 400, body: errorBody(params.error, params) };
  const signals = await signalsOf(generation);
  if (signals === null) return { status: 503, body: errorBody(NO_TABLE) };
  // The reports held for /cases: the names checked and each triple's cautions (cautions.ts).
  const index = (await generation.cases.catch(() => null))?.index ?? null;
  const analysis = analysisOf(generation);
  return served(generation, analysis, interactionsAnswer(analysis, params, signals, namesOf(index), index), `interactions\0${JSON.stringify(params)}`);
}

/** GET /interactions/series: Omega of one vaccine pair x event over every window. */
export async function seriesResource(generation: Generation, query: string): Promise<ResourceAnswer> {
  const params = parseSeriesQuery(query);
  if ('error' in params) return { status: 400, body: errorBody(params.error, params) };
  const signals = await signalsOf(generation);
  if (signals === null) return { status: 503, body: errorBody(NO_TABLE) };
  const analysis = analysisOf(generation);
  const rows = await generation.read('an interaction series', (store) => readTripleSeries(store, analysis, params.vaccine1, params.vaccine2, params.event));
  const names = await namesOfGeneration(generation);
  return served(generation, analysis, seriesAnswer(analysis, params, signals, rows ?? [], names), `series\0${JSON.stringify(params)}`);
}

/** GET /masking: the masking diagnostics of a pair in one window, counted over the reports in memory. */
export async function maskingResource(generation: Generation, query: string): Promise<ResourceAnswer> {
  const params = parseMaskingQuery(query);
  if ('error' in params) return { status: 400, body: errorBody(params.error, params) };
  const analysis = generation.analyses.defaultName;
  const priors = await priorsOf(generation);
  const found = await casesOf(generation, NO_REPORTS);
  if ('answer' in found) return found.answer;
  const { index } = found.cases;
  const keep = generation.hold('interactions-keep', () => {
    const parsed = parseAnalysisName(analysis);
    return parsed.ok ? subsetMask(parsed.analysis, index.data) : null;
  });
  return served(generation, analysis, maskingAnswer(analysis, params, index, keep, priors), `masking\0${JSON.stringify(params)}`);
}
