/**
 * The shell recipes of the documentation (README.md and docs/*.md), as the tests run them
 * verbatim. A recipe is a fenced block whose language is `sh`, `bash` or `shell`; every other
 * fence (`text`, `json`, `markdown`, ...) is output and is not run. The line directly above a
 * recipe's fence may mark it with an HTML comment (invisible on the rendered page):
 * - `<!-- recipe: ID -->`: run by the test that calls `recipe(PAGE, 'ID')` (test/docs/recipes.test.ts
 *   checks that such a call exists);
 * - `<!-- recipe: not run -->`: not run by any test; the page says why on the line after the block,
 *   which starts with "Not run by the tests:".
 * An unmarked recipe must consist of `curl` lines (and `#` comments): test/docs/recipes.test.ts
 * runs each against a server on the default store, expecting 200 or the status the line's comment
 * starts with (`curl -i '...'   # 400 with allowed formats`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './paths.js';


/** A fenced block of a documentation page. */
export interface DocBlock {
  /** The page, relative to the repository root (`README.md`, `docs/api.md`). */
  readonly page: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The fence's language (`sh`, `text`, ...; '' when none). */
  readonly lang: string;
  /** The marker's value (`weekly`, `not run`), or null when unmarked. */
  readonly marker: string | null;
  /** The block's text between the fences, with its final newline. */
  readonly text: string;
  /** The line after the closing fence ('' at the end of the page). */
  readonly after: string;
}

/** The languages of a recipe fence. */
export const SHELL_LANGS: ReadonlySet<string> = new Set(['sh', 'bash', 'shell']);

/** The documentation pages: README.md and every docs/*.md, sorted. */
export function docPages(): string[] {
  const docs = readdirSync(path.join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

/** Every fenced block of `page` (relative to the repository root). Throws on an unclosed fence. */
export function docBlocks(page: string): DocBlock[] {
  const lines = readFileSync(path.join(REPO_ROOT, page), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`${page}:${i + 1}: unclosed fence`);
    const mark = i > 0 ? /^<!-- recipe: (.+?) -->$/.exec(lines[i - 1]) : null;
    blocks.push({
      page, line: i + 1, lang: open[1], marker: mark ? mark[1] : null,
      text: lines.slice(i + 1, end).join('\n') + '\n', after: lines[end + 1] ?? '',
    });
    i = end;
  }
  return blocks;
}

/** The shell recipes of `page`. */
export function recipes(page: string): DocBlock[] {
  return docBlocks(page).filter((b) => SHELL_LANGS.has(b.lang));
}

/** The recipe of `page` marked `<!-- recipe: id -->`, its text as written. Throws when absent or repeated. */
export function recipe(page: string, id: string): string {
  const found = recipes(page).filter((b) => b.marker === id);
  if (found.length !== 1) throw new Error(`${page}: ${found.length} recipes marked "${id}" (want 1)`);
  return found[0].text;
}

/** The `curl` lines of a recipe's text, each with its continuation lines joined (comments dropped). */
export function curlLines(text: string): string[] {
  return text.replace(/\\\n/g, ' ').split('\n').filter((l) => /^curl\s/.test(l));
}

/** The URLs (path and query) of the `curl '<url>'` lines of `page` whose path starts with `prefix`. */
export function curlPaths(page: string, prefix: string): string[] {
  return recipes(page).flatMap((b) => curlLines(b.text))
    .map((l) => /'http:\/\/127\.0\.0\.1:8080(\/[^']*)'/.exec(l)?.[1])
    .filter((p): p is string => p !== undefined && p.startsWith(prefix));
}
