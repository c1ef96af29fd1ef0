/**
 * The official files shipped in data/vaers: every `.gz` named in data/vaers/README.md
 * is there with the SHA-256 and size the README gives, and no other file is (the default store's
 * cache key digests the folder, so a stray file would silently change it).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIR = fileURLToPath(new URL('../../data/vaers/', import.meta.url));
const README = readFileSync(join(DIR, 'README.md'), 'utf8');
const LISTED = [...README.matchAll(/^\| (\S+\.csv\.gz) \| (\d+) \| `([0-9a-f]{64})` \|$/gm)].map((m) => ({ file: m[1], bytes: Number(m[2]), sha256: m[3] }));

describe('data/vaers: the official 1990-2006 files and their README', () => {
  it('the README lists the 51 files (17 years x DATA, VAX, SYMPTOMS)', () => {
    expect(LISTED).toHaveLength(51);
    for (let year = 1990; year <= 2006; year++) {
      for (const kind of ['DATA', 'VAX', 'SYMPTOMS']) expect(LISTED.map((l) => l.file)).toContain(`${year}VAERS${kind}.csv.gz`);
    }
  });

  it('the folder holds exactly the listed files and the README', () => {
    expect(readdirSync(DIR).sort()).toEqual([...LISTED.map((l) => l.file), 'README.md'].sort());
  });

  it.each(LISTED)('$file has the size and SHA-256 of the README', ({ file, bytes, sha256 }) => {
    const data = readFileSync(join(DIR, file));
    expect(statSync(join(DIR, file)).size).toBe(bytes);
    expect(createHash('sha256').update(data).digest('hex')).toBe(sha256);
  });
});
