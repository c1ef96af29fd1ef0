/**
 * The kept reports' own values (report-details.ts ReportDetails) from the tables duckdb-join.ts
 * derives (issue 41, "DuckDB reads and joins"), and their narratives copied inside DuckDB into the
 * build's scratch text file (report-text.ts) without crossing the V8 heap.
 *
 * Exact by construction: each kept report's DATA row, each of its VAX rows and each of its SYMPTOMS
 * rows is streamed from DuckDB (chunk by chunk, in reading order, the narrative columns left out)
 * and rebuilt as the streaming reader's `fields` of its own file (its group's header, csv.ts
 * ColumnIndex; a cell the file lacks or DuckDB reads as NULL is ''), then read by the same
 * functions as read.ts (report-fields.ts reportFields, rows.ts dataDetails / vaxRow / symptomsRow)
 * into the same ReportDetailsBuilder: the cells, age and sex, the outcome bits and the columns the
 * group's file has (`outcomesKnown`), the VAX rows of the latest version with a VAX_NAME, the
 * distinct terms with their first SYMPTOMVERSIONn, and the unreadable cells named by file and line.
 * The string numbers (`strings`) follow this order of reading; the values they resolve to are
 * readVaers's (whose own numbering depends on how its VAX and SYMPTOMS streams interleave).
 */
