/**
 * A process that dies with its parent, even while its main thread is busy (a long synchronous
 * stretch of a build): a watchdog thread checks every WATCHDOG_MS that the process's parent is
 * still the one that started it, and kills the process (every thread) once it is not (the parent
 * died, even by `kill -9`, and the process was re-parented). The IPC channel's `disconnect` event
 * says the same, but only once the main thread is free again.
 */
import { Worker } from 'node:worker_threads';

/** How often the watchdog looks, in milliseconds. */
export const WATCHDOG_MS = 100;

/**
 * The watchdog thread's code (CommonJS, run with `eval`; `workerData.parent` is the parent's pid
 * at start): the parent from /proc/self/stat (Linux; elsewhere whether the parent's pid is alive).
 */
const WATCHDOG = `
const fs = require('node:fs');
const { workerData } = require('node:worker_threads');
function parentOf() {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
setInterval(() => {
  const parent = parentOf();
  if (parent === null ? !alive(workerData.parent) : parent !== workerData.parent) process.kill(process.pid, 'SIGKILL');
}, workerData.ms);
`;

/**
 * Starts the watchdog of this process (once; it does not keep the process alive). SIGKILL, so the
 * process leaves what it was writing as it is: callers write temporary files that the next start
 * removes (default-store.ts).
 */
export function dieWithParent(): void {
  // execArgv []: the code is CommonJS whatever the process's flags (--input-type=module, --import tsx).
  new Worker(WATCHDOG, { eval: true, execArgv: [], workerData: { parent: process.ppid, ms: WATCHDOG_MS } }).unref();
}
