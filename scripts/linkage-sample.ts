/**
 * Draws the second labelled set of duplicate linkage (issue 43; protocol in docs/duplicates.md, "The
 * labelled set") from the default store's reports (data/vaers, 1990-2006) with the linkage as it
 * stood before issue 43's rules (commit of this script: its blocking, weights, threshold, vetoes and
 * clusters), and writes blind reading packets for the readers.
 *
 * Items (seeded generator bench/prng.ts, seed SEED; without replacement):
 * - **pairs**: the pairs issue 43 names (`named`, always in the tuning part), then candidate pairs (blocking.ts) in strata by the linkage's verdict and the pair's
 *   Fellegi-Sunter weight before the case-identity rule and the vetoes (the pattern's weight plus
 *   the frequency adjustment; `raw` below): `linked` (both reports in one cluster today), then the
 *   others by raw weight: `w40` (>= 40 bits), `w30` (30-40), `w21` (21-30), `w13` (13-21), `w0`
 *   (0-13), `wneg` (below 0). The high strata are oversampled (ALLOCATION) so that same-case pairs
 *   are plentiful.
 * - **split**: each drawn pair (but the named) goes to the `tuning` part with probability
 *   TUNING_SHARE (a seeded draw), else to the `measured` part.
 * - **second reading**: a fifth of all drawn pairs (a seeded draw without replacement), read again
 *   blind by another reader (Cohen's kappa between the readings).
 * - **clusters**: CLUSTERS clusters of two or more reports drawn uniformly among today's clusters,
 *   all measured: each is read whole.
 *
 * Writes: `--out` (the item list: item id, kind, VAERS_IDs, stratum, part, second reading,
 * weights; for the scoring scripts, never shown to a reader), beside it `<out>-strata.csv` (each
 * stratum's pool of candidate pairs and the pairs drawn from it: the design weights), and under `--packets` one Markdown
 * packet per PACKET_SIZE items (item ids P001..., C01... given in a seeded random order) (`measured-01.md`, `clusters-01.md`, `second-01.md`, `tuning-01.md`,
 * ...) with every field of every report as the raw files hold them (VAERSDATA, VAERSVAX,
 * VAERSSYMPTOMS, Windows-1252, read by the build's CSV reader src/ingest/vaers/csv.ts) and nothing of the linkage (no weight, stratum or reason), each with a
 * label template `<packet>.csv`. Items are shuffled (seeded) before they are cut into packets.
 *
 * The strata depend on the linkage the script runs: the draw of test/fixtures/linkage/sample-43.csv
 * is reproduced by running this script at its first commit (4726d68, `git worktree add` it), not at
 * a later one whose rules differ.
 *
 * `--round` (ROUNDS): `first` (round 1), `fresh` (round 3's measured set) or `clusters4` (round 4:
 * CLUSTERS clusters only, drawn uniformly among the linkage's clusters of two or more, none identical
 * to an item read before: round 1's pairs and clusters, round 3's clusters and measured-04's pairs;
 * packets clusters-02a and clusters-02b); `5` (round 5, on the rules frozen for it: ALLOCATION's 250
 * candidate pairs in the strata of round 3's draw and CLUSTERS random clusters, all measured, no
 * second reading; every pair of the members of an item labelled before left out: round 1's items,
 * round 3's pairs, round 4's clusters; packets measured-01..05 of 50 pairs and clusters-01a,
 * clusters-01b of 30 clusters; item ids S001... and T01...); `6` (round 6, on the rules frozen for
 * it: as round 5, seed 20261201, every pair of the members of an item labelled in rounds 1-5 left
 * out, round 5's pairs and clusters too; item ids U001... and V01...); `7` (round 7, on the rules
 * frozen for it: seed 20261202, every pair of the members of an item labelled in rounds 1-6 left
 * out; 250 pairs W001-W250 and 80 clusters X01-X80; packets cut in item order, measured-01
 * W001-W125, measured-02 W126-W250, clusters-01a X01-X40, clusters-01b X41-X80; and a second
 * reading of SECOND_PAIRS pairs drawn at random from the 250, in shuffled order, packet second-01
 * under `--second`, marked `second_reading` in the item list); `8` (round 8, on the rules frozen
 * for it: seed 20261203, rounds 1-7's items left out; 200 pairs Y001-Y200 in four packets of 50,
 * 80 clusters Z01-Z80 in four packets of 20, clusters-01a..01d; a second reading of 40 pairs); `9` (round 9,
 * as round 8 on the rules frozen for it: seed 20261204, rounds 1-8's items left out; A001-A200, B01-B80).
 *
 * Run: npx tsx scripts/linkage-sample.ts [--round first|fresh|clusters4|5|6|7|8|9] [--vaers DIR] [--cache FILE] [--out FILE] [--packets DIR] [--second DIR]
 */