import type { DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import { NARRATIVE_REPORT_COLUMNS, sourceFieldsOf } from '../../domain/report-columns.js';
import type { ColumnIndex } from './csv.js';
import { RAW_TABLES, type VaersHeaders } from './duckdb-load.js';
import { column, columnsOf, jsTrim } from './duckdb-join.js';
import { Interner, ReportDetailsBuilder, reportValues, type ReportDetails, type ReportValues } from './report-details.js';
import { REPORT_INDEX, REPORT_TEXT_TABLE } from './report-text.js';
import { reportFieldColumns, reportFields } from './report-fields.js';
import { dataDetailColumns, dataDetails, symptomsRow, symptomsRowColumns, vaxRow, vaxRowColumns, type BadCell } from './rows.js';
import type { VaersFolder, VaersKind } from './sources.js';
import { dateQuarter, parseVaersDate } from './values.js';

/** The source field names of the narrative columns (upper case): never streamed to JavaScript. */
const NARRATIVE_NAMES = new Set(NARRATIVE_REPORT_COLUMNS.flatMap((c) => sourceFieldsOf(c)));
const upper = (name: string): string => name.trim().toUpperCase();

/**
 * One kind's raw table as the reader's files: the columns streamed (quoted SQL, in this order), and
 * per group a ColumnIndex from the group's header names to positions among them.
 */
interface KindColumns {
  select: string[];
  groups: ColumnIndex[];
}

async function kindColumns(connection: DuckDBConnection, kind: VaersKind, headers: VaersHeaders): Promise<KindColumns> {
  const raw = (await columnsOf(connection, RAW_TABLES[kind])).filter((c) => c !== 'grp' && c !== 'line' && !(kind === 'DATA' && NARRATIVE_NAMES.has(upper(c))));
  const position = new Map<string, number>();
  raw.forEach((c, i) => {
    if (!position.has(upper(c))) position.set(upper(c), i);
  });
  const groups = headers[kind].map((header) => {
    const index: ColumnIndex = new Map();
    for (const name of header.keys()) {
      const at = position.get(name);
      if (at !== undefined) index.set(name, at);
    }
    return index;
  });
  return { select: raw.map((c) => `t."${c.replaceAll('"', '""')}"`), groups };
}

/** What one kept report has gathered while its rows stream by. */
interface Gathering {
  values: ReportValues;
  bad: BadCell[] | null;
  where: { file: string; line: number };
  vax: number[];
  events: number[];
  seen: Set<string>;
}

/**
 * The kept reports' values (after joinVaersTables; `headers` from loadVaersTables), index i being
 * the i-th report of vaers_reports by `seq` (the order of vaersReportLists's reports). The
 * narrative fields are null (they stay in DuckDB: insertReportText). One query per batch of
 * `batchReports` reports (DETAILS_BATCH) streams each kept report's DATA row, then its VAX rows, then
 * its SYMPTOMS rows (the latest version's, file order).
 */
export async function vaersReportDetails(connection: DuckDBConnection, folder: VaersFolder, headers: VaersHeaders, batchReports = DETAILS_BATCH): Promise<ReportDetails> {
  const builder = new ReportDetailsBuilder(false, null);
  const [data, vax, symptoms] = await Promise.all((['DATA', 'VAX', 'SYMPTOMS'] as const).map((k) => kindColumns(connection, k, headers)));
  // The three kinds' cells side by side in `width` columns (a kind with fewer padded with NULLs).
  const width = Math.max(data.select.length, vax.select.length, symptoms.select.length);
  const cells = (c: KindColumns): string => Array.from({ length: width }, (_, i) => `${c.select[i] ?? 'NULL::VARCHAR'} AS c${i}`).join(', ');
  // The reports of `seq` in [from, to): sorted in one piece, the full download's ~10 million rows of cells outgrew the
  // read's memory cap (DuckDB could not pin a block at 1.8 GiB); batches of DETAILS_BATCH reports each sort a part.
  const latest = (kind: 'VAX' | 'SYMPTOMS', rows: string, columns: KindColumns, k: number, within: string): string => `
    SELECT r.seq AS report, ${k} AS kind, x.seq AS row, t.grp, 0 AS line, 0::DOUBLE AS id, ${cells(columns)}
    FROM ${rows} x JOIN vaers_reports r ON r.id = x.id AND r.grp = x.grp LEFT JOIN vaers_latest l ON l.id = x.id
      JOIN ${RAW_TABLES[kind]} t ON t.rowid = x.seq
    WHERE x.version >= coalesce(l.latest, 1) AND ${within}`;
  const batch = (from: bigint, to: bigint): string => {
    const within = `r.seq >= ${from} AND r.seq < ${to}`;
    return `
    SELECT r.seq AS report, 0 AS kind, r.seq AS row, t.grp, t.line, r.id::DOUBLE AS id, ${cells(data)}
    FROM vaers_reports r JOIN ${RAW_TABLES.DATA} t ON t.rowid = r.seq WHERE ${within}
    UNION ALL ${latest('VAX', 'vax_rows', vax, 1, within)}
    UNION ALL ${latest('SYMPTOMS', 'symptom_rows', symptoms, 2, within)}
    ORDER BY report, kind, row`;
  };
  const at = data.groups.map((c, g) => ({
    fields: reportFieldColumns(c), details: dataDetailColumns(c), date: c.get('RECVDATE') ?? -1, label: folder.groups[g].members.DATA.label,
  }));
  const vaxAt = vax.groups.map((c, g) => vaxRowColumns(c, folder.groups[g].members.VAX.where, 1));
  const symptomsAt = symptoms.groups.map((c, g) => symptomsRowColumns(c, folder.groups[g].members.SYMPTOMS.where, 1));
  const vaccines = new Interner();
  const events = new Interner();
  let report: Gathering | null = null;
  const keep = (r: Gathering | null): void => {
    if (r) builder.add(r.values, r.bad, r.vax, r.events, r.where);
  };
  const lengths = [data.select.length, vax.select.length, symptoms.select.length];
  for await (const chunk of detailChunks(connection, batch, batchReports)) {
    const [kinds, grps, lines, ids] = [1, 3, 4, 5].map((k) => chunk.getColumnVector(k));
    const vectors = Array.from({ length: width }, (_, i) => chunk.getColumnVector(6 + i));
    for (let r = 0; r < chunk.rowCount; r++) {
      const kind = kinds.getItem(r) as number;
      const group = grps.getItem(r) as number;
      const fields = new Array<string>(lengths[kind]);
      for (let i = 0; i < fields.length; i++) fields[i] = (vectors[i].getItem(r) as string | null) ?? '';
      const line = lines.getItem(r);
      const id = ids.getItem(r);
      if (kind === 0) {
        keep(report);
        const a = at[group];
        const received = parseVaersDate(fields[a.date]);
        if (received === null) throw new Error(`duckdb-details: VAERS_ID ${String(id)} without a RECVDATE (the join keeps none such)`);
        const quarter = dateQuarter(received);
        const details = dataDetails(fields, a.details, false);
        report = {
          values: reportValues(Number(id), received, quarter, reportFields(fields, a.fields, Math.floor(quarter / 4)), details, a.details.outcomesKnown),
          bad: details.bad, where: { file: a.label, line: Number(line) }, vax: [], events: [], seen: new Set(),
        };
      } else if (kind === 1) {
        const row = vaxRow(fields, vaxAt[group]);
        if (row.name !== '') builder.pushVaxRow(report!.vax, row, vaccines.of(row.name));
      } else {
        for (const { term, version } of symptomsRow(fields, symptomsAt[group]).terms) {
          if (report!.seen.has(term)) continue;
          report!.seen.add(term);
          builder.pushEventRow(report!.events, term, version, events.of(term));
        }
      }
    }
  }
  keep(report);
  return builder.finish();
}

/** Reports whose rows the details query sorts at once (vaersReportDetails): the default data's 203,445 in one batch, the full download's 2.1 million in nine. */
export const DETAILS_BATCH = 250_000;

/**
 * The chunks of the details query `batch(from, to)` for consecutive ranges of `vaers_reports.seq`, each
 * holding about `batchReports` reports (seq ranges of equal width; seq is the DATA row's rowid), in seq order.
 */
async function* detailChunks(connection: DuckDBConnection, batch: (from: bigint, to: bigint) => string, batchReports: number): AsyncGenerator<DuckDBDataChunk> {
  const [low, high, count] = (await connection.runAndReadAll('SELECT coalesce(min(seq), 0)::BIGINT, coalesce(max(seq) + 1, 0)::BIGINT, count(*)::BIGINT FROM vaers_reports')).getRows()[0] as bigint[];
  const parts = (count + BigInt(batchReports) - 1n) / BigInt(batchReports);
  const step = parts === 0n ? 1n : (high - low + parts - 1n) / parts;
  for (let from = low; from < high; from += step) {
    const result = await connection.stream(batch(from, from + step));
    for (let chunk = await result.fetchChunk(); chunk !== null && chunk.rowCount > 0; chunk = await result.fetchChunk()) yield chunk;
  }
}

/**
 * Copies the kept reports' narratives (NARRATIVE_REPORT_COLUMNS, as written; null when blank as
 * JavaScript trims) into REPORT_TEXT_TABLE of the DuckDB file `textPath` (report-text.ts; attached
 * for the copy), keyed by the report's index in vaers_reports's `seq` order, in that order. Each
 * group's column is the one its header names first (current layout's name, else the older one:
 * rows.ts). Returns the rows copied.
 */
export async function insertReportText(connection: DuckDBConnection, headers: VaersHeaders, textPath: string): Promise<number> {
  const raw = await columnsOf(connection, RAW_TABLES.DATA);
  const values = NARRATIVE_REPORT_COLUMNS.map((c) => {
    const names = [...c.source.current, ...c.source.older];
    const cases = headers.DATA.map((header, g) => {
      const name = names.find((n) => header.has(n));
      const at = name === undefined ? null : column(raw, name);
      return at === null ? null : `WHEN ${g} THEN t.${at}`;
    }).filter((w) => w !== null);
    const cell = cases.length ? `CASE t.grp ${cases.join(' ')} END` : 'NULL::VARCHAR';
    return `CASE WHEN ${jsTrim(cell)} <> '' THEN ${cell} END AS ${c.store}`;
  });
  await connection.run(`ATTACH '${textPath.replaceAll("'", "''")}' AS report_text_file`);
  try {
    const inserted = await connection.runAndReadAll(`INSERT INTO report_text_file.${REPORT_TEXT_TABLE}
      SELECT (row_number() OVER (ORDER BY r.seq) - 1)::INTEGER AS ${REPORT_INDEX}, ${values.join(', ')}
      FROM vaers_reports r JOIN ${RAW_TABLES.DATA} t ON t.rowid = r.seq ORDER BY r.seq`);
    await connection.run('CHECKPOINT report_text_file');
    return Number(inserted.getRows()[0]?.[0] ?? 0);
  } finally {
    await connection.run('DETACH report_text_file');
  }
}
