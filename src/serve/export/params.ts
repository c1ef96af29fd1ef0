/**
 * Query parameters of the bulk export (`GET /analyses/NAME/export`, `GET /export`): which table and
 * which file format. One table (`EXPORT_PARAMETERS`) gives the validator below, the OpenAPI
 * parameters (src/http/export-route.ts) and the notes. The rules are those of the other resources
 * (src/serve/query/parameters.ts): an unknown or repeated parameter, or a value outside the
 * choices, is the 400 Error fields naming the allowed values. Returns a value, never throws.
 */
import type { ParamError } from '../query/error-object.js';
import { presentValue, queryValues, quoteValue, type ParameterSpec } from '../query/parameters.js';

/** The tables of one analysis: its pairs (the /signals rows, spec 2.1) and its quarterly rows (one per pair and window). */
export const ANALYSIS_TABLES = ['pairs', 'quarterly'] as const;
/** The report tables of the store (one row per report; per report and vaccine; per report and event). */
export const REPORT_TABLES_EXPORTED = ['reports', 'report_vaccines', 'report_events'] as const;
/** Every table `GET /export` serves (the analysis tables there are the default analysis's). */
export const EXPORT_TABLES = [...ANALYSIS_TABLES, ...REPORT_TABLES_EXPORTED] as const;
/** The file formats. */
export const EXPORT_FORMATS = ['csv', 'parquet'] as const;

/** A table name of the export. */
export type ExportTable = (typeof EXPORT_TABLES)[number];
/** A format of the export. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Call line of the 400 answers. */
export const EXPORT_USAGE = '/analyses/NAME/export?table=pairs|quarterly&format=csv|parquet, or /export?table=pairs|quarterly|reports|report_vaccines|report_events&format=csv|parquet';

/** The parameters, for the OpenAPI document; `tables` the route's choices. */
export function exportParameters(tables: readonly string[]): ParameterSpec[] {
  return [
    { name: 'table', schema: { type: 'string', enum: tables }, description: `Required. The table: ${tables.map((t) => `\`${t}\``).join(', ')} (docs/api.md, the export).` },
    { name: 'format', schema: { type: 'string', enum: EXPORT_FORMATS, default: 'csv' }, description: '`csv` (RFC 4180, a header line, empty cells for null) or `parquet` (Apache Parquet, zstd).' },
  ];
}

/**
 * Parses the raw query string of an export request.
 * @param tables the tables this route serves
 * @returns the table and format, or the 400 Error fields
 */
export function parseExportQuery(search: string, tables: readonly ExportTable[]): { table: ExportTable; format: ExportFormat } | ParamError {
  const values = queryValues(search, ['table', 'format'], EXPORT_USAGE);
  if (!(values instanceof Map)) return values;
  const table = presentValue(values, 'table');
  if (table === undefined) return { error: `table is required: one of ${tables.join(', ')}`, allowed: tables, usage: EXPORT_USAGE };
  if (!(tables as readonly string[]).includes(table)) return { error: `table must be one of ${tables.join(', ')} (got ${quoteValue(table)})`, allowed: tables, usage: EXPORT_USAGE };
  const format = presentValue(values, 'format') ?? 'csv';
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) return { error: `format must be csv or parquet (got ${quoteValue(format)})`, allowed: EXPORT_FORMATS, usage: EXPORT_USAGE };
  return { table: table as ExportTable, format: format as ExportFormat };
}
