// Search suggestions from the data: names seen in /signals answers (the page's own results and
// a small `/signals?q=<text>` lookup as the user types). No private endpoint.
import { getSignals } from './api.js';

const vaccines = new Set();
const vaxTypes = new Set();
const events = new Set();
const MAX_OPTIONS = 15;

/** Remembers the names of pair rows (spec 2.1) for later suggestions. */
export function rememberNames(rows) {
  for (const row of rows) {
    if (typeof row.vaccine === 'string') vaccines.add(row.vaccine);
    if (typeof row.vax_type === 'string') vaxTypes.add(row.vax_type);
    if (typeof row.event === 'string') events.add(row.event);
  }
}

/**
 * Names matching `text` (case-insensitive substring) for a search mode, vaccines first.
 * @param {string} text
 * @param {'q'|'vaccine'|'event'} mode
 * @returns {string[]}
 */
export function suggestionsFor(text, mode) {
  const needle = text.trim().toLowerCase();
  if (!needle) return [];
  const pools = mode === 'vaccine' ? [vaxTypes, vaccines] : mode === 'event' ? [events] : [vaxTypes, vaccines, events];
  const out = [];
  const seen = new Set();
  for (const pool of pools) {
    const matches = [...pool].filter((name) => name.toLowerCase().includes(needle)).sort((a, b) => {
      const pa = a.toLowerCase().startsWith(needle) ? 0 : 1;
      const pb = b.toLowerCase().startsWith(needle) ? 0 : 1;
      return pa - pb || a.localeCompare(b);
    });
    for (const name of matches) {
      if (seen.has(name)) continue;
      seen.add(name);
      out.push(name);
      if (out.length >= MAX_OPTIONS) return out;
    }
  }
  return out;
}

/**
 * Wires suggestions to a text input and its datalist: after a pause in typing (3 characters
 * or more), asks /signals for up to 100 pairs matching the text and offers their names.
 * @param {HTMLInputElement} input
 * @param {HTMLSelectElement} modeSelect
 * @param {HTMLDataListElement} datalist
 */
export function setupSuggestions(input, modeSelect, datalist) {
  let timer = 0;
  let controller = null;
  const fill = () => {
    const options = suggestionsFor(input.value, modeSelect.value).map((name) => {
      const option = document.createElement('option');
      option.value = name;
      return option;
    });
    datalist.replaceChildren(...options);
  };
  const lookup = async () => {
    const text = input.value.trim();
    fill();
    if (text.length < 3) return;
    if (controller) controller.abort();
    controller = new window.AbortController();
    try {
      const result = await getSignals({ q: text, sort: 'n', limit: 100 }, controller.signal);
      if (result.ok && Array.isArray(result.body)) {
        rememberNames(result.body);
        fill();
      }
    } catch {
      // aborted by a newer keystroke
    }
  };
  input.addEventListener('input', () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(lookup, 250);
  });
  modeSelect.addEventListener('change', fill);
}
