// The analyses of the store (GET /analyses, the default first): the selector's options and the
// API paths of the selected analysis. The default analysis is queried at /signals and /cases
// (its canonical paths); any other at /analyses/NAME/signals and /analyses/NAME/cases.
import { CASES_PATH, SIGNALS_PATH, getAnalyses } from './api.js';

/** @type {Array<{name: string, title?: string, description?: string, signals?: string, default?: boolean}>} */
let analyses = [];
let defaultName = '';

/**
 * Loads the listing once. Resolves to null on success, or to the failed answer (then only
 * the default paths are used).
 */
export async function loadAnalyses() {
  const result = await getAnalyses();
  if (!result.ok || !result.body || !Array.isArray(result.body.analyses)) return result.ok ? { ok: false, error: 'GET /analyses answered no list of analyses.' } : result;
  analyses = result.body.analyses.filter((a) => a && typeof a.name === 'string');
  defaultName = typeof result.body.default === 'string' ? result.body.default : (analyses[0]?.name ?? '');
  return null;
}

/** Every analysis, the default first (as GET /analyses lists them). */
export function listAnalyses() {
  return analyses;
}

/** Name of the default analysis ('' before the listing is loaded). */
export function defaultAnalysis() {
  return defaultName;
}

/** The analysis a state names ('' = the default), resolved to a name. */
export function analysisName(name) {
  return name || defaultName;
}

/** True when `name` is the default analysis (or empty). */
export function isDefault(name) {
  return !name || name === defaultName;
}

/** The listing entry of an analysis, or null. */
export function analysisInfo(name) {
  return analyses.find((a) => a.name === analysisName(name)) ?? null;
}

/** A short label: the title with the name, e.g. `Serious reports (serious)`. */
export function analysisLabel(name) {
  const info = analysisInfo(name);
  const resolved = analysisName(name);
  return info && info.title ? `${info.title} (${resolved})` : resolved;
}

/** Signals path of an analysis: /signals for the default, else the listing's path. */
export function signalsPathOf(name) {
  if (isDefault(name)) return SIGNALS_PATH;
  const info = analysisInfo(name);
  return info && typeof info.signals === 'string' ? info.signals : `/analyses/${encodeURIComponent(name)}/signals`;
}

/** Cases path of an analysis: /cases for the default, else /analyses/NAME/cases. */
export function casesPathOf(name) {
  return isDefault(name) ? CASES_PATH : `/analyses/${encodeURIComponent(name)}/cases`;
}

/**
 * Fills the analysis selector from the listing and selects `name`; an unknown name from the
 * URL is kept as an option so that the page shows the API's answer for it.
 * @param {HTMLSelectElement} select
 * @param {string} name
 */
export function fillSelector(select, name) {
  const selected = analysisName(name);
  const options = analyses.map((a) => {
    const option = document.createElement('option');
    option.value = a.name;
    option.textContent = a.title ? `${a.title} (${a.name})${a.name === defaultName ? ' — default' : ''}` : a.name;
    return option;
  });
  if (selected && !analyses.some((a) => a.name === selected)) {
    const option = document.createElement('option');
    option.value = selected;
    option.textContent = `${selected} (not in this store)`;
    options.push(option);
  }
  select.replaceChildren(...options);
  select.value = selected;
}

/** Vaccines path of an analysis: /vaccines for the default, else /analyses/NAME/vaccines. */
export function vaccinesPathOf(name) {
  return isDefault(name) ? '/vaccines' : `/analyses/${encodeURIComponent(name)}/vaccines`;
}

/**
 * Triage path of an analysis: always /analyses/NAME/triage, the default analysis's too. One analysis
 * per page (issue 46): the API's /triage ranks `stratified` while the page's default is the store's
 * default analysis (`all`), so the queue beside the pairs table would show another EB05 for the same
 * pair; the queue, its cautions and the tables all come from the page's analysis. Before the
 * listing is loaded (or when it failed), /triage.
 */
export function triagePathOf(name) {
  const resolved = analysisName(name);
  return resolved ? `/analyses/${encodeURIComponent(resolved)}/triage` : '/triage';
}
