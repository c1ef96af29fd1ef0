/**
 * The shared memo of exact KS probabilities (src/ingest/mining/ks-memo.ts) that the build's worker
 * threads use for the onset tests: it returns what it was given, is symmetric in n1 and n2,
 * never answers for another key, and two threads filling it at once leave only right values.
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { KsMemo } from '../../../src/ingest/mining/ks-memo.js';
import { ksTest, MAX_AUTO_N } from '../../../src/stats/ks.js';

/** Tests (n1, n2, D) whose D is a whole step of both samples, so that h is exact. */
function cases(count: number, seed: number): Array<[number, number, number]> {
  let x = seed;
  const next = (k: number): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return 1 + (x % k);
  };
  return Array.from({ length: count }, () => {
    const n1 = next(60), n2 = next(3000);
    return [n1, n2, next(n1) / n1];
  });
}

describe('the shared memo of exact KS probabilities', () => {
  it('gives back what was set, for (n1, n2, h) and (n2, n1, h), and nothing for another key', () => {
    const memo = new KsMemo();
    expect(memo.get(3, 4, 12)).toBeUndefined();
    memo.set(3, 4, 12, 0.25);
    expect([memo.get(3, 4, 12), memo.get(4, 3, 12)]).toEqual([0.25, 0.25]);
    expect([memo.get(3, 4, 11), memo.get(3, 5, 12), memo.get(2, 4, 12)]).toEqual([undefined, undefined, undefined]);
    memo.set(3, 4, 12, 0.5); // a copy is there: kept as it was
    expect(memo.get(3, 4, 12)).toBe(0.25);
    // Outside the exact branch nothing is kept.
    memo.set(MAX_AUTO_N + 1, 4, 12, 0.5);
    expect(memo.get(MAX_AUTO_N + 1, 4, 12)).toBeUndefined();
    // A second view of the same buffer (another thread's) sees the values.
    expect(new KsMemo(memo.buffer).get(4, 3, 12)).toBe(0.25);
  });

  it('ksTest through the memo answers as without it, the first time and from the memo', () => {
    const memo = new KsMemo();
    for (const [n1, n2, d] of cases(300, 7)) {
      const plain = ksTest(n1, n2, d);
      expect(ksTest(n1, n2, d, true, memo)).toEqual(plain);
      expect(ksTest(n2, n1, d, true, memo)).toEqual(plain);
    }
  });

  it('two worker threads filling one memo at once: every answer is the one computed without a memo', async () => {
    const memo = new KsMemo();
    const work = cases(400, 11);
    const run = (list: Array<[number, number, number]>): Promise<Array<number | null>> => new Promise((resolve, reject) => {
      const worker = new Worker(new URL('../../../src/ingest/mining/worker-boot.mjs', import.meta.url), {
        workerData: { entry: new URL('./workers/ks-memo-worker.ts', import.meta.url).href, buffer: memo.buffer, cases: list },
      });
      worker.once('message', (p: Array<number | null>) => { resolve(p); void worker.terminate(); });
      worker.once('error', reject);
    });
    // The same tests in both, one in reverse order, so that they meet on the same keys.
    const [a, b] = await Promise.all([run(work), run([...work].reverse())]);
    const expected = work.map(([n1, n2, d]) => ksTest(n1, n2, d)?.p ?? null);
    expect(a).toEqual(expected);
    expect(b).toEqual([...expected].reverse());
    for (const [n1, n2, d] of work) expect(ksTest(n1, n2, d, true, new KsMemo(memo.buffer))).toEqual(ksTest(n1, n2, d));
  }, 60_000);
});
