// The Reports view: the case series behind a pair, or behind a vaccine or an event alone
// (GET /cases, or /analyses/NAME/cases for another analysis). Bar charts of the breakdowns,
// the co-reported vaccines and events, the line listing (paged, each report expandable) and
// the CSV of the listed page. Every count is the API's; strings are written as text.
import { apiUrl, getCases } from './api.js';
import { barChart, countItems, pairedBarChart } from './bars.js';
import { el } from './table.js';

/** Readable labels of the API's keys. */
const SEX_LABELS = { F: 'Female', M: 'Male', U: 'Unknown' };
const OUTCOME_LABELS = {
  died: 'Died', l_threat: 'Life-threatening', hospital: 'Hospitalised', x_stay: 'Prolonged hospital stay',
  disable: 'Disability', birth_defect: 'Birth defect', er_visit: 'Emergency room (VAERS 1 form: or doctor) visit', ofc_visit: 'Office visit',
};
const SERIOUS_LABELS = { serious: 'Serious', not_serious: 'Not serious' };
const OUTCOME_KEYS = ['died', 'l_threat', 'hospital', 'x_stay', 'disable', 'birth_defect', 'er_visit', 'ofc_visit'];
/** Fallback sentence, when the API's note does not say it. */
const NOT_A_RATE = 'A case series is not a rate: VAERS has no denominator of doses.';

const byNumber = (a, b) => Number(a) - Number(b) || a.localeCompare(b);

/**
 * Renders the Reports view into the elements of `ids`.
 * @param {object} ctx
 * @param {() => boolean} ctx.current  false once a newer render started
 * @param {Record<string, string|number>} ctx.params  /cases parameters (subject, limit, offset)
 * @param {string} ctx.path  /cases or /analyses/NAME/cases
 * @param {string} ctx.subject  e.g. `ROTAVIRUS (ROTASHIELD) and Intussusception`
 * @param {(name: string) => HTMLAnchorElement} ctx.vaccineLink
 * @param {(name: string) => HTMLAnchorElement} ctx.eventLink
 * @param {(rpage: number) => void} ctx.onPage
 * @param {(result: object) => void} ctx.onError
 * @param {(headers: object, hypothesis?: string) => void} ctx.onMeta
 * @param {(body: object) => void} [ctx.onAnswer]  called with the answer's body (its `from`, `to`)
 * @returns {Promise<void>}
 */
export async function renderReports(ctx) {
  const $ = (id) => document.getElementById(id);
  const csvHref = apiUrl(ctx.path, { ...ctx.params, format: 'csv' });
  const result = await getCases(ctx.params, ctx.path);
  if (!ctx.current()) return;
  if (!result.ok) {
    $('reports-body').hidden = true;
    ctx.onError(result);
    return;
  }
  const body = result.body ?? {};
  ctx.onMeta({ ...result.headers, through: body.reports_through ?? result.headers.through }, body.hypothesis);
  if (ctx.onAnswer) ctx.onAnswer(body);
  const n = Number(body.n_reports);
  $('reports-body').hidden = false;
  $('reports-body').dataset.nReports = String(n);
  renderDuplicatesControl(body);
  const note = typeof body.note === 'string' && body.note ? body.note : '';
  $('reports-caveat').textContent = note.includes('not a rate') ? note : `${NOT_A_RATE} ${note}`.trim();
  const span = body.from && body.to ? ` received ${body.from}–${body.to}` : '';
  const analysis = typeof body.analysis === 'string' ? `, analysis “${body.analysis}”` : '';
  const text = typeof body.query?.text === 'string' ? ` and whose narratives match “${body.query.text}”` : '';
  const once = body.duplicates === 'collapse' ? ', each suspected duplicate cluster counted once' : '';
  $('reports-summary').textContent = `${n} report${n === 1 ? '' : 's'} name${n === 1 ? 's' : ''} ${ctx.subject}${text}${span}${analysis}${once}.`
    + ` Each report counts once (distinct reports, unlike the n of a pair, which sums overlapping windows).`
    + ` Matched vaccines: ${listText(body.vaccines)}. Matched events: ${listText(body.events)}.`;
  $('reports-detail').hidden = !(n > 0);
  if (!(n > 0)) return;
  renderCharts($('reports-charts'), body.breakdowns ?? {}, n);
  renderTiming($('reports-timing'), body.breakdowns ?? {}, n);
  renderCoReported($('reports-co'), body.breakdowns ?? {}, ctx);
  renderListing(body, ctx, csvHref);
}

