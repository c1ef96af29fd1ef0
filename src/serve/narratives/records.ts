/**
 * One report's narratives as the text index takes them. The fields are the indexed narrative
 * columns of the report-columns table (`NARRATIVE_FIELDS` in src/domain/report-columns.ts), in
 * that order; text is kept as written (Windows-1252 decoded, untrimmed), a blank field is null.
 */

/** One report's narratives: its VAERS_ID and the fields in NARRATIVE_FIELDS order (null: blank). */
export interface NarrativeRecord {
  id: number;
  fields: ReadonlyArray<string | null>;
}
