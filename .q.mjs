import { DuckDBInstance } from '@duckdb/node-api';
const db = await DuckDBInstance.create('/tmp/ref47/raw.duckdb');
const c = await db.connect();
const sql = process.argv[2];
const r = await c.runAndReadAll(sql);
const rows = r.getRowObjectsJson();
for (const row of rows) console.log(Object.values(row).join('\t'));
