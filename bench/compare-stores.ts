/**
 * Compares two stores table by table (issue 41: a change of the build's memory must not change an
 * answer): for every table of the first, the rows of each side missing from the other (EXCEPT
 * ALL both ways), printed per table; `meta` is compared as JSON without what measures the run
 * (src/serve/generation/identity.ts VOLATILE_META_KEYS, at any depth, as the store's build id); a table the second lacks is said so (a
 * difference). Exit code 1 when some table differs.
 * Run: npx tsx bench/compare-stores.ts A.duckdb B.duckdb
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { identityOf, VOLATILE_META_KEYS } from '../src/serve/generation/identity.js';

const [a, b] = process.argv.slice(2);
if (!a || !b) throw new Error('usage: bench/compare-stores.ts A.duckdb B.duckdb');
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
await connection.run(`ATTACH '${a.replaceAll("'", "''")}' AS a (READ_ONLY); ATTACH '${b.replaceAll("'", "''")}' AS b (READ_ONLY)`);
const tablesOf = async (db: string): Promise<string[]> => (await connection.runAndReadAll(`SELECT table_name FROM duckdb_tables() WHERE database_name = '${db}' ORDER BY 1`)).getRows().map((r) => String(r[0]));
const tables = await tablesOf('a');
const inB = new Set(await tablesOf('b'));
let differ = false;
const meta = async (db: string): Promise<string> => JSON.stringify(identityOf(Object.fromEntries((await connection.runAndReadAll(`SELECT key, value FROM ${db}.meta ORDER BY key`)).getRows().map(([k, v]) => [String(k), JSON.parse(String(v))]))));
for (const table of tables) {
  if (table === 'meta') {
    const same = (await meta('a')) === (await meta('b'));
    if (!same) differ = true;
    console.log(`meta${' '.repeat(20)} ${same ? 'the same' : 'DIFFERENT'} (without ${[...VOLATILE_META_KEYS].join(', ')})`);
    continue;
  }
  if (!inB.has(table)) {
    // e.g. `triage_rows`, which stores written before issue 41's eighth round lack: a difference, said so.
    differ = true;
    console.log(`${table.padEnd(24)} only in A`);
    continue;
  }
  const rows = `SELECT * FROM %.${table}`;
  const count = async (sql: string): Promise<number> => Number((await connection.runAndReadAll(`SELECT count(*) FROM (${sql})`)).getRows()[0][0]);
  const total = await count(rows.replace('%', 'a'));
  const onlyA = await count(`${rows.replace('%', 'a')} EXCEPT ALL ${rows.replace('%', 'b')}`);
  const onlyB = await count(`${rows.replace('%', 'b')} EXCEPT ALL ${rows.replace('%', 'a')}`);
  if (onlyA + onlyB > 0) differ = true;
  console.log(`${table.padEnd(24)} ${String(total).padStart(10)} rows; only in A ${onlyA}, only in B ${onlyB}`);
}
connection.closeSync();
instance.closeSync();
process.exit(differ ? 1 : 0);
