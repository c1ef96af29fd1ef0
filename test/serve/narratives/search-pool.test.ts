/**
 * The text search off the event loop (src/serve/narratives/search-pool.ts) and the prefix caps of the
 * index (NarrativeIndex.tooBroad), issue 35: on a synthetic index whose search is costly by
 * construction (5,000 reports of about 2,000 characters, every one holding the words of 24
 * excluded phrases but none of the phrases, so that each phrase is verified against every text),
 * a search in the pool leaves the event loop free (`/healthz` answers while it runs), stops when
 * its signal aborts (an abandoned request) or at its deadline, and finds what the in-thread search
 * finds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Unavailable } from '../../../src/serve/query/unavailable.js';
import { buildApp } from '../../../src/http/app.js';
import { NarrativeIndex } from '../../../src/serve/narratives/index.js';
import { parseTextQuery, TEXT_EXPANSION_MAX_WORDS, TEXT_PREFIX_MAX_WORDS, type TextQuery } from '../../../src/serve/narratives/query.js';
import { searchOffThread, searchStats } from '../../../src/serve/narratives/search-pool.js';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz'.split('');
const LINE = Array.from({ length: 40 }, () => LETTERS.join(' ')).join(' ');
let heavy: NarrativeIndex;
/** `a b c` and 24 excluded phrases `-"a c" -"b d" ...`: none is in any text, each is checked against all 5,000. */
let costly: TextQuery;
let app: FastifyInstance;

function query(text: string): TextQuery {
  const parsed = parseTextQuery(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.query;
}

beforeAll(async () => {
  heavy = NarrativeIndex.build(Array.from({ length: 5000 }, (_, i) => ({ id: i + 1, fields: [LINE] })));
  costly = query(`a b c ${LETTERS.slice(0, 24).map((c, k) => `-"${c} ${LETTERS[k + 2]}"`).join(' ')}`);
  app = await buildApp({ storePath: null });
}, 60_000);
afterAll(async () => {
  await app?.close();
});

describe('NarrativeIndex.tooBroad: the prefix caps', () => {
  const words = (stem: string, n: number): string => Array.from({ length: n }, (_, i) => `${stem}${i}`).join(' ');
  const index = NarrativeIndex.build([
    { id: 1, fields: [words('za', TEXT_PREFIX_MAX_WORDS + 1), words('ya', 700)] },
    { id: 2, fields: [words('yb', 700), words('yc', 700), 'fever fevers feverish'] },
  ]);

  it('counts the vocabulary words of a prefix', () => {
    expect(index.prefixWords('za')).toBe(1001);
    expect(index.prefixWords('za1')).toBe(1 + 10 + 100 + 1);
    expect(index.prefixWords('fever')).toBe(3);
    expect(index.prefixWords('zz')).toBe(0);
  });

  it('refuses a prefix over 1000 words, and prefixes over 2000 words together, naming the limit', () => {
    expect(index.tooBroad(query('za* fever'))).toBe('text prefix za* matches 1001 distinct words of the narratives, over the limit of 1000 words per prefix: give it more letters');
    expect(index.tooBroad(query('fever -za*'))).toMatch(/^text prefix za\* matches 1001 /);
    expect(index.tooBroad(query('ya* yb* yc*'))).toBe(`text prefixes match 2100 distinct words of the narratives in all, over the limit of ${TEXT_EXPANSION_MAX_WORDS} words per text: give them more letters, or fewer prefixes`);
    expect(index.tooBroad(query('ya* yb* fever*'))).toBeNull();
    expect(index.tooBroad(query('za1* fever'))).toBeNull();
  });
});

describe('searchOffThread', () => {
  it('finds what the search in this thread finds', async () => {
    for (const text of ['a b c', '"a b c"', '"x y z" -"y z a"', 'k* l* m* -"a c"']) {
      expect(Array.from(await searchOffThread(heavy, query(text), null, Date.now() + 60_000))).toEqual(Array.from(heavy.search(query(text))));
    }
    const within = Int32Array.from([3, 10, 4999]);
    expect(Array.from(await searchOffThread(heavy, query('"w x y"'), within, Date.now() + 60_000))).toEqual([3, 10, 4999]);
  }, 60_000);

  it('leaves the event loop free: /healthz answers while a costly search runs, which then finds every report', async () => {
    let settled = false;
    const search = searchOffThread(heavy, costly, null, Date.now() + 120_000).finally(() => (settled = true));
    const health = await app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ ok: true });
    expect(settled).toBe(false);
    expect((await search).length).toBe(5000);
  }, 120_000);

  it('stops a running search when its signal aborts (an abandoned request), with the signal\'s reason', async () => {
    const before = { ...searchStats };
    const controller = new AbortController();
    const reason = new Unavailable('cancelled', 'the client closed the connection before its answer');
    const search = searchOffThread(heavy, costly, null, Date.now() + 120_000, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort(reason);
    await expect(search).rejects.toBe(reason);
    // The worker saw the flag between two steps and gave up: counted as cancelled, not found.
    expect(searchStats.cancelled).toBe(before.cancelled + 1);
    expect(searchStats.found).toBe(before.found);
  }, 120_000);

  it('stops at its deadline with Unavailable `deadline`; an aborted signal refuses at once', async () => {
    const before = searchStats.deadline;
    await expect(searchOffThread(heavy, costly, null, Date.now() + 50)).rejects.toMatchObject({
      why: 'deadline', message: 'the text search took longer than its time budget and was stopped; retry later, or narrow the query',
    });
    expect(searchStats.deadline).toBe(before + 1);
    const reason = new Unavailable('cancelled', 'gone');
    await expect(searchOffThread(heavy, costly, null, Date.now() + 60_000, AbortSignal.abort(reason))).rejects.toBe(reason);
  }, 120_000);
});
