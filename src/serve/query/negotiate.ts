/**
 * The one content negotiation of the HTML answers (/pipeline, spec 4.2, and /reports/{vaers_id}):
 * "a browser receives HTML and other clients receive JSON": HTML only when the `Accept` header
 * prefers `text/html` to `application/json` (RFC 9110 12.5.1 quality values, most specific
 * range wins). The `format` parameter, when given, wins over it (each resource's parameters).
 */

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
