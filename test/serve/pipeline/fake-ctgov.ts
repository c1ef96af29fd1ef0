/**
 * A fake ClinicalTrials.gov API v2 `GET /studies` on loopback, for tests (never the network).
 *
 * Answers like the real API (contract ctg-oas-v2.yaml; shapes of the recorded responses in
 * shared/data/ctgov): `PagedStudies` JSON, `totalCount` on the first page only when
 * `countTotal=true`, opaque `nextPageToken`, `pageSize` default 10 and capped at 1000, `fields`
 * projection, `filter.overallStatus` (comma or pipe), and the subset of Essie used in
 * `filter.advanced` (AREA[...], EXPANSION[...], quoted phrases, AND / OR / NOT, parentheses).
 * It is deliberately strict: unknown parameters, fields, statuses or filter syntax answer
 * HTTP 400 text/plain like the real API, and a page token used with different parameters too.
 * Phrase matching is its own implementation: EXPANSION[None] exact words, EXPANSION[Term]
 * also plural "s" variants, and no EXPANSION (the API default, Relaxation/Lossy) any substring.
 *
 * Faults: `mode` = 'hang' (never answers), 'hang-body' (headers, then stalls), 'status500',
 * 'status400', 'invalid-json', 'wrong-shape'; or `replay` bodies served in order.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readFileSync } from 'node:fs';

export type FaultMode = 'normal' | 'hang' | 'hang-body' | 'status500' | 'status400' | 'invalid-json' | 'wrong-shape';

const STATUSES = ['ACTIVE_NOT_RECRUITING', 'COMPLETED', 'ENROLLING_BY_INVITATION', 'NOT_YET_RECRUITING', 'RECRUITING', 'SUSPENDED',
  'TERMINATED', 'WITHDRAWN', 'AVAILABLE', 'NO_LONGER_AVAILABLE', 'TEMPORARILY_NOT_AVAILABLE', 'APPROVED_FOR_MARKETING', 'WITHHELD', 'UNKNOWN'];
const KNOWN_PARAMS = new Set(['format', 'filter.advanced', 'filter.overallStatus', 'fields', 'pageSize', 'pageToken', 'countTotal']);

/** Field name -> path in a study object (the pieces the client may ask for). */
const FIELD_PATHS: Record<string, string[]> = {
  NCTId: ['protocolSection', 'identificationModule', 'nctId'],
  BriefTitle: ['protocolSection', 'identificationModule', 'briefTitle'],
  OverallStatus: ['protocolSection', 'statusModule', 'overallStatus'],
  StartDate: ['protocolSection', 'statusModule', 'startDateStruct'],
  Phase: ['protocolSection', 'designModule', 'phases'],
  LeadSponsorName: ['protocolSection', 'sponsorCollaboratorsModule', 'leadSponsor', 'name'],
  CollaboratorName: ['protocolSection', 'sponsorCollaboratorsModule', 'collaborators'],
};

/** Shape of a fixture study (test-written) before it becomes an API study object. */
export interface StudySpec {
  nct: string;
  title?: string;
  status?: string;
  phases?: string[];
  lead: string;
  collaborators?: string[];
  start?: string;
}

/** Builds an API v2 study object (protocolSection modules as the real API names them). */
export function apiStudy(s: StudySpec): Record<string, unknown> {
  const design: Record<string, unknown> = { studyType: 'INTERVENTIONAL' };
  if (s.phases) design.phases = s.phases;
  const sponsors: Record<string, unknown> = { leadSponsor: { name: s.lead, class: 'INDUSTRY' } };
  if (s.collaborators) sponsors.collaborators = s.collaborators.map((name) => ({ name, class: 'OTHER' }));
  return {
    protocolSection: {
      identificationModule: { nctId: s.nct, briefTitle: s.title ?? `Study ${s.nct}` },
      statusModule: { overallStatus: s.status ?? 'RECRUITING', startDateStruct: { date: s.start ?? '2024-01' } },
      sponsorCollaboratorsModule: sponsors,
      designModule: design,
      conditionsModule: { conditions: ['Condition'] },
    },
    hasResults: false,
  };
}

function get(obj: unknown, path: readonly string[]): unknown {
  let cur = obj;
  for (const key of path) cur = typeof cur === 'object' && cur !== null ? (cur as Record<string, unknown>)[key] : undefined;
  return cur;
}

function set(obj: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let cur = obj;
  for (const key of path.slice(0, -1)) cur = (cur[key] ??= {}) as Record<string, unknown>;
  cur[path[path.length - 1]] = value;
}

