/**
 * CSV fields (RFC 4180) of the query resources' csv formats: `/signals` (src/serve/signals/render.ts)
 * and the `/cases` line listing (src/serve/cases/render.ts).
 */

/** RFC 4180 field: quoted when it holds a comma, quote, CR or LF; quotes doubled. Null is empty. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
