/**
 * Every citation names something that exists (issue 28: "the design is cited but absent"):
 * - every repository path cited in a comment of src/, test/ or bench/ and anywhere in README.md
 *   and docs/*.md (`docs/...`, `src/...`, `test/...`, `data/...`, `bench/...`, `public/...`)
 *   exists, and every relative Markdown link of the pages resolves to a file;
 * - every "spec N.N" (also "Spec", "spec sections 1, 2, 4.1", "spec 4.2, 7") in the code and the
 *   pages names a section of docs/spec.md (the specification, its numbers kept);
 * - every `docs/design.md "Section"` names a heading of docs/design.md;
 * - nothing cites the design, the reference notes or the specification by a name that is not in
 *   the repository (the old design and reference files of the shared folder, a spec folder under
 *   src), save the one served sentence below.
 * Comments are read with the TypeScript parser, so a path in a string (a fixture's name) is not a
 * citation.
 */
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';
import { docPages } from '../helpers/recipes.js';

/** Source files under `dir` (relative to the repository root), recursively. */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sources(rel));
    else if (/\.(ts|mjs|js)$/.test(entry.name)) out.push(rel);
  }
  return out.sort();
}

/** This file (it spells the names it looks for). */
const SELF = 'test/docs/citations.test.ts';
const CODE = [...sources('src'), ...sources('test'), ...sources('bench')];
const PAGES = docPages();
const text = (file: string): string => readFileSync(path.join(REPO_ROOT, file), 'utf8');

