/**
 * Spec 4.1 "Other readable resources": the plain-text notes at /llms.txt carry the content of
 * the specification, section by section. The lists checked come from /openapi.json and the
 * parameter registry (so a new field, parameter, header or status that the notes miss fails
 * here), plus the spec's own statements (sections 1, 2.6, 5, 7, 8, 9) and each "not shown".
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HEADER_SIZE } from '../../src/http/app.js';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { FORMATS, SIGNALS_PARAMETERS } from '../../src/serve/signals/parameters.js';
import { RESOURCE_NOTES } from '../../src/http/notes-resources.js';
import { fixtureApp, getJson } from './helpers.js';

let app: FastifyInstance;
let notes: string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let doc: any;
beforeAll(async () => {
  app = await fixtureApp();
  const res = await app.inject('/llms.txt');
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  notes = res.body;
  doc = (await getJson(app, '/openapi.json')).body;
});
afterAll(async () => { await app.close(); });

/** The text of section `heading` (a Markdown heading line) up to the next heading of its level or above. */
function section(heading: string): string {
  const start = notes.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const level = heading.split(' ')[0];
  const rest = notes.slice(start + heading.length + 2);
  const next = rest.search(new RegExp(`\\n#{1,${level.length}} `));
  return next < 0 ? rest : rest.slice(0, next);
}

describe('/llms.txt and the OpenAPI descriptions come from one source', () => {
  it('each resource note is its section of /llms.txt and the description of its routes in /openapi.json', () => {
    const operations: Array<[string, string]> = [
      ['/analyses', '4.3'], ['/cases', '4.4'], ['/analyses/{analysis}/cases', '4.4'], ['/vaccines', '4.5'], ['/analyses/{analysis}/vaccines', '4.5'],
      ['/reports/{vaers_id}', '4.7'], ['/triage', '4.8'], ['/analyses/{analysis}/triage', '4.8'],
    ];
    for (const n of RESOURCE_NOTES) expect(section(`### ${n.section} ${n.title}`).trim()).toBe(n.body().trim());
    for (const [path, at] of operations) {
      const note = RESOURCE_NOTES.find((n) => n.section === at)!;
      expect(doc.paths[path].get.description, path).toBe(note.body());
    }
  });
});

