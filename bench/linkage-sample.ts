/**
 * Draws the candidate pairs of the labelled set of duplicate linkage (test/fixtures/linkage/
 * labelled-pairs.csv; the protocol is in docs/duplicates.md, "The labelled set") from the real
 * 1990-2006 reports, with the linkage as it stood before the labelled set (commit 57dd4fc: its
 * threshold, margin and weights). Asserts nothing; prints each drawn pair with both reports' fields
 * and narratives (for the labeller to read) and writes the unlabelled pairs as CSV to `--out`.
 *
 * Strata (seeded generator bench/prng.ts, seed 20261127, pairs drawn without replacement):
 * - `link`: 100 pairs among the links kept (LinkageResult.links);
 * - `near`: 60 candidate pairs with a finite weight within 8 bits below the threshold, not linked;
 * - `vetoed`: 20 candidate pairs whose Fellegi-Sunter weight reaches the threshold but that the
 *   case-identity rule (compare.ts identifiesCase) refused;
 * - `block`: 40 candidate pairs drawn uniformly among all candidate pairs (pairs within a block);
 * - `cross`: 60 candidate pairs of two sources stating one patient's facts (age within 1 year,
 *   sex and vaccination date within 3 days known and agreeing, an event in common, and not two
 *   case numbers of one sender: only one has a SPLTTYPE, or their first three letters differ), the
 *   stratum where a direct report and the manufacturer's copy of it lie;
 * - `named`: the two pairs issue 32 names (225756-226698, 228277-228281), in the tuning part.
 * Within each stratum, pairs alternate in draw order between the `tuning` part (1st, 3rd, ...) and
 * the `measured` part (2nd, 4th, ...).
 *
 * Run: npx tsx bench/linkage-sample.ts [--vaers DIR] [--cache FILE] [--out FILE]
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { levelsOf } from '../src/ingest/linkage/compare.js';
import { DEFAULT_THRESHOLD, linkReports, scorePairs } from '../src/ingest/linkage/link.js';
import { reportOf } from '../test/ingest/linkage/fixtures.js';
import { realLinkageColumns } from './linkage-columns.js';
import { random } from './prng.js';

const { values } = parseArgs({ options: { vaers: { type: 'string', default: 'data/vaers' }, cache: { type: 'string' }, out: { type: 'string', default: '/tmp/linkage-sample.csv' } } });
const real = await realLinkageColumns(values.vaers!, values.cache);
const uniform = random(20261127);
const scored = scorePairs(real);
const result = linkReports(real);
const threshold = DEFAULT_THRESHOLD;
const key = (a: number, b: number): string => `${Math.min(a, b)}-${Math.max(a, b)}`;
const linked = new Set(result.links.map((l) => key(l.a, l.b)));
const rawWeight = (p: number): number => levelsOf(p).reduce((s, l, k) => s + scored.model.weights[k][l], 0);

const near: number[] = [];
const vetoed: number[] = [];
for (let i = 0; i < scored.a.length; i++) {
  const w = scored.weight[i];
  if (Number.isFinite(w) && w >= threshold - 8 && w < threshold && !linked.has(key(scored.a[i], scored.b[i]))) near.push(i);
  else if (w === -Infinity && rawWeight(scored.pattern[i]) >= threshold) vetoed.push(i);
}
/** `n` distinct draws from 0..size-1. */
function draw(size: number, n: number): number[] {
  const chosen = new Set<number>();
  while (chosen.size < Math.min(n, size)) chosen.add(Math.floor(uniform() * size));
  return [...chosen];
}
interface Drawn { a: number; b: number; stratum: string; weight: number; agreed: string }
const drawn: Drawn[] = [];
const seen = new Set<string>();
const add = (a: number, b: number, stratum: string, weight: number, agreed: string): void => {
  if (seen.has(key(a, b))) return;
  seen.add(key(a, b));
  drawn.push({ a, b, stratum, weight, agreed });
};
for (const k of draw(result.links.length, 100)) {
  const l = result.links[k];
  add(l.a, l.b, 'link', l.weight, l.agreed.join(' '));
}
for (const [stratum, pool, n] of [['near', near, 60], ['vetoed', vetoed, 20], ['block', null, 40]] as const) {
  for (const k of draw(pool === null ? scored.a.length : pool.length, n)) {
    const i = pool === null ? k : pool[k];
    add(scored.a[i], scored.b[i], stratum, pool === vetoed ? rawWeight(scored.pattern[i]) : scored.weight[i], '');
  }
}
// Pairs from two sources reporting one patient's facts: both state age (within 1 year), sex and
// vaccination date (within 3 days), they share an event, and not both carry a case number of one
// sender (the first three letters of SPLTTYPE differ, or only one has a SPLTTYPE).
const f = scored.features;
const sender = (i: number): string => f.splttype[i].slice(0, 3);
const cross: number[] = [];
for (let i = 0; i < scored.a.length; i++) {
  const [x, y] = [scored.a[i], scored.b[i]];
  if (Number.isNaN(f.age[x]) || Number.isNaN(f.age[y]) || Math.abs(f.age[x] - f.age[y]) > 1 || f.sex[x] === 0 || f.sex[x] !== f.sex[y]) continue;
  if (f.vaxDay[x] < 0 || f.vaxDay[y] < 0 || Math.abs(f.vaxDay[x] - f.vaxDay[y]) > 3 || levelsOf(scored.pattern[i])[7] < 2) continue;
  if ((f.splttype[x] === '') === (f.splttype[y] === '') && sender(x) === sender(y)) continue;
  cross.push(i);
}
for (const k of draw(cross.length, 60)) add(scored.a[cross[k]], scored.b[cross[k]], 'cross', scored.weight[cross[k]], '');
// The pairs the issue names (issue 32): one soldier reported directly and by the manufacturer; two women of one flu clinic.
const rowOf = new Map(Array.from(real.id, (id, i) => [id, i]));
for (const [x, y] of [[225756, 226698], [228277, 228281]]) add(rowOf.get(x)!, rowOf.get(y)!, 'named', NaN, '');
console.log(`links ${result.links.length}, near-misses ${near.length}, vetoed ${vetoed.length}, cross-source ${cross.length}, candidate pairs ${scored.a.length}; drawn ${drawn.length}`);
const counters = new Map<string, number>();
const rows = ['a,b,stratum,split,weight'];
for (const d of drawn) {
  const k = counters.get(d.stratum) ?? 0;
  counters.set(d.stratum, k + 1);
  const split = d.stratum === 'named' || k % 2 === 0 ? 'tuning' : 'measured';
  const [x, y] = [real.id[d.a], real.id[d.b]].sort((p, q) => p - q);
  rows.push(`${x},${y},${d.stratum},${split},${Number.isFinite(d.weight) ? d.weight.toFixed(1) : d.weight}`);
  console.log(`\n=== ${x}-${y} ${d.stratum} ${split} weight ${d.weight.toFixed(1)} ${d.agreed}`);
  for (const i of [d.a, d.b]) {
    const r = reportOf(real, i);
    console.log(`  ${r.id}: age ${r.age ?? '-'} ${r.sex} ${r.state ?? '-'} vax ${r.vaxDate} onset ${r.onsetDate} recv ${r.received} splt ${r.splttype ?? '-'} `
      + `${r.vaccines.map((v) => `${v.name}/${v.lot ?? '-'}`).join(' ')}; ${r.events.join('; ')}\n    ${(r.narrative ?? '(no narrative)').slice(0, 700)}`);
  }
}
writeFileSync(values.out!, `${rows.join('\n')}\n`);
