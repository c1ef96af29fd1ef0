/**
 * Prints what counting a concept once gains (issue 33's closing figures; docs/event-groups.md):
 * for each item of the groups analysis of a store (a group's label, and `LABEL (broad)`), in each
 * asked window, its top pairs by EB05 beside the best single-term pair of the same vaccine among
 * the item's terms in the term analysis (`stratified`, the same stratified E), with n and EB05.
 * A pair the store does not keep (never flagged by 2 methods in any window) shows as `-`.
 *
 * Usage: `npx tsx scripts/event-groups-gain.ts --store FILE [--windows 1999Q3,2006Q4] [--top 3]
 * [--groups groups] [--terms stratified]`. Output: Markdown on standard output. Asserts nothing.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { eventGroupItems } from '../src/domain/event-groups.js';
import { readStoreMeta } from '../src/serve/store/serving.js';
import { eventGroupsOfMeta } from '../src/serve/store/event-groups.js';

function argument(name: string, fallback: string | null): string {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0 && i + 1 < process.argv.length) return process.argv[i + 1];
  if (fallback === null) throw new Error(`--${name} is required`);
  return fallback;
}

const store = argument('store', null);
const windows = argument('windows', '1999Q3,2006Q4').split(',');
const top = Number(argument('top', '3'));
const groupsName = argument('groups', 'groups');
const termsName = argument('terms', 'stratified');

const meta = await readStoreMeta(store);
const set = eventGroupsOfMeta(meta).get(groupsName);
if (!set) throw new Error(`${store}: no analysis of event groups named ${groupsName}`);
const instance = await DuckDBInstance.create(store, { access_mode: 'READ_ONLY' });
const connection = await instance.connect();
type Row = { drug: string; event: string; n: number; eb05: number };
const rows = async (analysis: string, quarter: string): Promise<Row[]> => (await connection.runAndReadAll(
  `SELECT drug, event, n, eb05 FROM quarterly WHERE analysis = '${analysis}' AND quarter = '${quarter}' AND eb05 IS NOT NULL`,
)).getRowObjectsJS().map((r) => ({ drug: String(r.drug), event: String(r.event), n: Number(r.n), eb05: Number(r.eb05) }));
const fmt = (r: Row | undefined): string => (r ? `${r.n} | ${r.eb05.toFixed(2)}` : '- | -');

const items = eventGroupItems(set);
console.log(`Groups of ${store} (analysis ${groupsName}, file ${meta.analyses?.find((a) => a.name === groupsName)?.event_groups?.file}):`);
console.log('');
console.log('| group | narrow terms | broad terms |');
console.log('|---|---|---|');
for (const g of set.groups) console.log(`| ${g.label} | ${g.terms.filter((t) => t.scope === 'narrow').length} | ${g.terms.filter((t) => t.scope === 'broad').length} |`);
for (const quarter of windows) {
  const groupRows = await rows(groupsName, quarter);
  const termRows = await rows(termsName, quarter);
  console.log('');
  console.log(`Window ${quarter}: top ${top} pairs of each item by EB05 (${groupsName}) beside the best term pair of the same vaccine (${termsName})`);
  console.log('');
  console.log('| item | vaccine | group n | group EB05 | best term | term n | term EB05 | terms of the item stored for the vaccine |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const item of items) {
    const terms = new Set(item.terms.map((t) => t.term));
    const best = groupRows.filter((r) => r.event === item.name).sort((a, b) => b.eb05 - a.eb05).slice(0, top);
    if (best.length === 0) console.log(`| ${item.name} | (no stored pair) | | | | | | |`);
    for (const r of best) {
      const own = termRows.filter((t) => t.drug === r.drug && terms.has(t.event)).sort((a, b) => b.eb05 - a.eb05);
      console.log(`| ${item.name} | ${r.drug} | ${fmt(r)} | ${own[0]?.event ?? '-'} | ${fmt(own[0])} | ${own.length} |`);
    }
  }
}
connection.closeSync();
instance.closeSync();
