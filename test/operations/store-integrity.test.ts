/**
 * Issue 35 item 3 and the deterministic build id (item 7): a store is verified before it is served
 * as ready (every block of every table read at load, so DuckDB checks every checksum), a storage
 * failure at request time answers 503 with the Error object and marks the server not ready, and
 * two builds of the same inputs by the same code have the same `store_build`. On small stores
 * built by the real build from the case-series fixture (test/serve/cases/fixture.ts).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, open, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { buildServedApp } from '../../src/http/app.js';
import { storeBuildId } from '../../src/serve/generation/identity.js';
import { buildStore } from '../../src/ingest/mining/build.js';
import { readStoreMeta } from '../../src/serve/store/serving.js';
import { writeCaseFolder } from '../serve/cases/fixture.js';
import { writeTriageStore } from '../serve/triage/fixture.js';

let dir: string;
let store: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-integrity-'));
  const vaers = await writeCaseFolder(join(dir, 'vaers'));
  store = join(dir, 'store.duckdb');
  await buildStore({ vaers, out: store, analyses: 'all,serious', workers: 1, narratives: true });
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Overwrites `length` bytes of the file at `path` at `offset` with random bytes, in place (the same inode). */
async function corrupt(path: string, offset: number, length = 4096): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.write(randomBytes(length), 0, length, offset);
  } finally {
    await handle.close();
  }
}

/** DuckDB's file layout (storage version of @duckdb/node-api 1.x): three 4 KB headers, then 256 KB blocks. */
const HEADERS = 12_288;
const BLOCK = 262_144;

/** Every quarter from `first` to `last` (`YYYYQn`). */
function quarters(first: string, last: string): string[] {
  const out: string[] = [];
  for (let y = Number(first.slice(0, 4)), q = Number(first[5]); `${y}Q${q}` <= last; q === 4 ? (y++, q = 1) : q++) out.push(`${y}Q${q}`);
  return out;
}

