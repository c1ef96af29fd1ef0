/**
 * The build's code as the cache key digests it (src/cache/key.ts): exactly the source modules a
 * build runs, found by following the imports from the builder's entry (BUILD_ENTRY, the module
 * src/cache/build-child.ts runs) through the source tree: every static `import`/`export ... from`,
 * every dynamic import of a literal path and every worker entry named by
 * `new URL('./file.ts|.js|.mjs', import.meta.url)` (the build's worker threads). A `.js`
 * specifier names the `.ts` source beside it. So a file only the server imports (the serve wing,
 * the HTTP layer) never changes the key, and a file the build runs always does
 * (test/cache/key.test.ts edits one of each).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';

/** The module the builder child runs (`buildStore`), relative to the source root. */
export const BUILD_ENTRY = 'ingest/mining/build.ts';

/** Static imports and re-exports (type-only ones too) with a relative specifier. */
const STATIC_RE = /^[ \t]*(?:import|export)\s+(?:type\s+)?(?:[\w$]+\s*,?\s*)?(?:\*(?:\s+as\s+[\w$]+)?\s*)?(?:\{[^}]*\}\s*)?(?:from\s*)?['"](\.[^'"]+)['"]/gm;
/** Literal dynamic imports and worker entries (`new URL('./worker.ts', import.meta.url)`) with a relative specifier. */
const DYNAMIC_RE = /(?:\bimport\(\s*|\bnew URL\(\s*)['"](\.[^'"]+\.(?:ts|mts|js|mjs))['"]/g;

/** The source file a relative specifier of `from` names (`./x.js` is `./x.ts` in the sources), or null when none exists. */
function resolveSource(root: string, from: string, specifier: string): string | null {
  const base = normalize(join(dirname(from), specifier));
  const found = [base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base].find((c) => existsSync(join(root, c)));
  return found ?? null;
}

/** The relative specifiers a module imports or starts as a worker (static, dynamic, worker entries). */
export function relativeImports(text: string): string[] {
  return [...[...text.matchAll(STATIC_RE)].map((m) => m[1]), ...[...text.matchAll(DYNAMIC_RE)].map((m) => m[1])];
}

/**
 * The source files the build runs, relative to `root` (the `src/` tree), sorted: BUILD_ENTRY and
 * everything it reaches. @throws Error naming the importing file when an import names no file.
 */
export async function buildCodeFiles(root: string, entry: string = BUILD_ENTRY): Promise<string[]> {
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of relativeImports(await readFile(join(root, file), 'utf8'))) {
      const target = resolveSource(root, file, specifier);
      if (target === null) throw new Error(`${file}: cannot resolve the import '${specifier}' in ${root}`);
      pending.push(target);
    }
  }
  return [...seen].sort();
}

/** SHA-256 (hex) over the build's code files below `root`: each one's path and the SHA-256 of its bytes. */
export async function buildCodeDigest(root: string): Promise<string> {
  const code = createHash('sha256');
  for (const file of await buildCodeFiles(root)) code.update(`${file}\0${createHash('sha256').update(await readFile(join(root, file))).digest('hex')}\n`);
  return code.digest('hex');
}
