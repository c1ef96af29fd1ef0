/**
 * The kept reports as the build counts them, from the tables duckdb-join.ts derives (issue 41,
 * "DuckDB reads and joins"): each report's quarter and its vaccines and events as indexes, the
 * vaccine and event names numbered as readVaers numbers them, their VAX_TYPE codes, and the
 * follow-up versions' counts (versions.ts) — the parts of read.ts `VaersData` besides the skips
 * (duckdb-skips.ts) and the report details. The same rules as read.ts:
 * - a VAX row names a vaccine for the report pending in its group (the first DATA row of its id,
 *   with a RECVDATE) when its trimmed VAX_NAME is not blank and its version is the latest; a
 *   SYMPTOMS row names its non-blank terms, SYMPTOM1 first;
 * - vaccines and events are numbered by their first such row in reading order (the reports later
 *   left out for want of a vaccine or an event included), keeping only those a kept report names;
 *   each report lists its indexes ascending;
 * - a vaccine's VAX_TYPE codes (trimmed, non-blank) in order of first appearance, the vaccines in
 *   the order their first code appeared.
 */
import type { DuckDBConnection, DuckDBListVector } from '@duckdb/node-api';
import type { QuarterIndex } from '../../domain/quarter.js';
import { RAW_TABLES } from './duckdb-load.js';
import { column, columnsOf, jsTrim, vaersId } from './duckdb-join.js';
import type { VaersReport } from './read.js';
import type { FollowUpCounts } from './versions.js';

/** The build's report lists and names (read.ts VaersData's fields of the same names). */
export interface VaersReportLists {
  reports: VaersReport[];
  vaccines: string[];
  events: string[];
  vaxTypeCodes: Map<number, Set<string>>;
  versions: FollowUpCounts;
}

/**
 * Row `i`'s list of an INTEGER[] vector (no NULLs), read from the flat child vector: DuckDBListVector
 * getItem copies a slice of the child vector into a new vector and a DuckDBListValue for each row.
 */
function numbers(lists: DuckDBListVector, i: number): number[] {
  const child = lists.childVector;
  const offset = lists.getEntryOffset(i);
  const out = new Array<number>(lists.getEntryLength(i));
  for (let k = 0; k < out.length; k++) out[k] = child.getItem(offset + k) as number;
  return out;
}

/**
 * Reads, after joinVaersTables, the kept reports in reading order (chunk by chunk), the vaccines
 * and events in readVaers's numbering, the VAX_TYPE codes and the follow-up counts.
 */
