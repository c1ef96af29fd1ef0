/**
 * The golden harness, shared by the recorder (record.ts) and the replay test (golden.test.ts):
 * the whole app (`buildApp`) over the default store (built from data/vaers into the cache, issue 18), its
 * /pipeline pointed at a fake ClinicalTrials.gov on loopback fed with the registry below, and
 * one function that turns an `inject()` answer into the recorded form (status, the headers that
 * do not vary between runs or code versions, the body or its digest).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.js';
import { FakeCtgov, apiStudy, type StudySpec } from '../serve/pipeline/fake-ctgov.js';
import { requestName, type GoldenRequest } from './requests.js';

/** The recording written by record.ts and read by golden.test.ts. */
export const GOLDEN_FILE = fileURLToPath(new URL('./golden.json', import.meta.url));

/** Bodies shorter than this (bytes) are stored whole; longer ones as digest, length and head. */
export const FULL_BODY_MAX_BYTES = 2048;
/** Characters of a long body kept in the recording so that a mismatch is diagnosable. */
export const BODY_HEAD_CHARS = 300;
/** Registry timeout of the golden app (ms): short enough that the two "hang" requests answer 503 soon, long enough for a loaded machine. */
export const GOLDEN_TIMEOUT_MS = 3000;

/**
 * Response headers never recorded: they vary between runs or between code versions by design.
 * `x-reports-build` hashes the program files (changes with any code change); `date`,
 * `connection`, `keep-alive` are transport; `last-modified` and `etag` of the explorer's static
 * files derive from file modification times (a checkout or copy changes them).
 */
export const VOLATILE_HEADERS: ReadonlySet<string> = new Set(['x-reports-build', 'date', 'connection', 'keep-alive', 'last-modified', 'etag']);

/**
 * The golden registry (a copy of the /pipeline tests' fixture plus a few studies of its own, so
 * that the recording does not change when those tests change their fixture): the Pfizer family
 * and its near-misses, role cases, a hostile title, and a Merck family.
 */
export const GOLDEN_STUDIES: StudySpec[] = [
  { nct: 'NCT00000001', lead: 'Pfizer', status: 'RECRUITING', phases: ['PHASE3'], title: 'Pfizer phase 3 recruiting' },
  { nct: 'NCT00000002', lead: 'Pfizer Inc.', status: 'NOT_YET_RECRUITING', phases: ['PHASE1', 'PHASE2'] },
  { nct: 'NCT00000003', lead: 'Pfizer', status: 'COMPLETED', phases: ['PHASE2'] },
  { nct: 'NCT00000004', lead: 'Pfizer', status: 'ACTIVE_NOT_RECRUITING' },
  { nct: 'NCT00000005', lead: 'Pfizer', status: 'ENROLLING_BY_INVITATION', phases: ['EARLY_PHASE1'] },
  { nct: 'NCT00000006', lead: 'Pfizer', status: 'TERMINATED', phases: ['PHASE4'] },
  { nct: 'NCT00000007', lead: 'Pfizer', status: 'RECRUITING', phases: ['NA'] },
  { nct: 'NCT00000008', lead: 'Pfizerville Biologics', status: 'RECRUITING', phases: ['PHASE3'] },
  { nct: 'NCT00000009', lead: 'Acme University', collaborators: ['Pfizer'], status: 'RECRUITING', phases: ['PHASE2'] },
  { nct: 'NCT00000010', lead: 'Pfizer', collaborators: ['Pfizer Inc.'], status: 'RECRUITING', phases: ['PHASE3'] },
  { nct: 'NCT00000011', lead: 'Wyeth', status: 'RECRUITING', phases: ['PHASE3'] },
  { nct: 'NCT00000012', lead: 'Merck Sharp & Dohme LLC', collaborators: ['Pfizer'], status: 'COMPLETED', phases: ['PHASE3'] },
  { nct: 'NCT00000014', lead: 'Pfizer', status: 'RECRUITING', phases: ['PHASE2'], title: '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> & "quotes" | pipes' },
  { nct: 'NCT00000015', lead: 'Merck KGaA, Darmstadt, Germany', status: 'RECRUITING', phases: ['PHASE1'], start: '2023-05-17', title: 'Merck KGaA *bold* _under_ `tick` [link](x)' },
  { nct: 'NCT00000016', lead: 'Oncoimmune, Inc., a subsidiary of Merck & Co., Inc.', status: 'SUSPENDED', phases: ['PHASE2', 'PHASE3'], title: 'Ünïcödé título — naïve' },
  { nct: 'NCT00000017', lead: 'Merck Sharp & Dohme LLC', collaborators: ['Acme University'], status: 'WITHDRAWN', title: 'Merck withdrawn, no phase' },
];

