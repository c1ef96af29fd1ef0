/**
 * Benchmark of the README's cached start, measured as a user runs it: `npm start -- --port P` in
 * a checkout (a fresh clone: `git clone` it, link or install node_modules, start once so that
 * dist/ and the default store exist), timed from spawn to the port open and to `/readyz` 200
 * (polled every 50 ms), `runs` times in a row. Per run it prints the load average before, the
 * seconds to the port and to ready, the CPU seconds of the whole process tree (npm, its
 * `prestart` staleness check, the server: user + system from /proc) and the server's RSS at ready.
 * The README's figure (a cached start) comes from this. Prints the figures; asserts nothing.
 * Target (issue 46): ready within 3 s on a quiet machine.
 *
 * Run: npx tsx bench/npm-start.ts CHECKOUT [--runs N] [--port P]
 *   (REPORTING_SIGNALS_CACHE_DIR, when set, is passed on: a cache folder of one's own keeps the
 *   store from being pruned by other builds meanwhile)
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ options: { runs: { type: 'string', default: '3' }, port: { type: 'string', default: '18099' } }, allowPositionals: true });
const checkout = path.resolve(positionals[0] ?? '.');
const runs = Number(values.runs);
const port = Number(values.port);

/** The pids of `pid` and all its descendants (from `pgrep -P`). */
function tree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync('pgrep', ['-P', String(pid)]).toString().split('\n').filter(Boolean).map(Number);
  } catch {
    // pgrep exits 1 when there are none.
  }
  return [pid, ...children.flatMap(tree)];
}

/** CPU seconds (user + system) of a process so far, and its RSS in MiB when it runs the CLI. */
function usage(pid: number): { cpu: number; rss: number } {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const cpu = (Number(fields[11]) + Number(fields[12])) / 100;
    const isServer = readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('cli.js');
    const rss = isServer ? Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024 : 0;
    return { cpu, rss };
  } catch {
    return { cpu: 0, rss: 0 };
  }
}

/** One `npm start`: seconds to the port and to /readyz 200, CPU seconds of the tree, server RSS. */
async function once(): Promise<string> {
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  const t0 = performance.now();
  const child = spawn('npm', ['start', '--', '--port', String(port)], { cwd: checkout, stdio: 'ignore', detached: true });
  const seconds = (): number => (performance.now() - t0) / 1000;
  let open = NaN;
  let ready = NaN;
  while (seconds() < 600) {
    const status = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status, () => 0);
    if (status !== 0 && Number.isNaN(open)) open = seconds();
    if (status === 200) {
      ready = seconds();
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const figures = tree(child.pid!).map(usage);
  process.kill(-child.pid!, 'SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  const cpu = figures.reduce((s, f) => s + f.cpu, 0);
  const rss = figures.reduce((s, f) => s + f.rss, 0);
  return `load before ${load}; port open ${open.toFixed(2)} s, /readyz 200 ${ready.toFixed(2)} s; CPU (tree) ${cpu.toFixed(2)} s; server RSS at ready ${rss.toFixed(0)} MiB`;
}

console.log(`npm start in ${checkout}, ${runs} runs`);
for (let run = 1; run <= runs; run++) console.log(`run ${run}: ${await once()}`);