describe('a corrupt store is never served as ready', () => {
  it.each([['the case fixture (report tables, windows)', 'case'], ['the triage fixture (quarterly rows)', 'triage']])('%s: 4 KB overwritten in every block of the file: the load fails (not ready), or every request reading the store answers 200', async (_name, kind) => {
    const source = kind === 'case' ? store : await writeTriageStore();
    const size = (await stat(source)).size;
    // A DuckDB file is three 4 KB headers, then blocks of 256 KB, each with its checksum: every block is
    // overwritten once, at one of its eight 32 KB places in turn, so that the blocks together cover every
    // place a block has (one served load per block; every 32 KB of the file loaded once each took 8x as long).
    const offsets: number[] = [];
    for (let block = 0; HEADERS + block * BLOCK < size; block++) offsets.push(Math.min(HEADERS + block * BLOCK + (block % 8) * 32_768, size - 4096));
    expect(offsets.length).toBe(Math.ceil((size - HEADERS) / BLOCK));
    expect(offsets.length).toBeGreaterThan(3);
    let caught = 0;
    for (const offset of offsets) {
      const copy = join(dir, `corrupt-${offset}.duckdb`);
      await copyFile(source, copy);
      await corrupt(copy, offset);
      const { app, live } = await buildServedApp({ storePath: copy });
      try {
        await live.current?.complete.catch(() => undefined);
        const ready = await app.inject('/readyz');
        if (ready.statusCode !== 200) {
          caught++;
          expect(ready.statusCode, `offset ${offset}`).toBe(503);
          expect(ready.json()).toMatchObject({ error: expect.any(String), hypothesis: HYPOTHESIS });
          continue;
        }
        // Served as ready: then nothing it holds may fail.
        const through = ready.json().reports_through as string;
        for (const analysis of kind === 'case' ? ['all', 'serious'] : ['all']) {
          for (const quarter of quarters(kind === 'case' ? '2000Q1' : '2005Q1', through)) {
            const res = await app.inject(`/analyses/${analysis}/triage?quarter=${quarter}`);
            expect(res.statusCode === 200 || res.statusCode === 400, `offset ${offset}: ${analysis} ${quarter}: ${res.statusCode} ${res.body.slice(0, 200)}`).toBe(true);
          }
          expect((await app.inject(`/analyses/${analysis}`)).statusCode, `offset ${offset}`).toBe(200);
        }
        if (kind === 'case') expect((await app.inject('/cases?text=intussusception')).statusCode, `offset ${offset}`).toBe(200);
      } finally {
        await app.close();
        await rm(copy, { force: true });
      }
    }
    // The offsets in used blocks are caught at load (the rest fall on free space or unused padding).
    expect(caught).toBeGreaterThan(0);
  }, 300_000);

  it('a store corrupted after it loaded: the request that reads it answers 503 with the Error object, /readyz 503, and the failure is reported once', async () => {
    // The triage fixture: quarterly rows 2005Q1-2006Q4 (the case fixture is too small to have any).
    const copy = join(dir, 'later.duckdb');
    await copyFile(await writeTriageStore(), copy);
    const { app, live } = await buildServedApp({ storePath: copy });
    const reported: string[] = [];
    live.onBroken = (path, message) => reported.push(`${path}: ${message}`);
    try {
      await live.current!.complete;
      expect((await app.inject('/readyz')).statusCode).toBe(200);
      expect(existsSync(`${copy}.verified`)).toBe(true); // read whole once, stamped
      // Every data block overwritten in place (the served generation holds this inode open).
      const size = (await stat(copy)).size;
      for (let offset = 12_288; offset < size; offset += 4096) await corrupt(copy, offset);
      const res = await app.inject('/analyses/all/triage?quarter=2006Q3');
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toEqual({ error: expect.stringMatching(/could not be read .*not ready/), hypothesis: HYPOTHESIS });
      expect(res.headers['retry-after']).toBeDefined();
      const ready = await app.inject('/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json().error).toMatch(/could not be read/);
      expect((await app.inject('/analyses/all/triage?quarter=2006Q2')).statusCode).toBe(503);
      expect(reported).toHaveLength(1);
      expect(reported[0]).toContain(copy);
      // No longer known good: its stamp is gone, so a reload or restart reads it whole again.
      expect(existsSync(`${copy}.verified`)).toBe(false);
      // What it holds in memory still answers.
      expect((await app.inject('/signals?vaccine=MMR')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  }, 120_000);
});

describe('the narrative index file beside the store, read at request time', () => {
  it('cut short after it loaded: a text search and a report view answer 503 with the Error object, /readyz 503; a renamed-in file is never read', async () => {
    const copy = join(dir, 'texts.duckdb');
    await copyFile(store, copy);
    const first = await buildServedApp({ storePath: copy });
    await first.live.current!.complete;
    await first.app.close(); // wrote copy.narratives
    const { app, live } = await buildServedApp({ storePath: copy });
    const reported: string[] = [];
    live.onBroken = (path, message) => reported.push(`${path}: ${message}`);
    try {
      await live.current!.complete;
      const found = await app.inject('/cases?text=narrative');
      expect(found.statusCode).toBe(200);
      const ids = (found.json().reports as Array<{ vaers_id: number }>).map((r) => r.vaers_id);
      expect(ids.length).toBeGreaterThan(0);
      // Another file renamed onto the path: the served index still reads the file it checked.
      const file = `${copy}.narratives`;
      await copyFile(file, `${file}.old`);
      await writeFile(`${file}.new`, 'not an index');
      await rename(`${file}.new`, file);
      const again = await app.inject('/cases?text=narrative&limit=7');
      expect(again.statusCode).toBe(200);
      expect((again.json().reports as Array<{ vaers_id: number }>).map((r) => r.vaers_id)).toEqual(ids.slice(0, 7));
      // The checked file itself cut short (the same inode the server holds open): reading past the cut fails.
      await rename(`${file}.old`, file);
      const { app: app2, live: live2 } = await buildServedApp({ storePath: copy });
      live2.onBroken = (path, message) => reported.push(`${path}: ${message}`);
      try {
        await live2.current!.complete;
        await truncate(file, 64);
        const res = await app2.inject(`/reports/${ids[0]}`);
        expect(res.statusCode, res.body).toBe(503);
        expect(res.json()).toEqual({ error: expect.stringMatching(/narrative index .* could not be read.*truncated/), hypothesis: HYPOTHESIS });
        expect(res.headers['retry-after']).toBeDefined();
        const search = await app2.inject('/cases?text=narrative');
        expect(search.statusCode, search.body).toBe(503);
        expect(search.json().error).toMatch(/narrative index .* could not be read/);
        expect((await app2.inject('/readyz')).statusCode).toBe(503);
        expect(reported).toHaveLength(1);
        expect(reported[0]).toContain('truncated');
        // What does not read the file still answers.
        expect((await app2.inject('/signals?vaccine=MMR')).statusCode).toBe(200);
      } finally {
        await app2.close();
      }
    } finally {
      await app.close();
    }
  }, 120_000);
});

describe('deterministic store_build (issue 35 item 7)', () => {
  it('two builds of the same inputs by the same code have the same store_build; another input changes it', async () => {
    const again = join(dir, 'again.duckdb');
    await buildStore({ vaers: join(dir, 'vaers'), out: again, analyses: 'all,serious', workers: 1, narratives: true });
    const first = await readStoreMeta(store);
    const second = await readStoreMeta(again);
    expect(second.built_at).not.toBe(first.built_at);
    expect(storeBuildId(second)).toBe(storeBuildId(first));
    const other = join(dir, 'other.duckdb');
    await buildStore({ vaers: join(dir, 'vaers'), out: other, analyses: 'all', workers: 1, narratives: true });
    expect(storeBuildId(await readStoreMeta(other))).not.toBe(storeBuildId(first));
  }, 120_000);
});
