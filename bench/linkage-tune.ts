/**
 * Issue 43 tuning aid (post hoc figures, not a measurement): the linkage's verdict on every
 * labelled pair read so far (round 1's items and the member pairs of its clusters; round 3's fresh
 * pairs and measured-04; round 4's clusters; since round 6 round 5's pairs `r5` and the member
 * pairs of its clusters `t5-cluster`, by their same-case groups; since round 7 round 6's pairs `r6`
 * and its clusters `v6-cluster`; since round 8 round 7's pairs `r7` and its clusters `x7-cluster`; since round 9 round 8's pairs `r8` and its clusters `z8-cluster`), with weight, veto reason and the
 * fields that decide; per source, precision and recall over the decided pairs; every pair's row
 * written as TSV to $TSV (default /tmp/dup4/pairs.tsv). Prints the wrong pairs and the same-case
 * ones (`--all`: every pair). Asserts nothing. Reads no label of the measured packets.
 *
 * Run: npx tsx bench/linkage-tune.ts [--vaers DIR] [--cache FILE] [--all]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { agreedFields, comparePair, jaccard } from '../src/ingest/linkage/compare.js';
import { linkReports, streamPairs } from '../src/ingest/linkage/link.js';
import { differentPatients, sameVisit, sameMedicines } from '../src/ingest/linkage/patient-evidence.js';
import { otherVaccination } from '../src/ingest/linkage/vaccinations.js';
import { oneSenderNumbers } from '../src/ingest/linkage/case-numbers.js';
import { realLinkageColumns } from './linkage-columns.js';

const tsv: string[] = ['src\titem\ta\tb\tlabel\ttogether\tw\tveto\tnarrJ\tevJ\tsplt\tonesender\tvisit\tothervax\tmeds\tidgap\tagegap\tagreed'];
const { values } = parseArgs({ options: { vaers: { type: 'string', default: 'data/vaers' }, cache: { type: 'string' }, all: { type: 'boolean', default: false } } });
const real = await realLinkageColumns(values.vaers!, values.cache);
const result = linkReports(real);
console.log(`clusters ${result.summary.clusters} links ${result.summary.links} folded ${result.summary.reports_folded} vetoes ${JSON.stringify(result.summary.different_patients)}`);
const passes = streamPairs(real, {}, Infinity, () => {});
const f = passes.features;
const row = new Map(Array.from(real.id, (id, i) => [id, i]));
const csv = (p: string): Array<Record<string, string>> => parse(readFileSync(p), { columns: true }) as Array<Record<string, string>>;
type P = { src: string; item: string; a: number; b: number; label: string; phrases: string };
const pairs: P[] = [];
/** A labelled cluster's member pairs: same case within one of its same-case groups, different patients across two (none when undecidable; unplaced members left out). */
function memberPairs(src: string, ids: number[], r: Record<string, string>): P[] {
  if (r.label === 'undecidable') return [];
  const groups = (r.same_case_groups || '').split('|').map((g) => g.trim()).filter((g) => g && !g.includes('?')).map((g) => g.split(/\s+/).map(Number));
  const groupOf = new Map<number, number>();
  if (r.label === 'same_case') ids.forEach((id) => groupOf.set(id, 0)); else groups.forEach((g, k) => g.forEach((id) => groupOf.set(id, k)));
  const out: P[] = [];
  for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) {
    const [gi, gj] = [groupOf.get(ids[i]), groupOf.get(ids[j])];
    if (gi === undefined || gj === undefined) continue;
    out.push({ src, item: r.item_id, a: ids[i], b: ids[j], label: gi === gj ? 'same_case' : 'different_patients', phrases: r.deciding_phrases });
  }
  return out;
}
const sample = new Map(csv('test/fixtures/linkage/sample-43.csv').map((r) => [r.item_id, r]));
for (const r of csv('test/fixtures/linkage/labelled-43.csv')) {
  if (r.reading === 'second') continue;
  const s = sample.get(r.item_id)!;
  const ids = s.vaers_ids.split(' ').map(Number);
  if (s.kind === 'pair') { pairs.push({ src: `r1-${s.part}`, item: r.item_id, a: ids[0], b: ids[1], label: r.label, phrases: r.deciding_phrases }); continue; }
  pairs.push(...memberPairs('r1-cluster', ids, r));
}
// Round 5: every label read so far is tuning data (post hoc): the fresh pairs (resolved reading over the first) and round 4's random clusters.
const fresh = new Map<string, Record<string, string>>();
for (const r of csv('test/fixtures/linkage/labelled-43-fresh.csv')) {
  if (r.reading === 'second') continue;
  if (r.reading === 'first' && fresh.has(r.item_id)) continue;
  fresh.set(r.item_id, r);
}
for (const r of fresh.values()) {
  const ids = r.vaers_ids.split(' ').map(Number);
  const cluster = /^[QTVXZ]/.test(r.item_id);
  const src = r.item_id.startsWith('Q') ? 'q4-cluster' : r.item_id.startsWith('T') ? 't5-cluster' : r.item_id.startsWith('V') ? 'v6-cluster'
    : r.item_id.startsWith('X') ? 'x7-cluster' : r.item_id.startsWith('W') ? 'r7'
      : r.item_id.startsWith('Z') ? 'z8-cluster' : r.item_id.startsWith('Y') ? 'r8'
      : r.item_id.startsWith('S') ? 'r5' : r.item_id.startsWith('U') ? 'r6' : r.labelled_by.includes('measured-04') ? 'm04' : 'fresh';
  if (!cluster) { pairs.push({ src, item: r.item_id, a: ids[0], b: ids[1], label: r.label, phrases: r.deciding_phrases }); continue; }
  pairs.push(...memberPairs(src, ids, r));
}
const tally = new Map<string, { pred: number; tp: number; same: number }>();
const day = (d: number): string => (d < 0 ? '-' : new Date(d * 86400000).toISOString().slice(0, 10));
for (const p of pairs) {
  const [x, y] = [row.get(p.a)!, row.get(p.b)!];
  if (x === undefined || y === undefined) continue;
  const pat = comparePair(f, x, y);
  const together = result.representative[x] === result.representative[y];
  const w = passes.weightOf(x, y, pat);
  const t = tally.get(p.src) ?? { pred: 0, tp: 0, same: 0 };
  if (p.label !== 'undecidable') {
    if (together) t.pred++;
    if (together && p.label === 'same_case') t.tp++;
    if (p.label === 'same_case') t.same++;
  }
  tally.set(p.src, t);
  const sx = f.splttype[x], sy = f.splttype[y];
  tsv.push([p.src, p.item, p.a, p.b, p.label, together ? 1 : 0, w.toFixed(1), differentPatients(f, passes.evidence, x, y) || '-', jaccard(f.narrative[x], f.narrative[y]).toFixed(2), jaccard(f.events[x], f.events[y]).toFixed(2), sx === '' && sy === '' ? 'none' : sx === '' || sy === '' ? 'one' : sx === sy ? 'same' : 'diff', oneSenderNumbers(sx, sy) ? 1 : 0, sameVisit(f, x, y) ? 1 : 0, otherVaccination(f, x, y) ? 1 : 0, sameMedicines(f, x, y) ? 1 : 0, Math.abs(p.a - p.b), Math.abs(f.age[x] - f.age[y]), agreedFields(pat).join(' ')].join('\t'));
  const wrong = (together && p.label === 'different_patients') || (!together && p.label === 'same_case');
  if (!values.all && !wrong && !(p.label === 'same_case')) continue;
  console.log(`${wrong ? 'WRONG' : 'ok   '} ${p.src} ${p.item} ${p.a}-${p.b} ${p.label} ${together ? 'LINKED' : 'apart'} w=${w.toFixed(1)} veto=${differentPatients(f, passes.evidence, x, y) || '-'} | ${agreedFields(pat).join(' ')}`);
  console.log(`      age ${f.age[x]}/${f.age[y]} sex ${f.sex[x]}/${f.sex[y]} vax ${day(f.vaxDay[x])}/${day(f.vaxDay[y])} onset ${day(f.onsetDay[x])}/${day(f.onsetDay[y])} splt '${f.splttype[x]}'/'${f.splttype[y]}' idgap ${Math.abs(p.a - p.b)} narrJ ${jaccard(f.narrative[x], f.narrative[y]).toFixed(2)} evJ ${jaccard(f.events[x], f.events[y]).toFixed(2)} lots ${[...f.lots[x]].map((k) => f.lotNames[k])}/${[...f.lots[y]].map((k) => f.lotNames[k])} grp ${passes.evidence.group[x]}${passes.evidence.group[y]} sib ${passes.evidence.sibling[x]}${passes.evidence.sibling[y]}`);
  if (wrong) console.log(`      "${p.phrases.slice(0, 300)}"`);
}
writeFileSync(process.env.TSV ?? '/tmp/dup4/pairs.tsv', tsv.join('\n') + '\n');
const all = { pred: 0, tp: 0, same: 0 };
for (const [src, t] of tally) {
  console.log(`${src}: precision ${t.tp}/${t.pred} = ${(t.tp / t.pred).toFixed(3)}, recall ${t.tp}/${t.same} = ${(t.tp / t.same).toFixed(3)}`);
  all.pred += t.pred; all.tp += t.tp; all.same += t.same;
}
console.log(`all: precision ${all.tp}/${all.pred} = ${(all.tp / all.pred).toFixed(3)}, recall ${all.tp}/${all.same} = ${(all.tp / all.same).toFixed(3)}`);
