/**
 * The default store's cache key (src/cache/key.ts): the folder from the environment;
 * the key changes with an input file's bytes and with the analyses, not with a README; the code
 * digested is the sources of the ground floor and the ingest wing (from src/ or dist/ alike), and none of
 * the digested modules imports a module left out (else a change there could change the store
 * under an unchanged key).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_FOLDERS, buildCodeFiles, cacheDir, cacheEntry, cacheKey, DEFAULT_VAERS_DIR } from '../../src/cache/key.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-key-'));
  for (const name of (await readdir(DEFAULT_VAERS_DIR)).filter((n) => n.startsWith('1990'))) await copyFile(join(DEFAULT_VAERS_DIR, name), join(dir, name));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the cache folder', () => {
  it('REPORTING_SIGNALS_CACHE_DIR, else XDG_CACHE_HOME/reporting-signals, else ~/.cache/reporting-signals (empty values unset)', () => {
    expect(cacheDir({ REPORTING_SIGNALS_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' }, '/h')).toBe('/c');
    expect(cacheDir({ REPORTING_SIGNALS_CACHE_DIR: '', XDG_CACHE_HOME: '/x' }, '/h')).toBe('/x/reporting-signals');
    expect(cacheDir({}, '/h')).toBe('/h/.cache/reporting-signals');
    expect(cacheEntry('/c', 'abc')).toEqual({ dir: '/c', store: '/c/default-abc.duckdb', lock: '/c/default-abc.lock', progress: '/c/default-abc.progress.json' });
  });
});

describe('the key', () => {
  it('digests each input file, the analyses and the code; a README does not count', async () => {
    const base = await cacheKey(dir, ['all']);
    expect(base.key).toMatch(/^[0-9a-f]{16}$/);
    expect(base.inputs.map((i) => i.name)).toEqual(['1990VAERSDATA.csv.gz', '1990VAERSSYMPTOMS.csv.gz', '1990VAERSVAX.csv.gz']);
    expect((await cacheKey(dir, ['all'])).key).toBe(base.key);
    expect((await cacheKey(dir, ['all', 'serious'])).key).not.toBe(base.key);
    await writeFile(join(dir, 'README.md'), 'notes');
    expect((await cacheKey(dir, ['all'])).key).toBe(base.key);
    await writeFile(join(dir, '1991VAERSVAX.csv'), 'VAERS_ID\n');
    expect((await cacheKey(dir, ['all'])).key).not.toBe(base.key);
    await rm(join(dir, '1991VAERSVAX.csv'));
    await expect(cacheKey(join(dir, 'absent'))).rejects.toThrow(`cannot read the VAERS folder ${join(dir, 'absent')}`);
  });

  it('the code digested is exactly the sources of domain, stats and ingest; no digested module imports one left out', async () => {
    const files = await buildCodeFiles();
    expect(BUILD_FOLDERS).toEqual(['domain', 'stats', 'ingest']);
    expect([...new Set(files.map((f) => f.split('/')[0]))].sort()).toEqual(['domain', 'ingest', 'stats']);
    expect(files).toContain('domain/analysis-rules.ts');
    expect(files).toContain('ingest/mining/worker-boot.mjs');
    expect(files.some((f) => f.startsWith('serve/') || f.startsWith('http/') || f.startsWith('cache/'))).toBe(false);
    for (const file of files) {
      const text = readFileSync(join(SRC, file), 'utf8');
      for (const [, target] of text.matchAll(/from '(\.[^']+)'/g)) {
        const resolved = new URL(target, `file://${join(SRC, file)}`).pathname.slice(SRC.length);
        expect(BUILD_FOLDERS.includes(resolved.split('/')[0]), `${file} imports ${target}`).toBe(true);
      }
    }
  });

  it('with an analysis of event groups, digests the shipped grouping file data/event-groups/aesi.csv', async () => {
    const shipped = createHash('sha256').update(readFileSync(new URL('../../data/event-groups/aesi.csv', import.meta.url))).digest('hex');
    expect((await cacheKey(dir, ['all'])).event_groups).toBeUndefined();
    const grouped = await cacheKey(dir, ['all', 'groups']);
    expect(grouped.event_groups).toBe(shipped);
    expect((await cacheKey(dir, ['all', 'serious@groups'])).event_groups).toBe(shipped);
  });

  it('is the same whether the program runs from src/ (tsx) or dist/: it digests the sources', async () => {
    const fromSrc = await cacheKey(dir, ['all']);
    const dist = await import(new URL('../../dist/cache/key.js', import.meta.url).href) as typeof import('../../src/cache/key.js');
    expect((await dist.cacheKey(dir, ['all'])).key).toBe(fromSrc.key);
  });
});
