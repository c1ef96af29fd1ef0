/**
 * The golden request list: about 200 requests over the embedded default store
 * (the default store built from data/vaers, VAERS 1990-2006) and the golden fake registry (harness.ts), whose
 * answers record.ts writes to golden.json and golden.test.ts replays. Add requests at will
 * (then re-record on the pre-change code); never edit a request without re-recording.
 *
 * Names are derived from method, URL, headers and registry fault (see requestName); give
 * `name` only to tell apart two identical requests.
 */
import type { FaultMode } from '../serve/pipeline/fake-ctgov.js';

/** One golden request. */
export interface GoldenRequest {
  /** Explicit name; default: requestName's derivation. */
  name?: string;
  /** HTTP method; default GET. */
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  /** Path and raw query string, sent as typed. */
  url: string;
  headers?: Record<string, string>;
  payload?: string;
  /** Fake registry state for this request only (faults, a small page size to force paging). */
  registry?: { mode?: FaultMode; maxPageSize?: number };
}

/** The name of a request in golden.json and in the test report. */
export function requestName(r: GoldenRequest): string {
  if (r.name) return r.name;
  const headers = r.headers ? ` [${Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`).join('; ')}]` : '';
  const payload = r.payload !== undefined ? ` <${r.payload}>` : '';
  const registry = r.registry ? ` {registry ${JSON.stringify(r.registry)}}` : '';
  return `${r.method ?? 'GET'} ${r.url}${headers}${payload}${registry}`;
}

const ROTASHIELD = 'ROTAVIRUS+(ROTASHIELD)';
const get = (url: string): GoldenRequest => ({ url });
const signals = (query: string): GoldenRequest => get(`/signals?${query}`);
const pipeline = (query: string, headers?: Record<string, string>): GoldenRequest =>
  (headers ? { url: `/pipeline?${query}`, headers } : get(`/pipeline?${query}`));

/** Selections (vaccine/event/q) combined with each format below. */
const SELECTIONS = [
  `vaccine=${ROTASHIELD}`,
  `vaccine=${ROTASHIELD}&event=Intussusception`,
  'vaccine=ROTAVIRUS&event=Intussusception',
  'event=intussus',
  'q=rota',
  'vaccine=HPV4',
  'vaccine=MMR&event=pyrexia&limit=5',
  'vaccine=TD&limit=3&offset=2',
  'vaccine=NO+SUCH+VACCINE',
  'q=rota&min_eb05=2&min_n=5&limit=4',
];

const FORMATS = ['csv', 'series', 'profile', 'brief', 'class'];

/** /signals json (format omitted or explicit): names, types, codes, events, q, sort, paging, thresholds. */
const SIGNALS_JSON: GoldenRequest[] = [
  ...SELECTIONS.map(signals),
  signals(`vaccine=${ROTASHIELD}&format=json`),
  signals(`drug=${ROTASHIELD}&event=Intussusception`),
  signals(`vaccine=${ROTASHIELD}&drug=${ROTASHIELD}&limit=2`),
  signals('vaccine=ROTAVIRUS%20(ROTASHIELD)&event=INTUSSUSCEPTION'),
  signals('vaccine=rotavirus+(rotashield)&limit=3'),
  signals('vaccine=%20%20ROTAVIRUS%20%20&limit=3'),
  signals('vaccine=rotavirus&limit=500'),
  signals('vaccine=Rotavirus&sort=n&order=asc'),
  signals('vaccine=hpv4&limit=3'),
  signals('vaccine=HPV&limit=3'),
  signals('vaccine=mmr&limit=3&sort=latest'),
  signals('vaccine=td&limit=3'),
  signals('vaccine=TD&event=Injection+site+oedema'),
  signals('vaccine=ROTA'),
  signals('vaccine=HEP+B&limit=2'),
  signals('event=Intussusception'),
  signals('event=INTUSSUSCEPTION&limit=2'),
  signals('event=pain&limit=3'),
  signals('event=Pain&limit=3&sort=n'),
  signals('event=ain&limit=3&sort=n&order=asc'),
  signals('event=syncope&limit=4'),
  signals('event=zzzzzz'),
  signals('vaccine=ROTAVIRUS&event=nosuchterm'),
  signals('q=ROTA&sort=n&limit=5'),
  signals('q=intussus&limit=5'),
  signals('q=td&limit=3'),
  signals('q=HPV4&limit=3'),
  signals('q=hep&sort=n&limit=5'),
  signals('q=zzzz'),
  signals('q=rota&vaccine=MMR&limit=2'),
  signals('q=rota&event=Intussusception'),
  signals('vaccine=&event=Intussusception'),
  signals('vaccine=%ZZ'),
  signals('event=%C3%A9%C3%A9%C3%A9'),
  signals('q=rota&sort=eb05&order=asc&limit=5'),
  signals('q=rota&sort=latest&order=desc&limit=5'),
  signals('q=rota&sort=latest&order=asc&limit=5'),
  signals('event=pain&sort=n&limit=50'),
  signals('event=pain&sort=n&limit=50&offset=50'),
  signals('q=rota&limit=1'),
  signals('q=rota&limit=500&min_eb05=20'),
  signals('q=rota&offset=94&limit=5'),
  signals('q=rota&offset=100000'),
  signals('q=rota&limit=%2B5'),
  signals('q=rota&limit=+5'),
  signals('q=rota&limit=005&offset=-0'),
  signals('q=rota&limit=%205%20'),
  signals('q=rota&min_eb05=10'),
  signals('q=rota&min_eb05=1e1&limit=3'),
  signals('q=rota&min_eb05=.5&limit=3'),
  signals('q=rota&min_eb05=-0&limit=3'),
  signals('q=rota&min_eb05=1000'),
  signals('q=rota&min_n=100'),
  signals('q=rota&min_n=2.5&limit=3'),
  signals('vaccine=MMR&min_eb05=2&min_n=10&sort=n&limit=5'),
  signals('vaccine=ROTAVIRUS&min_eb05=0&min_n=0&limit=3'),
  signals('q=rota&format=&limit=2'),
];

/** /signals with every other format over the same selections, plus format-specific cases. */
const SIGNALS_FORMATS: GoldenRequest[] = [
  ...FORMATS.flatMap((format) => SELECTIONS.map((s) => signals(`${s}&format=${format}`))),
  signals('event=intussus&format=csv&sort=n&order=asc'),
  signals('q=rota&format=csv&limit=1&offset=3'),
  signals('vaccine=ROTAVIRUS&event=Intussusception&format=series&min_eb05=30'),
  signals('q=intussus&format=series'),
  signals('event=Intussusception&format=series'),
  signals('vaccine=HPV4&event=Syncope&format=series'),
  signals('vaccine=zzz&event=Intussusception&format=series'),
  signals('q=zzzz&format=series'),
  signals('event=intussus&format=profile&limit=2'),
  signals('q=intussus&format=profile&limit=2'),
  signals('event=pain&format=brief&limit=3&offset=1'),
  signals('q=zzzz&format=brief'),
  signals('vaccine=MMR&format=brief&min_eb05=2&limit=2'),
  signals('vaccine=MMR&format=brief&min_n=50&limit=2'),
  signals('q=hep&format=class&limit=2'),
  signals('event=Intussusception&format=class'),
  signals('q=zzzz&format=class'),
];

/** /signals 400s (spec 7 and the "not shown" choices of docs/api.md). */
const SIGNALS_ERRORS: GoldenRequest[] = [
  get('/signals'),
  get('/signals?'),
  signals('format=csv'),
  signals('vaccine=&event=&q='),
  signals('sort=n&limit=5'),
  signals('vaccine=MMR&drug=HPV4'),
  signals('vaccine=ROTAVIRUS&drug=rotavirus'),
  signals('q=ro'),
  signals('event=ab'),
  signals('vaccine=zz'),
  signals('q=a&format=csv'),
  signals('vaccine=ROTAVIRUS&format=pdf'),
  signals('vaccine=ROTAVIRUS&format=label'),
  signals('vaccine=ROTAVIRUS&format=xml'),
  signals('vaccine=ROTAVIRUS&format=JSON'),
  signals('vaccine=ROTAVIRUS&sort=trend'),
  signals('vaccine=ROTAVIRUS&sort=name'),
  signals('vaccine=ROTAVIRUS&order=up'),
  signals('vaccine=ROTAVIRUS&min_eb05=abc'),
  signals('vaccine=ROTAVIRUS&min_eb05=-1'),
  signals('vaccine=ROTAVIRUS&min_eb05=Infinity'),
  signals('vaccine=ROTAVIRUS&min_eb05=0x10'),
  signals('vaccine=ROTAVIRUS&min_n=abc'),
  signals('vaccine=ROTAVIRUS&min_n=-1'),
  signals('vaccine=ROTAVIRUS&limit=0'),
  signals('vaccine=ROTAVIRUS&limit=501'),
  signals('vaccine=ROTAVIRUS&limit=2.5'),
  signals('vaccine=ROTAVIRUS&limit=ten'),
  signals('vaccine=ROTAVIRUS&offset=-1'),
  signals('vaccine=ROTAVIRUS&offset=1.5'),
  signals('vaccine=ROTAVIRUS&limit=5&limit=6'),
  signals('vaccine=ROTAVIRUS&vaccine=MMR'),
  signals('vaccine=ROTAVIRUS&background=no_covid'),
  signals('vaccine=ROTAVIRUS&foo=bar'),
  signals('vaccine=ROTAVIRUS&Limit=5'),
  signals(`vaccine=ROTAVIRUS&${'x'.repeat(80)}=1`),
  signals(`vaccine=ROTAVIRUS&format=${'p'.repeat(80)}`),
];

/** /pipeline against the golden fake registry: formats, negotiation, parameters, errors, faults. */
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8';
const PIPELINE: GoldenRequest[] = [
  pipeline('sponsor=Pfizer'),
  pipeline('sponsor=%20%20Pfizer%20&status=ALL'),
  pipeline('sponsor=pfizer+inc'),
  pipeline('sponsor=Pfizer&format=brief'),
  pipeline('sponsor=Pfizer&format=html'),
  pipeline('sponsor=Pfizer&format=HTML&status=ALL&role=any'),
  pipeline('sponsor=Pfizer&role=collaborator&status=ALL'),
  pipeline('sponsor=Pfizer&role=collaborator&status=ALL&format=brief'),
  pipeline('sponsor=Pfizer&role=ANY'),
  pipeline('sponsor=Pfizer&role=any&phase=3&limit=1'),
  pipeline('sponsor=Pfizer&status=all&phase=1,2'),
  pipeline('sponsor=Pfizer&status=ALL&phase=early1,na'),
  pipeline('sponsor=Pfizer&status=ALL&phase=PHASE4'),
  pipeline('sponsor=Pfizer&status=completed,%20Terminated'),
  pipeline('sponsor=Pfizer&status=not+yet+recruiting,active-not-recruiting'),
  pipeline('sponsor=Pfizer&limit=3'),
  pipeline('sponsor=Pfizer&limit=500&status=ALL'),
  pipeline('sponsor=Pfizer&limit=500&format=brief'),
  pipeline('sponsor=Pfizer&status=ALL&limit=5'),
  { url: '/pipeline?sponsor=Pfizer&status=ALL&limit=5', registry: { maxPageSize: 2 } },
  { url: '/pipeline?sponsor=Pfizer&status=ALL&limit=200', registry: { maxPageSize: 2 } },
  pipeline('sponsor=Merck&status=ALL'),
  pipeline('sponsor=Merck&status=ALL&format=brief'),
  pipeline('sponsor=Merck&status=ALL&format=html'),
  pipeline('sponsor=Merck%20Sharp%20%26%20Dohme&status=ALL'),
  pipeline('sponsor=Merck&role=collaborator&status=ALL'),
  pipeline('sponsor=Nonexistent%20Pharma'),
  pipeline('sponsor=Nonexistent%20Pharma&format=brief'),
  pipeline('sponsor=Nonexistent%20Pharma&format=html'),
  pipeline('sponsor=%26%26%26'),
  pipeline('sponsor=Wyeth&status=ALL'),
  pipeline('sponsor=Pfizer&sponsor=Wyeth'),
  pipeline('sponsor=Pfizer&role=lead&role=any'),
  pipeline('sponsor=Pfizer&unknown=1'),
  get('/pipeline'),
  pipeline('format=brief'),
  pipeline('format=html'),
  pipeline('sponsor=&format=html'),
  pipeline('sponsor=%20%20'),
  pipeline(`sponsor=${'a'.repeat(201)}`),
  pipeline('sponsor=Pfizer&format=xml'),
  pipeline('sponsor=Pfizer&format=pdf&role=bogus'),
  pipeline('sponsor=Pfizer&role=sponsor'),
  pipeline('sponsor=Pfizer&role=sponsor&format=html'),
  pipeline('sponsor=Pfizer&status=ONGOING'),
  pipeline('sponsor=Pfizer&phase=9'),
  pipeline('sponsor=Pfizer&phase=9&format=brief'),
  pipeline('sponsor=Pfizer&limit=0'),
  pipeline('sponsor=Pfizer&limit=-1'),
  pipeline('sponsor=Pfizer&limit=2.5'),
  pipeline('sponsor=Pfizer&limit=1e3'),
  pipeline('sponsor=Pfizer&limit=abc&format=html'),
  pipeline('sponsor=NCT01234567'),
  pipeline('sponsor=Pfizer', { accept: BROWSER }),
  pipeline('', { accept: BROWSER }),
  pipeline('sponsor=Pfizer&role=bogus', { accept: BROWSER }),
  pipeline('sponsor=Pfizer', { accept: 'text/html' }),
  pipeline('sponsor=Pfizer', { accept: 'application/json' }),
  pipeline('sponsor=Pfizer', { accept: '*/*' }),
  pipeline('sponsor=Pfizer', { accept: 'text/html;q=0.5, application/json' }),
  pipeline('sponsor=Pfizer', { accept: 'text/html, application/json' }),
  pipeline('sponsor=Pfizer&format=json', { accept: BROWSER }),
  pipeline('sponsor=Pfizer&format=brief', { accept: BROWSER }),
  { url: '/pipeline?sponsor=Pfizer', registry: { mode: 'status500' } },
  { url: '/pipeline?sponsor=Pfizer', registry: { mode: 'status400' } },
  { url: '/pipeline?sponsor=Pfizer&format=html', registry: { mode: 'status500' } },
  { url: '/pipeline?sponsor=Pfizer', registry: { mode: 'invalid-json' } },
  { url: '/pipeline?sponsor=Pfizer&format=brief', registry: { mode: 'wrong-shape' } },
  { url: '/pipeline?sponsor=Pfizer', registry: { mode: 'hang' } },
  { url: '/pipeline?sponsor=Pfizer&format=html', registry: { mode: 'hang-body' } },
];

/** Methods, paths, CORS, HEAD, the notes and index, the explorer. */
const ORIGIN = { origin: 'https://example.org' };
const TRANSPORT: GoldenRequest[] = [
  ...(['POST', 'PUT', 'PATCH', 'DELETE'] as const).flatMap((method) => [
    { method, url: '/signals?vaccine=ROTAVIRUS' },
    { method, url: '/pipeline?sponsor=Pfizer' },
  ]),
  { method: 'POST', url: '/signals', headers: { 'content-type': 'application/json' }, payload: '{"vaccine":"ROTAVIRUS"}' },
  { method: 'POST', url: '/nope' },
  { method: 'POST', url: '/openapi.json' },
  get('/nope'),
  get('/nope?vaccine=ROTAVIRUS'),
  get('/signals/'),
  get('/signals/extra?vaccine=ROTAVIRUS'),
  get('/Signals?vaccine=ROTAVIRUS'),
  get('/pipeline/extra'),
  get(`/${'z'.repeat(150)}`),
  get('/openapi.yaml'),
  { method: 'HEAD', url: `/signals?vaccine=${ROTASHIELD}` },
  { method: 'HEAD', url: '/signals?vaccine=ROTAVIRUS&format=csv' },
  { method: 'HEAD', url: '/signals' },
  { method: 'HEAD', url: '/pipeline?sponsor=Pfizer' },
  { method: 'HEAD', url: '/pipeline' },
  { method: 'HEAD', url: '/openapi.json' },
  { method: 'HEAD', url: '/llms.txt' },
  { method: 'HEAD', url: '/' },
  { method: 'HEAD', url: '/nope' },
  { method: 'OPTIONS', url: '/signals', headers: { ...ORIGIN, 'access-control-request-method': 'GET' } },
  { method: 'OPTIONS', url: '/signals?vaccine=ROTAVIRUS', headers: { ...ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } },
  { method: 'OPTIONS', url: '/pipeline', headers: { ...ORIGIN, 'access-control-request-method': 'GET' } },
  { method: 'OPTIONS', url: '/nope', headers: { ...ORIGIN, 'access-control-request-method': 'GET' } },
  { method: 'OPTIONS', url: '/signals', headers: ORIGIN },
  { method: 'OPTIONS', url: '/signals' },
  { url: '/signals?vaccine=ROTAVIRUS&limit=1', headers: ORIGIN },
  { url: '/pipeline?sponsor=Pfizer&limit=1', headers: ORIGIN },
  { url: '/signals?q=ro', headers: ORIGIN },
  get('/openapi.json'),
  get('/openapi.json?x=1'),
  get('/.well-known/api-catalog'),
  { url: '/.well-known/api-catalog', headers: { host: 'signals.example.org:8443' } },
  { url: '/.well-known/api-catalog', headers: { host: 'bad host/evil' } },
  get('/llms.txt'),
  get('/healthz'),
  get('/'),
  get('/?vaccine=ROTAVIRUS&event=Intussusception&pair_vaccine=ROTAVIRUS+(ROTASHIELD)&pair_event=Intussusception'),
  get('/explorer/explorer.css'),
  get('/explorer/js/app.js'),
  get('/explorer/js/api.js'),
  get('/explorer/vendor/uplot/uPlot.min.css'),
  get('/explorer/nope.js'),
  get('/explorer/'),
];

/** The analyses' additions: the triage queue (its order, reasons, cautions and evidence), type-level items. */
const ANALYSES: GoldenRequest[] = [
  get('/triage?quarter=2006Q4&limit=20'),
  get('/triage?quarter=1999Q3&limit=20'),
  get('/triage?quarter=2006Q4&caution=exclude&limit=5'),
  get('/triage?quarter=2006Q4&vaccine=LYME+(LYMERIX)&limit=5'),
  get('/triage?quarter=2006Q4&limit=5&format=csv'),
  get('/analyses/types/triage?quarter=2006Q4&limit=10'),
  get('/analyses/serious/triage?quarter=1999Q3&limit=5'),
  get('/triage?limit=0'),
  get('/triage?quarter=2006Q5'),
  get('/analyses/nope/triage'),
  get('/analyses/types/signals?vaccine=FLU3&event=Guillain-Barre+syndrome'),
  get('/analyses'),
];

/** Answers must not depend on what was asked before (the service caches answers). */
const REPEATS: GoldenRequest[] = [
  { name: `GET /signals?vaccine=${ROTASHIELD}&event=Intussusception (again: cached answer)`, url: `/signals?vaccine=${ROTASHIELD}&event=Intussusception` },
  { name: 'GET /signals?q=rota&format=series (again: cached answer)', url: '/signals?q=rota&format=series' },
  { name: 'GET /signals?q=ro (again: cached error)', url: '/signals?q=ro' },
];

/** Every golden request, grouped by kind (the recorder and the test run them in this order). */
export const GOLDEN_GROUPS: Readonly<Record<string, readonly GoldenRequest[]>> = {
  'signals json': SIGNALS_JSON,
  'signals other formats': SIGNALS_FORMATS,
  'signals errors': SIGNALS_ERRORS,
  pipeline: PIPELINE,
  'methods, paths, CORS, HEAD, notes, explorer': TRANSPORT,
  'triage and type-level analyses': ANALYSES,
  'repeats (cache)': REPEATS,
};

/** Every golden request in order. */
export const GOLDEN_REQUESTS: readonly GoldenRequest[] = Object.values(GOLDEN_GROUPS).flat();
