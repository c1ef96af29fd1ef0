/**
 * The shape of the house (docs/architecture.md: two wings over a ground floor), checked over the
 * import graph of src/: every `import ... from '...'`, `export ... from '...'`, side-effect
 * `import '...'` and literal dynamic `import('...')` of every src/**\/*.ts file, parsed with a
 * regular expression (type-only imports count too: a cycle of types still ties the modules
 * together); relative paths are resolved to files, other specifiers are packages.
 * (a) no import cycle anywhere in src/, between files nor between rooms (a folder of a wing, a
 *     top folder, or a file directly in src/): `serve/cases` -> `serve/signals` and back is a
 *     cycle of the house even when no file cycle closes it;
 * (b) nothing imports from src/http but src/http itself, src/commands and src/cli.ts (the server
 *     assembly sits on top; the `serve` command starts it);
 * (c) each floor imports only what it may (MAY_IMPORT): src/domain nothing else, src/stats only
 *     src/domain, src/ingest and src/serve the ground floor and never each other, src/cache the
 *     ground floor and src/ingest; the only file directly in src/ is cli.ts; the /pipeline room
 *     (src/serve/pipeline, no store) only itself, src/serve/query and src/domain;
 * (e) the /signals query validator (src/serve/signals/parameters.ts) does not load DuckDB;
 * (f) src/serve/query (what /signals and /cases share) sits below both resources: it imports only
 *     src/domain and packages;
 * (g) the serve wing has one front door, and src/http holds no state of a store: no file of
 *     src/http reads the store (src/serve/store) or keeps a module-level Map or WeakMap (but the
 *     transport's ETag and compressed bytes of an answer, answer.ts), and a route file imports from
 *     the serve wing only the generation (src/serve/generation), a room's entry (`resource.ts`,
 *     `service.ts`), its route schemas (`schemas.ts`, `schema.ts`, `report-schema.ts`) and
 *     src/serve/query.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');

/** Static `import`/`export ... from` clauses (default, namespace and named, `type` or not) and side-effect imports. */
const STATIC_RE = /^[ \t]*(import|export)\s+(?:type\s+)?(?:[\w$]+\s*,?\s*)?(?:\*(?:\s+as\s+[\w$]+)?\s*)?(?:\{[^}]*\}\s*)?(?:from\s*)?['"]([^'"]+)['"]/gm;
/** `import('...')` with a literal specifier. */
const DYNAMIC_RE = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
/** Lines that start an import statement, or a re-export, however formatted (the parse must see every one). */
const IMPORT_LINE_RE = /^[ \t]*import(?=[\s{*'"])/gm;
const REEXPORT_LINE_RE = /^[ \t]*export\s+(?:type\s+)?(?:\*|\{[^}]*\})\s*from\b/gm;

/** Every file below `dir` whose name ends in `.ts`, as paths relative to the repository root. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') ? [relative(ROOT, path)] : [];
  });
}

/** One import of a file: the specifier as written, and the src file it resolves to (null: a package). */
interface Edge {
  specifier: string;
  target: string | null;
}

/** The file a relative specifier names (`./x.js` is `./x.ts` in the sources), relative to the root. */
function resolveRelative(from: string, specifier: string): string {
  const base = resolve(ROOT, dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base, `${base}.ts`, join(base, 'index.ts')];
  const found = candidates.find((c) => existsSync(c) && statSync(c).isFile());
  if (!found) throw new Error(`${from}: cannot resolve import '${specifier}'`);
  return relative(ROOT, found);
}

/** The specifiers imported by a source text, in order (static, then dynamic). @throws Error when an import or re-export line escapes the parse. */
function parseImports(text: string, file: string): string[] {
  const statics = [...text.matchAll(STATIC_RE)];
  const imports = statics.filter((m) => m[1] === 'import').length;
  const reexports = statics.length - imports;
  const importLines = (text.match(IMPORT_LINE_RE) ?? []).length;
  const reexportLines = (text.match(REEXPORT_LINE_RE) ?? []).length;
  if (imports !== importLines || reexports !== reexportLines) {
    throw new Error(`${file}: parsed ${imports} imports and ${reexports} re-exports, but has ${importLines} import and ${reexportLines} re-export lines`);
  }
  return [...statics.map((m) => m[2]), ...[...text.matchAll(DYNAMIC_RE)].map((m) => m[1])];
}

/** The imports of one src file. */
function importsOf(file: string): Edge[] {
  const specifiers = parseImports(readFileSync(join(ROOT, file), 'utf8'), file);
  return specifiers.map((specifier) => ({ specifier, target: specifier.startsWith('.') ? resolveRelative(file, specifier) : null }));
}

const FILES = tsFiles(SRC);
const GRAPH = new Map(FILES.map((file) => [file, importsOf(file)]));

/** The floor or wing of a src file: its first folder below src/ (`src/serve/signals/service.ts` -> `serve`); a file directly in src/ -> `` (none). */
function folderOf(file: string): string {
  const parts = file.split('/');
  return parts.length > 2 ? parts[1] : '';
}

/** The wings: folders whose subfolders are rooms of their own. */
const WINGS = new Set(['ingest', 'serve']);

/**
 * The unit of the folder graph a src file belongs to: its room in a wing (`src/serve/signals/service.ts` ->
 * `serve/signals`), else its top folder, or for a file directly in src/ its name (`src/cli.ts` -> `cli.ts`).
 */
function unitOf(file: string): string {
  const parts = file.split('/');
  if (WINGS.has(parts[1]) && parts.length > 3) return `${parts[1]}/${parts[2]}`;
  return folderOf(file) || parts[1];
}

/**
 * The folder graph of a file graph: one node per unit (`unitOf`), an edge from one unit to another
 * when some file of the first imports a file of the second (imports within a unit and of packages
 * are left out), each edge once.
 */
function folderGraph(graph: ReadonlyMap<string, Edge[]>): Map<string, Edge[]> {
  const folders = new Map<string, Edge[]>();
  for (const [file, edges] of graph) {
    const from = unitOf(file);
    const out = folders.get(from) ?? [];
    folders.set(from, out);
    for (const { target } of edges) {
      if (target === null || !target.startsWith('src/')) continue;
      const to = unitOf(target);
      if (to !== from && !out.some((e) => e.target === to)) out.push({ specifier: to, target: to });
    }
  }
  return folders;
}

/** Every (file, import) pair whose import is a src file, for the layering rules. */
function srcEdges(): Array<{ file: string; target: string }> {
  return [...GRAPH].flatMap(([file, edges]) => edges.flatMap((e) => (e.target !== null && e.target.startsWith('src/') ? [{ file, target: e.target }] : [])));
}

/** The import cycles of `graph`, each as the path `a -> b -> ... -> a` (one per back edge of a depth-first search). */
function findCycles(graph: ReadonlyMap<string, Edge[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const { target } of graph.get(file) ?? []) {
      if (target === null || !graph.has(target)) continue;
      if (state.get(target) === 'open') cycles.push([...stack.slice(stack.indexOf(target)), target].join(' -> '));
      else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

/** The packages `file` loads, directly or through the src files it imports. */
function packagesReachedFrom(file: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const walk = (f: string): void => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const e of GRAPH.get(f) ?? []) {
      if (e.target === null) packages.add(e.specifier);
      else walk(e.target);
    }
  };
  walk(file);
  return packages;
}

describe('architecture: the import graph of src/', () => {
  it('parses every import of every src file', () => {
    expect(FILES.length).toBeGreaterThan(50);
    expect(FILES).toContain('src/serve/signals/parameters.ts');
    const edges = [...GRAPH.values()].reduce((n, e) => n + e.length, 0);
    expect(edges).toBeGreaterThan(100);
  });

  it('(a) has no import cycle between files', () => {
    expect(findCycles(GRAPH)).toEqual([]);
  });

  it('(a) has no import cycle between folders', () => {
    const folders = folderGraph(GRAPH);
    expect(folders.get('serve/cases')?.map((e) => e.target)).toContain('serve/query');
    expect(findCycles(folders)).toEqual([]);
  });

  it('(b) nothing below the server assembly imports from src/http', () => {
    const above = new Set(['http', 'commands', 'cli.ts']);
    const upward = srcEdges()
      .filter(({ file, target }) => !above.has(unitOf(file)) && folderOf(target) === 'http')
      .map(({ file, target }) => `${file} -> ${target}`);
    expect(upward).toEqual([]);
  });

  /**
   * What each floor may import (docs/architecture.md): the ground floor (domain, stats) nothing
   * above it; the two wings (ingest, serve) the ground floor and themselves, never each other; the
   * ClinicalTrials.gov resource only the domain; the cache (how the default store is found and
   * built) the ground floor and the ingest wing. http, commands and cli.ts sit on top.
   */
  const MAY_IMPORT: Record<string, readonly string[]> = {
    domain: ['domain'],
    stats: ['stats', 'domain'],
    ingest: ['ingest', 'domain', 'stats'],
    serve: ['serve', 'domain', 'stats'],
    cache: ['cache', 'domain', 'ingest'],
  };

  it('(c) every floor imports only what it may: the ground floor nothing above it, ingest and serve never each other', () => {
    const outside = srcEdges()
      .filter(({ file, target }) => folderOf(file) in MAY_IMPORT && !MAY_IMPORT[folderOf(file)].includes(folderOf(target)))
      .map(({ file, target }) => `${file} -> ${target}`);
    expect(outside).toEqual([]);
    expect(new Set(FILES.map(folderOf))).toEqual(new Set(['', ...Object.keys(MAY_IMPORT), 'http', 'commands']));
    expect(FILES.filter((f) => folderOf(f) === '')).toEqual(['src/cli.ts']);
  });

  it('(c) the rule catches an import across the wings', () => {
    const edges = [{ file: 'src/serve/triage/rank.ts', target: 'src/ingest/mining/evidence.ts' }, { file: 'src/ingest/mining/build.ts', target: 'src/domain/quarter.ts' }];
    expect(edges.filter(({ file, target }) => !MAY_IMPORT[folderOf(file)].includes(folderOf(target)))).toEqual([edges[0]]);
  });

  it('(c) the /pipeline room (no store) imports only itself, src/serve/query and src/domain', () => {
    expect(FILES).toContain('src/serve/pipeline/service.ts');
    const outside = srcEdges()
      .filter(({ file, target }) => unitOf(file) === 'serve/pipeline' && !['serve/pipeline', 'serve/query', 'domain'].includes(unitOf(target)))
      .map(({ file, target }) => `${file} -> ${target}`);
    expect(outside).toEqual([]);
  });

  it('(e) the /signals query validator does not load DuckDB', () => {
    expect([...packagesReachedFrom('src/serve/signals/parameters.ts')].filter((p) => p.startsWith('@duckdb/'))).toEqual([]);
  });

  it('(f) src/serve/query imports only src/domain and packages', () => {
    expect(FILES).toContain('src/serve/query/names.ts');
    const outside = srcEdges()
      .filter(({ file, target }) => unitOf(file) === 'serve/query' && !['serve/query', 'domain'].includes(unitOf(target)))
      .map(({ file, target }) => `${file} -> ${target}`);
    expect(outside).toEqual([]);
  });

  /** What a route file may import from the serve wing: the front door, a room's entry or route schemas, and src/serve/query. */
  const ROUTE_MAY_IMPORT = (target: string): boolean => unitOf(target) === 'serve/generation' || unitOf(target) === 'serve/query'
    || /\/(resource|service|schemas|schema|report-schema)\.ts$/.test(target);
  /** Route files left as they are this round: the export route is rewritten by issue 45 (its per-generation cache moves into src/serve/export). */
  const ROUTES_AS_THEY_ARE = new Set(['src/http/export-route.ts']);

  it('(g) src/http reads no store and keeps no per-store state; a route file reaches the serve wing through its front door', () => {
    const http = FILES.filter((f) => folderOf(f) === 'http');
    expect(http).toContain('src/http/triage-route.ts');
    expect(srcEdges().filter(({ file, target }) => folderOf(file) === 'http' && unitOf(target) === 'serve/store').map(({ file, target }) => `${file} -> ${target}`)).toEqual([]);
    const stateful = http.filter((f) => /^(?:export\s+)?(?:const|let)\s+\w+\s*(?::[^=]+)?=\s*new\s+(?:Weak)?Map\b/m.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(stateful).toEqual(['src/http/answer.ts']);
    const routes = http.filter((f) => f.endsWith('-route.ts') && !ROUTES_AS_THEY_ARE.has(f));
    expect(routes.length).toBeGreaterThanOrEqual(6);
    const through = srcEdges()
      .filter(({ file, target }) => routes.includes(file) && folderOf(target) === 'serve' && !ROUTE_MAY_IMPORT(target))
      .map(({ file, target }) => `${file} -> ${target}`);
    expect(through).toEqual([]);
  });

  it('(g) the rule catches a route that reads the store or a room\'s insides', () => {
    expect(ROUTE_MAY_IMPORT('src/serve/store/triage-rows.ts')).toBe(false);
    expect(ROUTE_MAY_IMPORT('src/serve/triage/rank.ts')).toBe(false);
    expect(ROUTE_MAY_IMPORT('src/serve/triage/resource.ts')).toBe(true);
    expect(ROUTE_MAY_IMPORT('src/serve/generation/generation.ts')).toBe(true);
  });

  it('the parse sees every form of import; the cycle search reports the path', () => {
    const text = [
      "import { a, type B } from './a.js';", 'import {', '  c,', '  d,', "} from './c.js';", "import type { E } from 'pkg-e';",
      "import f, { g } from 'pkg-f';", "import * as h from './h.js';", "import './side.js';", "export * from './x.js';",
      "export type { Y } from './y.js';", 'const z = await import(\'./z.js\');', 'import.meta.url;', ' * import from a comment line',
    ].join('\n');
    expect(parseImports(text, 'sample.ts')).toEqual(['./a.js', './c.js', 'pkg-e', 'pkg-f', './h.js', './side.js', './x.js', './y.js', './z.js']);
    expect(() => parseImports("import { a } from /* odd */ './a.js';", 'odd.ts')).toThrow('odd.ts: parsed 0 imports');
    const edge = (target: string): Edge => ({ specifier: target, target });
    const graph = new Map([['a', [edge('b')]], ['b', [edge('c'), { specifier: 'pkg', target: null }]], ['c', [edge('a')]], ['d', [edge('a')]]]);
    expect(findCycles(graph)).toEqual(['a -> b -> c -> a']);
  });

  it('the folder graph sees a cycle between folders that no file cycle closes', () => {
    const edge = (target: string): Edge => ({ specifier: target, target });
    const files = new Map([
      ['src/serve/cases/service.ts', [edge('src/serve/signals/names.ts'), edge('src/serve/cases/index.ts')]],
      ['src/serve/cases/index.ts', [edge('src/domain/quarter.ts'), { specifier: 'pkg', target: null }]],
      ['src/serve/signals/names.ts', []],
      ['src/serve/signals/vaccines.ts', [edge('src/serve/cases/index.ts'), edge('src/tool.ts')]],
      ['src/domain/quarter.ts', []],
      ['src/tool.ts', [edge('src/domain/quarter.ts')]],
    ]);
    expect(findCycles(files)).toEqual([]);
    const folders = folderGraph(files);
    expect([...folders.keys()]).toEqual(['serve/cases', 'serve/signals', 'domain', 'tool.ts']);
    expect(folders.get('serve/signals')?.map((e) => e.target)).toEqual(['serve/cases', 'tool.ts']);
    expect(findCycles(folders)).toEqual(['serve/cases -> serve/signals -> serve/cases']);
  });
});
