/**
 * The figures docs/architecture.md states about the code, measured: files and lines of each folder
 * of its map (src/domain, src/stats, each room of the two wings, src/cache, src/http,
 * src/commands, src/cli.ts, public/js) and the number of golden requests (test/golden/requests.ts).
 * test/architecture-figures.test.ts checks the page against them; after a change, one command
 * regenerates them:
 *
 *   npx tsx scripts/architecture-figures.ts --write    rewrite the figures of docs/architecture.md
 *   npx tsx scripts/architecture-figures.ts            print them, and the house's measures: files
 *                                                      over 400 lines, the largest files and
 *                                                      functions, functions over 60 lines, lines
 *                                                      over 120 characters
 *   npx tsx scripts/architecture-figures.ts --at REV   the same measures of a git revision (e.g. main)
 *
 * Lines are counted as `wc -l` counts them (newline characters); files are the `.ts`, `.mjs` and
 * `.js` files of a folder (not of its subfolders). A folder of the tree absent from the page's map
 * is an error naming it (write its line, with a description, and run --write).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The repository root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The page whose figures are generated. */
export const PAGE = join(ROOT, 'docs', 'architecture.md');

/** A source file of the measured tree: its path from the root and its text. */
export interface SourceFile { path: string; text: string }

const CODE = /\.(ts|mjs|js)$/;

/** The code files below src/ and public/js/ of the working tree. */
export function workingTree(root: string = ROOT): SourceFile[] {
  const walk = (dir: string): string[] => readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
  return [...walk(join(root, 'src')), ...walk(join(root, 'public', 'js'))]
    .filter((f) => CODE.test(f)).map((f) => ({ path: relative(root, f), text: readFileSync(f, 'utf8') }));
}

/** The code files below src/ and public/js/ of git revision `rev`. */
export function revisionTree(rev: string, root: string = ROOT): SourceFile[] {
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  return git('ls-tree', '-r', '--name-only', rev, '--', 'src', 'public/js').split('\n').filter((f) => CODE.test(f))
    .map((path) => ({ path, text: git('show', `${rev}:${path}`) }));
}

/** Lines as `wc -l` counts them. */
export function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Files and lines of one folder (its own files) or of one file. */
export interface Figures { files: number; lines: number }

/** The figures of `path` (a folder ending in `/`: its own code files; else one file). */
export function figuresOf(files: readonly SourceFile[], path: string): Figures {
  const own = path.endsWith('/') ? files.filter((f) => f.path.startsWith(path) && !f.path.slice(path.length).includes('/')) : files.filter((f) => f.path === path);
  return { files: own.length, lines: own.reduce((n, f) => n + lineCount(f.text), 0) };
}

/** The folders the map must list: src/'s top folders (the wings by room), the files directly in src/, and public/js/. */
export function mapFolders(files: readonly SourceFile[]): string[] {
  const out = new Set<string>();
  for (const { path } of files) {
    const parts = path.split('/');
    if (parts[0] === 'public') out.add('public/js/');
    else if (parts.length === 2) out.add(path);
    else if ((parts[1] === 'ingest' || parts[1] === 'serve') && parts.length > 3) out.add(`src/${parts[1]}/${parts[2]}/`);
    else out.add(`src/${parts[1]}/`);
  }
  return [...out].sort();
}

const WIDTH = 18;
const FIGURES_WIDTH = 25;
/** A line of the map: indent, name, figures `( 6 files,   391 lines)`, `( 1 file,     66 lines)` or `(98 lines)`, description. */
const MAP_LINE = /^( *)(\S+?)( +)\((?: ?\d+ files?, +[\d,]+ lines|[\d,]+ lines)\)( +)(.*)$/;
/** A heading line of a wing (`src/ingest/        the build: ...`): no figures. */
const WING_LINE = /^(src\/\S+\/) +\S/;
/** The golden count sentence. */
const GOLDEN = /fixes the answers of [\d,]+ requests/;

function figuresText(f: Figures, file: boolean): string {
  const lines = f.lines.toLocaleString('en-US');
  return file ? `(${lines} lines)` : `(${String(f.files).padStart(2)} ${f.files === 1 ? 'file, ' : 'files,'} ${lines.padStart(5)} lines)`;
}

/**
 * The page with every figure measured: each line of the map (the first ```text block) and the
 * golden request count. @throws Error naming a folder of the tree that the map does not list, or a
 * line of the map that names no folder.
 */
