/**
 * Format negotiation for `/pipeline` (spec 4.2): the `format` parameter when given, else "a
 * browser receives HTML and other clients receive JSON": HTML only when the `Accept` header
 * prefers `text/html` to `application/json` (RFC 9110 12.5.1 quality values, most specific
 * range wins).
 */
import type { ParamError } from '../domain/error-object.js';
import { parseFormat, type PipelineFormat } from './params.js';

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(accept: string): MediaRange[] {
  const out: MediaRange[] = [];
  for (const part of accept.split(',')) {
    const [range, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const [type, subtype] = (range ?? '').split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const p of params) {
      const m = /^q=([0-9.]+)$/.exec(p.replace(/\s+/g, ''));
      if (m) q = Math.min(1, Math.max(0, Number(m[1]) || 0));
    }
    out.push({ type, subtype, q });
  }
  return out;
}

/** Quality the Accept ranges give `type/subtype` (0 when no range matches). */
export function qualityOf(ranges: readonly MediaRange[], type: string, subtype: string): number {
  let best: { specificity: number; q: number } | null = null;
  for (const r of ranges) {
    const specificity =
      r.type === type && r.subtype === subtype ? 2 : r.type === type && r.subtype === '*' ? 1 : r.type === '*' && r.subtype === '*' ? 0 : -1;
    if (specificity < 0) continue;
    if (best === null || specificity > best.specificity) best = { specificity, q: r.q };
  }
  return best?.q ?? 0;
}

/** True when the Accept header prefers text/html over application/json (strictly). */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  const html = qualityOf(ranges, 'text', 'html');
  return html > 0 && html > qualityOf(ranges, 'application', 'json');
}

/**
 * The format of a request: `format` (parseFormat: case-insensitive; an unknown value is a
 * ParamError with `allowed`), else `html` when `accept` prefers it (prefersHtml), else `json`.
 */
export function chooseFormat(rawFormat: unknown, accept: string | undefined): PipelineFormat | ParamError {
  const format = parseFormat(rawFormat);
  return format ?? (prefersHtml(accept) ? 'html' : 'json');
}
