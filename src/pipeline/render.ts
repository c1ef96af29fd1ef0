/**
 * `/pipeline` renderers for `json` and `brief` (text/plain Markdown), and the sentences all
 * three formats share (the html page is in html.ts). Every format states REGISTRY_CAVEAT
 * (spec 1: registry facts, not efficacy or safety conclusions).
 */
import { REGISTRY_CAVEAT } from '../spec/caveats.js';
import { LIMIT_MAX, ONGOING_STATUSES, STATUS_ALL, type PipelineQuery } from './params.js';
import type { PipelineResult, PipelineStudy } from './result.js';

/** Where the rows come from (named in every format). */
export const SOURCE_NAME = 'ClinicalTrials.gov API v2';

/** JSON body of a 200 answer (format=json). Field meanings: README "API: /pipeline". */
export interface PipelineJson {
  sponsor: string;
  role: PipelineQuery['role'];
  status: string[] | 'ALL';
  phase: string[] | null;
  limit: number;
  limit_requested: number | null;
  n_studies: number;
  n_returned: number;
  n_rejected: number;
  phase_counts: Record<string, number>;
  status_counts: Record<string, number>;
  studies: PipelineStudy[];
  notes: string[];
  caveat: string;
  source: string;
}

/** Human sentence for the role filter. */
export function describeRole(role: PipelineQuery['role']): string {
  if (role === 'lead') return 'as lead sponsor';
  if (role === 'collaborator') return 'as collaborator (not lead sponsor)';
  return 'as lead sponsor or collaborator';
}

/** Human sentence for the status filter. */
export function describeStatus(status: PipelineQuery['status']): string {
  if (status === STATUS_ALL) return 'all statuses';
  const same = status.length === ONGOING_STATUSES.length && ONGOING_STATUSES.every((s) => status.includes(s));
  return same ? `ongoing (${status.join(', ')})` : status.join(', ');
}

/** Notes every format shows: clamped limit, partial listing, locally rejected rows. */
export function resultNotes(result: PipelineResult): string[] {
  const q = result.query;
  const notes: string[] = [];
  if (q.limitRequested !== null) {
    notes.push(`limit ${q.limitRequested} is above the maximum of ${LIMIT_MAX}; ${LIMIT_MAX} served.`);
  }
  if (result.n_studies > result.studies.length) {
    notes.push(`Showing ${result.studies.length} of ${result.n_studies} studies; phase and status counts cover the studies shown.`);
  }
  if (result.n_rejected > 0) {
    notes.push(
      `${result.n_rejected} registry rows did not name the sponsor as whole words in the requested role and were left out; n_studies is reduced by them.`,
    );
  }
  return notes;
}

/** The format=json body. */
export function renderJson(result: PipelineResult): PipelineJson {
  const q = result.query;
  return {
    sponsor: q.sponsor ?? '',
    role: q.role,
    status: q.status === STATUS_ALL ? STATUS_ALL : [...q.status],
    phase: q.phase === null ? null : [...q.phase],
    limit: q.limit,
    limit_requested: q.limitRequested,
    n_studies: result.n_studies,
    n_returned: result.studies.length,
    n_rejected: result.n_rejected,
    phase_counts: result.phase_counts,
    status_counts: result.status_counts,
    studies: result.studies,
    notes: resultNotes(result),
    caveat: REGISTRY_CAVEAT,
    source: SOURCE_NAME,
  };
}

/**
 * Escapes an upstream string for a Markdown table cell: newlines become spaces and the
 * characters that Markdown or inline HTML would interpret are backslash-escaped (not `_`:
 * CommonMark ignores intraword underscores, and registry enums are full of them), so a title
 * such as `<script>` or `[x](javascript:...)` stays literal text.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    // `&` only when it starts an entity reference, which Markdown would decode.
    .replace(/[\\`*{}[\]()<>#|!~]|&(?=#?[A-Za-z0-9]+;)/g, (c) => `\\${c}`);
}

function countsLine(counts: Record<string, number>): string {
  const entries = Object.entries(counts);
  return entries.length === 0 ? 'none' : entries.map(([k, n]) => `${escapeMarkdown(k)} ${n}`).join(', ');
}

/** The format=brief body (text/plain Markdown). */
export function renderBrief(result: PipelineResult): string {
  const q = result.query;
  const lines: string[] = [];
  lines.push(`# ${escapeMarkdown(q.sponsor ?? '')}: ${result.n_studies} studies ${describeRole(q.role)}`);
  lines.push('');
  lines.push(`> ${REGISTRY_CAVEAT}`);
  lines.push('');
  lines.push(`- Status: ${describeStatus(q.status)}`);
  lines.push(`- Phase: ${q.phase === null ? 'any' : q.phase.join(', ')}`);
  lines.push(`- Registry total (n_studies): ${result.n_studies}; shown: ${result.studies.length} (limit ${q.limit})`);
  lines.push(`- Phase counts (shown studies): ${countsLine(result.phase_counts)}`);
  lines.push(`- Status counts (shown studies): ${countsLine(result.status_counts)}`);
  for (const note of resultNotes(result)) lines.push(`- Note: ${note}`);
  lines.push('');
  if (result.studies.length === 0) {
    lines.push('No studies found.');
  } else {
    lines.push('| Study | Title | Role | Status | Phase | Lead sponsor | Start |');
    lines.push('|---|---|---|---|---|---|---|');
    for (const s of result.studies) {
      const cells = [
        `[${s.nct_id}](${s.url})`,
        escapeMarkdown(s.title ?? ''),
        s.role,
        escapeMarkdown(s.overall_status ?? ''),
        escapeMarkdown(s.phases.join('/')),
        escapeMarkdown(s.lead_sponsor ?? ''),
        escapeMarkdown(s.start_date ?? ''),
      ];
      lines.push(`| ${cells.join(' | ')} |`);
    }
  }
  lines.push('');
  lines.push(`Source: ${SOURCE_NAME}.`);
  return lines.join('\n') + '\n';
}
