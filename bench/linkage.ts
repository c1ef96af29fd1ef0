/**
 * Benchmark of the duplicate-report linkage (src/ingest/linkage/link.ts) on the real 1990-2006 reports.
 * Asserts nothing; prints:
 * 1. perturbed copies: 2,000 real reports drawn with a seeded generator (bench/prng.ts) are
 *    copied with every perturbation at once (test/ingest/linkage/fixtures.ts perturb: vaccination
 *    date kept or dropped, onset moved by 0-3 days, age kept or removed, one event dropped or
 *    added, lots rewritten or dropped, about a tenth of the narrative's words replaced, no
 *    SPLTTYPE, received 0-60 days later) and mixed into the real reports;
 *    per threshold and margin (link.ts strongPairs), the recall (copies whose pair with their
 *    original is kept) and precision (of the kept pairs of a copy, those with its original; a copy
 *    linked to a real duplicate of its original counts as wrong, so this errs low), then the
 *    clusters at the default threshold and margin;
 * 2. the real reports alone: time and peak RSS of linking them all, the links, clusters and
 *    reports folded, the exact duplicate groups (test/ingest/linkage/raw-exact-groups.ts, from the raw
 *    files) found whole, and ten clusters drawn at random with their ids, agreed fields and each
 *    member's fields and narrative (its first 240 characters), to judge whether they are one case.
 * Goals: recall >= 0.90 at precision >= 0.95; all exact groups found; <= 30 s; <= 2 GB.
 *
 * Run: npx tsx bench/linkage.ts [--vaers DIR] [--cache FILE] [--threshold BITS] [--real-only]
 * (`--real-only`: part 2 alone.)
 * (`--cache`: keeps the read reports' linkage columns in FILE, v8-serialised, to skip reading next time.)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { deserialize, serialize } from 'node:v8';
import type { LinkageColumns } from '../src/ingest/linkage/features.js';
import { DEFAULT_MARGIN, DEFAULT_THRESHOLD, linkReports, scorePairs, strongPairs } from '../src/ingest/linkage/link.js';
import { readVaers } from '../src/ingest/vaers/read.js';
import { columnsOf, perturb, reportOf } from '../test/ingest/linkage/fixtures.js';
import { exactGroups, readRawReports, yearsIn } from '../test/ingest/linkage/raw-exact-groups.js';
import { random } from './prng.js';

const { values } = parseArgs({ options: { vaers: { type: 'string', default: 'data/vaers' }, cache: { type: 'string' }, threshold: { type: 'string' }, 'real-only': { type: 'boolean', default: false } } });
const threshold = values.threshold === undefined ? DEFAULT_THRESHOLD : Number(values.threshold);
const COPIES = 2000;

/** The real reports' linkage columns (from the cache file when given and present). */
async function realColumns(): Promise<LinkageColumns> {
  if (values.cache && existsSync(values.cache)) return deserialize(readFileSync(values.cache)) as LinkageColumns;
  const started = performance.now();
  const d = (await readVaers(values.vaers!, { narratives: true })).details;
  console.log(`read ${d.count} reports in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const columns: LinkageColumns = {
    count: d.count, id: d.id, received: d.received, age: d.age, sex: d.sex, state: d.state, vaxDate: d.vaxDate, onsetDate: d.onsetDate,
    splttype: d.splttype, narrative: d.narrative, strings: d.strings, vaccines: { start: d.vaccines.start, name: d.vaccines.name, lot: d.vaccines.lot },
    events: { start: d.events.start, term: d.events.term },
  };
  if (values.cache) writeFileSync(values.cache, serialize(columns));
  return columns;
}

const real = await realColumns();
const uniform = random(20261125);
const terms = [...new Set(Array.from(real.events.term, (t) => real.strings[t]))];
const originals = new Set<number>();
while (originals.size < COPIES) originals.add(Math.floor(uniform() * real.count));
const maxId = real.id.reduce((m, x) => Math.max(m, x), 0);
const all = Array.from({ length: real.count }, (_, i) => reportOf(real, i));
const original = [...originals];
original.forEach((i, k) => all.push(perturb(all[i], maxId + 1 + k, uniform, terms)));
const mixed = columnsOf(all);

if (!values['real-only']) {
  console.log(`\n1. ${COPIES} perturbed copies mixed into ${real.count} real reports`);
  const scored = scorePairs(mixed);
  const copyOf = (row: number): number => (row >= real.count ? row - real.count : -1);
  const trueWeight = new Float64Array(COPIES).fill(-Infinity);
  for (let i = 0; i < scored.a.length; i++) {
    const k = copyOf(scored.b[i]);
    if (k >= 0 && scored.a[i] === original[k]) trueWeight[k] = scored.weight[i];
  }
  console.log(`candidate pairs ${scored.a.length}; copies paired with their original by the blocking: ${trueWeight.filter(Number.isFinite).length} of ${COPIES}`);
  console.log('pairs of a copy above the threshold, and also within the margin of the best pair of both reports:');
  console.log('threshold  margin  recall  precision');
  for (const margin of [Infinity, 12, DEFAULT_MARGIN, 4]) {
    for (let t = 8; t <= 40; t += 4) {
      const kept = strongPairs(mixed.count, scored.a, scored.b, scored.weight, t, margin).filter((i) => copyOf(scored.b[i]) >= 0);
      const right = kept.filter((i) => scored.a[i] === original[copyOf(scored.b[i])]).length;
      console.log(`${String(t).padStart(9)}  ${String(margin).padStart(6)}  ${(right / COPIES).toFixed(3)}   ${(kept.length === 0 ? 1 : right / kept.length).toFixed(3)}`);
    }
  }
  const mixedLinks = linkReports(mixed, { threshold });
  const together = original.filter((i, k) => mixedLinks.representative[i] === mixedLinks.representative[real.count + k]).length;
  const copyLinks = mixedLinks.links.filter((l) => l.b >= real.count);
  const rightLinks = copyLinks.filter((l) => l.a === original[l.b - real.count]).length;
  console.log(`clusters at threshold ${threshold}: copies in their original's cluster ${together} of ${COPIES} (recall ${(together / COPIES).toFixed(3)}); `
    + `kept links of a copy ${copyLinks.length}, with its original ${rightLinks} (precision ${(rightLinks / Math.max(1, copyLinks.length)).toFixed(3)})`);
}

