/**
 * The report view as a readable HTML page (GET /reports/{vaers_id} for a browser, or
 * format=html): the caveat, the report's facts, its narratives (text kept as written, line
 * breaks shown), its vaccines and events, and the analyses that keep it. No scripts; every value
 * goes through `escapeHtml` (served with REPORT_CSP).
 */
import e from 'escape-html';
import type { ReportView } from './report.js';

/** Content-Security-Policy of the page: no scripts; images from the site or inline (the blank favicon). */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'";

/** Facts of the report, in order: [JSON field, label]. */
const FACTS: ReadonlyArray<[string, string]> = [
  ['received', 'Received (RECVDATE)'], ['rpt_date', 'Report form date (RPT_DATE)'], ['todays_date', 'Form completed (TODAYS_DATE)'],
  ['form_vers', 'Form version'], ['splttype', 'Manufacturer / project report number (SPLTTYPE)'], ['state', 'State'],
  ['age_yrs', 'Age (years)'], ['age_group', 'Age group'], ['sex', 'Sex'], ['vax_date', 'Vaccinated'], ['onset_date', 'Onset'],
  ['onset_days', 'Days to onset (NUMDAYS)'], ['lag_days', 'Days from vaccination to receipt'], ['serious', 'Serious (21 CFR 600.80)'], ['died', 'Died'], ['datedied', 'Date of death'],
  ['l_threat', 'Life-threatening'], ['er_visit', 'ER visit'], ['hospital', 'Hospitalised'], ['hospdays', 'Days in hospital'],
  ['x_stay', 'Prolonged stay'], ['disable', 'Disability'], ['birth_defect', 'Birth defect'], ['ofc_visit', 'Office visit'],
  ['recovd', 'Recovered'], ['v_adminby', 'Administered by (V_ADMINBY)'], ['v_fundby', 'Funded by (V_FUNDBY)'],
];

/**
 * What the report's `er_visit` means, by the form it came on (`form_vers`): the VAERS 1 form's
 * ER_VISIT is an "Emergency room or doctor visit" (VAERS Data Use Guide, VAERSDATA.CSV: "ER_VISIT |
 * Char (1) | Discontinued | Box 8 | Emergency room or doctor visit"), which is every report of the
 * older layout (1990-2006: no FORM_VERS column, null here) and FORM_VERS 1; the VAERS 2 form (FORM_VERS
 * 2, 2017) has ER_ED_VISIT, the emergency room or department, and the doctor's office apart (OFC_VISIT).
 * public/js/reports.js says the same in the explorer's listing.
 */
export function erVisitLabel(formVers: unknown): string {
  return String(formVers ?? '').trim() === '2' ? 'Emergency room or department visit (ER_ED_VISIT, VAERS 2 form)' : 'Emergency room or doctor visit (ER_VISIT, VAERS 1 form)';
}

/** The narrative fields, in order: [JSON field, heading]. */
const NARRATIVES: ReadonlyArray<[string, string]> = [
  ['narrative', 'Symptoms (SYMPTOM_TEXT)'], ['lab_data', 'Laboratory data (LAB_DATA)'], ['history', 'Medical history (HISTORY)'],
  ['cur_ill', 'Illness at vaccination (CUR_ILL)'], ['other_meds', 'Other medications (OTHER_MEDS)'],
  ['prior_vax', 'Prior vaccination events (PRIOR_VAX)'], ['allergies', 'Allergies (ALLERGIES)'],
];

/** A match weight as a reader reads it: bits, two decimals (the JSON keeps the full value). */
const bits = (weight: number | null): string => (weight === null ? '—' : `${weight.toFixed(2)} bits`);

const shown = (value: unknown): string => (value === null || value === undefined ? '—' : value === true ? 'yes' : value === false ? 'no' : String(value));