/**
 * The duplicates control: shown when the answer says how it counted duplicates (`duplicates`,
 * `reports_folded` of GET /cases), with "N reports folded" when clusters were collapsed.
 */
function renderDuplicatesControl(body) {
  const control = document.getElementById('duplicates-control');
  const folded = document.getElementById('reports-folded');
  control.hidden = typeof body.duplicates !== 'string';
  const n = Number(body.reports_folded);
  const collapsed = body.duplicates === 'collapse' && Number.isFinite(n);
  folded.textContent = collapsed ? `${n} report${n === 1 ? '' : 's'} folded` : '';
  folded.dataset.reportsFolded = collapsed ? String(n) : '';
}

/**
 * A clustered report's mark (GET /cases `cluster`: the VAERS_ID standing for its
 * suspected-duplicate cluster, itself for that one, null in none): a label in words; with `linked`,
 * its number (or words) a link to the report view of the report standing for the cluster (whose
 * page lists the possible duplicates). The `<summary>` carries the label without a link (a link
 * inside the clickable summary is a nested interactive control, axe-core's nested-interactive);
 * the expanded report carries it linked. Null for a report in no cluster.
 */
function duplicateMark(report, linked) {
  if (report.cluster === null || report.cluster === undefined) return null;
  const cluster = String(report.cluster);
  const stands = cluster === String(report.vaers_id);
  const mark = el('span', null, { class: `label duplicate${stands ? ' representative' : ''}`, 'data-cluster': cluster });
  const link = el('a', stands ? 'stands for a cluster' : cluster, {
    class: 'cluster-link', href: `/reports/${cluster}`,
    title: stands ? `Report ${cluster} stands for a cluster of suspected duplicates: open it to see them` : `Open report ${cluster}, which stands for this report's cluster of suspected duplicates`,
  });
  const target = linked ? link : (stands ? 'stands for a cluster' : cluster);
  if (stands) mark.append(target);
  else mark.append('possible duplicate of ', target);
  return mark;
}

function listText(names) {
  if (!Array.isArray(names) || !names.length) return 'any';
  return names.length > 8 ? `${names.slice(0, 8).join('; ')}; and ${names.length - 8} more` : names.join('; ');
}

/** The breakdown charts: partitions (each report in one bar) and the outcomes (not a partition). */
function renderCharts(container, b, n) {
  const unit = 'Reports (count)';
  const reports = `${n} report${n === 1 ? '' : 's'}`;
  const partitionNote = `Each report is in one bar: the bars add up to the ${reports}.`;
  const charts = [
    { key: 'age_group', title: 'Age group', category: 'Age group (CDC WONDER)', items: countItems(b.age_group) },
    { key: 'sex', title: 'Sex', category: 'Sex', items: countItems(b.sex, { keys: ['F', 'M', 'U'], labels: SEX_LABELS }) },
    { key: 'onset_interval', title: 'Onset interval', category: 'Days from vaccination to onset', items: countItems(b.onset_interval) },
    { key: 'serious', title: 'Seriousness', category: 'Serious (21 CFR 600.80)', items: countItems(b.serious, { labels: SERIOUS_LABELS }) },
    { key: 'received_year', title: 'Year received', category: 'Year of report (RECVDATE)', items: countItems(b.received_year, { sort: byNumber }) },
  ].filter((c) => c.items.length).map((c) => barChart({ ...c, unit, partition: true, note: partitionNote }));
  const outcomes = countItems(b.outcomes, { keys: OUTCOME_KEYS, labels: OUTCOME_LABELS });
  if (outcomes.length) {
    charts.splice(4, 0, barChart({
      key: 'outcomes', title: 'Outcomes', category: 'Outcome flag', unit: 'Reports with the outcome (count)', items: outcomes, partition: false,
      note: `A report can have several outcomes or none: these bars do not add up to the ${reports}.`,
    }));
  }
  container.replaceChildren(...charts);
}

