/**
 * Issue 35 item 4 in-process: a swap keeps what the store served (a replacement that drops an
 * analysis or the narratives is refused unless forced), `build --like` reads what to build from the
 * served store, and every request is answered from one store generation: after `mv` puts a new file
 * at the served path and before any reload, what the server reads at request time still comes from
 * the store it loaded, under its build id.
 */
import { join } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { likeOptions } from '../../src/commands/build-like.js';
import { buildServedApp } from '../../src/http/app.js';
import type { LiveStore } from '../../src/http/live-store.js';
import { buildStore } from '../../src/ingest/mining/build.js';
import { readStoreMeta } from '../../src/serve/store/serving.js';
import { CASE_NARRATIVES, writeCaseFolder } from '../serve/cases/fixture.js';
import { buildTwoStores, replaceStore, type TwoStores } from './stores.js';

let stores: TwoStores;
let dir: string;
/** all,serious with narratives; serious,all... the variants a swap is checked against. */
const built: Record<string, string> = {};

beforeAll(async () => {
  stores = await buildTwoStores();
  dir = await mkdtemp(join(tmpdir(), 'rs-swap-'));
  const vaers = await writeCaseFolder(join(dir, 'vaers'), CASE_NARRATIVES);
  for (const [name, analyses, narratives] of [['full', 'all,serious', true], ['allOnly', 'all', true], ['noText', 'all,serious', false]] as const) {
    built[name] = join(dir, `${name}.duckdb`);
    await buildStore({ vaers, out: built[name], analyses, narratives, workers: 1 });
  }
}, 300_000);

afterAll(async () => {
  await rm(stores.dir, { recursive: true, force: true });
  await rm(dir, { recursive: true, force: true });
});

describe('a swap keeps what the store served', () => {
  let app: FastifyInstance;
  let live: LiveStore;
  beforeAll(async () => {
    ({ app, live } = await buildServedApp({ storePath: built.full }));
    await live.current!.complete;
  });
  afterAll(async () => { await app.close(); });

  it('a store without one of the served analyses is refused with a message naming it; the current store keeps serving', async () => {
    const before = live.current!.storeId;
    const result = await live.reload(built.allOnly);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/would drop what the current store serves \(analyses serious\); build it with "reporting-signals build --vaers DIR --like .*full\.duckdb --out FILE", or force the swap with SIGUSR2/);
    expect(live.current!.storeId).toBe(before);
    expect((await app.inject('/analyses/serious/signals?vaccine=ROTAVIRUS')).statusCode).toBe(200);
  });

  it('a store without the narratives is refused (text search would answer 400)', async () => {
    const result = await live.reload(built.noText);
    expect(!result.ok && result.error).toMatch(/\(the narratives\)/);
    expect((await app.inject('/cases?text=intussusception')).statusCode).toBe(200);
  });

  it('forced, the swap goes ahead', async () => {
    const result = await live.reload(built.allOnly, { force: true });
    expect(result.ok).toBe(true);
    expect(live.current!.analyses.names).toEqual(['all']);
    expect((await app.inject('/analyses/serious/signals?vaccine=ROTAVIRUS')).statusCode).toBe(404);
  });
});

describe('build --like STORE', () => {
  it('reads the analyses (the default first), strata, narratives and non-domestic choice from the store', async () => {
    expect(await likeOptions(built.full)).toEqual({ analyses: 'all,serious', narratives: true, includeNondomestic: false, strata: 'sex,age6,year' });
    expect(await likeOptions(built.noText)).toMatchObject({ analyses: 'all,serious', narratives: false });
    const again = join(dir, 'like.duckdb');
    await buildStore({ vaers: join(dir, 'vaers'), out: again, workers: 1, ...(await likeOptions(built.full)) });
    const [a, b] = [await readStoreMeta(built.full), await readStoreMeta(again)];
    expect(b.parameters).toEqual(a.parameters);
    expect(b.analyses?.map((x) => x.name)).toEqual(['all', 'serious']);
  }, 120_000);

  it('refuses a file that is not a store', async () => {
    await expect(likeOptions(join(dir, 'missing.duckdb'))).rejects.toThrow(/build --like .*missing\.duckdb/);
  });
});

describe('one generation per request', () => {
  it('after mv and before the reload, the fitted windows read at request time come from the loaded store, under its build id', async () => {
    const served = join(stores.dir, 'generation.duckdb');
    await replaceStore(stores.older, served);
    const { app, live } = await buildServedApp({ storePath: served });
    try {
      await live.current!.complete;
      const build = live.current!.build;
      // The newer store (through 2001Q4) takes the path; no reload yet.
      await replaceStore(stores.newer, served);
      const res = await app.inject('/analyses/all');
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-reports-build']).toBe(build);
      const quarters = (res.json().fits as Array<{ quarter: string }>).map((w) => w.quarter);
      expect(quarters.length).toBeGreaterThan(0);
      expect(quarters.at(-1)).toBe('2000Q3');
      expect(res.json().reports_through).toBe('2000Q3');
      // After the reload: the new store, its windows and its build id.
      expect((await live.reload()).ok).toBe(true);
      const after = await app.inject('/analyses/all');
      expect(after.headers['x-reports-build']).not.toBe(build);
      expect((after.json().fits as Array<{ quarter: string }>).at(-1)!.quarter).toBe('2001Q4');
    } finally {
      await app.close();
    }
  }, 120_000);
});
