/** Runs the `reporting-signals` CLI (compiled: dist/cli.js) in a child process (the command tests). */
import { spawn } from 'node:child_process';
import { CLI, REPO_ROOT } from '../helpers/paths.js';

const repoRoot = REPO_ROOT;

/** `reporting-signals ARGS`: its exit code and standard error (stdout ignored). */
export function cli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, DEBUG: '' },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => done({ code, stderr }));
  });
}