export async function vaersReportLists(connection: DuckDBConnection): Promise<VaersReportLists> {
  const vax = await columnsOf(connection, RAW_TABLES.VAX);
  const type = column(vax, 'VAX_TYPE');
  const setup = `
    CREATE OR REPLACE TABLE pending AS SELECT seq, grp, id, received FROM data_kept WHERE received IS NOT NULL;
    CREATE OR REPLACE TABLE joined_vax AS
      SELECT x.seq, k.seq AS report, x.name, ${type === null ? 'NULL::VARCHAR' : `nullif(${jsTrim(`v.${type}`)}, '')`} AS type
      FROM vax_rows x JOIN pending k ON k.id = x.id AND k.grp = x.grp LEFT JOIN vaers_latest l ON l.id = x.id
        JOIN ${RAW_TABLES.VAX} v ON v.rowid = x.seq
      WHERE x.name <> '' AND x.version >= coalesce(l.latest, 1);
    CREATE OR REPLACE TABLE joined_events AS
      SELECT seq, k, report, term FROM (
        SELECT x.seq, k.seq AS report, unnest(x.terms) AS term, unnest(range(1, len(x.terms) + 1)) AS k
        FROM symptom_rows x JOIN pending k ON k.id = x.id AND k.grp = x.grp LEFT JOIN vaers_latest l ON l.id = x.id
        WHERE x.version >= coalesce(l.latest, 1))
      WHERE term <> '';
    CREATE OR REPLACE TABLE vaccine_numbers AS
      SELECT name, (row_number() OVER (ORDER BY first) - 1)::INTEGER AS number
      FROM (SELECT name, min(seq) AS first FROM joined_vax GROUP BY name)
      WHERE name IN (SELECT j.name FROM joined_vax j JOIN vaers_reports r ON r.seq = j.report);
    CREATE OR REPLACE TABLE event_numbers AS
      SELECT term, (row_number() OVER (ORDER BY first_seq, first_k) - 1)::INTEGER AS number
      FROM (SELECT term, min(seq) AS first_seq, arg_min(k, (seq, k)) AS first_k FROM joined_events GROUP BY term)
      WHERE term IN (SELECT j.term FROM joined_events j JOIN vaers_reports r ON r.seq = j.report)`;
  for (const sql of setup.split(';')) if (sql.trim() !== '') await connection.run(sql);
  const vaccines = (await connection.runAndReadAll('SELECT name FROM vaccine_numbers ORDER BY number')).getRows().map((r) => String(r[0]));
  const events = (await connection.runAndReadAll('SELECT term FROM event_numbers ORDER BY number')).getRows().map((r) => String(r[0]));
  const reports: VaersReport[] = [];
  const result = await connection.stream(`
    WITH v AS (SELECT j.report, list_sort(list(DISTINCT n.number)) AS list FROM joined_vax j JOIN vaccine_numbers n USING (name) GROUP BY j.report),
    e AS (SELECT j.report, list_sort(list(DISTINCT n.number)) AS list FROM joined_events j JOIN event_numbers n USING (term) GROUP BY j.report)
    SELECT r.id::DOUBLE, (year(r.received) * 4 + (month(r.received) - 1) // 3)::INTEGER, v.list, e.list
    FROM vaers_reports r JOIN v ON v.report = r.seq JOIN e ON e.report = r.seq ORDER BY r.seq`);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const [ids, quarters] = [0, 1].map((k) => chunk.getColumnVector(k));
    const [vaccineLists, eventLists] = [2, 3].map((k) => chunk.getColumnVector(k) as DuckDBListVector);
    const rows = chunk.rowCount;
    for (let i = 0; i < rows; i++) {
      reports.push({ id: Number(ids.getItem(i)), quarter: Number(quarters.getItem(i)) as QuarterIndex,
        vaccines: numbers(vaccineLists, i), events: numbers(eventLists, i) });
    }
  }
  const vaxTypeCodes = new Map<number, Set<string>>();
  const codes = (await connection.runAndReadAll(`
    SELECT n.number, j.type, min(j.seq) AS first FROM joined_vax j JOIN vaccine_numbers n USING (name)
    WHERE j.type IS NOT NULL GROUP BY n.number, j.type ORDER BY first`)).getRows();
  for (const [number, code] of codes) {
    let set = vaxTypeCodes.get(Number(number));
    if (!set) vaxTypeCodes.set(Number(number), (set = new Set()));
    set.add(String(code));
  }
  return { reports, vaccines, events, vaxTypeCodes, versions: await followUpCounts(connection) };
}

/** versions.ts FollowUpCounts in SQL (its version mask: versions 1..31, above 31 as 31). */
async function followUpCounts(connection: DuckDBConnection): Promise<FollowUpCounts> {
  const idCell = column(await columnsOf(connection, RAW_TABLES.DATA), 'VAERS_ID') as string;
  const row = (await connection.runAndReadAll(`
    WITH rows AS (SELECT id, version FROM vax_rows UNION ALL SELECT id, version FROM symptom_rows),
    earlier AS (
      SELECT (SELECT count(*) FROM vax_rows x JOIN vaers_latest l USING (id) WHERE x.version < l.latest) AS vax,
        (SELECT count(*) FROM symptom_rows x JOIN vaers_latest l USING (id) WHERE x.version < l.latest) AS symptoms)
    SELECT (SELECT count(*) FROM vaers_latest)::DOUBLE,
      (SELECT count(*) FROM (SELECT id FROM rows JOIN vaers_latest USING (id) GROUP BY id HAVING count(DISTINCT least(version, 31)) >= 2))::DOUBLE,
      (SELECT vax FROM earlier)::DOUBLE, (SELECT symptoms FROM earlier)::DOUBLE,
      (SELECT count(*) FROM (SELECT grp, ${vaersId(idCell)} AS id FROM ${RAW_TABLES.DATA}) d JOIN vaers_latest l USING (id) WHERE l.grp_latest > d.grp)::DOUBLE`,
  )).getRows()[0] as number[];
  const [followUpReports, reportsWithSeveralVersions, vaxRowsDropped, symptomsRowsDropped, dataRowsDropped] = row;
  return { followUpReports, reportsWithSeveralVersions, vaxRowsDropped, symptomsRowsDropped, dataRowsDropped };
}
