/**
 * The reader's rules in SQL over the tables duckdb-load.ts loads (issue 41, "DuckDB reads and
 * joins"): the latest follow-up version of each report (versions.ts), the DATA row kept per
 * VAERS_ID (skips.ts: bad ids, an earlier version's DATA row, a repeated id, a bad RECVDATE), and
 * the three files joined by VAERS_ID within their group, keeping the reports that name a vaccine
 * and an event. The same rules as read.ts, in the same words:
 * - a VAERS_ID is an integer of 1-15 digits, blanks around it allowed (values.ts parseVaersId);
 * - `ORDER` is a positive integer of 1-9 digits, else version 1; a file without it is version 1;
 *   a report's latest version is its highest ORDER on any VAX or SYMPTOMS row, found first in the
 *   lowest group; a DATA row in a group before that one is an earlier version's; VAX and
 *   SYMPTOMS rows below the latest are dropped;
 * - the first DATA row of an id (reading order) is the one kept, whatever its RECVDATE;
 * - RECVDATE is `M/D/YYYY` (one or two digits), a real calendar date, year 1900-2999 (values.ts);
 * - a vaccine is a trimmed non-blank VAX_NAME, an event a trimmed non-blank SYMPTOMn.
 * "Trimmed" is JavaScript's `String.prototype.trim` (white space and line terminators of
 * ECMA-262, including U+00A0 and U+FEFF), spelled as `JS_SPACE_CHARS`.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { RAW_TABLES } from './duckdb-load.js';

/** ECMA-262 WhiteSpace and LineTerminator code points (what String.prototype.trim removes). */
/** The same code points as a string, for DuckDB's `trim(text, characters)` (much cheaper than a regular expression). */
const JS_SPACE_CHARS = [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, ...Array.from({ length: 11 }, (_, k) => 0x2000 + k),
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff].map((c) => String.fromCodePoint(c)).join('');

/**
 * SQL of a cell trimmed as JavaScript trims it. A cell whose first and last characters are printable
 * ASCII other than the space (`!`..`~`, none of them white space) is itself: DuckDB's `trim` with a set
 * of characters cost some 650 ns a cell (bench, 2026-11-29), the check a sixth of that.
 */
export const jsTrim = (cell: string): string =>
  `CASE WHEN regexp_full_match(${cell}, '[!-~](.*[!-~])?') THEN ${cell} ELSE trim(${cell}, '${JS_SPACE_CHARS}') END`;
/** SQL of a VAERS_ID cell read as values.ts parseVaersId reads it (NULL: not an id). */
export const vaersId = (cell: string): string =>
  `CASE WHEN regexp_full_match(${jsTrim(cell)}, '\\d{1,15}') THEN CAST(${jsTrim(cell)} AS BIGINT) END`;
/** SQL of an ORDER cell read as versions.ts parseVersion reads it. */
const version = (cell: string): string =>
  `coalesce(CASE WHEN regexp_full_match(${jsTrim(cell)}, '\\d{1,9}') THEN nullif(CAST(${jsTrim(cell)} AS INTEGER), 0) END, 1)`;

/** The column names of `table`. */
export async function columnsOf(connection: DuckDBConnection, table: string): Promise<string[]> {
  const rows = (await connection.runAndReadAll(`DESCRIBE ${table}`)).getRowObjectsJS() as Array<{ column_name: string }>;
  return rows.map((r) => r.column_name);
}

/** The column of `columns` named `name` case-insensitively (csv.ts maps headers upper-cased), quoted, or null. */
export function column(columns: readonly string[], name: string): string | null {
  const found = columns.find((c) => c.trim().toUpperCase() === name);
  return found === undefined ? null : `"${found.replaceAll('"', '""')}"`;
}

/**
 * Builds, in `connection` (after loadVaersTables), the table `vaers_reports`: one row per kept
 * report with `id` (BIGINT), `grp` (group index), `seq` (rowid of its DATA row: reading order),
 * `received` (DATE), `vaccines` and `events` (VARCHAR[], distinct, sorted by name), and
 * `vaers_latest` (id, latest, grp_latest) for the reports whose latest version is a follow-up;
 * and the tables duckdb-reports.ts and duckdb-skips.ts read: `vax_rows` and `symptom_rows`
 * (seq = rowid, grp, line, id_cell as written, id, version, and the trimmed `name` or `terms`), and
 * `data_kept` (the first DATA row of each id not of an earlier version: seq, grp, id, received or NULL).
 * `onStepStart` hears each table's name as its statement begins, `onStep` its seconds when done.
 */
