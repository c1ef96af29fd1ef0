/**
 * The outputs of the ranking comparison (ranking.ts): the Markdown tables of standard output (per
 * analysis and ordering: dated positives entering the top 20, the median quarters from `emerged`
 * to the top 20, the shares of the top 20 that are reference negatives, artefacts or carry an
 * artefact caution; per dated positive the first window in the top 10 / 20 / 50 under each
 * ordering, side by side), `ranking.json`, and the CSV files `ranking.csv` (a dated positive under
 * an ordering), `ranks.csv` (its rank in every window) and `top20.csv` (a window's top 20 under an
 * ordering). CSV: RFC 4180, CRLF, header row, text cells neutralised (src/domain/csv-cell.ts `csvCell`).
 */
import { csvCell } from '../../domain/csv-cell.js';
import { ORDERINGS, TOP, type Ordering, type PositiveRanking, type RankingResult } from './ranking.js';

/** A CSV document from a header and rows of values. */
export function csvDocument(header: readonly string[], rows: ReadonlyArray<readonly unknown[]>): string {
  return [header.join(','), ...rows.map((r) => r.map(csvCell).join(','))].map((l) => `${l}\r\n`).join('');
}

/** Display names of the orderings. */
export const ORDERING_NAMES: Readonly<Record<Ordering, string>> = { triage: 'triage queue', eb05: 'EB05', prr: 'PRR', ic025: 'IC025' };

const share = (x: number | null): string => (x === null ? '-' : x.toFixed(3));

/** `1999Q1 / 1999Q1 / 1999Q1 (-2)`: first window in the top 10 / 20 / 50 and the quarters from emerged to the top 20. */
function firsts(p: PositiveRanking): string {
  return `${p.first_top10 ?? '-'} / ${p.first_top20 ?? '-'} / ${p.first_top50 ?? '-'}${p.quarters_to_top20 === null ? '' : ` (${p.quarters_to_top20})`}`;
}

/** The Markdown section of the ranking comparison (lines, ending with a blank one); nothing when no analysis was ranked. */
export function rankingMarkdown(ranking: RankingResult): string[] {
  if (ranking.summary.length === 0) return [];
  const analyses = [...new Set(ranking.summary.map((s) => s.analysis))];
  const lines = [
    `## Triage queue against plain orderings (${analyses.join(', ')})`,
    '',
    `In every window the candidates are the pairs /triage ranks; the queue orders them by triage (src/serve/triage/rank.ts), the plain orderings by EB05, PRR or IC025`,
    `descending. Dated positives: entered the top ${TOP} in some window, and the median quarters from \`emerged\` to the first such window. Top ${TOP}: over`,
    'every window, the share of the slots held by reference negatives, by artefact pairs, and by pairs with an artefact caution of triage.',
    '',
    `| analysis | ordering | dated positives in the top ${TOP} | median quarters from emerged to the top ${TOP} | negatives in the top ${TOP} | artefacts in the top ${TOP} | artefact cautions in the top ${TOP} |`,
    '|---|---|---|---|---|---|---|',
    ...ranking.summary.map((s) => `| ${[
      s.analysis, ORDERING_NAMES[s.ordering], `${s.entered_top20}/${s.dated_positives}`, s.median_quarters_to_top20 ?? '-',
      share(s.negative_share), share(s.artefact_share), share(s.cautioned_share),
    ].join(' | ')} |`),
    '',
    'First window in the top 10 / 20 / 50 (quarters from emerged to the top 20):',
    '',
    `| analysis | pair | emerged | ${ORDERINGS.map((o) => ORDERING_NAMES[o]).join(' | ')} |`,
    `|---|---|---|${ORDERINGS.map(() => '---').join('|')}|`,
  ];
  for (const analysis of analyses) {
    const ids = [...new Set(ranking.positives.filter((p) => p.analysis === analysis).map((p) => p.id))];
    for (const id of ids) {
      const of = ranking.positives.filter((p) => p.analysis === analysis && p.id === id);
      lines.push(`| ${[analysis, id, of[0].emerged, ...ORDERINGS.map((o) => firsts(of.find((p) => p.ordering === o)!))].join(' | ')} |`);
    }
  }
  lines.push('');
  return lines;
}

/** The columns of ranking.csv. */
export const RANKING_COLUMNS = ['analysis', 'id', 'vaccine', 'event', 'emerged', 'ordering', 'first_top10', 'first_top20', 'first_top50', 'quarters_to_top20'] as const;
/** The columns of top20.csv. */
export const TOP_COLUMNS = ['analysis', 'quarter', 'ordering', 'candidates', 'top', 'positives', 'negatives', 'artefacts', 'cautioned'] as const;

/** ranking.csv: a dated positive under an ordering. */
export function rankingCsv(ranking: RankingResult): string {
  return csvDocument(RANKING_COLUMNS, ranking.positives.map((p) => RANKING_COLUMNS.map((c) => p[c])));
}

/** ranks.csv: a dated positive's rank under an ordering in every window (blank: not among the window's candidates). */
export function ranksCsv(ranking: RankingResult): string {
  return csvDocument(['analysis', 'id', 'ordering', 'quarter', 'rank'],
    ranking.positives.flatMap((p) => p.ranks.map((r) => [p.analysis, p.id, p.ordering, r.quarter, r.rank])));
}

/** top20.csv: a window's top 20 under an ordering. */
export function topCsv(ranking: RankingResult): string {
  return csvDocument(TOP_COLUMNS, ranking.windows.map((w) => TOP_COLUMNS.map((c) => w[c])));
}

/** ranking.json: the summary, the dated positives (with their ranks) and the windows' top 20. */
export function rankingJson(ranking: RankingResult): string {
  return `${JSON.stringify({ orderings: ORDERINGS, top: TOP, ...ranking }, null, 2)}\n`;
}