/** Onset bins of the onset comparison's per-day counts: [label, first day, last day]. */
const ONSET_BINS = [['0', 0, 0], ['1', 1, 1], ['2', 2, 2], ['3', 3, 3], ['4-7', 4, 7], ['8-14', 8, 14], ['15-30', 15, 30], ['31-60', 31, 60]];

/** Per-day counts summed into ONSET_BINS. */
function onsetBins(days) {
  const list = Array.isArray(days) ? days.map(Number) : [];
  return ONSET_BINS.map(([, first, last]) => list.slice(first, last + 1).reduce((sum, v) => sum + (Number.isFinite(v) ? v : 0), 0));
}

const days = (v) => (v === null || v === undefined || !Number.isFinite(Number(v)) ? '—' : String(Math.round(Number(v) * 10) / 10));

/** The lag (days from vaccination to receipt) and, for a pair, the onset against other vaccines with the KS p-value. */
function renderTiming(container, b, n) {
  const figures = [];
  const c = b.onset_comparison;
  if (c && c.pair && c.other_vaccines) {
    const ks = c.ks && Number.isFinite(Number(c.ks.p))
      ? `Kolmogorov-Smirnov two-sample test: D = ${Number(c.ks.d).toFixed(3)}, p = ${Number(c.ks.p) < 0.001 ? Number(c.ks.p).toExponential(2) : Number(c.ks.p).toFixed(3)} (${c.ks.method}).`
      : 'No Kolmogorov-Smirnov test: a group has no onset within the window.';
    const figure = pairedBarChart({
      key: 'onset_comparison', title: `Days to onset (0–${c.max_days ?? 60}): this pair against the same event after other vaccines`, category: 'Days from vaccination to onset',
      categories: ONSET_BINS.map(([label]) => label),
      groups: [
        { label: 'This pair', values: onsetBins(c.pair.days), className: 'pair' },
        { label: 'Other vaccines', values: onsetBins(c.other_vaccines.days), className: 'other' },
      ],
      note: `Median ${days(c.pair.median_days)} days (${c.pair.n} reports) against ${days(c.other_vaccines.median_days)} days (${c.other_vaccines.n} reports). ${ks}`,
    });
    figure.dataset.ksP = c.ks ? String(c.ks.p) : '';
    figures.push(figure);
  }
  if (b.lag_interval) {
    const lag = b.lag ?? {};
    const known = Number(lag.n) > 0
      ? `Median ${days(lag.median_days)} days (quartiles ${days(lag.q1_days)}–${days(lag.q3_days)}) of ${lag.n} reports with a known lag; ${Math.round(100 * Number(lag.share_over_365))}% over a year.`
      : 'No report has a known lag.';
    figures.push(barChart({
      key: 'lag_interval', title: 'Days from vaccination to report', category: 'Days from VAX_DATE to RECVDATE', unit: 'Reports (count)',
      items: countItems(b.lag_interval), partition: true, note: `${known} Each of the ${n} reports is in one bar; reports arriving years late suggest litigation or stimulated reporting.`,
    }));
  }
  container.replaceChildren(...figures);
  container.hidden = figures.length === 0;
}