/** A recorded body: the whole text when short, else its SHA-256, byte length and first characters. */
export type RecordedBody = { text: string } | { sha256: string; bytes: number; head: string };

/** A recorded answer. `headers` holds lower-case names in sorted order. */
export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body: RecordedBody;
}

/** One entry of golden.json: the request as listed and its recorded answer. */
export interface GoldenEntry {
  name: string;
  request: GoldenRequest;
  response: RecordedResponse;
}

/** The golden.json document. */
export interface GoldenFile {
  note: string;
  entries: GoldenEntry[];
}

/** The recorded form of a body (bytes as sent; text read as UTF-8). */
export function recordBody(raw: Buffer): RecordedBody {
  if (raw.length < FULL_BODY_MAX_BYTES) return { text: raw.toString('utf8') };
  return { sha256: createHash('sha256').update(raw).digest('hex'), bytes: raw.length, head: raw.toString('utf8').slice(0, BODY_HEAD_CHARS) };
}

function headerText(value: string | string[] | number | undefined): string {
  return Array.isArray(value) ? value.join('\n') : String(value);
}

/** The app and fake registry of a golden run. */
export interface GoldenHarness {
  app: FastifyInstance;
  fake: FakeCtgov;
  /** Runs one request (registry faults set for it alone) and returns its full recorded form. */
  capture(request: GoldenRequest): Promise<RecordedResponse>;
  close(): Promise<void>;
}

/** Starts the fake registry and the app over the default store at `storePath` (CTGOV_* set only while the app reads them). */
export async function startGoldenHarness(storePath: string): Promise<GoldenHarness> {
  const dir = mkdtempSync(path.join(tmpdir(), 'golden-registry-'));
  const fixture = path.join(dir, 'studies.json');
  writeFileSync(fixture, JSON.stringify(GOLDEN_STUDIES.map(apiStudy)));
  const fake = await FakeCtgov.start(fixture);
  const saved = { base: process.env.CTGOV_BASE_URL, timeout: process.env.CTGOV_TIMEOUT_MS };
  process.env.CTGOV_BASE_URL = fake.baseUrl;
  process.env.CTGOV_TIMEOUT_MS = String(GOLDEN_TIMEOUT_MS);
  let app: FastifyInstance;
  try {
    app = await buildApp({ storePath });
    await app.ready();
  } finally {
    restoreEnv('CTGOV_BASE_URL', saved.base);
    restoreEnv('CTGOV_TIMEOUT_MS', saved.timeout);
  }
  return {
    app,
    fake,
    async capture(request) {
      fake.reset();
      if (request.registry?.mode) fake.mode = request.registry.mode;
      if (request.registry?.maxPageSize) fake.maxPageSize = request.registry.maxPageSize;
      const res = await app.inject({
        method: request.method ?? 'GET',
        url: request.url,
        headers: request.headers,
        payload: request.payload,
      });
      fake.reset();
      const headers: Record<string, string> = {};
      for (const name of Object.keys(res.headers).sort()) {
        if (!VOLATILE_HEADERS.has(name)) headers[name] = headerText(res.headers[name]);
      }
      return { status: res.statusCode, headers, body: recordBody(res.rawPayload) };
    },
    async close() {
      await app.close();
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/** Names of the requests, checked unique (the recording and the test are keyed by them). */
export function uniqueNames(requests: readonly GoldenRequest[]): string[] {
  const names = requests.map(requestName);
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) throw new Error(`duplicate golden request name: ${n}`);
    seen.add(n);
  }
  return names;
}