function project(study: unknown, fields: string[]): unknown {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const value = get(study, FIELD_PATHS[f]);
    if (value !== undefined) set(out, FIELD_PATHS[f], f === 'CollaboratorName' ? (value as { name: string }[]).map((c) => ({ name: c.name })) : value);
  }
  return out;
}

class ParseError extends Error {}

function areaValues(study: unknown, area: string): string[] {
  const v = (path: string[]): unknown => get(study, ['protocolSection', ...path]);
  switch (area) {
    case 'LeadSponsorName': return [v(['sponsorCollaboratorsModule', 'leadSponsor', 'name'])].filter((x): x is string => typeof x === 'string');
    case 'CollaboratorName': return ((v(['sponsorCollaboratorsModule', 'collaborators']) as { name?: string }[] | undefined) ?? []).map((c) => c.name ?? '');
    case 'Phase': return (v(['designModule', 'phases']) as string[] | undefined) ?? [];
    case 'OverallStatus': return [v(['statusModule', 'overallStatus'])].filter((x): x is string => typeof x === 'string');
    default: throw new ParseError(`Unknown area: ${area}`);
  }
}

function fold(text: string): string[] {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
}

function phraseMatches(value: string, phrase: string, expansion: string | null): boolean {
  if (expansion === null) return value.toLowerCase().includes(phrase.toLowerCase().slice(0, Math.max(3, phrase.length - 2)));
  const hay = fold(value);
  const needle = fold(phrase);
  const eq = (a: string, b: string): boolean => a === b || (expansion === 'Term' && (a === `${b}s` || `${a}s` === b));
  for (let i = 0; i + needle.length <= hay.length; i++) if (needle.every((w, j) => eq(hay[i + j], w))) return true;
  return false;
}

type Pred = (study: unknown) => boolean;

/** Parses the Essie subset into a predicate; throws ParseError like the API's 400. */
export function parseEssie(expr: string): Pred {
  const tokens = expr.match(/\(|\)|AREA\[\w+\]|EXPANSION\[\w+\]|"[^"]*"|[^\s()"]+/g) ?? [];
  let i = 0;
  const peek = (): string | undefined => tokens[i];
  const parseOr = (): Pred => {
    let left = parseAnd();
    while (peek() === 'OR') { i++; const l = left, r = parseAnd(); left = (s) => l(s) || r(s); }
    return left;
  };
  const parseAnd = (): Pred => {
    let left = parseUnary();
    while (peek() === 'AND') { i++; const l = left, r = parseUnary(); left = (s) => l(s) && r(s); }
    return left;
  };
  const parseUnary = (): Pred => {
    if (peek() === 'NOT') { i++; const inner = parseUnary(); return (s) => !inner(s); }
    const t = tokens[i++];
    if (t === '(') { const inner = parseOr(); if (tokens[i++] !== ')') throw new ParseError("missing ')'"); return inner; }
    const area = t !== undefined ? /^AREA\[(\w+)\]$/.exec(t) : null;
    if (!area) throw new ParseError(`mismatched input '${t ?? '<EOF>'}'`);
    let expansion: string | null = null;
    const exp = peek() !== undefined ? /^EXPANSION\[(\w+)\]$/.exec(peek()!) : null;
    if (exp) {
      if (!['None', 'Term', 'Concept', 'Relaxation', 'Lossy'].includes(exp[1])) throw new ParseError(`Invalid expansion: ${exp[1]}`);
      expansion = exp[1] === 'None' || exp[1] === 'Term' ? exp[1] : null;
      i++;
    }
    const operand = tokens[i++];
    if (operand === undefined || ['AND', 'OR', 'NOT', '(', ')'].includes(operand)) throw new ParseError('missing operand');
    const phrase = operand.startsWith('"') ? operand.slice(1, -1) : operand;
    if (area[1] === 'Phase' || area[1] === 'OverallStatus') return (s) => areaValues(s, area[1]).includes(phrase.toUpperCase());
    areaValues({}, area[1]);
    return (s) => areaValues(s, area[1]).some((v) => phraseMatches(v, phrase, expansion));
  };
  const pred = parseOr();
  if (i !== tokens.length) throw new ParseError(`extraneous input '${tokens[i]}'`);
  return pred;
}

/** The fake server. */
export class FakeCtgov {
  /** Studies served (API v2 study objects), in order. */
  studies: unknown[] = [];
  mode: FaultMode = 'normal';
  /** When non-empty, answers served in order regardless of query (a string = 200 application/json). */
  replay: (string | { status: number; body: string; type: string })[] = [];
  /** Largest page served (the real API caps at 1000; lower it to force paging). */
  maxPageSize = 1000;
  /** Every request's query, in order. */
  readonly requests: URLSearchParams[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Server, readonly baseUrl: string) {}