import { createReadStream, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import { readCsv } from '../src/ingest/vaers/csv.js';
import { levelsOf } from '../src/ingest/linkage/compare.js';
import { frequencyAdjustment, valueShares } from '../src/ingest/linkage/frequency.js';
import { linkReports, scorePairs } from '../src/ingest/linkage/link.js';
import { realLinkageColumns } from '../bench/linkage-columns.js';
import { random } from '../bench/prng.js';

/**
 * The draws: `first` (round 1, sample-43.csv: tuning and measured parts) and `fresh` (round 2,
 * sample-43-fresh.csv, drawn on the rules frozen for it: every item measured, none for tuning, no
 * pair or cluster already labelled in sample-43.csv; item ids R001... and K01..., so that they
 * never collide with round 1's).
 */
const ROUNDS = {
  first: {
    seed: 20261128, tuningShare: 0.4, clusters: 60, packetSize: 40, pairPrefix: 'P', clusterPrefix: 'C',
    out: 'test/fixtures/linkage/sample-43.csv', packets: '/work/wt/notes/dup-packets',
    allocation: [['linked', 230], ['w40', 100], ['w30', 80], ['w21', 80], ['w13', 60], ['w0', 35], ['wneg', 25]] as ReadonlyArray<readonly [string, number]>,
  },
  fresh: {
    seed: 20261143, tuningShare: 0, clusters: 50, packetSize: 50, pairPrefix: 'R', clusterPrefix: 'K',
    out: 'test/fixtures/linkage/sample-43-fresh.csv', packets: '/work/wt/notes/s3/dup-packets-2',
    // The linked stratum and the bands just below it heavy: same-case pairs the vetoes keep apart lie at high raw weight.
    allocation: [['linked', 120], ['w40', 70], ['w30', 50], ['w21', 30], ['w13', 15], ['w0', 10], ['wneg', 5]] as ReadonlyArray<readonly [string, number]>,
  },
  // Round 4: clusters only, drawn on the rules frozen for round 4 (a5d997f), none identical to an item read before
  // (clustersBefore); two packets of 30 (clusters-02a, clusters-02b); item ids Q01-Q60.
  clusters4: {
    seed: 20261128, tuningShare: 0, clusters: 60, packetSize: 30, pairPrefix: 'R', clusterPrefix: 'Q',
    out: 'test/fixtures/linkage/sample-43-clusters4.csv', packets: '/work/wt/notes/s4/packets',
    allocation: [] as ReadonlyArray<readonly [string, number]>,
  },
  // Round 5: pairs and clusters drawn on the rules frozen for round 5 (d9f278d), all measured; round 3's
  // strata (the linked stratum and the bands below it heavy), 250 pairs in five packets of 50.
  5: {
    seed: 20261129, tuningShare: 0, clusters: 60, packetSize: 50, clusterPacketSize: 30, pairPrefix: 'S', clusterPrefix: 'T',
    out: 'test/fixtures/linkage/sample-43-round5.csv', packets: '/work/wt/notes/s5/packets',
    allocation: [['linked', 120], ['w40', 55], ['w30', 40], ['w21', 20], ['w13', 8], ['w0', 5], ['wneg', 2]] as ReadonlyArray<readonly [string, number]>,
  },
  // Round 6: as round 5, on the rules frozen for round 6 (24041f8); round 5's items left out too.
  6: {
    seed: 20261201, tuningShare: 0, clusters: 60, packetSize: 50, clusterPacketSize: 30, pairPrefix: 'U', clusterPrefix: 'V',
    out: 'test/fixtures/linkage/sample-43-round6.csv', packets: '/work/wt/notes/s6/packets',
    allocation: [['linked', 120], ['w40', 55], ['w30', 40], ['w21', 20], ['w13', 8], ['w0', 5], ['wneg', 2]] as ReadonlyArray<readonly [string, number]>,
  },
  // Round 7: as round 6, on the rules frozen for round 7 (e2e2057), rounds 1-6's items left out; 80 clusters; two packets of 125
  // pairs and two of 40 clusters cut in item order; a second reading of 50 of the pairs (SECOND_PAIRS).
  7: {
    seed: 20261202, tuningShare: 0, clusters: 80, packetSize: 125, clusterPacketSize: 40, pairPrefix: 'W', clusterPrefix: 'X',
    out: 'test/fixtures/linkage/sample-43-round7.csv', packets: '/work/wt/notes/s7/packets',
    allocation: [['linked', 120], ['w40', 55], ['w30', 40], ['w21', 20], ['w13', 8], ['w0', 5], ['wneg', 2]] as ReadonlyArray<readonly [string, number]>,
  },
  // Round 8: as round 7, on the rules frozen for round 8 (8da6346), rounds 1-7's items left out; 200 pairs in four packets of 50,
  // 80 clusters in four packets of 20 (shorter packets, read in parallel); a second reading of 40 of the pairs (a fifth).
  8: {
    seed: 20261203, tuningShare: 0, clusters: 80, packetSize: 50, clusterPacketSize: 20, pairPrefix: 'Y', clusterPrefix: 'Z',
    out: 'test/fixtures/linkage/sample-43-round8.csv', packets: '/work/wt/notes/s8/packets',
    allocation: [['linked', 96], ['w40', 44], ['w30', 32], ['w21', 16], ['w13', 7], ['w0', 4], ['wneg', 1]] as ReadonlyArray<readonly [string, number]>,
  },
  // Round 9: as round 8, on the rules frozen for round 9 (67ffa82), rounds 1-8's items left out; item ids A001-A200 and B01-B80.
  9: {
    seed: 20261204, tuningShare: 0, clusters: 80, packetSize: 50, clusterPacketSize: 20, pairPrefix: 'A', clusterPrefix: 'B',
    out: 'test/fixtures/linkage/sample-43-round9.csv', packets: '/work/wt/notes/s9/packets',
    allocation: [['linked', 96], ['w40', 44], ['w30', 32], ['w21', 16], ['w13', 7], ['w0', 4], ['wneg', 1]] as ReadonlyArray<readonly [string, number]>,
  },
} as const;
/** The pairs issue 43 names (read from the clusters the issue describes): they go to the tuning part. */
/** Rounds 7 and 8: pairs of the draw read a second time by another blind reader (packet second-01, shuffled): 50 of 250, 40 of 200. */
const SECOND_PAIRS_OF: Record<string, number> = { 7: 50, 8: 40, 9: 40 };
const NAMED: ReadonlyArray<readonly [number, number]> = [
  [261055, 261056], [224854, 224886], [205964, 205965], [205964, 206168], [205965, 206168], [238571, 256191],
];

const { values } = parseArgs({ options: {
  vaers: { type: 'string', default: 'data/vaers' }, cache: { type: 'string' }, round: { type: 'string', default: 'first' },
  out: { type: 'string' }, packets: { type: 'string' }, second: { type: 'string' },
} });
if (!Object.hasOwn(ROUNDS, values.round!)) throw new Error(`--round: first, fresh, clusters4, 5, 6, 7, 8 or 9, not ${values.round}`);
/** Rounds 5 to 7: measured pairs and clusters, every pair labelled before left out. */
const LATER = /^[5-9]$/.test(values.round!);
const SECOND_PAIRS = SECOND_PAIRS_OF[values.round] ?? 0;
const ROUND = ROUNDS[values.round as keyof typeof ROUNDS];
const CLUSTER_PACKET_SIZE = 'clusterPacketSize' in ROUND ? ROUND.clusterPacketSize : ROUND.packetSize;
const { seed: SEED, tuningShare: TUNING_SHARE, clusters: CLUSTERS, packetSize: PACKET_SIZE, allocation: ALLOCATION } = ROUND;
values.out ??= ROUND.out;
values.packets ??= ROUND.packets;
values.second ??= join(ROUND.packets, '..', 'second');
/** Pairs already labelled (round 1's items, every pair of its clusters' members): the fresh draw leaves them out. */
const labelledBefore = new Set<string>();
if (values.round === 'fresh') {
  for (const line of readFileSync(ROUNDS.first.out, 'utf8').split('\n').slice(1).filter((l) => l !== '')) {
    const ids = line.split(',')[2].split(' ').map(Number).sort((p, q) => p - q);
    for (let x = 0; x < ids.length; x++) for (let y = x + 1; y < ids.length; y++) labelledBefore.add(`${ids[x]}-${ids[y]}`);
  }
}
// Round 5: every item labelled before (round 1's pairs and clusters, round 3's 300 pairs, round 4's 60 clusters; not round 3's clusters, never read).
// Round 6: those and round 5's 250 pairs and 60 clusters. Round 7: those and round 6's 250 pairs and 60 clusters.
if (LATER) {
  const before = [[ROUNDS.first.out, ['pair', 'cluster']], [ROUNDS.fresh.out, ['pair']], [ROUNDS.clusters4.out, ['cluster']]] as Array<readonly [string, readonly string[]]>;
  // Every later round's earlier rounds (5 .. round - 1) left out too.
  for (let r = 5; r < Number(values.round); r++) before.push([ROUNDS[r as 5 | 6 | 7 | 8].out, ['pair', 'cluster']]);
  for (const [file, kinds] of before) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1).filter((l) => l !== '')) {
      const [, kind, list] = line.split(',');
      if (!(kinds as readonly string[]).includes(kind)) continue;
      const ids = list.split(' ').map(Number).sort((p, q) => p - q);
      for (let x = 0; x < ids.length; x++) for (let y = x + 1; y < ids.length; y++) labelledBefore.add(`${ids[x]}-${ids[y]}`);
    }
  }
}
/**
 * Items read before (VAERS_IDs sorted and joined): every item of round 1 (pairs and clusters, all
 * tuning data), round 3's clusters K01-K50 and the pairs of its packet measured-04 (tuning data
 * since round 4). The clusters4 draw leaves out a cluster identical to one of them (a cluster
 * the new rules changed is new; one equal to a pair still read blind is kept).
 */
