/**
 * The answer cache of /signals (speed): a cached answer is byte-for-byte the uncached
 * one (status, headers, body), for every format; the LRU stays within its bound.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { SizedLru } from '../../../src/serve/query/lru.js';
import { SignalsService } from '../../../src/serve/signals/service.js';
import { writeFixtureStore } from './fixture.js';

const QUERIES = [
  'vaccine=COVID19', 'vaccine=covid19&sort=n&order=asc', 'event=myo', 'q=zoster&limit=1&offset=1', 'q=HPV9&format=csv',
  'vaccine=HPV&format=brief&min_eb05=2', 'vaccine=ZOSTER&format=class', 'q=Myocarditis&format=series',
  'vaccine=COVID19+(COVID19+(PFIZER-BIONTECH))&event=Myocarditis&format=series', 'event=pain&format=profile&min_n=5',
  'vaccine=NO+SUCH', 'q=ab', 'format=label', 'vaccine=TD&sort=latest',
];

describe('answer cache: the cached answer equals the uncached one', () => {
  let cached: SignalsService;
  let uncached: SignalsService;
  beforeAll(async () => {
    const path = await writeFixtureStore();
    cached = await SignalsService.open(path);
    uncached = await SignalsService.open(path, { answerCacheBytes: 0 });
  });

  it('every format and error, asked three times, in two orders of parameters', () => {
    for (const query of QUERIES) {
      const reference = uncached.answer(query);
      for (let i = 0; i < 3; i++) expect(cached.answer(query), query).toEqual(reference);
      const reordered = query.split('&').reverse().join('&');
      expect(cached.answer(reordered), reordered).toEqual(reference);
    }
  });
});

describe('SizedLru', () => {
  it('evicts the least recently used entries past its bound and never keeps an oversize entry', () => {
    const lru = new SizedLru<string>(100, 60);
    lru.set('a', 'A', 40);
    lru.set('b', 'B', 40);
    expect(lru.get('a')).toBe('A'); // a is now the most recent
    lru.set('c', 'C', 40); // 120 > 100: b goes
    expect(lru.get('b')).toBeUndefined();
    expect([lru.get('a'), lru.get('c')]).toEqual(['A', 'C']);
    expect(lru.totalSize).toBe(80);
    lru.set('big', 'X', 61);
    expect(lru.get('big')).toBeUndefined();
    lru.set('a', 'A2', 10);
    expect([lru.get('a'), lru.totalSize, lru.size]).toEqual(['A2', 50, 2]);
  });
});
