/**
 * `evaluate` on the real default store (VAERS 1990-2006) with the committed reference set: every
 * command of docs/evaluation.md run verbatim, that page's tables equal to what the
 * first one prints, and facts of the data (every pair reported in `all`, so every event is spelt
 * as VAERS spells it and every vaccine names products; RotaShield flagged before the MMWR report
 * and in the triage queue's top 20 no later than in EB05's); the recomputation from the report
 * tables equal to the store's rows, a group item's too. Skips with a message when the default store is absent.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVALUATION_FILES } from '../../../src/commands/evaluate.js';
import { analysisRule, parseStrata } from '../../../src/domain/analysis-rules.js';
import { eventGroupItems, parseEventGroups } from '../../../src/domain/event-groups.js';
import { parseQuarter } from '../../../src/domain/quarter.js';
import { recomputeRows, tallyAnalysis } from '../../../src/serve/evaluate/recompute.js';
import { parseReferenceSet } from '../../../src/serve/evaluate/reference.js';
import { readFlagRows, readStoreVocabulary } from '../../../src/serve/store/evaluation.js';
import { readReportData } from '../../../src/serve/store/reports.js';
import { DEFAULT_STORE, hasDefaultStore } from '../../helpers/default-store.js';
import { REPO_ROOT } from '../../helpers/paths.js';
import { recipe } from '../../helpers/recipes.js';

const repoRoot = REPO_ROOT;
const hasStore = hasDefaultStore('evaluate real-data tests');

/** The Evaluation page (docs/evaluation.md), whole. */
async function section(): Promise<string> {
  return readFile(join(repoRoot, 'docs', 'evaluation.md'), 'utf8');
}

