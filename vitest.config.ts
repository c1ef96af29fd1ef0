import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files that change what the process holds for the files after them (module mocks, fake timers, spies on
 * process.stdout, child processes that inherit the environment) or measure the process itself (its garbage
 * collection): each runs in a process of its own. Every other file shares its worker process and module cache
 * with the files before it (`isolate: false`): on this 2-core machine the suite spent 204 s of its workers' time
 * under Node.js 20 (144 s under 26) importing the same modules anew for each of 192 files. They also share one
 * app on the default store per worker process (test/helpers/default-app.ts): a few loads per run, not one per file.
 */
const ISOLATED = [
  'test/serve/generation/*.test.ts',
  'test/ingest/linkage/linkage-failure.test.ts',
  'test/operations/default-store.test.ts',
  'test/cache/progress-report.test.ts',
  'test/commands/score.test.ts',
];

export default defineConfig({
  test: {
    // The real default store, built once per run into the cache (issue 18).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One test file per core (vitest's default is one fewer: a single worker on a 2-core machine, which left the
    // suite's 190 files in one queue, 1,668 s of tests in 2,020 s on this machine). The main vitest process only
    // collects results, so it needs no core of its own.
    maxWorkers: availableParallelism(),
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
