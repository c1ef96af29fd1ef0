/**
 * The `/pipeline` brief (format=brief, spec 4.2: text/plain Markdown): the caveat as a quote,
 * the filters, the counts, the notes and a table of studies. Registry strings are
 * backslash-escaped (escapeMarkdown); links are built only from validated NCT ids.
 */
import { REGISTRY_CAVEAT } from '../query/caveats.js';
import { escapeMarkdown } from '../query/markdown.js';
import type { PipelineResult } from './result.js';
import { describePhase, describeRole, describeStatus, resultNotes, SOURCE_NAME } from './wording.js';


function countsLine(counts: Record<string, number>): string {
  const entries = Object.entries(counts);
  return entries.length === 0 ? 'none' : entries.map(([k, n]) => `${escapeMarkdown(k)} ${n}`).join(', ');
}

/** The table of studies, or `No studies found.` */
function studiesTable(result: PipelineResult): string[] {
  if (result.studies.length === 0) return ['No studies found.'];
  const lines = ['| Study | Title | Role | Status | Phase | Lead sponsor | Start |', '|---|---|---|---|---|---|---|'];
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
  return lines;
}

/** The format=brief body (text/plain Markdown, ends with a newline). */
export function renderBrief(result: PipelineResult): string {
  const q = result.query;
  const lines: string[] = [];
  lines.push(`# ${escapeMarkdown(q.sponsor ?? '')}: ${result.n_studies} studies ${describeRole(q.role)}`);
  lines.push('');
  lines.push(`> ${REGISTRY_CAVEAT}`);
  lines.push('');
  lines.push(`- Status: ${describeStatus(q.status)}`);
  lines.push(`- Phase: ${describePhase(q.phase)}`);
  lines.push(`- Registry total (n_studies): ${result.n_studies}; shown: ${result.studies.length} (limit ${q.limit})`);
  lines.push(`- Phase counts (shown studies): ${countsLine(result.phase_counts)}`);
  lines.push(`- Status counts (shown studies): ${countsLine(result.status_counts)}`);
  for (const note of resultNotes(result)) lines.push(`- Note: ${note}`);
  lines.push('');
  lines.push(...studiesTable(result));
  lines.push('');
  lines.push(`Source: ${SOURCE_NAME}.`);
  return lines.join('\n') + '\n';
}
