/**
 * The default store's cache key (src/cache/key.ts): the folder from the environment;
 * the key changes with an input file's bytes and with the analyses, not with a README; the code
 * digested is the transitive imports of the builder's entry (from src/ or dist/ alike): every file
 * of the ground floor but the shared CSV cell writer, and every file of the ingest wing the build
 * runs; editing a serve-only file leaves the key unchanged, editing a file the build runs changes it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { appendFile, copyFile, cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_ENTRY, buildCodeDigest, buildCodeFiles } from '../../src/cache/build-code.js';
import { cacheDir, cacheEntry, cacheKey, DEFAULT_VAERS_DIR } from '../../src/cache/key.js';

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

  it('the code digested is the build\'s import graph: the ground floor the build uses and the ingest wing, nothing served', async () => {
    const files = await buildCodeFiles(SRC);
    expect(BUILD_ENTRY).toBe('ingest/mining/build.ts');
    expect(readFileSync(join(SRC, 'cache/build-child.ts'), 'utf8')).toContain("import { buildStore } from '../ingest/mining/build.js';");
    expect([...new Set(files.map((f) => f.split('/')[0]))].sort()).toEqual(['domain', 'ingest', 'stats']);
    expect(files).toContain('domain/analysis-rules.ts');
    // The worker threads' entries, started by URL (pool.ts, linkage-step.ts), are followed too.
    expect(files).toEqual(expect.arrayContaining(['ingest/mining/worker-boot.mjs', 'ingest/mining/worker.ts', 'ingest/mining/linkage-worker.ts']));
    // The ground floor is what the build uses: every domain file but the CSV cell writer, which the
    // build's `score` command and the serve wing share (docs/architecture.md).
    const domain = (await readdir(join(SRC, 'domain'))).filter((f) => f.endsWith('.ts')).map((f) => `domain/${f}`);
    expect(domain.filter((f) => !files.includes(f))).toEqual(['domain/csv-cell.ts']);
  });

  it('editing a serve-only file leaves the key unchanged; editing a file the build runs changes it', async () => {
    const copy = await mkdtemp(join(tmpdir(), 'rs-key-src-'));
    try {
      await cp(SRC, copy, { recursive: true });
      const base = await buildCodeDigest(copy);
      expect(base).toBe(await buildCodeDigest(SRC));
      for (const served of ['serve/query/error-object.ts', 'serve/signals/pair.ts', 'http/app.ts', 'domain/csv-cell.ts']) {
        await appendFile(join(copy, served), '\n// edited\n');
        expect(await buildCodeDigest(copy), served).toBe(base);
      }
      await appendFile(join(copy, 'domain/quarter.ts'), '\n// edited\n');
      const edited = await buildCodeDigest(copy);
      expect(edited).not.toBe(base);
      await appendFile(join(copy, 'ingest/mining/worker.ts'), '\n// edited\n');
      expect(await buildCodeDigest(copy)).not.toBe(edited);
    } finally {
      await rm(copy, { recursive: true, force: true });
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