  /** Starts on 127.0.0.1 (random port), optionally loading studies from a JSON file (array). */
  static async start(fixtureFile?: string): Promise<FakeCtgov> {
    const holder: { fake?: FakeCtgov } = {};
    const server = createServer((req, res) => holder.fake!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const fake = new FakeCtgov(server, `http://127.0.0.1:${port}/api/v2`);
    holder.fake = fake;
    server.on('connection', (s) => { fake.sockets.add(s); s.on('close', () => fake.sockets.delete(s)); });
    if (fixtureFile) fake.studies = JSON.parse(readFileSync(fixtureFile, 'utf8')) as unknown[];
    return fake;
  }

  /** Resets faults, replay and the request log. */
  reset(): void {
    this.mode = 'normal';
    this.replay = [];
    this.maxPageSize = 1000;
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private text(res: ServerResponse, status: number, body: string, type = 'text/plain'): void {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    this.requests.push(url.searchParams);
    if (this.mode === 'hang') return;
    if (this.mode === 'hang-body') { res.writeHead(200, { 'content-type': 'application/json' }); res.write('{"studies":['); return; }
    if (this.mode === 'status500') return this.text(res, 500, '{"message":"internal error for NCT01234567"}', 'application/json');
    if (this.mode === 'status400') return this.text(res, 400, "Error parsing query in advanced filter: mismatched input '[' expecting {<EOF>, '(', ',', 'NOT', 'AND', 'OR', 'SEARCH', 'AREA', 'RANGE', ...}");
    if (this.mode === 'invalid-json') return this.text(res, 200, '{"totalCount":3,"studies":[{"protocolSection":{"identificationModule":{"nctId":"NCT01234567"', 'application/json');
    if (this.mode === 'wrong-shape') return this.text(res, 200, '{"totalCount":1,"items":["NCT01234567"]}', 'application/json');
    const next = this.replay.shift();
    if (typeof next === 'string') return this.text(res, 200, next, 'application/json');
    if (next) return this.text(res, next.status, next.body, next.type);
    if (url.pathname !== '/api/v2/studies') return this.text(res, 404, 'Not Found');
    try {
      this.text(res, 200, JSON.stringify(this.page(url.searchParams)), 'application/json');
    } catch (error) {
      if (error instanceof ParseError) return this.text(res, 400, error.message);
      throw error;
    }
  }

  private page(q: URLSearchParams): unknown {
    for (const key of q.keys()) if (!KNOWN_PARAMS.has(key)) throw new ParseError(`Unknown parameter: ${key}`);
    if (q.has('format') && q.get('format') !== 'json') throw new ParseError('Unsupported format');
    let rows = this.studies;
    const advanced = q.get('filter.advanced');
    if (advanced !== null) {
      let pred: Pred;
      try { pred = parseEssie(advanced); } catch (e) { throw new ParseError(`Error parsing query in advanced filter: ${(e as Error).message}`); }
      rows = rows.filter(pred);
    }
    const statuses = q.get('filter.overallStatus');
    if (statuses !== null) {
      const list = statuses.split(/[|,]/);
      for (const s of list) if (!STATUSES.includes(s)) throw new ParseError(`Invalid status: ${s}`);
      rows = rows.filter((s) => list.includes(areaValues(s, 'OverallStatus')[0]));
    }
    const fields = q.get('fields')?.split(/[|,]/);
    for (const f of fields ?? []) if (!(f in FIELD_PATHS)) throw new ParseError(`Unknown field: ${f}`);
    const sizeRaw = Number(q.get('pageSize') ?? '10');
    const size = Math.min(this.maxPageSize, sizeRaw <= 0 ? 10 : Math.min(1000, sizeRaw));
    const signature = [...q.entries()].filter(([k]) => !['pageSize', 'pageToken', 'countTotal'].includes(k)).sort().join('&');
    let offset = 0;
    const token = q.get('pageToken');
    if (token !== null) {
      const decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { offset: number; signature: string };
      if (decoded.signature !== signature) throw new ParseError('Page token does not match the query');
      offset = decoded.offset;
    }
    const slice = rows.slice(offset, offset + size);
    const body: Record<string, unknown> = {};
    if (token === null && q.get('countTotal') === 'true') body.totalCount = rows.length;
    body.studies = fields ? slice.map((s) => project(s, fields)) : slice;
    if (offset + size < rows.length) {
      body.nextPageToken = Buffer.from(JSON.stringify({ offset: offset + size, signature })).toString('base64url');
    }
    return body;
  }
}

/** A loopback base URL on which nothing listens (connection refused). */
export async function refusedBaseUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/api/v2`;
}
