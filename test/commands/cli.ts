/** Runs the `reporting-signals` CLI (compiled: dist/cli.js) in a child process (the command tests). */
import { spawn } from 'node:child_process';
import { CLI, REPO_ROOT } from '../helpers/paths.js';

/** `reporting-signals ARGS` run in `cwd` (default: the repository): its exit code, standard output and error. */
export function cli(args: string[], cwd = REPO_ROOT): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DEBUG: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}
