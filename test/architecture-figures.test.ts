/**
 * The figures docs/architecture.md states about the code are measured (scripts/architecture-figures.ts):
 * the page holds exactly what the script writes (files and lines of every folder of its map, every
 * folder listed, the golden request count), and the script's measures are exact on a small tree.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { figuresOf, goldenRequestCount, lineCount, mapFolders, PAGE, rewritePage, workingTree, type SourceFile } from '../scripts/architecture-figures.js';
import { GOLDEN_REQUESTS } from './golden/requests.js';

const REGENERATE = 'regenerate them with: npx tsx scripts/architecture-figures.ts --write';

describe('the figures of docs/architecture.md', () => {
  it('are those of the code: every folder of the map, measured, and the golden request count', async () => {
    const page = readFileSync(PAGE, 'utf8');
    expect(page, REGENERATE).toBe(rewritePage(page, workingTree(), await goldenRequestCount()));
    expect(page).toContain(`fixes the answers of ${GOLDEN_REQUESTS.length} requests`);
  });

  it('count lines as wc -l, the own files of a folder, and list every room', () => {
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(1);
    expect(lineCount('')).toBe(0);
    const files: SourceFile[] = [
      { path: 'src/serve/triage/rank.ts', text: 'x\ny\n' }, { path: 'src/serve/triage/service.ts', text: 'z\n' },
      { path: 'src/domain/quarter.ts', text: '1\n2\n3\n' }, { path: 'src/cli.ts', text: 'c\n' }, { path: 'public/js/app.js', text: 'j\n' },
    ];
    expect(figuresOf(files, 'src/serve/triage/')).toEqual({ files: 2, lines: 3 });
    expect(figuresOf(files, 'src/serve/')).toEqual({ files: 0, lines: 0 });
    expect(mapFolders(files)).toEqual(['public/js/', 'src/cli.ts', 'src/domain/', 'src/serve/triage/']);
  });

  it('rewrite a stale figure, and refuse a map that leaves a folder out', () => {
    const files: SourceFile[] = [{ path: 'src/domain/quarter.ts', text: '1\n2\n' }, { path: 'src/serve/triage/rank.ts', text: 'x\n' }];
    const page = ['# A', '```text', 'src/domain/       (9 files, 1,000 lines)  the words', 'src/serve/        answers', '  triage/         ( 3 files,    10 lines)  /triage', '```', 'test/golden fixes the answers of 1 requests'].join('\n');
    expect(rewritePage(page, files, 308).split('\n').slice(2, 5).concat(rewritePage(page, files, 308).split('\n')[6])).toEqual([
      'src/domain/       ( 1 file,      2 lines)  the words', 'src/serve/        answers', '  triage/         ( 1 file,      1 lines)  /triage', 'test/golden fixes the answers of 308 requests',
    ]);
    expect(() => rewritePage(page, [...files, { path: 'src/serve/generation/generation.ts', text: '' }], 308)).toThrow('the map does not list src/serve/generation/');
  });
});
