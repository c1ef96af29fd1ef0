/**
 * Decoding the JSON a store carries besides its quarterly rows (schema.ts): the build metadata
 * (the `meta` table of a DuckDB store, key -> JSON text; or the `reporting_signals.meta` key of
 * a Parquet store), and the vaccine and window tables of a Parquet store (its
 * `reporting_signals.vaccines` and `.windows` keys). A store file comes from outside the
 * program (any file named by `--store`), so its JSON is checked against the shapes of schema.ts
 * before use, never cast: a value of the wrong shape is an Error naming the store file, the key
 * and the field, e.g. `invalid store metadata: x.parquet: metadata key reporting_signals.meta:
 * has_ic025: expected a boolean, got "yes"`.
 *
 * Keys the shapes do not name are kept as they are (a newer writer may add some).
 */
import { ITEM_KINDS } from '../../domain/analysis-rules.js';
import type { AnalysisMeta, StoreMeta, VaccineRow, WindowRow } from '../../domain/store-schema.js';

/** Where a value under decoding lies: the store and key (`where`), and the path inside the value. */
interface At {
  where: string;
  path: string;
}

/** A short rendering of an unexpected value for an error message. */
function show(value: unknown): string {
  if (value === undefined) return 'nothing (missing)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}

function fail(at: At, expected: string, value: unknown): never {
  throw new Error(`invalid store metadata: ${at.where}: ${at.path === '' ? '' : `${at.path}: `}expected ${expected}, got ${show(value)}`);
}

function field(at: At, name: string): At {
  return { where: at.where, path: at.path === '' ? name : `${at.path}.${name}` };
}

function item(at: At, index: number): At {
  return { where: at.where, path: `${at.path}[${index}]` };
}

function objectAt(value: unknown, at: At): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(at, 'an object', value);
  return value as Record<string, unknown>;
}

function arrayAt(value: unknown, at: At): unknown[] {
  if (!Array.isArray(value)) fail(at, 'an array', value);
  return value;
}

function stringAt(value: unknown, at: At): string {
  if (typeof value !== 'string') fail(at, 'a string', value);
  return value;
}

function numberAt(value: unknown, at: At): number {
  if (typeof value !== 'number') fail(at, 'a number', value);
  return value;
}

function booleanAt(value: unknown, at: At): boolean {
  if (typeof value !== 'boolean') fail(at, 'a boolean', value);
  return value;
}

/** Parses the JSON text of one metadata key; `where` names the store and the key. @throws Error naming them when it is not JSON. */
export function parseMetadataJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`invalid store metadata: ${where}: not JSON (${(error as Error).message})`, { cause: error });
  }
}

/**
 * The build metadata (schema.ts `StoreMeta`) from its parsed JSON. `where` names the store and
 * the key for errors (e.g. `x.duckdb: meta table`). A null `extra` (how the `meta` table stores
 * an absent one) reads as absent.
 * @throws Error naming `where` and the field when a field is missing or of the wrong type.
 */
export function decodeStoreMeta(value: unknown, where: string): StoreMeta {
  const at: At = { where, path: '' };
  const o = objectAt(value, at);
  const reportsThrough = o.reports_through === null ? null : stringAt(o.reports_through, field(at, 'reports_through'));
  if (reportsThrough !== null && !/^\d{4}Q[1-4]$/.test(reportsThrough)) fail(field(at, 'reports_through'), 'a quarter <year>Q<1-4> or null', reportsThrough);
  const origin = o.origin;
  if (origin !== 'build' && origin !== 'import') fail(field(at, 'origin'), '"build" or "import"', origin);
  const meta: StoreMeta = {
    ...o,
    reports_through: reportsThrough,
    sources: arrayAt(o.sources, field(at, 'sources')).map((s, i) => sourceAt(s, item(field(at, 'sources'), i))),
    parameters: objectAt(o.parameters, field(at, 'parameters')),
    program_version: stringAt(o.program_version, field(at, 'program_version')),
    built_at: stringAt(o.built_at, field(at, 'built_at')),
    origin,
    has_ic025: booleanAt(o.has_ic025, field(at, 'has_ic025')),
  };
  if (o.analyses === undefined || o.analyses === null) delete meta.analyses;
  else meta.analyses = arrayAt(o.analyses, field(at, 'analyses')).map((a, i) => analysisAt(a, item(field(at, 'analyses'), i)));
  if (o.extra === undefined || o.extra === null) delete meta.extra;
  else meta.extra = objectAt(o.extra, field(at, 'extra'));
  return meta;
}

