/**
 * GET /signals formats (spec 4.1 success responses; objects of spec 2.2, 2.3, 2.4), at both
 * places the /signals contract is served (SIGNALS_PATHS: /signals and /analyses/NAME/signals).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { PAIR_FIELDS } from '../../src/serve/signals/pair.js';
import { csvCell } from '../../src/domain/csv-cell.js';
import { GARDASIL9, MODERNA, PFIZER, RASH, SHINGRIX, TENIVAC, ZOSTAVAX } from '../serve/signals/fixture.js';
import { fixtureApp, getJson, keys, SIGNALS_PATHS } from './helpers.js';

/** Minimal RFC 4180 parser for the test: quoted fields, doubled quotes, CRLF records. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { record.push(field); field = ''; } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field); records.push(record); record = []; field = ''; i++;
    } else field += c;
  }
  return records;
}

describe('spec 4.1 format=csv: the field rule (csvCell)', () => {
  it('quotes fields with comma, quote, CR or LF; doubles quotes; null is empty', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(2.5)).toBe('2.5');
  });

  it('neutralises a string cell a spreadsheet would read as a formula (=, +, -, @, tab, CR first): a leading quote', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('+swelling')).toBe("'+swelling");
    expect(csvCell('-1+1')).toBe("'-1+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes numbers and booleans as they are: a negative number the program computed is not text (-1.5 stays -1.5)', () => {
    expect(csvCell(-1.5)).toBe('-1.5');
    expect(csvCell(-0.25)).toBe('-0.25');
    expect(csvCell(false)).toBe('false');
    expect(csvCell('-1.5')).toBe("'-1.5");
  });
});

describe.each(SIGNALS_PATHS)('GET $path', ({ path, analyses }) => {
  let app: FastifyInstance;
  beforeAll(async () => { app = await fixtureApp({ analyses }); });
  afterAll(async () => { await app.close(); });

  describe('spec 4.1 format=json (default)', () => {
    it('an array of Pair with exactly the 2.1 fields', async () => {
      const { res, body } = await getJson(app, `${path}?vaccine=ZOSTER`);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(body).toHaveLength(2);
      for (const p of body) expect(Object.keys(p)).toEqual(PAIR_FIELDS);
      expect((await app.inject(`${path}?vaccine=ZOSTER&format=json`)).body).toBe(res.body);
    });
  });

  describe('spec 4.1 format=csv: RFC 4180, header row, same columns as JSON, current page', () => {
    it('header row and the same values as the JSON page', async () => {
      const res = await app.inject(`${path}?vaccine=HPV9&format=csv&limit=3&offset=1`);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.body.endsWith('\r\n')).toBe(true);
      const [header, ...rows] = parseCsv(res.body);
      expect(header).toEqual(PAIR_FIELDS);
      const json = (await getJson(app, `${path}?vaccine=HPV9&limit=3&offset=1`)).body;
      expect(rows).toHaveLength(3);
      rows.forEach((row, i) => {
        expect(row).toEqual(PAIR_FIELDS.map((f) => (json[i][f] === null ? '' : String(json[i][f]))));
      });
      expect(rows.map((r) => r[4])).toContain(RASH); // comma and quotes survive the round trip
    });

    it('an empty match is the header row alone', async () => {
      const res = await app.inject(`${path}?vaccine=NOSUCH&format=csv`);
      expect([res.statusCode, res.body]).toEqual([200, `${PAIR_FIELDS.join(',')}\r\n`]);
    });
  });

  describe('spec 2.3 format=series', () => {
    it('the pair with the highest peak EB05 among the matches, quarters ascending with the 2.3 fields', async () => {
      const { body } = await getJson(app, `${path}?vaccine=COVID19&event=Myocarditis&format=series`);
      expect(body).toMatchObject({ vaccine: PFIZER, drug: PFIZER, vax_type: 'COVID19', event: 'Myocarditis', reports_through: '2023Q4', hypothesis: HYPOTHESIS, n_pairs_matched: 2 });
      expect(typeof body.note).toBe('string');
      expect(body.quarters.map((q: { quarter: string }) => q.quarter)).toEqual(['2020Q4', '2021Q1', '2021Q2', '2021Q3', '2021Q4', '2022Q1']);
      expect(Object.keys(body.quarters[0])).toEqual(['quarter', 'n', 'eb05', 'eb50', 'eb95', 'prr', 'ror', 'ic', 'ic025', 'n_methods_flagged', 'is_signal_any']);
      expect(body.quarters[3]).toEqual({ quarter: '2021Q3', n: 30, eb05: 5, eb50: 5.5, eb95: 7, prr: 2.5, ror: 2.6, ic: 1.1, ic025: 0.3, n_methods_flagged: 4, is_signal_any: true });
    });

    it('q alone selects the series too; X-Total-Count is the number of matched pairs', async () => {
      const { body, res } = await getJson(app, `${path}?q=zoster&format=series`);
      expect([body.vaccine, body.n_pairs_matched, res.headers['x-total-count']]).toEqual([SHINGRIX, 2, '2']);
    });

    it('no match: 200, n_pairs_matched 0 and an empty quarters list', async () => {
      const { status, body } = await getJson(app, `${path}?vaccine=NOSUCH&event=Nothing&format=series`);
      expect([status, body.n_pairs_matched, body.quarters]).toEqual([200, 0, []]);
    });

    it('no match: the names are empty strings (not the query), the note says no pair matched and repeats the query', async () => {
      const { body } = await getJson(app, `${path}?q=zzzzqq&format=series`);
      expect(body).toMatchObject({ vaccine: '', drug: '', vax_type: '', event: '', n_pairs_matched: 0, quarters: [] });
      expect(body.note).toBe('No pair matched the query (q="zzzzqq"): vaccine, drug, vax_type and event are empty strings and quarters is empty.');
      const pair = (await getJson(app, `${path}?vaccine=NOSUCH&event=Myocarditis&min_n=5&format=series`)).body;
      expect([pair.vaccine, pair.event]).toEqual(['', '']);
      expect(pair.note).toMatch(/^No pair matched the query \(vaccine="NOSUCH", event="Myocarditis", min_n=5\)/);
    });

    it('ic025 is present only when the store has that column', async () => {
      const noIc = await fixtureApp({ hasIc025: false, analyses });
      const { body } = await getJson(noIc, `${path}?vaccine=ZOS&event=Herpes+zoster&format=series`);
      expect(body.quarters).toHaveLength(2);
      for (const q of body.quarters) expect(q).not.toHaveProperty('ic025');
      await noIc.close();
    });
  });

  describe('spec 2.2 format=profile', () => {
    it('kind from the filters given: vaccine, event, pair; pairs is the page', async () => {
      const v = (await getJson(app, `${path}?vaccine=HPV9&format=profile&limit=2`)).body;
      expect(v).toMatchObject({ query: 'HPV9', kind: 'vaccine', reports_through: '2023Q4', n_pairs: 4, returned: 2, hypothesis: HYPOTHESIS });
      expect(keys(v.pairs)).toEqual([`${GARDASIL9}|Syncope`, `${GARDASIL9}|Syncope vasovagal`]);
      expect((await getJson(app, `${path}?event=Herpes+zoster&format=profile`)).body.kind).toBe('event');
      const pair = (await getJson(app, `${path}?vaccine=COVID19&event=Myocarditis&format=profile`)).body;
      expect([pair.kind, pair.query, pair.n_pairs]).toEqual(['pair', 'COVID19 x Myocarditis', 2]);
      expect((await getJson(app, `${path}?q=syncope&format=profile`)).body.kind).toBe('event');
      expect((await getJson(app, `${path}?q=zostavax&format=profile`)).body.kind).toBe('vaccine');
    });
  });

  describe('spec 2.4 format=class', () => {
    it('every product of the vaccine type of `vaccine`', async () => {
      const { body } = await getJson(app, `${path}?vaccine=${encodeURIComponent(ZOSTAVAX)}&format=class`);
      expect(body).toMatchObject({ vax_type: ['ZOSTER'], vaccines: [SHINGRIX, ZOSTAVAX], event: null, reports_through: '2023Q4', n_pairs: 2, hypothesis: HYPOTHESIS });
      expect(keys(body.pairs)).toEqual([`${SHINGRIX}|Herpes zoster`, `${ZOSTAVAX}|Herpes zoster`]);
    });

    it('the q seed, with an optional event', async () => {
      const { body } = await getJson(app, `${path}?q=moderna&format=class&event=Myocarditis`);
      expect(body).toMatchObject({ vax_type: ['COVID19'], vaccines: [MODERNA, PFIZER], event: 'Myocarditis', n_pairs: 2 });
      expect(keys(body.pairs)).toEqual([`${PFIZER}|Myocarditis`, `${MODERNA}|Myocarditis`]);
    });

    it('an unknown vaccine: an empty class', async () => {
      const { status, body } = await getJson(app, `${path}?vaccine=NOSUCH&format=class`);
      expect([status, body.vaccines, body.pairs, body.n_pairs]).toEqual([200, [], [], 0]);
    });
  });

  describe('spec 4.1 format=brief: text/plain Markdown', () => {
    it('hypothesis, filters (none), rows left out by filters and page, the n / n_unique note', async () => {
      const res = await app.inject(`${path}?vaccine=td&format=brief&limit=2`);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toContain(HYPOTHESIS);
      expect(res.body).toContain('Filters: none');
      expect(res.body).toMatch(/left out by the filters: 0/);
      expect(res.body).toMatch(/rows 1 to 2 of 3 .*left out by this page: 1/);
      expect(res.body).toMatch(/not a count of unique reports/);
      expect(res.body).toMatch(/n_unique.*not in the extract/);
      expect(res.body).toContain(`| ${TENIVAC} | Injection site pain |`);
    });

    it('lists the filters and how many rows they left out', async () => {
      const res = await app.inject(`${path}?vaccine=COVID19&format=brief&min_eb05=4.5&min_n=10`);
      expect(res.body).toContain('- Query: vaccine=COVID19\n');
      expect(res.body).toContain('- Filters: min_eb05 >= 4.5, min_n >= 10\n');
      expect(res.body).toMatch(/Pairs matched by the query: 3; left out by the filters: 2; remaining: 1/);
    });

    it('every filter applied is listed: the query filters on the Query line, the thresholds on the Filters line', async () => {
      const a = (await app.inject(`${path}?drug=COVID19&event=myo&format=brief`)).body;
      expect(a).toContain('- Query: vaccine=COVID19, event=myo\n');
      expect(a).toContain('- Filters: none (no min_eb05 or min_n threshold)\n');
      expect(a).toMatch(/Pairs matched by the query: 2; left out by the filters: 0; remaining: 2/);
      const b = (await app.inject(`${path}?q=zoster&format=brief&min_n=7`)).body;
      expect(b).toContain('- Query: q=zoster\n');
      expect(b).toContain('- Filters: min_n >= 7\n');
      expect(b).not.toContain('Filters: none');
      expect(b).toMatch(/Pairs matched by the query: 2; left out by the filters: 1; remaining: 1/); // Zostavax n 6 < 7
    });
  });
});
