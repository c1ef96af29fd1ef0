/**
 * Worker thread of the build (the per-window statistics run in worker threads). It
 * scores chunks of consecutive windows with `scoreWindow` (src/stats/window.ts) and, in mode
 * `rows` when asked, the windows' triage evidence (evidence-step.ts `WindowEvidence`, from the
 * `EvidenceSetup` of the chunk's analysis); it answers with compact typed arrays; see `protocol.ts`.
 */
import { parentPort } from 'node:worker_threads';
import { scoreWindow, windowFlags } from '../../stats/window.js';
import type { PriorFit } from '../../stats/mgps.js';
import { QuarterReports, WindowEvidence, type EvidenceTables } from './evidence-step.js';
import { useKsMemo } from './evidence.js';
import { KsMemo } from './ks-memo.js';
import { STAT_COLUMNS, type ChunkReply, type ChunkRequest, type EvidenceSetup, type WindowReply } from './protocol.js';
import type { PairScores } from './evidence-links.js';
import { isFlagged } from '../../domain/floor.js';

/** The tables of each item kind received so far, with their reports by quarter (the same for every analysis of the kind). */
const tablesOf = new Map<string, { tables: EvidenceTables; byQuarter: QuarterReports }>();
/**
 * The evidence of the last few analyses set up, by name, or why the setup failed (the chunks that
 * need it fail with this reason): the rows pass sends an analysis's first chunks while the
 * previous analysis's last are pending (passes.ts rowsPasses), at most 2 x the pool's threads
 * chunks in flight, so they span at most that many analyses; SETUPS_KEPT is more than enough.
 */
const setups = new Map<string, WindowEvidence | string>();
const SETUPS_KEPT = 8;

function setUp(setup: EvidenceSetup): WindowEvidence {
  if (setup.ksMemo) useKsMemo(new KsMemo(setup.ksMemo)); // a view of the one shared table
  if (setup.tables) tablesOf.set(setup.kind, { tables: setup.tables, byQuarter: new QuarterReports(setup.tables.quarter) });
  const kind = tablesOf.get(setup.kind);
  if (!kind) throw new Error(`evidence setup of ${setup.analysis}: no tables of item kind ${setup.kind}`);
  return new WindowEvidence(kind.tables, setup.mask, kind.byQuarter);
}

function keep(analysis: string, setup: WindowEvidence | string): void {
  setups.delete(analysis);
  setups.set(analysis, setup);
  if (setups.size > SETUPS_KEPT) setups.delete(setups.keys().next().value!);
}

/** A pair's flags as one byte (protocol.ts): n_methods_flagged in the low bits, is_signal_any (n_methods_flagged >= 1, flags.ts) as 0x80. */
function flagByte(nMethodsFlagged: number): number {
  return nMethodsFlagged | (nMethodsFlagged >= 1 ? 0x80 : 0);
}

function scoreChunk(request: ChunkRequest): ChunkReply {
  const windows: WindowReply[] = [];
  const transfer: ArrayBuffer[] = [];
  let previous: PriorFit | undefined;
  const wantEvidence: Array<{ at: number; quarter: number; keys: Float64Array; scores: PairScores }> = [];
  for (const window of request.windows) {
    const input = { n: window.n, n_vaccine: window.n_vaccine, n_event: window.n_event, n_reports: window.n_reports, expected: window.expected };
    if (request.mode === 'flags') {
      // The fit pass needs only the flags: windowFlags decides GPS and IC from the CDF (same answer, no quantile search).
      const { fit, n_methods_flagged: counts } = windowFlags(input, previous ? { warmStart: previous } : {});
      previous = fit;
      const flags = counts.map(flagByte);
      transfer.push(flags.buffer as ArrayBuffer);
      windows.push({ fit, flags });
      continue;
    }
    const { fit, pairs } = window.hyper
      ? scoreWindow(input, { hyper: window.hyper })
      : scoreWindow(input, previous ? { warmStart: previous } : {});
    previous = fit;
    const flags = new Uint8Array(pairs.length);
    for (let i = 0; i < pairs.length; i++) flags[i] = flagByte(pairs[i].n_methods_flagged);
    const stats = new Float64Array(pairs.length * STAT_COLUMNS.length);
    for (let i = 0; i < pairs.length; i++) {
      const pair = pairs[i];
      for (let c = 0; c < STAT_COLUMNS.length; c++) stats[i * STAT_COLUMNS.length + c] = pair[STAT_COLUMNS[c]] ?? Number.NaN;
    }
    transfer.push(flags.buffer as ArrayBuffer, stats.buffer as ArrayBuffer);
    windows.push({ fit, flags, stats });
    if (window.evidence) {
      const scores: PairScores = { eb05: new Float64Array(pairs.length), flagged: new Uint8Array(pairs.length) };
      pairs.forEach((pair, i) => {
        scores.eb05[i] = pair.eb05 ?? Number.NaN;
        scores.flagged[i] = isFlagged(pair.n_methods_flagged) ? 1 : 0;
      });
      wantEvidence.push({ at: windows.length - 1, quarter: window.evidence.quarter, keys: window.evidence.keys, scores });
    }
  }
  // The chunk's evidence at once: each quarter's reports grouped once for the chunk's windows (evidence-groups.ts).
  if (wantEvidence.length > 0) {
    const evidence = request.analysis === undefined ? undefined : setups.get(request.analysis);
    if (evidence === undefined) throw new Error(`no evidence setup for analysis ${request.analysis} (have ${[...setups.keys()].join(', ') || 'none'})`);
    if (typeof evidence === 'string') throw new Error(evidence);
    evidence.windows(wantEvidence).forEach(({ values, links }, k) => {
      Object.assign(windows[wantEvidence[k].at], { evidence: values, links });
      transfer.push(values.buffer as ArrayBuffer, links.coVaccine.buffer as ArrayBuffer, links.coProducts.buffer as ArrayBuffer, links.related.buffer as ArrayBuffer);
    });
  }
  return { id: request.id, windows, transfer };
}

parentPort!.on('message', (request: ChunkRequest | EvidenceSetup) => {
  if ('type' in request) {
    try {
      keep(request.analysis, setUp(request));
    } catch (error) {
      keep(request.analysis, error instanceof Error ? error.message : String(error));
    }
    return;
  }
  try {
    const reply = scoreChunk(request);
    parentPort!.postMessage({ id: reply.id, windows: reply.windows }, reply.transfer);
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