const clustersBefore = new Set<string>();
if (values.round === 'clusters4') {
  const key = (ids: string): string => ids.split(' ').map(Number).sort((p, q) => p - q).join(' ');
  for (const [file, kinds] of [[ROUNDS.first.out, ['pair', 'cluster']], [ROUNDS.fresh.out, ['cluster']]] as const) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1).filter((l) => l !== '')) {
      const [, kind, ids] = line.split(',');
      if ((kinds as readonly string[]).includes(kind)) clustersBefore.add(key(ids));
    }
  }
  for (const line of readFileSync('test/fixtures/linkage/readings-43-fresh/measured-04.csv', 'utf8').split('\n').slice(1).filter((l) => l !== '')) clustersBefore.add(key(line.split(',')[1]));
}
const real = await realLinkageColumns(values.vaers!, values.cache);
const uniform = random(SEED);
const result = linkReports(real);
// The clusters4 round draws no pair: the candidate pairs are not scored (an empty pair list).
const scored = values.round === 'clusters4'
  ? { a: new Int32Array(0), b: new Int32Array(0), pattern: new Int32Array(0), weight: new Float64Array(0), features: null as never, model: null as never }
  : scorePairs(real);
const shares = values.round === 'clusters4' ? null as never : valueShares(scored.features);
const rawWeight = (i: number): number => {
  const levels = levelsOf(scored.pattern[i]);
  return levels.reduce((s, l, k) => s + scored.model.weights[k][l], 0)
    + frequencyAdjustment(scored.features, shares, scored.model.u, scored.a[i], scored.b[i], levels);
};
const rep = result.representative;
const stratumOf = (i: number, w: number): string => rep[scored.a[i]] === rep[scored.b[i]] ? 'linked'
  : w >= 40 ? 'w40' : w >= 30 ? 'w30' : w >= 21 ? 'w21' : w >= 13 ? 'w13' : w >= 0 ? 'w0' : 'wneg';
