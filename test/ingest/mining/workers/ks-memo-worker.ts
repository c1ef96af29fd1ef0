/**
 * Test worker of test/ingest/mining/ks-memo.test.ts: runs the exact KS tests of `workerData.cases`
 * through a KsMemo over the shared `workerData.buffer` (both workers at once), and posts each p.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { KsMemo } from '../../../../src/ingest/mining/ks-memo.js';
import { ksTest } from '../../../../src/stats/ks.js';

const { buffer, cases } = workerData as { buffer: SharedArrayBuffer; cases: Array<[number, number, number]> };
const memo = new KsMemo(buffer);
parentPort!.postMessage(cases.map(([n1, n2, d]) => ksTest(n1, n2, d, true, memo)?.p ?? null));
