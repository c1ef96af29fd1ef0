import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The real default store, built once per run into the cache (issue 18).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One test file per core (vitest's default is one fewer: a single worker on a 2-core machine, which left the
    // suite's 190 files in one queue, 1,668 s of tests in 2,020 s on this machine). The main vitest process only
    // collects results, so it needs no core of its own.
    maxWorkers: availableParallelism(),
  },
});