export function rewritePage(page: string, files: readonly SourceFile[], goldenRequests: number): string {
  const lines = page.split('\n');
  const start = lines.findIndex((l) => l === '```text');
  const end = lines.findIndex((l, i) => i > start && l === '```');
  if (start < 0 || end < 0) throw new Error('docs/architecture.md: no ```text block (the map of the folders)');
  let wing = '';
  const listed: string[] = [];
  for (let i = start + 1; i < end; i++) {
    const heading = WING_LINE.exec(lines[i]);
    if (heading && !MAP_LINE.test(lines[i])) { wing = heading[1]; continue; }
    const m = MAP_LINE.exec(lines[i]);
    if (!m) continue;
    const [, indent, name, , , description] = m;
    const path = indent.length > 0 ? `${wing}${name}` : name;
    const f = figuresOf(files, path);
    if (f.files === 0) throw new Error(`docs/architecture.md: the map names ${path}, which holds no code file`);
    listed.push(path);
    lines[i] = `${`${indent}${name}`.padEnd(WIDTH - 1)} ${figuresText(f, !path.endsWith('/')).padEnd(FIGURES_WIDTH)}${description}`;
  }
  const missing = mapFolders(files).filter((f) => !listed.includes(f));
  if (missing.length > 0) throw new Error(`docs/architecture.md: the map does not list ${missing.join(', ')}: write its line (with a description) and run --write`);
  const text = lines.join('\n');
  if (!GOLDEN.test(text)) throw new Error('docs/architecture.md: no golden count ("fixes the answers of N requests")');
  return text.replace(GOLDEN, `fixes the answers of ${goldenRequests.toLocaleString('en-US')} requests`);
}

/** The number of golden requests (test/golden/requests.ts). */
export async function goldenRequestCount(): Promise<number> {
  const { GOLDEN_REQUESTS } = await import('../test/golden/requests.js');
  return GOLDEN_REQUESTS.length;
}

/** One function (declaration, method, accessor, constructor, arrow or expression) and its length in lines. */
export interface FunctionSize { file: string; name: string; lines: number }

/** The functions of the TypeScript and JavaScript files, with their lengths (first to last line). */
export function functionSizes(files: readonly SourceFile[]): FunctionSize[] {
  const out: FunctionSize[] = [];
  for (const { path, text } of files) {
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        const named = (node as { name?: ts.Node }).name ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name : undefined);
        out.push({ file: path, name: named ? named.getText(source) : '(anonymous)', lines: last - first + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

/** The house's measures of a tree, as printed lines. */
export function measures(files: readonly SourceFile[]): string[] {
  const src = files.filter((f) => f.path.startsWith('src/'));
  const sizes = src.map((f) => ({ path: f.path, lines: lineCount(f.text) })).sort((a, b) => b.lines - a.lines);
  const functions = functionSizes(src).sort((a, b) => b.lines - a.lines);
  const long = src.reduce((n, f) => n + f.text.split('\n').filter((l) => l.length > 120).length, 0);
  return [
    `src: ${src.length} files, ${sizes.reduce((n, s) => n + s.lines, 0).toLocaleString('en-US')} lines; ${sizes.filter((s) => s.lines > 400).length} file(s) over 400 lines; ` +
      `${functions.filter((f) => f.lines > 60).length} of ${functions.length.toLocaleString('en-US')} functions over 60 lines; ${long.toLocaleString('en-US')} lines over 120 characters`,
    'largest files:', ...sizes.slice(0, 10).map((s) => `  ${String(s.lines).padStart(5)}  ${s.path}`),
    'largest functions:', ...functions.slice(0, 10).map((f) => `  ${String(f.lines).padStart(5)}  ${f.file} ${f.name}`),
  ];
}

/** The map's folder figures of a tree, as printed lines. */
export function folderTable(files: readonly SourceFile[]): string[] {
  return mapFolders(files).map((path) => `${path.padEnd(28)} ${figuresText(figuresOf(files, path), !path.endsWith('/'))}`);
}

async function main(args: string[]): Promise<void> {
  const at = args.indexOf('--at');
  const files = at >= 0 ? revisionTree(args[at + 1]) : workingTree();
  if (args.includes('--write')) {
    const page = readFileSync(PAGE, 'utf8');
    const next = rewritePage(page, files, await goldenRequestCount());
    if (next !== page) writeFileSync(PAGE, next);
    process.stdout.write(`${relative(ROOT, PAGE)}: ${next === page ? 'figures unchanged' : 'figures rewritten'}\n`);
    return;
  }
  process.stdout.write(`${[...folderTable(files), ...measures(files)].join('\n')}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).catch((error: Error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  });
}