function nullableNumberAt(value: unknown, at: At): number | null {
  return value === null ? null : numberAt(value, at);
}

function stringsAt(value: unknown, at: At): string[] {
  return arrayAt(value, at).map((s, i) => stringAt(s, item(at, i)));
}

/**
 * An analysis's item kind (`vaccine` or `vax_type_code`; `vax_type`, what stores written before the
 * rename call the VAERS code, reads as `vax_type_code`). @throws Error naming `at` for another value.
 */
function itemKindAt(value: unknown, at: At): AnalysisMeta['items'] {
  const written = stringAt(value, at);
  const kind = written === 'vax_type' ? 'vax_type_code' : written;
  if (!(ITEM_KINDS as readonly string[]).includes(kind)) fail(at, `one of ${ITEM_KINDS.join(', ')}`, value);
  return kind as AnalysisMeta['items'];
}

/** One entry of `StoreMeta.analyses`: one analysis of the store (its subset rule, strata and counts). */
function analysisAt(value: unknown, at: At): AnalysisMeta {
  const o = objectAt(value, at);
  const f = (name: string): At => field(at, name);
  return {
    ...o,
    name: stringAt(o.name, f('name')), title: stringAt(o.title, f('title')), description: stringAt(o.description, f('description')),
    subset: o.subset === null ? null : stringAt(o.subset, f('subset')),
    items: o.items === undefined || o.items === null ? 'vaccine' : itemKindAt(o.items, f('items')), stratified_by: stringsAt(o.stratified_by, f('stratified_by')),
    strata: o.strata === undefined || o.strata === null ? null : stringAt(o.strata, f('strata')),
    default: booleanAt(o.default, f('default')),
    deduplicated: o.deduplicated === undefined ? false : booleanAt(o.deduplicated, f('deduplicated')),
    reports: nullableNumberAt(o.reports, f('reports')), pairs: nullableNumberAt(o.pairs, f('pairs')), rows: nullableNumberAt(o.rows, f('rows')),
    windows: nullableNumberAt(o.windows, f('windows')),
    reports_through: o.reports_through === null ? null : stringAt(o.reports_through, f('reports_through')),
    fits_at_bound: nullableNumberAt(o.fits_at_bound, f('fits_at_bound')), fits_not_converged: nullableNumberAt(o.fits_not_converged, f('fits_not_converged')),
    windows_skipped: arrayAt(o.windows_skipped, f('windows_skipped')).map((w, i) => {
      const s = objectAt(w, item(f('windows_skipped'), i));
      return { quarter: stringAt(s.quarter, field(item(f('windows_skipped'), i), 'quarter')), reason: stringAt(s.reason, field(item(f('windows_skipped'), i), 'reason')) };
    }),
    partial_windows: stringsAt(o.partial_windows, f('partial_windows')),
  };
}

/** One entry of `StoreMeta.sources`. */
function sourceAt(value: unknown, at: At): StoreMeta['sources'][number] {
  const o = objectAt(value, at);
  const source = { ...o, name: stringAt(o.name, field(at, 'name')), sha256: stringAt(o.sha256, field(at, 'sha256')) };
  if (o.bytes !== undefined) numberAt(o.bytes, field(at, 'bytes'));
  return source;
}

/**
 * The vaccine table of a Parquet store (schema.ts `VaccineRow[]`) from its parsed JSON; null
 * codes read as none. @throws Error naming `where` and the row and field when one is wrong.
 */
export function decodeVaccineRows(value: unknown, where: string): VaccineRow[] {
  const at: At = { where, path: '' };
  return arrayAt(value, at).map((v, i) => {
    const row = item(at, i);
    const o = objectAt(v, row);
    const codes = o.vax_type_codes === null ? [] : arrayAt(o.vax_type_codes, field(row, 'vax_type_codes'));
    return {
      vax_name: stringAt(o.vax_name, field(row, 'vax_name')),
      vax_type: stringAt(o.vax_type, field(row, 'vax_type')),
      vax_type_codes: codes.map((c, k) => stringAt(c, item(field(row, 'vax_type_codes'), k))),
    };
  });
}

/**
 * A window row as the store holds it: schema.ts `WindowRow`, with null for a number that was
 * not finite (write.ts stores non-finite numbers as null).
 */
export type StoredWindowRow = { [K in keyof WindowRow]: WindowRow[K] extends number ? number | null : WindowRow[K] };