/** The comments of a TypeScript or JavaScript file, each with its 1-based line. */
function comments(file: string): Array<{ line: number; text: string }> {
  const source = text(file);
  const parsed = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const seen = new Map<number, string>();
  const collect = (ranges: ts.CommentRange[] | undefined): void => {
    for (const r of ranges ?? []) seen.set(r.pos, source.slice(r.pos, r.end));
  };
  const visit = (node: ts.Node): void => {
    collect(ts.getLeadingCommentRanges(source, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(source, node.getEnd()));
    node.forEachChild(visit);
  };
  visit(parsed);
  collect(ts.getLeadingCommentRanges(source, parsed.endOfFileToken.getFullStart()));
  return [...seen].sort((a, b) => a[0] - b[0]).map(([pos, body]) => ({ line: parsed.getLineAndCharacterOfPosition(pos).line + 1, text: body }));
}

/** Repository paths cited in `body`: a top folder of the repository, then a path ending in a word character. */
const PATH_RE = /(?<![\w./~$-])((?:docs|src|test|data|bench|public)\/[\w./@-]*\w)/g;

/** Where each cited path that does not exist is cited. */
function missingPaths(cites: Array<{ where: string; body: string }>): string[] {
  const missing: string[] = [];
  for (const { where, body } of cites) {
    for (const m of body.matchAll(PATH_RE)) if (!existsSync(path.join(REPO_ROOT, m[1]))) missing.push(`${where}: ${m[1]}`);
  }
  return missing;
}

/** "spec N.N" citations of `body`: the section numbers. */
function specSections(body: string): string[] {
  const out: string[] = [];
  const re = /\b[Ss]pec(?:ification)?(?:'s)?(?: sections?)? (\d+(?:\.\d+)?(?:(?:, | and |, and )\d+(?:\.\d+)?)*)/g;
  for (const m of body.matchAll(re)) out.push(...m[1].split(/, and |, | and /));
  return out;
}

/** The section numbers of docs/spec.md (`## 1. What ...`, `### 2.1 Pair ...`). */
const SPEC_SECTIONS = new Set([...text('docs/spec.md').matchAll(/^#{2,3} (\d+(?:\.\d+)?)[. ]/gm)].map((m) => m[1]));
/** The headings of docs/design.md. */
const DESIGN_HEADINGS = [...text('docs/design.md').matchAll(/^#{1,3} (.+)$/gm)].map((m) => m[1]);

const CODE_COMMENTS = CODE.flatMap((file) => comments(file).map((c) => ({ where: `${file}:${c.line}`, body: c.text })));
const PAGE_TEXTS = PAGES.map((page) => ({ where: page, body: text(page) }));


describe('citations in the code and the documentation', () => {
  it('the scan sees the comments of every source file and the pages', () => {
    expect(CODE.length).toBeGreaterThan(300);
    // About one comment per line that starts one (2,694 on this branch), plus trailing ones.
    expect(CODE_COMMENTS.length).toBeGreaterThan(2500);
    expect(CODE_COMMENTS.some((c) => c.where.startsWith('src/domain/quarter.ts:') && c.body.includes('`emerging` in /signals'))).toBe(true);
    expect(comments('test/docs/citations.test.ts').some((c) => c.text.includes("'src/serve/x.ts'"))).toBe(false);
    expect(PAGES).toEqual(expect.arrayContaining(['README.md', 'docs/design.md', 'docs/spec.md', 'docs/reference-data.md', 'docs/glossary.md']));
    expect(SPEC_SECTIONS).toEqual(new Set(['1', '2', '2.1', '2.2', '2.3', '2.4', '2.5', '2.6', '3', '4', '4.1', '4.2', '5', '6', '7', '8', '9']));
    // The extraction itself, on a known comment and a string that is not one.
    expect(missingPaths([{ where: 'x', body: '(src/domain/quarter.ts, src/nowhere.ts, ../shared/data/vaers, `dist/cli.js`)' }])).toEqual(['x: src/nowhere.ts']);
    expect(specSections('spec 2.1; Spec 4.1, 9; spec sections 1, 2, 4.1; spec 4.2 and 7')).toEqual(['2.1', '4.1', '9', '1', '2', '4.1', '4.2', '7']);
  });

  it('every repository path cited in a comment or a page exists', () => {
    expect(missingPaths([...CODE_COMMENTS, ...PAGE_TEXTS])).toEqual([]);
  });

  it('every relative link of README.md and docs/*.md resolves to a file of the repository', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      for (const m of text(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1].split('#')[0];
        if (target === '' || /^[a-z]+:/.test(target)) continue;
        const resolved = path.join(REPO_ROOT, path.dirname(page), target);
        if (!existsSync(resolved) || !statSync(resolved).isFile() && !statSync(resolved).isDirectory()) broken.push(`${page}: ${m[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every "spec N.N" in the code and the pages is a section of docs/spec.md', () => {
    const cited = [...CODE.map((file) => ({ where: file, body: text(file) })), ...PAGE_TEXTS.filter((p) => p.where !== 'docs/spec.md')]
      .flatMap(({ where, body }) => specSections(body).map((section) => ({ where, section })));
    expect(cited.length).toBeGreaterThan(200);
    expect(cited.filter((c) => !SPEC_SECTIONS.has(c.section))).toEqual([]);
  });

  it('every docs/design.md "Section" names a heading of docs/design.md', () => {
    const cited = [...CODE.filter((f) => f !== SELF).map((file) => ({ where: file, body: text(file) })), ...PAGE_TEXTS]
      .flatMap(({ where, body }) => [...body.matchAll(/design\.md "([^"]+)"/g)].map((m) => ({ where, section: m[1].replace(/\s*\n\s*\*?\s*/g, ' ') })));
    expect(cited.length).toBeGreaterThan(15);
    expect(cited.filter((c) => !DESIGN_HEADINGS.some((h) => h.startsWith(c.section)))).toEqual([]);
  });

  it('nothing cites DESIGN.md, REFERENCE.md or src/spec', () => {
    const old = /\b(DESIGN\.md|REFERENCE\.md)\b|\bsrc\/spec\b/;
    const hits = [...CODE.filter((f) => f !== SELF).map((file) => ({ where: file, body: text(file) })), ...PAGE_TEXTS]
      .flatMap(({ where, body }) => body.split('\n').flatMap((line, i) => (old.test(line) ? [`${where}:${i + 1}: ${line.trim()}`] : [])));
    expect(hits).toEqual([]);
  });
});