export async function joinVaersTables(
  connection: DuckDBConnection, onStep?: (table: string, seconds: number) => void, onStepStart?: (table: string) => void,
): Promise<void> {
  const vax = await columnsOf(connection, RAW_TABLES.VAX);
  const symptoms = await columnsOf(connection, RAW_TABLES.SYMPTOMS);
  const data = await columnsOf(connection, RAW_TABLES.DATA);
  const at = (columns: string[], name: string): string => column(columns, name) as string;
  const versionOf = (columns: string[]): string => {
    const order = column(columns, 'ORDER');
    return order === null ? '1' : version(order);
  };
  const termColumns = symptoms
    .map((c) => [/^SYMPTOM(\d+)$/.exec(c.trim().toUpperCase()), c] as const)
    .filter((e): e is readonly [RegExpExecArray, string] => e[0] !== null)
    .sort((a, b) => Number(a[0][1]) - Number(b[0][1]))
    .map(([m]) => ({ n: Number(m[1]), sql: at(symptoms, `SYMPTOM${m[1]}`) }));
  const statements = `
    CREATE OR REPLACE TABLE vax_rows AS
      SELECT rowid AS seq, grp, line, ${at(vax, 'VAERS_ID')} AS id_cell, ${vaersId(at(vax, 'VAERS_ID'))} AS id, ${versionOf(vax)} AS version,
        ${jsTrim(at(vax, 'VAX_NAME'))} AS name
      FROM ${RAW_TABLES.VAX};
    CREATE OR REPLACE TABLE symptom_rows AS
      SELECT rowid AS seq, grp, line, ${at(symptoms, 'VAERS_ID')} AS id_cell, ${vaersId(at(symptoms, 'VAERS_ID'))} AS id, ${versionOf(symptoms)} AS version, ${
        termColumns.length ? `[${termColumns.map((t) => jsTrim(t.sql)).join(', ')}]` : '[]::VARCHAR[]'} AS terms
      FROM ${RAW_TABLES.SYMPTOMS};
    CREATE OR REPLACE TABLE vaers_latest AS
      SELECT id, max(version) AS latest, arg_min(grp, (-version, grp)) AS grp_latest
      FROM (SELECT id, version, grp FROM vax_rows UNION ALL SELECT id, version, grp FROM symptom_rows)
      WHERE id IS NOT NULL AND version >= 2 GROUP BY id;
    CREATE OR REPLACE TABLE data_kept AS
      WITH d AS (
        SELECT rowid AS seq, grp, ${vaersId(at(data, 'VAERS_ID'))} AS id,
          regexp_extract(${jsTrim(at(data, 'RECVDATE'))}, '^(\\d{1,2})/(\\d{1,2})/(\\d{4})$', ['m', 'd', 'y']) AS date
        FROM ${RAW_TABLES.DATA}),
      live AS (
        SELECT d.* FROM d LEFT JOIN vaers_latest l USING (id)
        WHERE d.id IS NOT NULL AND (l.grp_latest IS NULL OR l.grp_latest <= d.grp)),
      first AS (SELECT * FROM live QUALIFY row_number() OVER (PARTITION BY id ORDER BY seq) = 1)
      SELECT seq, grp, id, TRY_CAST(
        CASE WHEN TRY_CAST(date.y AS INTEGER) BETWEEN 1900 AND 2999
          THEN printf('%s-%02d-%02d', date.y, TRY_CAST(date.m AS INTEGER), TRY_CAST(date.d AS INTEGER)) END AS DATE) AS received
      FROM first;
    CREATE OR REPLACE TABLE vaers_reports AS
      WITH r AS (SELECT d.*, coalesce(l.latest, 1) AS latest FROM data_kept d LEFT JOIN vaers_latest l USING (id) WHERE d.received IS NOT NULL),
      v AS (
        SELECT r.id, list_sort(list(DISTINCT x.name)) AS vaccines
        FROM r JOIN vax_rows x ON x.id = r.id AND x.grp = r.grp
        WHERE x.name <> '' AND x.version >= r.latest GROUP BY r.id),
      e AS (
        SELECT id, list_sort(list(DISTINCT term)) AS events FROM (
          SELECT r.id, unnest(x.terms) AS term
          FROM r JOIN symptom_rows x ON x.id = r.id AND x.grp = r.grp WHERE x.version >= r.latest)
        WHERE term <> '' GROUP BY id)
      SELECT r.id, r.grp, r.seq, r.received, v.vaccines, e.events
      FROM data_kept r JOIN v USING (id) JOIN e USING (id)
      ORDER BY r.seq;
  `.split(';').filter((sql) => sql.trim() !== '');
  for (const sql of statements) {
    const table = /(?:TABLE|VIEW) (\w+)/.exec(sql)?.[1] ?? '?';
    onStepStart?.(table);
    const t0 = performance.now();
    await connection.run(sql);
    onStep?.(table, (performance.now() - t0) / 1000);
  }
}
