/**
 * The reader's skip tally in SQL (issue 41, "DuckDB reads and joins"), over the tables
 * duckdb-load.ts loads and duckdb-join.ts derives: every reason of skips.ts `SKIP`, its count and
 * its first `MAX_EXAMPLES` examples worded as read.ts words them, naming the file and the line the
 * record starts on (the `line` column record-lines.ts writes). Where the streaming reader meets
 * the rows: group by group, DATA first, then VAX and SYMPTOMS, and the reports left without a
 * vaccine or an event at the end of their group in DATA order; so each reason's examples are its
 * first rows by (group, file kind DATA < VAX < SYMPTOMS, row). (readVaers reads a group's VAX and
 * SYMPTOMS side by side: its `BAD_ID` examples from the two files, both in one group, interleave
 * as their chunks arrive; here VAX's come first.)
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { RAW_TABLES } from './duckdb-load.js';
import { column, columnsOf, vaersId } from './duckdb-join.js';
import { MAX_EXAMPLES, SKIP, type SkipCount } from './skips.js';
import type { VaersFolder, VaersKind } from './sources.js';

const KINDS: readonly VaersKind[] = ['DATA', 'VAX', 'SYMPTOMS'];
type Reason = keyof typeof SKIP;

/** Per reason, the SQL of its rows: (grp, kind, seq, line, id, cell, version, latest); `kind` indexes KINDS. */
function reasonRows(idCell: string): Record<Reason, string> {
  const rows = (kind: number, cell: string, version = 'NULL', latest = 'NULL'): string =>
    `grp, ${kind} AS kind, seq, line, id, coalesce(${cell}, '') AS cell, ${version} AS version, ${latest} AS latest`;
  const data = (from: string): string => `SELECT ${rows(0, 'NULL')} FROM ${from}`;
  const linked = (x: string): string => `${x} x LEFT JOIN vaers_latest l USING (id)`;
  const orphan = (x: string, kind: number): string =>
    `SELECT ${rows(kind, 'NULL')} FROM ${linked(x)} WHERE x.id IS NOT NULL AND (l.latest IS NULL OR x.version >= l.latest)
       AND NOT EXISTS (SELECT 1 FROM data_kept k WHERE k.id = x.id AND k.grp = x.grp)`;
  const earlier = (x: string, kind: number): string =>
    `SELECT ${rows(kind, 'NULL', 'x.version', 'l.latest')} FROM ${x} x JOIN vaers_latest l USING (id) WHERE x.version < l.latest`;
  return {
    BAD_RECVDATE: `SELECT ${rows(0, 'date_cell')} FROM data_kept k JOIN skip_data USING (seq, grp, id) WHERE k.received IS NULL`,
    NO_VACCINE: data(`dated WHERE seq NOT IN (SELECT seq FROM with_vaccine)`),
    NO_EVENT: data(`dated WHERE seq IN (SELECT seq FROM with_vaccine) AND seq NOT IN (SELECT seq FROM vaers_reports)`),
    DUPLICATE_ID: data(`skip_data d LEFT JOIN vaers_latest l USING (id)
      WHERE d.id IS NOT NULL AND (l.grp_latest IS NULL OR l.grp_latest <= d.grp) AND d.seq NOT IN (SELECT seq FROM data_kept)`),
    BAD_ID: `SELECT ${rows(0, idCell)} FROM skip_data WHERE id IS NULL
      UNION ALL SELECT ${rows(1, 'id_cell')} FROM vax_rows WHERE id IS NULL
      UNION ALL SELECT ${rows(2, 'id_cell')} FROM symptom_rows WHERE id IS NULL`,
    VAX_ORPHAN: orphan('vax_rows', 1),
    SYMPTOMS_ORPHAN: orphan('symptom_rows', 2),
    EARLIER_VERSION_DATA: data('skip_data d JOIN vaers_latest l USING (id) WHERE l.grp_latest > d.grp'),
    VAX_EARLIER_VERSION: earlier('vax_rows', 1),
    SYMPTOMS_EARLIER_VERSION: earlier('symptom_rows', 2),
  };
}

/**
 * Where every record went (after joinVaersTables): `reportsRead` DATA records, `kept` reports,
 * and the reasons rows and reports were skipped, as readVaers's `skipped` (skips.ts `SkipTally.list`:
 * `SKIP` order, reasons without a row left out, up to MAX_EXAMPLES examples naming `folder`'s file
 * label and the record's line).
 */
export async function vaersSkipped(connection: DuckDBConnection, folder: VaersFolder): Promise<{ reportsRead: number; kept: number; skipped: SkipCount[] }> {
  const data = await columnsOf(connection, RAW_TABLES.DATA);
  const idCell = column(data, 'VAERS_ID') as string;
  const dateCell = column(data, 'RECVDATE') as string;
  const setup = `
    CREATE OR REPLACE TABLE skip_data AS
      SELECT rowid AS seq, grp, line, ${idCell}, ${vaersId(idCell)} AS id, ${dateCell} AS date_cell FROM ${RAW_TABLES.DATA};
    CREATE OR REPLACE TABLE dated AS SELECT k.seq, k.grp, k.id, d.line FROM data_kept k JOIN skip_data d USING (seq) WHERE k.received IS NOT NULL;
    CREATE OR REPLACE TABLE with_vaccine AS
      SELECT DISTINCT k.seq FROM dated k JOIN vax_rows x ON x.id = k.id AND x.grp = k.grp LEFT JOIN vaers_latest l ON l.id = k.id
      WHERE x.name <> '' AND x.version >= coalesce(l.latest, 1)`;
  for (const sql of setup.split(';')) await connection.run(sql);
  const sqlOf = reasonRows(idCell);
  const reasons = (Object.keys(SKIP) as Reason[]).map((reason) => [reason, sqlOf[reason]] as const);
  const rows = (await connection.runAndReadAll(`
    SELECT *, count(*) OVER (PARTITION BY reason)::DOUBLE AS n
    FROM (${reasons.map(([reason, sql]) => `SELECT '${reason}' AS reason, * FROM (${sql})`).join('\nUNION ALL ')})
    QUALIFY row_number() OVER (PARTITION BY reason ORDER BY grp, kind, seq) <= ${MAX_EXAMPLES}
    ORDER BY reason, grp, kind, seq`)).getRowObjectsJS();
  const skipped: SkipCount[] = [];
  for (const [reason] of reasons) {
    const mine = rows.filter((r) => r.reason === reason);
    if (mine.length === 0) continue;
    const examples = mine.map((r) => {
      const label = folder.groups[Number(r.grp)].members[KINDS[Number(r.kind)]].label;
      const where = `${label} line ${Number(r.line)}`;
      if (reason === 'BAD_ID') return `${where}: VAERS_ID '${String(r.cell)}'`;
      const id = `VAERS_ID ${String(r.id)} (${where})`;
      if (reason === 'BAD_RECVDATE') return `${id}: RECVDATE '${String(r.cell)}'`;
      if (reason === 'VAX_EARLIER_VERSION' || reason === 'SYMPTOMS_EARLIER_VERSION') return `${id}: ORDER ${Number(r.version)} of ${Number(r.latest)}`;
      return id;
    });
    skipped.push({ reason: SKIP[reason], count: Number(mine[0].n), examples });
  }
  const [read, kept] = (await connection.runAndReadAll(
    'SELECT (SELECT count(*) FROM skip_data)::DOUBLE, (SELECT count(*) FROM vaers_reports)::DOUBLE')).getRows()[0] as number[];
  return { reportsRead: read, kept, skipped };
}
