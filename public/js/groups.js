// Event groups in the explorer (docs/event-groups.md): under a pair's title, a group pair (an
// analysis whose items are event_group) lists the group's terms beside the term-level pairs of
// the same vaccine (n and EB05 as /signals serves them, in the stratified analysis when the store
// has it, so both use stratified E), each a link to the term pair; a term pair lists the group
// items that count its event, each a link to the group pair. Reads only GET /analyses (already
// loaded) and /signals.

import { analysisInfo, listAnalyses, signalsPathOf } from './analyses.js';
import { getSignals } from './api.js';

/** The analysis of event groups of the store (the first listed), or null. */
function groupsAnalysis() {
  return listAnalyses().find((a) => a.items === 'event_group' && a.event_groups && Array.isArray(a.event_groups.groups)) ?? null;
}

/** The term analysis to compare with: `stratified` when listed (same stratified E as `groups`), else the default. */
function termAnalysis() {
  return listAnalyses().find((a) => a.name === 'stratified') ? 'stratified' : '';
}

/** The group and item of `event` in an analysis of event groups, or null. */
function itemOf(info, event) {
  for (const group of info.event_groups.groups) {
    if (!Array.isArray(group.items) || !group.items.includes(event)) continue;
    const broad = event !== group.label;
    return { group, terms: group.terms.filter((t) => broad || t.scope === 'narrow') };
  }
  return null;
}

/** `EB05 x.xx, n N` of a /signals row, or '' when the pair is not served. */
function figures(row) {
  if (!row) return 'not flagged';
  const eb05 = typeof row.eb05 === 'number' ? row.eb05.toFixed(2) : '—';
  return `n ${row.n}, EB05 ${eb05}`;
}

/**
 * Fills `target` (a paragraph under the pair's title) with the pair's event-group context, or
 * hides it when there is none.
 * @param {HTMLElement} target
 * @param {{current: () => boolean, analysis: string, vaccine: string, event: string,
 *   pairLinkIn: (analysis: string, pair: {vaccine: string, event: string}, text: string) => HTMLAnchorElement}} ctx
 */
export async function renderGroupContext(target, ctx) {
  target.replaceChildren();
  target.hidden = true;
  const info = analysisInfo(ctx.analysis);
  if (info && info.items === 'event_group' && info.event_groups) {
    const found = itemOf(info, ctx.event);
    if (!found) return;
    const terms = termAnalysis();
    const result = await getSignals({ vaccine: ctx.vaccine, limit: 500 }, undefined, signalsPathOf(terms));
    if (!ctx.current()) return;
    const rows = result.ok && Array.isArray(result.body) ? result.body : [];
    const own = await getSignals({ vaccine: ctx.vaccine, event: ctx.event, limit: 1 }, undefined, signalsPathOf(ctx.analysis));
    if (!ctx.current()) return;
    const groupRow = own.ok && Array.isArray(own.body) ? own.body.find((r) => r.event === ctx.event) : undefined;
    target.append(`Event group “${found.group.label}” (${found.group.source}; ${figures(groupRow)}). Its terms, with their pairs in the analysis “${terms || 'default'}”: `);
    found.terms.forEach((t, i) => {
      if (i > 0) target.append('; ');
      const row = rows.find((r) => r.event === t.term);
      target.append(ctx.pairLinkIn(terms, { vaccine: ctx.vaccine, event: t.term }, t.term), ` (${t.scope}; ${figures(row)})`);
    });
    target.append('.');
    target.hidden = false;
    return;
  }
  const groups = groupsAnalysis();
  if (!groups) return;
  const items = groups.event_groups.groups.flatMap((g) => (g.terms.some((t) => t.term === ctx.event)
    ? g.items.filter((name) => name !== g.label || g.terms.some((t) => t.term === ctx.event && t.scope === 'narrow')) : []));
  if (items.length === 0) return;
  target.append(`${ctx.event} is in the event group${items.length > 1 ? 's' : ''} `);
  items.forEach((name, i) => {
    if (i > 0) target.append(', ');
    target.append(ctx.pairLinkIn(groups.name, { vaccine: ctx.vaccine, event: name }, name));
  });
  target.append(` (analysis “${groups.name}”: a report counts once per group).`);
  target.hidden = false;
}