describe('spec 4.1: /llms.txt has the content of the specification', () => {
  it('every section of the spec, 1 to 9', () => {
    for (const h of ['## 1. What the service does', '## 2. Resources and their fields', '### 2.1 Pair', '### 2.2 Profile object (format=profile)',
      '### 2.3 Series object (format=series)', '### 2.4 Class object (format=class)', '### 2.5 Error object', '### 2.6 Pipeline response',
      '## 3. States and transitions', '## 4. Endpoints', '### 4.1 GET /signals', '### 4.2 GET /pipeline', '## 5. Authentication', '## 6. Events',
      '## 7. Errors', '## 8. Limits', '## 9. Versioning']) section(h);
  });

  it('spec 2.1-2.5: every field of every schema, in its section, with type, nullability and a meaning', () => {
    const s = doc.components.schemas;
    const where: Array<[string, string]> = [['Pair', '### 2.1 Pair'], ['Profile', '### 2.2 Profile object (format=profile)'], ['Series', '### 2.3 Series object (format=series)'],
      ['Quarter', '### 2.3 Series object (format=series)'], ['Class', '### 2.4 Class object (format=class)'], ['Error', '### 2.5 Error object']];
    for (const [name, heading] of where) {
      const text = section(heading);
      const fields = Object.keys(s[name].properties);
      expect(fields.length).toBeGreaterThan(3);
      for (const field of fields) {
        const row = text.split('\n').find((line) => line.startsWith(`| ${field} | `));
        expect(row, `${name}.${field}`).toBeDefined();
        const [, type, nullable, required, meaning] = row!.split(' | ').map((c) => c.trim());
        expect(type, `${name}.${field}`).toMatch(/string|integer|number|boolean|array|object/);
        expect(nullable).toBe(s[name].properties[field].nullable ? 'yes' : 'no');
        expect(required).toBe((s[name].required ?? []).includes(field) ? 'yes' : 'no');
        expect(meaning.replace(/\|$/, '').trim().length, `${name}.${field} meaning`).toBeGreaterThan(3);
      }
    }
  });

  it('spec 4.1: every parameter with its default and bounds, every format, every header', () => {
    const text = section('### 4.1 GET /signals');
    for (const p of doc.paths['/signals'].get.parameters) {
      const row = text.split('\n').find((line) => line.startsWith(`| ${p.name} | `));
      expect(row, p.name).toBeDefined();
      expect(row).toContain(` | ${p.schema.default ?? 'none'} | `);
      for (const v of p.schema.enum ?? []) expect(row, `${p.name}=${v}`).toContain(v);
      if (p.schema.maximum !== undefined) expect(row).toContain(`${p.schema.minimum} to ${p.schema.maximum}`);
    }
    expect(doc.paths['/signals'].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual(SIGNALS_PARAMETERS.map((p) => p.name).sort());
    for (const f of FORMATS) expect(text).toMatch(new RegExp(`\\n\\| ${f}( \\(or omitted\\))? \\| (application/json|text/csv|text/plain) \\| `));
    for (const h of Object.keys(doc.paths['/signals'].get.responses['200'].headers)) expect(text, h).toContain(`| ${h} | `);
    expect(text).toContain('+` means a space');
    expect(text).toMatch(/At least one of `vaccine` \(or `drug`\), `event`, `q`/);
  });

  it('spec 7: every error condition and status of /signals and /pipeline', () => {
    const text = section('## 7. Errors');
    for (const status of Object.keys(doc.paths['/signals'].get.responses).filter((s) => s !== '200')) expect(text, status).toContain(status);
    for (const status of Object.keys(doc.paths['/pipeline'].get.responses).filter((s) => s !== '200')) expect(text, status).toContain(status);
    for (const condition of ['None of vaccine, drug, event, q given', 'vaccine and drug both given and different', 'too short', 'Unknown format (including label and pdf)',
      'sort=trend', 'min_eb05 or min_n not a number', 'min_eb05 below 0', 'Unknown vaccine or event | 200', 'min_n below 0', 'limit outside 1..500',
      'offset below 0', 'unknown sort', 'more than once', 'unknown parameter', '405', 'Allow: GET, HEAD', '404', 'Unknown sponsor | 200',
      'does not respond | 503', 'returns an error', 'no trial identifiers', 'sponsor missing', 'error bodies use the Error object fields']) {
      expect(text, condition).toContain(condition);
    }
  });

  it('spec 1, 2.6, 5, 8, 9 statements and our choice for each "not shown"', () => {
    expect(section('## 1. What the service does')).toContain(HYPOTHESIS);
    for (const s of ['regulatory label status', 'novelty flags', 'ATC class', 'PDF output', 'trial-registry join', 'trend derivation', 'n_unique', 'background=no_covid', '`ebgm`', '`eb50`', 'registry facts, not efficacy or safety conclusions']) {
      expect(section('## 1. What the service does'), s).toContain(s);
    }
    const pipeline = section('### 2.6 Pipeline response');
    for (const s of ['registry total for the chosen role', 'unknown sponsor', 'which role the sponsor holds', 'cover only the studies in that response']) expect(pipeline, s).toContain(s);
    expect(section('## 3. States and transitions')).toContain('Not shown in the specification');
    expect(section('## 5. Authentication')).toMatch(/no API key[\s\S]*Access-Control-Allow-Origin: \*[\s\S]*Access-Control-Expose-Headers[\s\S]*GET \/pipeline: not shown/);
    expect(section('## 6. Events')).toContain('Not shown in the specification');
    const limits = section('## 8. Limits');
    for (const s of ['| limit maximum | 500 | signals |', '| limit maximum | 200 | pipeline |', '| offset default | 0 | signals |', '3 characters', 'public, max-age=60',
      'Rate limits: not shown', 'limit outside its bounds: not shown', `${MAX_HEADER_SIZE / 1024} KiB`]) expect(limits, s).toContain(s);
    const versioning = section('## 9. Versioning');
    for (const s of ['1.0.0', 'no version segment', 'X-REPORTS-Build', 'deprecation policy: not shown']) expect(versioning, s).toContain(s);
    const pipelineEndpoint = section('### 4.2 GET /pipeline');
    for (const p of Object.keys(doc.paths['/pipeline'].get.parameters ? Object.fromEntries(doc.paths['/pipeline'].get.parameters.map((x: { name: string }) => [x.name, 1])) : {})) {
      expect(pipelineEndpoint, p).toContain(`| ${p} | `);
    }
    expect(pipelineEndpoint).toMatch(/Not shown in the specification, our choices/);
  });
});