/** Top co-reported vaccines and events, as bars with links to their pairs. */
function renderCoReported(container, b, ctx) {
  const ranked = (data, link) => (data && Array.isArray(data.top) ? data.top : [])
    .map((row) => ({ label: String(row.name), value: Number(row.reports), link: link(String(row.name)) }));
  const figures = [];
  const vaccines = ranked(b.co_vaccines, ctx.vaccineLink);
  const events = ranked(b.co_events, ctx.eventLink);
  const other = (data, what) => (data && Number.isFinite(Number(data.other)) ? ` Reports counted under the other ${what}: ${data.other}.` : '');
  figures.push(barChart({
    key: 'co_vaccines', title: 'Co-reported vaccines', category: 'Other vaccine on the report', unit: 'Reports (count)', items: vaccines, partition: false,
    note: `Vaccines given at the same visit share reports: a report naming two vaccines counts for both.${other(b.co_vaccines, 'vaccines')}`,
  }));
  figures.push(barChart({
    key: 'co_events', title: 'Co-reported events', category: 'Other event on the report', unit: 'Reports (count)', items: events, partition: false,
    note: `A report lists several events.${other(b.co_events, 'events')}`,
  }));
  container.replaceChildren(...figures);
}

const yesNo = (v) => (v === true ? 'yes' : v === false ? 'no' : 'not in this report\'s file');

/** Readable names of the narrative fields. */
const FIELD_LABELS = {
  SYMPTOM_TEXT: 'Symptoms', LAB_DATA: 'Laboratory data', HISTORY: 'Medical history', CUR_ILL: 'Illness at vaccination',
  OTHER_MEDS: 'Other medications', PRIOR_VAX: 'Prior vaccination events',
};

/**
 * A report's snippet (GET /cases with text): the field, then the text with each match in a `<mark>`.
 * A span (phrasing content), so that it sits in the report's `<summary>`: visible in the list
 * itself, without opening the report.
 */
function snippetLine(snippet) {
  const line = el('span', null, { class: 'snippet' });
  line.append(el('strong', `${FIELD_LABELS[snippet.field] ?? snippet.field}: `));
  const text = String(snippet.text);
  let at = 0;
  for (const m of Array.isArray(snippet.matches) ? snippet.matches : []) {
    if (m.start < at) continue;
    line.append(text.slice(at, m.start), el('mark', text.slice(m.start, m.end)));
    at = m.end;
  }
  line.append(text.slice(at));
  return line;
}

/**
 * What a report's `er_visit` means by its form (`form_vers`): on the VAERS 1 form (the older layout,
 * 1990-2006, and FORM_VERS 1) ER_VISIT is an "emergency room or doctor visit" (VAERS Data Use
 * Guide); on the VAERS 2 form (FORM_VERS 2) ER_ED_VISIT is the emergency room or department alone
 * (src/serve/cases/report-html.ts erVisitLabel, the report page).
 */
export function erVisitWords(formVers) {
  return String(formVers ?? '').trim() === '2' ? 'emergency room or department visit' : 'emergency room or doctor visit';
}