/** The suspected duplicates of a report (its cluster and links), each linking to its page. */
function duplicatesHtml(view: ReportView): string {
  const cluster = view.cluster === null ? '' : `<p>In the suspected-duplicate cluster of report <a href="/reports/${e(String(view.cluster))}">${e(String(view.cluster))}</a>${view.cluster === view.vaers_id ? ' (this report stands for it)' : ''}.</p>\n`;
  if (view.possible_duplicates.length === 0) return `${cluster}<p class="none">none linked</p>`;
  const rows = view.possible_duplicates.map((d) =>
    `<tr><td><a href="/reports/${e(String(d.vaers_id))}">${e(String(d.vaers_id))}</a></td><td>${e(bits(d.weight))}</td><td>${e(d.agreed.join(', '))}</td></tr>`).join('\n');
  return `${cluster}<div class="scroll" tabindex="0" role="region" aria-label="Possible duplicates (scrolls sideways)"><table><thead><tr><th>VAERS_ID</th><th>Match weight</th><th>Fields agreeing</th></tr></thead><tbody>\n${rows}\n</tbody></table></div>`;
}

/** The page of one report. */
export function renderReportHtml(view: ReportView): string {
  const id = String(view.vaers_id);
  const facts = FACTS.filter(([k]) => k in view).map(([k, label]) => `<dt>${e(k === 'er_visit' ? erVisitLabel(view.form_vers) : label)}</dt><dd>${e(shown(view[k]))}</dd>`).join('\n');
  const narratives = NARRATIVES.map(([k, heading]) => {
    const text = view[k];
    return `<h3>${e(heading)}</h3>\n${typeof text === 'string' ? `<p class="narrative">${e(text)}</p>` : '<p class="none">(blank)</p>'}`;
  }).join('\n');
  const vaccines = view.vaccines.map((v) =>
    `<tr><td>${e(v.name)}</td><td>${e(shown(v.type))}</td><td>${e(shown(v.manufacturer))}</td><td>${e(shown(v.lot))}</td><td>${e(shown(v.dose))}</td><td>${e(shown(v.route))}</td><td>${e(shown(v.site))}</td></tr>`).join('\n');
  const events = view.events.map((ev) => `<li>${e(ev.term)}${ev.version === null ? '' : ` <small>(MedDRA ${e(ev.version)})</small>`}</li>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<title>VAERS report ${e(id)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem}dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}
dt{font-weight:600}.narrative{white-space:pre-wrap;background:#f6f6f6;padding:.5rem}.caveat{border-left:4px solid #b60;padding-left:.5rem}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .4rem;text-align:left}.none{color:#666}.scroll{overflow-x:auto;max-width:100%}
.narrative{overflow-wrap:anywhere}dd{overflow-wrap:anywhere;margin:0}dt{overflow-wrap:anywhere}
@media (max-width:40rem){dl{grid-template-columns:minmax(0,1fr)}dd{margin:0 0 .4rem}}</style></head>
<body><main>
<nav><a href="/">Signal explorer</a></nav>
<h1>VAERS report ${e(id)}</h1>
<p class="caveat" role="note">${e(view.hypothesis)}</p>
<section aria-labelledby="facts"><h2 id="facts">Report</h2><dl>
${facts}
</dl></section>
<section aria-labelledby="narratives"><h2 id="narratives">Narratives</h2>
${narratives}
</section>
<section aria-labelledby="vaccines"><h2 id="vaccines">Vaccines</h2>
<div class="scroll" tabindex="0" role="region" aria-label="Vaccines (scrolls sideways)"><table><thead><tr><th>Name</th><th>Type</th><th>Manufacturer</th><th>Lot</th><th>Dose</th><th>Route</th><th>Site</th></tr></thead><tbody>
${vaccines}
</tbody></table></div></section>
<section aria-labelledby="events"><h2 id="events">Events (MedDRA terms)</h2><ul>
${events}
</ul></section>
<section aria-labelledby="duplicates"><h2 id="duplicates">Possible duplicates</h2>
${duplicatesHtml(view)}
</section>
<section aria-labelledby="analyses"><h2 id="analyses">Analyses keeping this report</h2>
<p>${view.analyses.length === 0 ? 'none' : view.analyses.map((a) => e(a)).join(', ')}</p></section>
<p><small>Data through ${e(shown(view.reports_through))}. <a href="/reports/${e(id)}?format=json">JSON</a></small></p>
</main></body></html>
`;
}
