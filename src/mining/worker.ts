/**
 * Worker thread of the build (the per-window statistics run in worker threads). It
 * scores chunks of consecutive windows with `scoreWindow` (src/stats/window.ts) and answers
 * with compact typed arrays; see `pool.ts` for the protocol.
 */
import { parentPort } from 'node:worker_threads';
import { scoreWindow } from '../stats/window.js';
import type { PriorFit } from '../stats/mgps.js';
import { STAT_COLUMNS, type ChunkReply, type ChunkRequest, type WindowReply } from './protocol.js';

function scoreChunk(request: ChunkRequest): ChunkReply {
  const windows: WindowReply[] = [];
  const transfer: ArrayBuffer[] = [];
  let previous: PriorFit | undefined;
  for (const window of request.windows) {
    const input = { n: window.n, n_vaccine: window.n_vaccine, n_event: window.n_event, n_reports: window.n_reports, expected: window.expected };
    const { fit, pairs } = window.hyper
      ? scoreWindow(input, { hyper: window.hyper })
      : scoreWindow(input, previous ? { warmStart: previous } : {});
    previous = fit;
    const flags = new Uint8Array(pairs.length);
    for (let i = 0; i < pairs.length; i++) flags[i] = pairs[i].n_methods_flagged | (pairs[i].is_signal_any ? 0x80 : 0);
    transfer.push(flags.buffer as ArrayBuffer);
    let stats: Float64Array | undefined;
    if (request.mode === 'rows') {
      stats = new Float64Array(pairs.length * STAT_COLUMNS.length);
      for (let i = 0; i < pairs.length; i++) {
        const pair = pairs[i];
        for (let c = 0; c < STAT_COLUMNS.length; c++) stats[i * STAT_COLUMNS.length + c] = pair[STAT_COLUMNS[c]] ?? Number.NaN;
      }
      transfer.push(stats.buffer as ArrayBuffer);
    }
    windows.push({ fit, flags, stats });
  }
  return { id: request.id, windows, transfer };
}

parentPort!.on('message', (request: ChunkRequest) => {
  try {
    const reply = scoreChunk(request);
    parentPort!.postMessage({ id: reply.id, windows: reply.windows }, reply.transfer);
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
