/**
 * The listings of a served store as entries of its generation (src/http/signals-route.ts only
 * speaks HTTP): GET /analyses (every analysis, src/serve/signals/analyses.ts listing), GET
 * /analyses/NAME (its entry with its fitted windows, analysisDetail) and GET /vaccines, GET
 * /analyses/NAME/vaccines (the vaccine listing, src/serve/vaccines/listing.ts). Each body is
 * rendered once per generation and held there (Generation.hold), so its ETag and compressed
 * bytes are computed once too (src/http/answer.ts). Headers: Content-Type, Cache-Control public,
 * max-age=60, X-REPORTS-Through; X-REPORTS-Analysis on the /analyses/NAME paths.
 */
import { analysisDetail } from '../signals/analyses.js';
import { errorBody } from '../query/error-object.js';
import { vaccineListing } from '../vaccines/listing.js';
import type { ResourceAnswer } from '../generation/answer.js';
import type { Generation } from '../generation/generation.js';

/** Cache lifetime of the /analyses and /vaccines listings. */
const LISTING_CACHE_CONTROL = 'public, max-age=60';

/** A listing's answer: its JSON body and headers (plus X-REPORTS-Analysis when `analysis` is given). */
function listing(generation: Generation, key: string, body: unknown, analysis: string | null): ResourceAnswer {
  return {
    status: 200, key, body: Buffer.from(JSON.stringify(body)),
    headers: {
      'content-type': 'application/json; charset=utf-8', 'cache-control': LISTING_CACHE_CONTROL, 'x-reports-through': generation.through,
      ...(analysis !== null ? { 'x-reports-analysis': analysis } : {}),
    },
  };
}

/** GET /analyses: the store's analyses (rendered once per generation). */
export function analysesResource(generation: Generation): ResourceAnswer {
  return generation.hold('listing\0analyses', () => listing(generation, 'analyses', generation.analyses.listing(), null));
}

/**
 * GET /analyses/NAME: the analysis's `/analyses` entry with its fitted windows, read from the
 * store once per generation; a 404 for an analysis the store does not hold.
 */
export function analysisResource(generation: Generation, name: string): Promise<ResourceAnswer> {
  return generation.hold(`listing\0analysis\0${name}`, async (): Promise<ResourceAnswer> => {
    const detail = analysisDetail(generation.analyses.listing(), name, (await generation.fittedWindows()).get(name) ?? []);
    if (detail === null) return { status: 404, headers: { 'x-reports-analysis': name }, body: errorBody(`unknown analysis ${name}`) };
    return listing(generation, `analysis\0${name}`, detail, name);
  });
}

/**
 * GET /vaccines (`name` null: the default analysis) or GET /analyses/NAME/vaccines: every vaccine
 * name of the analysis with its long name and counts, rendered once per generation; waits for the
 * analysis and the case series. `query` must be empty (a 400 otherwise, before X-REPORTS-Analysis
 * is set); a 503 when the analysis could not be loaded.
 */
export async function vaccinesResource(generation: Generation, name: string | null, query: string): Promise<ResourceAnswer> {
  if (query !== '') return { status: 400, body: errorBody('GET /vaccines takes no parameters', { allowed: [] }) };
  const headers: Record<string, string> = name !== null ? { 'x-reports-analysis': name } : {};
  const analysis = name ?? generation.analyses.defaultName;
  try {
    return await generation.hold(`listing\0vaccines\0${analysis}\0${name === null ? 'default' : 'named'}`, async () => {
      const catalog = (await generation.analyses.service(analysis)!).catalog;
      const cases = await generation.cases.catch(() => null);
      return listing(generation, `vaccines\0${analysis}`, vaccineListing(analysis, catalog, cases?.index ?? null), name);
    });
  } catch (error) {
    return { status: 503, headers, body: errorBody(`analysis ${analysis} could not be loaded: ${(error as Error).message}`) };
  }
}
