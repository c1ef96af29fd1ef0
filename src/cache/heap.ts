/**
 * The V8 heap a build needs. Node's default limit for the JavaScript heap is about 4 GB on a
 * 64-bit machine (here 4,144 MB), whatever the machine's memory: the full current VAERS download
 * (2.1-2.5 million reports with their narratives) holds more than that while it is read, and the
 * build died of "JavaScript heap out of memory" at 80% of the read (bench/full-size.ts, issue 29).
 * A build therefore runs with a limit of BUILD_HEAP_SHARE of the machine's memory (at most
 * BUILD_HEAP_MAX_MB), unless one is set: `reporting-signals build` runs itself again with the flag
 * (buildHeapFlag), the default store's builder child gets it among its V8 flags
 * (src/cache/default-store.ts). An explicit `--max-old-space-size` (in the node options or
 * NODE_OPTIONS) is kept as given.
 */
import { spawnSync } from 'node:child_process';
import { totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';

/** Share of the machine's memory the build's JavaScript heap may grow to. */
export const BUILD_HEAP_SHARE = 0.75;
/** The most the build's heap limit is raised to (MB). */
export const BUILD_HEAP_MAX_MB = 32_768;
/** Set in the environment of the build run again with the flag (so it is not run a third time). */
const HEAP_SET = 'REPORTING_SIGNALS_BUILD_HEAP';

/** Whether `--max-old-space-size` is already given to this process (its options or NODE_OPTIONS). */
export function heapLimitGiven(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): boolean {
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((a) => a.startsWith('--max-old-space-size') || a.startsWith('--max_old_space_size'));
}

/**
 * The `--max-old-space-size=MB` flag of a build on a machine of `memoryBytes`, or null when this
 * process's limit is already at least that (or a limit was given).
 * Example: 24 GiB of memory and the default 4,144 MB limit give `--max-old-space-size=18432`.
 */
export function buildHeapFlag(memoryBytes = totalmem(), currentLimitMb = getHeapStatistics().heap_size_limit / 2 ** 20, given = heapLimitGiven()): string | null {
  const wanted = Math.floor(Math.min(memoryBytes * BUILD_HEAP_SHARE / 2 ** 20, BUILD_HEAP_MAX_MB));
  return given || currentLimitMb >= wanted ? null : `--max-old-space-size=${wanted}`;
}

/**
 * Runs this command again with the build's heap limit (buildHeapFlag) and exits with its code,
 * when the limit is too low; returns (does nothing) otherwise. Standard streams are inherited.
 */
export function ensureBuildHeap(): void {
  const flag = process.env[HEAP_SET] ? null : buildHeapFlag();
  if (flag === null) return;
  const result = spawnSync(process.execPath, [...process.execArgv, flag, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, [HEAP_SET]: '1' } });
  if (result.error) throw result.error;
  process.exit(result.status ?? (result.signal ? 128 + 6 : 1));
}
