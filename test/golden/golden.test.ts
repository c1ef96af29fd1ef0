/**
 * Golden test: every request of requests.ts, replayed against the current code over the
 * committed default store and the golden fake registry (harness.ts), must give the answer
 * recorded in golden.json (written by record.ts on the pre-refactor code): the same status,
 * the same value of every recorded header, and the same body (whole text, or SHA-256 + byte
 * length + first characters for bodies of 2048 bytes or more).
 *
 * Headers present now but absent from the recording are allowed: later issues add headers
 * (for example X-REPORTS-Analysis or ETag), and volatile ones (X-REPORTS-Build, Date, ...)
 * are never recorded. A recorded header that disappears or changes value is a failure.
 *
 * One test per request, named by the request, so a run lists every mismatch at once.
 * The store is the run's default store (test/global-setup.ts builds it from data/vaers once);
 * without data/vaers the test skips with a message.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GOLDEN_FILE,
  startGoldenHarness,
  uniqueNames,
  type GoldenFile,
  type GoldenHarness,
  type RecordedResponse,
} from './harness.js';
import { GOLDEN_REQUESTS } from './requests.js';
import { DEFAULT_STORE, hasDefaultStore } from '../helpers/default-store.js';

const RERECORD = 'record it on the reference code with: npx tsx test/golden/record.ts';
const golden = JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as GoldenFile;
const recorded = new Map(golden.entries.map((e) => [e.name, e]));
const names = uniqueNames(GOLDEN_REQUESTS);

/** The actual answer reduced to what the recording holds: its headers only (absent = null). */
function comparable(actual: RecordedResponse, expected: RecordedResponse): { status: number; headers: Record<string, string | null>; body: RecordedResponse['body'] } {
  const headers: Record<string, string | null> = {};
  for (const name of Object.keys(expected.headers)) headers[name] = actual.headers[name] ?? null;
  return { status: actual.status, headers, body: actual.body };
}

describe.skipIf(!hasDefaultStore('golden answers'))('golden answers (byte-identical behaviour across the refactor)', () => {
  let harness: GoldenHarness;
  beforeAll(async () => {
    harness = await startGoldenHarness(DEFAULT_STORE!);
  });
  afterAll(async () => { await harness?.close(); });

  it('golden.json records exactly the listed requests, in order', () => {
    expect(golden.entries.map((e) => e.name), RERECORD).toEqual(names);
  });

  GOLDEN_REQUESTS.forEach((request, i) => {
    it(names[i], async () => {
      const entry = recorded.get(names[i]);
      if (!entry) throw new Error(`no recording for this request; ${RERECORD}`);
      expect(entry.request, `the request differs from its recording; ${RERECORD}`).toEqual(request);
      const actual = await harness.capture(request);
      expect(comparable(actual, entry.response)).toEqual(entry.response);
    });
  });
});