const pools = new Map<string, number[]>(ALLOCATION.map(([s]) => [s, []]));
const raw = new Float64Array(scored.a.length);
const labelledPair = (i: number): boolean => labelledBefore.has([real.id[scored.a[i]], real.id[scored.b[i]]].sort((p, q) => p - q).join('-'));
for (let i = 0; i < scored.a.length; i++) {
  raw[i] = rawWeight(i);
  if (!labelledPair(i)) pools.get(stratumOf(i, raw[i]))!.push(i);
}
/** `n` distinct draws from 0..size-1, in draw order. */
function draw(size: number, n: number): number[] {
  const chosen = new Set<number>();
  while (chosen.size < Math.min(n, size)) chosen.add(Math.floor(uniform() * size));
  return [...chosen];
}
/** Seeded Fisher-Yates shuffle. */
function shuffled<T>(xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(uniform() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
interface Item { item: string; kind: 'pair' | 'cluster'; ids: number[]; stratum: string; part: string; second: boolean; weight: number; raw: number }
const items: Item[] = [];
const seen = new Set<string>();
const addPair = (x: number, y: number, stratum: string, weight: number, rawW: number): void => {
  const ids = [real.id[x], real.id[y]].sort((p, q) => p - q);
  if (seen.has(ids.join('-')) || labelledBefore.has(ids.join('-'))) return;
  seen.add(ids.join('-'));
  const part = stratum === 'named' ? 'tuning' : uniform() < TUNING_SHARE ? 'tuning' : 'measured';
  items.push({ item: '', kind: 'pair', ids, stratum, part, second: false, weight, raw: rawW });
};
const rowOf = new Map(Array.from(real.id, (id, i) => [id, i]));
if (values.round === 'first') for (const [x, y] of NAMED) addPair(rowOf.get(x)!, rowOf.get(y)!, 'named', NaN, NaN);
for (const [stratum, n] of ALLOCATION) {
  const pool = pools.get(stratum)!;
  for (const k of draw(pool.length, n)) addPair(scored.a[pool[k]], scored.b[pool[k]], stratum, scored.weight[pool[k]], raw[pool[k]]);
}
if (items.length > 0 && !LATER) for (const k of draw(items.length, Math.round(items.length / 5))) items[k].second = true;
// Clusters of two or more, ordered by their smallest VAERS_ID, drawn uniformly.
const members = new Map<number, number[]>();
for (let i = 0; i < rep.length; i++) members.set(rep[i], [...(members.get(rep[i]) ?? []), real.id[i]]);
// A cluster read before (any two of its members labelled in round 1) is left out of the fresh draw.
// Round 4: a cluster identical to one drawn before is left out (a cluster the new rules changed is new).
const readBefore = (c: number[]): boolean => c.some((x, k) => c.slice(k + 1).some((y) => labelledBefore.has(`${x}-${y}`)))
  || clustersBefore.has([...c].sort((p, q) => p - q).join(' '));
const clusters = [...members.values()].filter((c) => c.length > 1).map((c) => c.sort((p, q) => p - q)).sort((p, q) => p[0] - q[0]);
const fresh = clusters.filter((c) => !readBefore(c));
for (const k of draw(fresh.length, CLUSTERS)) items.push({ item: '', kind: 'cluster', ids: fresh[k], stratum: 'cluster', part: 'measured', second: false, weight: NaN, raw: NaN });
// Item ids in a seeded random order, so that an id says nothing of the item's stratum.
let pairNo = 0;
let clusterNo = 0;
for (const it of shuffled(items)) it.item = it.kind === 'pair' ? `${ROUND.pairPrefix}${String(++pairNo).padStart(3, '0')}` : `${ROUND.clusterPrefix}${String(++clusterNo).padStart(2, '0')}`;
items.sort((p, q) => (p.item < q.item ? -1 : 1));
// Rounds 7 and 8: the second reading's pairs, drawn at random among the draw's pairs (after the ids are given).
if (SECOND_PAIRS > 0) {
  const drawn = items.filter((it) => it.kind === 'pair');
  for (const k of draw(drawn.length, SECOND_PAIRS)) drawn[k].second = true;
}
console.log(`round ${values.round}, seed ${SEED}; candidate pairs ${scored.a.length}; clusters of two or more ${clusters.length} (${fresh.length} not read before); pairs labelled before left out ${labelledBefore.size}; strata ${[...pools].map(([s, p]) => `${s} ${p.length}`).join(', ')}`);
console.log(`drawn ${pairNo} pairs (tuning ${items.filter((i) => i.kind === 'pair' && i.part === 'tuning').length}, measured ${items.filter((i) => i.kind === 'pair' && i.part === 'measured').length}, second reading ${items.filter((i) => i.second).length}), ${clusterNo} clusters`);
// The strata's sizes (pairs not labelled before) and draws, for the design-weighted figures (test/ingest/linkage/measure.ts weightedFigures).
if (ALLOCATION.length > 0) writeFileSync(values.out!.replace(/\.csv$/, '-strata.csv'), `stratum,pool,drawn\n${ALLOCATION.map(([s]) => `${s},${pools.get(s)!.length},${items.filter((it) => it.stratum === s).length}`).join('\n')}\n`);
const fixed = (w: number): string => (Number.isFinite(w) ? w.toFixed(1) : String(w));
writeFileSync(values.out!, `item_id,kind,vaers_ids,stratum,part,second_reading,weight,raw_weight\n${items.map((it) =>
  `${it.item},${it.kind},${it.ids.join(' ')},${it.stratum},${it.part},${it.second},${fixed(it.weight)},${fixed(it.raw)}`).join('\n')}\n`);

// Every field of every report read, as the raw files hold them (Windows-1252, read by the build's own CSV reader).
const wanted = new Set(items.flatMap((it) => it.ids));
const ids = [...wanted];
type Row = Record<string, string>;
async function rowsOf(kind: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const name of readdirSync(values.vaers!).filter((n) => n.endsWith(`VAERS${kind}.csv.gz`)).sort()) {
    let header: string[] = [];
    await readCsv([createReadStream(join(values.vaers!, name)), createGunzip()], name, {
      onHeader: (columns) => { header = [...columns].sort((p, q) => p[1] - q[1]).map(([k]) => k); },
      onRecord: (fields) => { if (wanted.has(Number(fields[0]))) rows.push(Object.fromEntries(header.map((k, i) => [k, fields[i]]))); },
    });
  }
  return rows;
}
const [data, vax, symptoms] = [await rowsOf('DATA'), await rowsOf('VAX'), await rowsOf('SYMPTOMS')];
const by = (rows: Row[]): Map<number, Row[]> => {
  const m = new Map<number, Row[]>();
  for (const r of rows) m.set(Number(r.VAERS_ID), [...(m.get(Number(r.VAERS_ID)) ?? []), r]);
  return m;
};
const [dataOf, vaxOf, symptomsOf] = [by(data), by(vax), by(symptoms)];
const value = (v: string | null | undefined): string => (v === null || v === undefined || v.trim() === '' ? '-' : v.replace(/\s+/g, ' ').trim());
const FIELDS = ['RECVDATE', 'RPT_DATE', 'VAX_DATE', 'ONSET_DATE', 'NUMDAYS', 'AGE_YRS', 'CAGE_YR', 'CAGE_MO', 'SEX', 'STATE', 'SPLTTYPE', 'V_ADMINBY', 'V_FUNDBY',
  'DIED', 'DATEDIED', 'L_THREAT', 'ER_VISIT', 'HOSPITAL', 'HOSPDAYS', 'X_STAY', 'DISABLE', 'RECOVD', 'OTHER_MEDS', 'CUR_ILL', 'HISTORY', 'PRIOR_VAX', 'LAB_DATA'];
function reportText(id: number): string {
  const d = dataOf.get(id)?.[0] ?? {};
  const lines = [`#### VAERS_ID ${id}`, '', ...FIELDS.map((f) => `- ${f}: ${value(d[f])}`)];
  lines.push('- vaccines (VAX_TYPE / VAX_NAME / VAX_MANU / VAX_LOT / VAX_DOSE / VAX_ROUTE / VAX_SITE):');
  for (const v of vaxOf.get(id) ?? []) lines.push(`  - ${['VAX_TYPE', 'VAX_NAME', 'VAX_MANU', 'VAX_LOT', 'VAX_DOSE', 'VAX_ROUTE', 'VAX_SITE'].map((f) => value(v[f])).join(' / ')}`);
  const terms = (symptomsOf.get(id) ?? []).flatMap((s) => [1, 2, 3, 4, 5].map((k) => s[`SYMPTOM${k}`]).filter((t): t is string => !!t && t.trim() !== ''));
  lines.push(`- symptom terms: ${terms.join('; ') || '-'}`, '- SYMPTOM_TEXT (the full narrative):', '', `> ${value(d.SYMPTOM_TEXT)}`, '');
  return lines.join('\n');
}
mkdirSync(values.packets!, { recursive: true });
const packetsOf = (name: string, list: Item[], what: string, size: number = PACKET_SIZE, folder = values.packets!): void => {
  // Round 7: packets cut in item order (the ids are in a seeded random order already), but the second reading's, shuffled.
  const order = SECOND_PAIRS > 0 && name !== 'second' ? [...list] : shuffled(list);
  for (let p = 0; p * size < order.length; p++) {
    const chunk = order.slice(p * size, (p + 1) * size);
    // Round 4's clusters follow round 3's clusters-01: clusters-02a, clusters-02b; round 5's (a new folder): clusters-01a, clusters-01b.
    const file = values.round === 'clusters4' ? `${name}-02${String.fromCharCode(97 + p)}`
      : LATER && name === 'clusters' ? `${name}-01${String.fromCharCode(97 + p)}` : `${name}-${String(p + 1).padStart(2, '0')}`;
    const readme = folder === values.packets ? 'README.md in this folder' : `README.md in ${values.packets}/`;
    const body = [`# Packet ${file}: ${chunk.length} ${what}`, '', `Read docs: ${readme}. Label each item in \`${file}.csv\`.`, ''];
    for (const it of chunk) body.push(`---`, '', `## Item ${it.item}: VAERS_IDs ${it.ids.join(', ')}`, '', ...it.ids.map(reportText));
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `${file}.md`), `${body.join('\n')}\n`);
    writeFileSync(join(folder, `${file}.csv`), `item_id,vaers_ids,label,deciding_phrases${it0(chunk) ? ',same_case_groups' : ''}\n${chunk.map((it) => `${it.item},${it.ids.join(' ')},,${it.kind === 'cluster' ? ',' : ''}`).join('\n')}\n`);
  }
};
const it0 = (chunk: Item[]): boolean => chunk[0]?.kind === 'cluster';
const pairs = items.filter((it) => it.kind === 'pair');
if (values.round !== 'clusters4') {
  packetsOf('measured', pairs.filter((it) => it.part === 'measured'), 'pairs of reports');
  if (values.round === 'first') packetsOf('tuning', pairs.filter((it) => it.part === 'tuning'), 'pairs of reports');
  else if (values.round === 'fresh') writeFileSync(join(values.packets!, 'second.txt'), `${pairs.filter((it) => it.second).map((it) => it.item).join('\n')}\n`);
  if (!LATER) packetsOf('second', pairs.filter((it) => it.second), 'pairs of reports');
  else if (SECOND_PAIRS > 0) packetsOf('second', pairs.filter((it) => it.second), 'pairs of reports', SECOND_PAIRS, values.second);
}
packetsOf('clusters', items.filter((it) => it.kind === 'cluster'), 'clusters of reports (judge each cluster whole)', CLUSTER_PACKET_SIZE);
console.log(`reports ${ids.length}: data rows ${data.length}, vaccine rows ${vax.length}, symptom rows ${symptoms.length}; packets in ${values.packets}`);
