// What a table shows, said on the table (issue 36): which analysis, and which `n` (the reports of
// a pair in one 4-quarter window, the sum over the windows flagged, or distinct reports), written
// into a span at the end of the table's caption. And the Reports view's range of quarters received
// (GET /cases `from`/`to`), always shown.
import { analysisName, isDefault } from './analyses.js';
import { windowStart } from './state.js';

/** The `n` of a pair row (/signals, the Compare and Class tables, the emerging pairs). */
export const N_SUM = 'n is the sum of the pair’s quarterly n over the windows flagged: the windows overlap (4 quarters each), '
  + 'so a report counts up to four times; it is not a count of distinct reports (the Reports tab counts those).';

/** `analysis “stratified”`, with `(the default)` for the default analysis. */
export function analysisWords(name) {
  return `analysis “${analysisName(name)}”${isDefault(name) ? ' (the default)' : ''}`;
}

/** The `n` of a window's row: the pair's reports received in the 4 quarters ending at `quarter` (or at each row's quarter). */
export function nWindow(quarter) {
  return quarter
    ? `n is the pair’s reports received in the window ${windowStart(quarter)}–${quarter} (4 quarters).`
    : 'n is the pair’s reports received in the 4-quarter window ending at each quarter.';
}

/**
 * Writes `text` into the caption of `table`, in a span of its own after the caption's fixed
 * words (created once; the fixed words stay).
 * @param {HTMLTableElement} table
 * @param {string} text
 */
export function setTableContext(table, text) {
  const caption = table.caption ?? table.createCaption();
  let span = caption.querySelector('.table-context');
  if (!span) {
    span = document.createElement('span');
    span.className = 'table-context';
    caption.append(' ', span);
  }
  span.textContent = text;
}

/**
 * The Reports view's range of quarters received: the inputs show the state's range, the buttons
 * ask for all time or the triage window, and the status says what the answer covers.
 * @param {{from: string, to: string, window: string}} state
 * @param {{from?: string|null, to?: string|null}|null} body  the /cases answer (its `from`, `to`), or null before it
 */
export function renderRange(state, body) {
  const $ = (id) => document.getElementById(id);
  $('range-from').value = state.from;
  $('range-to').value = state.to;
  const window = state.window ? { from: windowStart(state.window), to: state.window } : null;
  $('range-window').hidden = !window;
  if (window) $('range-window').textContent = `The queue’s window (${window.from}–${window.to})`;
  $('range-all').disabled = !state.from && !state.to;
  if (!body) {
    $('range-info').textContent = '';
    return;
  }
  const span = body.from && body.to ? `${body.from}–${body.to}` : '—';
  const all = !state.from && !state.to;
  const isWindow = window && state.from === window.from && state.to === window.to;
  $('range-info').textContent = all
    ? `Showing all time: reports received ${span}.`
    : `Showing reports received ${span}${isWindow ? `, the triage window ending ${state.window}` : ''}.`;
}
