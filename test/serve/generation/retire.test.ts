/**
 * A retired store generation (src/serve/generation/generation.ts `retire`, after a swap) closes
 * once no request holds it, and then, once, a full garbage collection runs (collect.ts), so that
 * what it held goes at once: not while a request holds it, not twice, not for a generation closed
 * without being retired (a shutdown).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildStore } from '../../../src/ingest/mining/build.js';
import type { Generation } from '../../../src/serve/generation/generation.js';
import { loadGeneration } from '../../../src/serve/generation/load.js';
import { writeCaseFolder } from '../cases/fixture.js';

const collected = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../src/serve/generation/collect.js', () => ({ collectGarbage: () => { collected.count++; return true; } }));

/** The store loaded whole as a generation. */
async function loaded(store: string): Promise<Generation> {
  const generation = await loadGeneration(store);
  await generation.complete;
  return generation;
}

/** Waits for the timer that follows a retired generation's close. */
const settled = (): Promise<void> => new Promise((done) => setTimeout(done, 50));

describe('a retired generation', () => {
  let dir: string;
  let store: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rs-retire-'));
    store = path.join(dir, 'store.duckdb');
    await buildStore({ vaers: await writeCaseFolder(path.join(dir, 'vaers')), out: store, workers: 1 });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(() => { collected.count = 0; });

  it('closes, then has its memory collected once, even when retired twice', async () => {
    const generation = await loaded(store);
    generation.retire();
    generation.retire();
    await generation.close();
    await settled();
    expect(collected.count).toBe(1);
  });

  it('waits for the last request that holds it', async () => {
    const generation = await loaded(store);
    generation.acquire();
    generation.retire();
    await settled();
    expect(collected.count).toBe(0);
    generation.release();
    await generation.close();
    await settled();
    expect(collected.count).toBe(1);
  });

  it('closed without being retired (a shutdown): nothing collected', async () => {
    const generation = await loaded(store);
    await generation.close();
    generation.retire();
    await settled();
    expect(collected.count).toBe(0);
  });
});