/** Runs one shell command line in the repository root. */
function sh(line: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn('sh', ['-c', line], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

describe.skipIf(!hasStore)('evaluate on the default store with data/reference/vaers-1990-2006.csv', () => {
  it('runs the commands of docs/evaluation.md verbatim; its tables are the first one\'s output', async () => {
    const text = await section();
    const block = recipe('docs/evaluation.md', 'evaluate').split('\n').filter((l) => l.trim() !== '');
    expect(block).toHaveLength(2);
    const runs = [];
    for (const line of block) runs.push(await sh(line));
    expect(runs.map((r) => [r.code, r.stderr.split('\n').filter((l) => !l.startsWith('evaluate: wrote')).join('')])).toEqual([[0, ''], [0, '']]);
    const rows = (s: string): string[] => s.split('\n').filter((l) => l.startsWith('|'));
    expect(rows(text)).toEqual(rows(runs[0].stdout));
    // The methods (7 analyses x 5), the orderings of `all` (4) and its 5 dated positives, each table with its 2 header lines.
    expect(rows(runs[0].stdout)).toHaveLength(2 + 7 * 5 + 2 + 4 + 2 + 5);
    expect(runs[0].stdout).toContain('reference concepts: 15 positive (5 dated), 23 negative, 3 refuted, 3 administration and 3 artefact (114 vaccine x term pairs)');
    expect(runs[0].stdout).not.toContain('names no vaccine of the store');
    expect(runs[0].stdout).not.toMatch(/future work|not in the store yet/);
    // Every pair is judged in `all` through 2006Q4: not reported 0/0 in each method's row.
    for (const row of rows(runs[0].stdout).filter((r) => r.startsWith('| all | ') && r.split(' | ').length > 10)) expect(row.split(' | ')[6]).toBe('0/0');
    // RotaShield x Intussusception enters the queue's top 20 no later than EB05's (first window in the top 10 / 20 / 50).
    const rota = rows(runs[0].stdout).find((r) => r.startsWith('| all | rotashield-intussusception |'))!.split(' | ');
    const top20 = (cell: string): string => cell.split(' / ')[1];
    expect(top20(rota[3]) <= top20(rota[4])).toBe(true);
    expect([top20(rota[3]), top20(rota[4])]).toEqual(['1999Q2', '1999Q2']);

    const out = '/tmp/reporting-signals-evaluation';
    for (const name of EVALUATION_FILES) expect(existsSync(join(out, name))).toBe(true);
    const pairs = JSON.parse(await readFile(join(out, 'pairs.json'), 'utf8')) as Array<Record<string, unknown>>;
    expect(pairs).toHaveLength(47 * 2 * 5);
    // Through 2000Q4, not yet reported in `all`: Dryvax (used from 2003), HPV4, RotaTeq (licensed 2006), Menactra, Tdap and
    // ProQuad (2005), the YF-VAX multi-organ failure reports of later years, and PPV x leukaemia (4 reports, after 2000).
    const late = [...new Set(pairs.filter((p) => p.analysis === 'all' && p.not_reported).map((p) => p.id))];
    expect(late.sort()).toEqual(['dryvax-myopericarditis', 'hpv4-syncope', 'menactra-gbs', 'menactra-syncope', 'ppv-leukaemia', 'proquad-febrile-seizures', 'rotateq-intussusception', 'tdap-syncope', 'yf-viscerotropic']);
    // RotaShield x Intussusception: the 1999Q1 window (1998Q2-1999Q1) already reaches the floor, two quarters before MMWR (1999Q3).
    expect(pairs.find((p) => p.id === 'rotashield-intussusception' && p.analysis === 'all' && p.method === 'floor'))
      .toMatchObject({ flagged: true, first_flagged: '1999Q1', time_to_signal: -2, products: ['ROTAVIRUS (ROTASHIELD)'], recomputed: false });
    const ranking = JSON.parse(await readFile(join(out, 'ranking.json'), 'utf8')) as { positives: Array<{ id: string; ordering: string; first_top20: string | null }> };
    expect(ranking.positives.filter((p) => p.id === 'rotashield-intussusception').map((p) => [p.ordering, p.first_top20]))
      .toEqual([['triage', '1999Q2'], ['eb05', '1999Q2'], ['prr', '1999Q1'], ['ic025', '1999Q2']]);
    const svg = await readFile(join(out, 'evaluation.svg'), 'utf8');
    expect(svg.match(/<g class="mark" /g)?.length).toBeLessThanOrEqual(2 * 5);
    expect((await readFile(join(out, 'ranking.svg'), 'utf8')).match(/class="artefact-share"/g)).toHaveLength(4);
  }, 300_000);

  it('a kept pair recomputed from the report tables equals the store\'s rows in every analysis (an unkept one never reaches the floor)', async () => {
    const store = DEFAULT_STORE!;
    const data = (await readReportData(store))!;
    const { meta } = await readStoreVocabulary(store);
    const cases: Array<[string, string, string]> = [
      ['all', 'ROTAVIRUS (ROTASHIELD)', 'Intussusception'], ['stratified', 'ROTAVIRUS (ROTASHIELD)', 'Intussusception'], ['types', 'RV', 'Intussusception'],
      ['serious', 'MEASLES + MUMPS + RUBELLA (MMR II)', 'Thrombocytopenia'], ['all', 'MEASLES + MUMPS + RUBELLA (NO BRAND NAME)', 'Thrombocytopenia'],
    ];
    for (const [analysis, item, event] of cases) {
      const { rows, priors } = await readFlagRows(store, analysis, [item], [event]);
      const definition = analysisRule(analysis)!;
      const strata = meta.analyses!.find((a) => a.name === analysis)!.strata;
      const tallies = tallyAnalysis(data, definition, definition.stratified ? parseStrata(strata ?? undefined) : null, [item], [event], parseQuarter('2006Q4')!);
      const recomputed = recomputeRows(tallies, item, event, new Map([...priors].map(([q, theta]) => [parseQuarter(q)!, theta])));
      if (rows.length > 0) expect(recomputed).toEqual(rows);
      else expect(recomputed.length > 0 && recomputed.every((r) => r.n_methods_flagged! < 2)).toBe(true);
    }
    // Every term of every reference concept is a term of the store's reports (the vaccines: no "names no vaccine" note above).
    const storeTerms = new Set(data.events.term.values);
    const reference = parseReferenceSet(await readFile(join(repoRoot, 'data', 'reference', 'vaers-1990-2006.csv'), 'utf8'), 'vaers-1990-2006.csv');
    expect(reference.pairs.flatMap((p) => p.terms.filter((t) => !storeTerms.has(t)).map((t) => `${p.id}: ${t}`))).toEqual([]);
    // A concept's group item, recomputed for the `groups` twin of `stratified` (the term analysis's rule, the twin's
    // priors and strata, a report counted once across the item's terms), equals the twin's stored rows.
    const twin = meta.analyses!.find((a) => a.name === 'groups')!;
    const group = 'Intussusception and bowel obstruction';
    const item = eventGroupItems(parseEventGroups(twin.event_groups!.csv, 'aesi.csv')).find((i) => i.name === group)!;
    const { rows, priors } = await readFlagRows(store, 'groups', ['ROTAVIRUS (ROTASHIELD)'], [group]);
    const tallies = tallyAnalysis(data, analysisRule('stratified')!, parseStrata(twin.strata ?? undefined), ['ROTAVIRUS (ROTASHIELD)'], [group], parseQuarter('2006Q4')!,
      new Map([[group, item.terms.map((t) => t.term)]]));
    expect(rows.length).toBeGreaterThan(0);
    expect(recomputeRows(tallies, 'ROTAVIRUS (ROTASHIELD)', group, new Map([...priors].map(([q, theta]) => [parseQuarter(q)!, theta])))).toEqual(rows);
  }, 300_000);
});
