/**
 * The phases of cold `/triage` windows in one process (issue 41: a cold window <= 300 ms at full
 * size), beside bench/serve-triage.ts (which times them over HTTP): for each window asked, the
 * store read (src/serve/store/triage-rows.ts readTriageWindows of that window alone, as
 * Generation.triageWindow reads it) and the answer of `limit=50` (src/serve/triage/service.ts
 * triageAnswer: ranking, folding, page), each `--repeat` times on a store held open, printing
 * the window's rows, each phase's median wall and CPU ms (the process's, DuckDB's threads included) and the sha256 of the `limit=500` answer. A run of
 * a window is cold as the server's first request is (nothing of the window kept), but the
 * process is warm after the first run (its code optimised, the file in the page cache).
 * Asserts nothing.
 *
 * Run: npm run build && nice -n 10 npx tsx bench/triage-phases.ts --store FILE [--repeat 5]
 *   [--window ANALYSIS:QUARTER ...] (default: each analysis's last quarter and 2021Q2)
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { vaccineIndex, eventIndex } from '../src/serve/query/names.js';
import { readStoreVocabulary } from '../src/serve/store/evaluation.js';
import { eventGroupsOfMeta, itemsOfTerms } from '../src/serve/store/event-groups.js';
import { OpenStore } from '../src/serve/store/serving.js';
import { readTriageWindows, triageWindowOf } from '../src/serve/store/triage-rows.js';
import { parseTriageQuery, triageAnswer, type TriageParams } from '../src/serve/triage/service.js';
import { quantile } from './full-size/measure.js';

function options(name: string): string[] {
  return process.argv.flatMap((a, i) => (a === name && i + 1 < process.argv.length ? [process.argv[i + 1]] : []));
}

const store = options('--store')[0];
if (store === undefined) {
  console.error('usage: npx tsx bench/triage-phases.ts --store FILE [--repeat 5] [--window ANALYSIS:QUARTER ...]');
  process.exit(2);
}
const repeat = Number(options('--repeat')[0] ?? '5');
const { meta, vaccines } = await readStoreVocabulary(store);
const analyses = meta.analyses?.map((a) => a.name) ?? ['all'];
const asked = options('--window');
const windows = asked.length > 0
  ? asked.map((w) => { const at = w.lastIndexOf(':'); return { analysis: w.slice(0, at), quarter: w.slice(at + 1) }; })
  : analyses.flatMap((analysis) => [{ analysis, quarter: 'last' }, { analysis, quarter: '2021Q2' }]);
const vocabulary = {
  ...vaccineIndex(vaccines.map((v) => v.vax_name), new Map(vaccines.map((v) => [v.vax_name, v.vax_type])), new Map(vaccines.map((v) => [v.vax_name, v.vax_type_codes]))),
  ...eventIndex([]),
};
const byTerm = itemsOfTerms(eventGroupsOfMeta(meta));
const params = (query: string): TriageParams => {
  const parsed = parseTriageQuery(query);
  if ('error' in parsed) throw new Error(String(parsed.error));
  return parsed;
};

const open = await OpenStore.open(store);
try {
  for (const { analysis, quarter } of windows) {
    const groups = meta.analyses?.find((a) => a.name === analysis)?.items === 'event_group' || byTerm.size === 0 ? undefined : byTerm;
    const reads: number[] = [], answers: number[] = [], readCpu: number[] = [], answerCpu: number[] = [];
    let rows = 0, sha = '';
    for (let k = 0; k < repeat; k++) {
      const c0 = process.cpuUsage(), t0 = performance.now();
      const read = await readTriageWindows(open, analysis, quarter);
      const c1 = process.cpuUsage(), t1 = performance.now();
      const window = triageWindowOf(read, quarter === 'last' ? null : quarter);
      triageAnswer(analysis, params('limit=50'), window, vocabulary, groups);
      const c2 = process.cpuUsage(), t2 = performance.now();
      const cpu = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage): number => (b.user - a.user + b.system - a.system) / 1000;
      reads.push(t1 - t0);
      answers.push(t2 - t1);
      readCpu.push(cpu(c0, c1));
      answerCpu.push(cpu(c1, c2));
      rows = window.rows.length;
      sha = createHash('sha256').update(String(triageAnswer(analysis, params('limit=500'), window, vocabulary, groups).body)).digest('hex').slice(0, 16);
    }
    const med = (xs: number[]): string => quantile(xs, 0.5).toFixed(0).padStart(5);
    console.log(`${`${analysis}:${quarter}`.padEnd(24)} rows ${String(rows).padStart(6)}  read ${med(reads)} ms (cpu ${med(readCpu)})  answer ${med(answers)} ms (cpu ${med(answerCpu)})  (first ${reads[0].toFixed(0)}+${answers[0].toFixed(0)})  sha256 ${sha}`);
  }
} finally {
  open.close();
}
