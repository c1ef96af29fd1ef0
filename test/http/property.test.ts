/**
 * Property test (spec 7 "never a server error"): at least 10,000 random and hostile
 * query strings (unicode, %00, 10k-character values, SQL-like text, malformed escapes,
 * repeated and empty parameters) against GET /signals: never a 5xx; every 400 an Error object
 * (spec 2.5) with `hypothesis`; every 200 carries the 4.1 headers.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HYPOTHESIS } from '../../src/serve/query/caveats.js';
import { SIGNALS_PARAMETERS } from '../../src/serve/signals/parameters.js';
import { fixtureApp } from './helpers.js';

let app: FastifyInstance;
beforeAll(async () => { app = await fixtureApp(); });
afterAll(async () => { await app.close(); });

const NAMES = SIGNALS_PARAMETERS.map((p) => p.name);
const HOSTILE = [
  '', ' ', '+', '%00', 'a%00b', '%', '%zz', '%E2%82', '%ED%A0%80', "'; DROP TABLE quarterly; --", "' OR 1=1 --", '" OR ""="',
  '%27%20OR%201%3D1', 'a'.repeat(10_000), 'COVID19', 'covid19', 'HPV9', 'td', 'Myocarditis', 'Herpes+zoster', 'label', 'pdf',
  'trend', 'json', 'csv', 'series', 'profile', 'brief', 'class', 'asc', 'desc', '-1', '0', '1', '500', '501', '1e308', '-0',
  'NaN', 'Infinity', '9'.repeat(400), '0x1F', '１２', '💉', '\u202e', '\ud800', '<script>alert(1)</script>', '../../etc/passwd',
  '${jndi:ldap://x}', '%2525', '&', '=', '[]', '{}', 'null', 'undefined', '__proto__', 'constructor',
];

/** Percent-encodes text; lone surrogates (not encodable) are dropped: '%ED%A0%80' covers them. */
const enc = (v: string) => encodeURIComponent(Array.from(v).filter((c) => !/^[\ud800-\udfff]$/.test(c)).join(''));

const value = fc.oneof(
  fc.constantFrom(...HOSTILE).map((v) => ({ raw: v })),
  fc.string({ maxLength: 40 }).map((v) => ({ raw: enc(v) })),
  fc.string({ unit: 'binary', maxLength: 40 }).map((v) => ({ raw: enc(v) })),
  fc.constantFrom(...HOSTILE).map((v) => ({ raw: enc(v) })),
  fc.integer({ min: -1000, max: 100_000 }).map((n) => ({ raw: String(n) })),
  fc.double({ noNaN: false }).map((n) => ({ raw: String(n) })),
).map((v) => v.raw);

const name = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...NAMES) },
  { weight: 1, arbitrary: fc.constantFrom('background', 'n_unique', 'Vaccine', '', '%00', '__proto__', 'vaccine[]') },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }).map(enc) },
);

const query = fc.array(fc.tuple(name, value, fc.boolean()), { maxLength: 8 }).map((params) =>
  params.map(([n, v, bare]) => (bare && v === '' ? n : `${n}=${v}`)).join('&'),
);

describe('property: hostile query strings never give a 5xx (spec 7, 2.5)', () => {
  it('10,000 random queries: 200 with headers, or 4xx with an Error object carrying hypothesis', async () => {
    let ok = 0;
    let bad = 0;
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const res = await app.inject({ method: 'GET', url: `/signals?${q}` });
        expect(res.statusCode, q.slice(0, 200)).toBeLessThan(500);
        expect(res.headers['access-control-allow-origin']).toBe('*');
        if (res.statusCode === 200) {
          ok++;
          expect(res.headers['x-total-count']).toMatch(/^\d+$/);
          expect(res.headers['x-reports-hypothesis']).toBe(HYPOTHESIS);
          expect(res.headers['cache-control']).toBe('public, max-age=60');
        } else {
          bad++;
          expect(res.statusCode).toBe(400);
          const body = JSON.parse(res.body);
          expect(typeof body.error).toBe('string');
          expect(body.hypothesis).toBe(HYPOTHESIS);
        }
      }),
      { numRuns: 10_000 },
    );
    expect(ok + bad).toBe(10_000);
    expect(ok).toBeGreaterThan(100); // the generator reaches real answers too
  });
});