/** One report of the listing, as a `<details>` with its vaccines, events and narrative. */
function reportDetails(report, ctx) {
  const details = el('details', null, { class: 'report', 'data-vaers-id': String(report.vaers_id) });
  const outcomes = OUTCOME_KEYS.filter((k) => report[k] === true).map((k) => (k === 'er_visit' ? erVisitWords(report.form_vers) : OUTCOME_LABELS[k].toLowerCase()));
  const age = report.age_yrs === null || report.age_yrs === undefined ? report.age_group : `${report.age_group} (${report.age_yrs} y)`;
  const onset = report.onset_days === null || report.onset_days === undefined ? 'onset interval unknown' : `onset day ${report.onset_days}`;
  const parts = [`received ${report.received}`, SEX_LABELS[report.sex] ?? report.sex, age, report.state ?? 'state unknown', onset,
    report.serious ? `serious${outcomes.length ? `: ${outcomes.join(', ')}` : ''}` : `not serious${outcomes.length ? `: ${outcomes.join(', ')}` : ''}`];
  const summary = el('summary');
  summary.append(el('strong', `VAERS ${report.vaers_id}`), ` — ${parts.join(' · ')}`);
  const mark = duplicateMark(report, false);
  if (mark) summary.append(' ', mark);
  if (report.snippet) summary.append(snippetLine(report.snippet));
  details.append(summary);
  const linkedMark = duplicateMark(report, true);
  if (linkedMark) {
    details.append(el('p', null, { class: 'duplicate-of' }));
    details.lastChild.append(linkedMark);
  }

  const facts = el('dl', null, { class: 'report-facts' });
  const fact = (term, value) => { const div = el('div'); div.append(el('dt', term), el('dd', value ?? '—')); facts.append(div); };
  fact('Vaccinated', report.vax_date);
  fact('Onset', report.onset_date);
  fact('Days from vaccination to report', report.lag_days === null || report.lag_days === undefined ? null : String(report.lag_days));
  fact('Recovered', report.recovd);
  fact('Birth defect', yesNo(report.birth_defect));
  fact('Office visit', yesNo(report.ofc_visit));
  details.append(facts);

  const vaccines = Array.isArray(report.vaccines) ? report.vaccines : [];
  const table = el('table', null, { class: 'report-vaccines' });
  table.append(el('caption', `Vaccines on this report (${vaccines.length})`));
  const head = el('tr');
  for (const label of ['Vaccine', 'Type', 'Manufacturer', 'Lot', 'Dose', 'Route', 'Site']) head.append(el('th', label, { scope: 'col' }));
  table.append(el('thead'));
  table.tHead.append(head);
  const tbody = el('tbody');
  for (const v of vaccines) {
    const tr = el('tr');
    const name = el('th', null, { scope: 'row' });
    name.append(ctx.vaccineLink(v.name));
    tr.append(name);
    for (const key of ['type', 'manufacturer', 'lot', 'dose', 'route', 'site']) tr.append(el('td', v[key] ?? '—'));
    tbody.append(tr);
  }
  table.append(tbody);
  details.append(table);

  const events = Array.isArray(report.events) ? report.events : [];
  const eventsLine = el('p', null, { class: 'report-events' });
  eventsLine.append(el('strong', `Events (${events.length}): `));
  events.forEach((name, i) => {
    if (i) eventsLine.append('; ');
    eventsLine.append(ctx.eventLink(name));
  });
  details.append(eventsLine);

  const narrative = typeof report.narrative === 'string' && report.narrative ? report.narrative : null;
  details.append(el('p', narrative ?? 'No narrative in this store (it was built without narratives).', { class: narrative ? 'narrative' : 'narrative none' }));
  const open = el('a', `Open report ${report.vaers_id} (every field, all narratives)`, { class: 'report-link', href: `/reports/${report.vaers_id}` });
  details.append(el('p', null, { class: 'report-open' }));
  details.lastChild.append(open);
  return details;
}

/** The line listing: the page of reports, its pager and the CSV link. */
function renderListing(body, ctx, csvHref) {
  const $ = (id) => document.getElementById(id);
  const reports = Array.isArray(body.reports) ? body.reports : [];
  const n = Number(body.n_reports);
  const limit = Number(body.limit) || reports.length || 1;
  const offset = Number(body.offset) || 0;
  const page = Math.floor(offset / limit) + 1;
  const pages = Math.max(1, Math.ceil(n / limit));
  $('listing').replaceChildren(...reports.map((r) => reportDetails(r, ctx)));
  $('listing-info').textContent = reports.length
    ? `Reports ${offset + 1}–${offset + reports.length} of ${n}, newest first (page ${page} of ${pages})`
    : n ? `Page ${page} of ${pages}: past the last report` : 'No reports.';
  $('reports-prev').disabled = page <= 1;
  $('reports-next').disabled = page >= pages;
  $('reports-prev').onclick = () => ctx.onPage(Math.max(1, page - 1));
  $('reports-next').onclick = () => ctx.onPage(page + 1);
  const link = $('download-cases');
  link.href = csvHref;
  link.textContent = `Download CSV of these ${reports.length} report${reports.length === 1 ? '' : 's'}`;
  link.hidden = reports.length === 0;
}