console.log(`\n2. the ${real.count} real reports (this 2-core machine is shared with other developers' builds and tests now: times are under load)`);
const started = performance.now();
const result = linkReports(real, { threshold });
const seconds = (performance.now() - started) / 1000;
const { fields, blocks, ...summary } = result.summary as typeof result.summary & { blocks?: unknown };
console.log(`linked in ${seconds.toFixed(1)} s; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB (whole process, with the mixed run before)`);
console.log(JSON.stringify(summary));
console.log(JSON.stringify(blocks));
for (const f of fields) console.log(`  ${f.field.padEnd(28)} m ${f.m.toFixed(4)}  u ${f.u.toExponential(2)}  weight ${Math.log2(f.m / f.u).toFixed(2)}`);
const rowOf = new Map(Array.from(real.id, (id, i) => [id, i]));
const groups = exactGroups(readRawReports(values.vaers!, yearsIn(values.vaers!)));
const whole = groups.filter((g) => new Set(g.map((id) => result.representative[rowOf.get(id)!])).size === 1).length;
console.log(`exact groups (raw files): ${groups.length}, ${groups.reduce((s, g) => s + g.length - 1, 0)} reports beyond the first; found whole: ${whole}`);
const members = new Map<number, number[]>();
result.representative.forEach((r, i) => members.set(r, [...(members.get(r) ?? []), i]));
const clusters = [...members.values()].filter((m) => m.length > 1);
const sizes = new Map<number, number>();
for (const c of clusters) sizes.set(c.length, (sizes.get(c.length) ?? 0) + 1);
console.log(`clusters: ${clusters.length}; by size: ${[...sizes].sort((x, y) => x[0] - y[0]).map(([s, n]) => `${s}: ${n}`).join(', ')}`);
const pick = random(7);
console.log('ten clusters drawn at random:');
for (let k = 0; k < 10 && clusters.length > 0; k++) {
  const c = clusters[Math.floor(pick() * clusters.length)];
  const inside = new Set(c);
  const agreed = result.links.filter((l) => inside.has(l.a)).map((l) => `${real.id[l.a]}-${real.id[l.b]} (${l.weight.toFixed(1)}): ${l.agreed.join(', ')}`);
  console.log(`  VAERS_ID ${c.map((i) => real.id[i]).join(', ')}; representative ${real.id[result.representative[c[0]]]}\n    ${agreed.join('\n    ')}`);
  // Each member as read, to judge by its narrative whether the cluster is one case.
  for (const i of c) {
    const r = all[i];
    console.log(`    ${r.id}: age ${r.age ?? '-'} ${r.sex} ${r.state ?? '-'} vax ${r.vaxDate} onset ${r.onsetDate} ${r.vaccines.map((v) => `${v.name}/${v.lot ?? '-'}`).join(' ')}; `
      + `${r.events.join('; ')}\n      ${(r.narrative ?? '(no narrative)').slice(0, 240)}`);
  }
}
