/**
 * The `/pipeline` HTML page (format=html, or a browser's Accept; spec 4.2): a small accessible
 * page with a search form, the counts, the caveat and a table of studies, or an alert for an
 * error. No scripts. Every string that comes from the registry or the request goes through
 * `escape-html`; links are built only from validated NCT ids. Served with HTML_CSP, a
 * Content-Security-Policy that forbids scripts (the html renderer in render.ts adds it).
 */
import escapeHtml from 'escape-html';
import { REGISTRY_CAVEAT } from '../query/caveats.js';
import { LIMIT_DEFAULT, LIMIT_MAX, PHASE_VALUES, ROLE_VALUES, STATUS_VALUES, type FormValues } from './params.js';
import type { RenderInput } from './render-context.js';
import type { PipelineResult } from './result.js';
import { describePhase, describeRole, describeStatus, resultNotes, SOURCE_NAME } from './wording.js';

/** Content-Security-Policy of the page: it has no scripts, so forbid them outright. */
export const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";



function formHtml(form: FormValues): string {
  const e = escapeHtml;
  const roleOptions = ROLE_VALUES.map(
    (r) => `<option value="${r}"${form.role.toLowerCase() === r ? ' selected' : ''}>${r}</option>`,
  ).join('');
  return `<form method="get" role="search" aria-label="Search a sponsor's trials">
<input type="hidden" name="format" value="html">
<p><label for="sponsor">Sponsor (lead sponsor name, whole words)</label>
<input id="sponsor" name="sponsor" type="search" required value="${e(form.sponsor)}" placeholder="e.g. Pfizer"></p>
<p><label for="role">Role</label> <select id="role" name="role">${roleOptions}</select></p>
<p><label for="status">Status</label>
<input id="status" name="status" value="${e(form.status)}" aria-describedby="status-help">
<small id="status-help">Empty: ongoing studies. ALL, or comma-separated: ${STATUS_VALUES.join(', ')}.</small></p>
<p><label for="phase">Phase</label>
<input id="phase" name="phase" value="${e(form.phase)}" aria-describedby="phase-help">
<small id="phase-help">Empty: any. Comma-separated: ${PHASE_VALUES.join(', ')} (or 1, 2, 3, 4, early1, na).</small></p>
<p><label for="limit">Limit</label>
<input id="limit" name="limit" type="number" min="1" max="${LIMIT_MAX}" value="${e(form.limit)}" placeholder="${LIMIT_DEFAULT}"></p>
<p><button type="submit">Search</button></p>
</form>`;
}

function countsHtml(title: string, id: string, counts: Record<string, number>): string {
  const items = Object.entries(counts)
    .map(([k, n]) => `<li>${escapeHtml(k)}: ${n}</li>`)
    .join('');
  return `<section id="${id}" aria-labelledby="${id}-heading"><h3 id="${id}-heading">${title}</h3><ul>${items || '<li>none</li>'}</ul></section>`;
}

function resultHtml(result: PipelineResult): string {
  const e = escapeHtml;
  const q = result.query;
  const parts: string[] = [];
  parts.push(
    `<h2 id="result-heading">${e(q.sponsor ?? '')}: <span id="n-studies">${result.n_studies}</span> studies ${e(describeRole(q.role))}</h2>`,
  );
  parts.push(
    `<p>Status: ${e(describeStatus(q.status))}. Phase: ${e(describePhase(q.phase))}. ` +
      `Shown: ${result.studies.length} (limit ${q.limit}).</p>`,
  );
  const notes = resultNotes(result);
  if (notes.length > 0) parts.push(`<ul class="notes">${notes.map((n) => `<li>${e(n)}</li>`).join('')}</ul>`);
  parts.push(countsHtml('Phases (studies shown)', 'phase-counts', result.phase_counts));
  parts.push(countsHtml('Statuses (studies shown)', 'status-counts', result.status_counts));
  if (result.studies.length === 0) {
    parts.push('<p id="no-studies">No studies found.</p>');
    return parts.join('\n');
  }
  const rows = result.studies
    .map(
      (s) =>
        `<tr><th scope="row"><a href="${e(s.url)}">${e(s.nct_id)}</a></th><td>${e(s.title ?? '')}</td><td>${e(s.role)}</td>` +
        `<td>${e(s.overall_status ?? '')}</td><td>${e(s.phases.join('/'))}</td><td>${e(s.lead_sponsor ?? '')}</td><td>${e(s.start_date ?? '')}</td></tr>`,
    )
    .join('\n');
  parts.push(`<table id="studies">
<caption>Studies of ${e(q.sponsor ?? '')} ${e(describeRole(q.role))}</caption>
<thead><tr><th scope="col">Study</th><th scope="col">Title</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col">Phase</th><th scope="col">Lead sponsor</th><th scope="col">Start</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`);
  return parts.join('\n');
}

/**
 * The whole HTML document: the caveat, the search form (the request's values), then an alert
 * for `input.error` (its message and `allowed` values) and the result for `input.result`.
 */
export function renderHtml(input: RenderInput): string {
  const e = escapeHtml;
  const title = input.result ? `${input.result.query.sponsor ?? ''}: trials` : 'Sponsor trials';
  const body: string[] = [];
  if (input.error) {
    const allowed = input.error.allowed ? ` Allowed: ${input.error.allowed.join(', ')}.` : '';
    body.push(`<p role="alert" id="error">${e(input.error.error)}.${e(allowed)}</p>`);
  }
  if (input.result) body.push(resultHtml(input.result));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)} - pipeline</title>
<style>
body{font-family:system-ui,sans-serif;margin:1rem auto;max-width:75rem;padding:0 1rem;line-height:1.4}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #999;padding:.25rem .5rem;text-align:left;vertical-align:top}
caption{text-align:left;font-weight:bold;padding:.25rem 0}.caveat{border-left:4px solid #555;padding:.25rem .75rem;background:#f3f3f3}
[role=alert]{color:#8b0000;font-weight:bold}label{font-weight:bold;margin-right:.5rem}small{display:block;color:#444}
</style>
</head>
<body>
<header><h1>A sponsor's trials in the registry</h1></header>
<main>
<p class="caveat" id="caveat">${e(REGISTRY_CAVEAT)}</p>
${formHtml(input.form)}
${body.join('\n')}
</main>
<footer><p>Source: ${e(SOURCE_NAME)}.</p></footer>
</body>
</html>
`;
}
