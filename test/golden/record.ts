/**
 * Recorder of the golden test: runs every request of requests.ts against the current code and
 * writes test/golden/golden.json. Run it only on code whose behaviour is the reference
 * (`npx tsx test/golden/record.ts`), then commit golden.json; golden.test.ts replays it.
 * With `--out FILE` it writes elsewhere (to compare two recordings for determinism).
 */
import { writeFileSync } from 'node:fs';
import { defaultStorePath } from '../../src/cache/default-store.js';
import { GOLDEN_FILE, startGoldenHarness, uniqueNames, type GoldenEntry, type GoldenFile } from './harness.js';
import { GOLDEN_REQUESTS } from './requests.js';

const NOTE =
  'Golden answers of the pre-refactor code (issue 9), re-recorded once for the analyses (issue 10) after checking that ' +
  'only the intended answers changed: the X-REPORTS-Analysis header (new) and its name in Access-Control-Expose-Headers, ' +
  'and the bodies of /openapi.json, /llms.txt and /.well-known/api-catalog (the analyses, then the case series, documented); every /signals body ' +
  'stayed byte-identical on the six-analysis embedded default; re-recorded for issue 13 where only these bodies changed: ' +
  '/openapi.json (the new resources /vaccines, /readyz, /metrics; operationId, servers, security, license, the 431/400 Error ' +
  'responses of every operation), /llms.txt and /.well-known/api-catalog (/vaccines and the operations notes); re-recorded for the ' +
  'agencies\' strata (sex x AGE_GROUP_6 x year, the calculated age, GET /analyses/NAME with its fits) where only these changed: /openapi.json ' +
  '(GET /analyses/{analysis}, strata, age_source, the age subsets\' rules), /llms.txt (the same) and the explorer\'s js/api.js; every ' +
  '/signals body stayed byte-identical (the default analysis is crude); re-recorded for the narratives where only these bodies changed: /openapi.json and /llms.txt (text on /cases, /reports/{vaers_id}), the explorer page, explorer.css and js/app.js (the search box); re-recorded for issue 35 (the cost of a request) where only /openapi.json (a 503 with Retry-After on every operation, the text limits) and /llms.txt changed. ' +
  're-recorded after the round of issues 28, 30, 31 and 35 where no /signals, /cases, /pipeline or error body changed and only these did: /triage (issue 31: ' +
  'cautions, related events, distinct cases, caution_codes; the caveat called hypothesis), /analyses (the VAERS code item kind named vax_type_code), ' +
  '/openapi.json and /llms.txt, /.well-known/api-catalog (the seven APIs from the routes, relative links), explorer.css, POST /openapi.json (405 for every ' +
  'GET path), OPTIONS without Access-Control-Request-Method (a 400 Error object); headers: nosniff everywhere, CSP on the explorer. Re-recorded after the round of issues 29, 32, 33, 34 and 36 where no /signals, /cases, /pipeline or error body changed and only these did: /triage (event_groups of each term pair, a last CSV column; n_cases of the new linkage), /analyses (the groups analysis, the linkage figures), the 404 allowed list (groups), /openapi.json and /llms.txt (interactions, masking, export, n_cases, event groups, readiness), /.well-known/api-catalog (/interactions, /masking, /export), the explorer page, explorer.css and js/app.js. Re-recorded for issue 45 where only these changed: the Query line of /signals format=brief (the query escaped as the /pipeline brief escapes, e.g. ROTAVIRUS \\(ROTASHIELD\\)), /openapi.json and /llms.txt (the CSV rule, limits and 503 of the export). Re-recorded for issue 42 (triage third round) where only /triage (failure shares, co-reported vaccine types, post_withdrawal and stimulated cautions, special_interest, event-group folding), /interactions (cautions, omega_age, cautioned triples last), /openapi.json and /llms.txt changed. Re-recorded once after merging the round of issues 41 to 47, where only the explorer\'s js/app.js changed beyond what the branches recorded (the product suggestions read the vaccines of the analysis the page shows). Written by `npx tsx test/golden/record.ts` and replayed by ' +
  'test/golden/golden.test.ts. Headers that vary between runs or code versions are not recorded (harness.ts ' +
  'VOLATILE_HEADERS); bodies of 2048 bytes or more are recorded as sha256, byte length and the first 300 characters. Re-recorded for issue 47 (event groups version 2, re-read against their sources) where only /analyses (the event_groups of the groups analysis: terms, scopes, sources) and /triage?quarter=1999Q3 (the event_groups each pair lists) changed. ' +
  'Re-recorded for issue 43 round 3 (duplicate linkage: the batch veto, the one-visit exception, threshold 23 bits; 1,657 clusters) where only /analyses (linkage figures and linkage.measured), the three /triage answers (n_cases) and /openapi.json (HEAD and GET, the linkage.measured description) changed. ' +
  'Re-recorded when linkage.measured stopped serving a figure of nothing read (n 0) as value 1 over [0, 1]: null now; only /analyses and /openapi.json (the description) changed.' +
  ' Re-recorded for issue 43 round 4 (linkage rules frozen at a5d997f: other lots veto one visit, group wording with two numbers of one sender, letter suffixes, the batch rule; 1,218 clusters) where only /analyses (linkage figures, linkage.measured with measured-04 as tuning), two /triage answers (n_cases) and /openapi.json (HEAD, GET and ?x=1: the linkage.measured description) changed. ' +
  'Re-recorded for issue 41 round 4 (the triage evidence computed for the flagged rows only, null for the other stored rows): only /openapi.json and /llms.txt (the quarterly export\'s description) changed; every /triage answer stayed byte-identical. ' +
  'Re-recorded when round 4\'s blind readings of issue 43 were imported (250 fresh pairs, 60 random clusters): only /analyses (linkage.measured) changed besides the two sentences above. ' +
  'Re-recorded when the six disagreements of the fresh second reading were resolved by a blind third reader: only /analyses (linkage.measured) changed. ' +
  'Re-recorded for issue 43 round 5 (linkage rules frozen at d9f278d: the episode veto, one measure alone, a lot within another, the same lots as one vaccination; 1,223 clusters; round 5 measured, earlier rounds post hoc) where only /analyses (linkage figures and linkage.measured) and /openapi.json (HEAD, GET and ?x=1: the linkage.measured description, now naming no round) changed; every /triage answer stayed byte-identical.' +
  ' Re-recorded for issue 43 rounds 5 and 6 (rules frozen at 24041f8: the batch, numbered-patients, two-doses and group-wording rules, a case number shared by over 20 reports ignored; 1,184 clusters) where only /analyses (linkage figures and linkage.measured with kappa_measured), /openapi.json (the linkage.measured description) and two /triage answers of 2006Q4 (distinct cases counted from the clusters) changed; every other answer byte-identical after issue 41\'s fifth round (narratives in a scratch file, row batches, file-backed text index).' +
  ' Re-recorded for issue 43 round 7 (rules frozen at e2e2057: thin links need 40 bits, the doses veto, "in some cases"; 1,065 clusters; round 7 measured, rounds 1-6 post hoc) where only /analyses (linkage figures and linkage.measured with the _round_6 keys) and /openapi.json (HEAD, GET and ?x=1: the linkage.measured description) changed; every /triage answer stayed byte-identical.' +
  ' Re-recorded after round 7\'s blind readings were imported (and the rows and read merges of issue 41, which changed no answer): only /analyses (linkage.measured with round 7\'s figures) changed.' +
  ' Re-recorded for issue 43 round 8 (rules frozen at 8da6346: a link under 31 bits must pin the person; 967 clusters; round 8 measured, rounds 1-7 post hoc): /analyses (linkage figures, the unpinned veto count, linkage.measured with the _round_7 keys), /openapi.json (HEAD, GET and ?x=1: the schema\'s description of linkage.measured) and /triage?quarter=1999Q3&limit=20 (its pairs\' n_cases: distinct cases counted over the new clusters) changed; no other answer.' +
  ' Re-recorded after round 8\'s blind readings were imported (and the read8 and serve8 merges of issue 41, which changed no answer): only /analyses (linkage.measured with round 8\'s figures) changed.' +
  ' Re-recorded for issue 43 round 9 (rules frozen at 67ffa82: the case labels, PRIOR_VAX, RPT_DATE, numbers and HISTORY of a batch\'s forms, a sibling in one side\'s HISTORY or PRIOR_VAX; 951 clusters; round 9 measured, rounds 1-8 post hoc): /analyses (linkage figures, the numbered and prior veto counts, linkage.measured with the _round_8 keys), /openapi.json (HEAD, GET and ?x=1: the schema\'s description of the _round_8 keys) and /triage?quarter=1999Q3 (the folded counts of the 951 clusters) changed.';

/** Records every golden request; returns the document written. */
export async function record(out: string = GOLDEN_FILE): Promise<GoldenFile> {
  const names = uniqueNames(GOLDEN_REQUESTS);
  // The default store, as `serve` without --store builds it (found in the cache when built already).
  const store = await defaultStorePath();
  const harness = await startGoldenHarness(store);
  const entries: GoldenEntry[] = [];
  try {
    for (const [i, request] of GOLDEN_REQUESTS.entries()) {
      entries.push({ name: names[i], request, response: await harness.capture(request) });
    }
  } finally {
    await harness.close();
  }
  const doc: GoldenFile = { note: NOTE, entries };
  writeFileSync(out, `${JSON.stringify(doc, null, 1)}\n`);
  return doc;
}

const at = process.argv.indexOf('--out');
const doc = await record(at >= 0 ? process.argv[at + 1] : GOLDEN_FILE);
const statuses = new Map<number, number>();
for (const e of doc.entries) statuses.set(e.response.status, (statuses.get(e.response.status) ?? 0) + 1);
console.log(`${doc.entries.length} requests recorded; statuses: ${[...statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s} x${n}`).join(', ')}`);
