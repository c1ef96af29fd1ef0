import { describe, expect, it } from 'vitest';
import { advancedFilter, ctgovOptionsFromEnv, readPage, studiesParams } from '../../../src/serve/pipeline/ctgov.js';
import { containsWords, roleInStudy, words } from '../../../src/serve/pipeline/match.js';
import { prefersHtml } from '../../../src/serve/query/negotiate.js';
import { parseLimit, parsePipelineQuery, parseStatus, type PipelineQuery } from '../../../src/serve/pipeline/params.js';
import { escapeMarkdown } from '../../../src/serve/query/markdown.js';
import { redactTrialIds } from '../../../src/serve/pipeline/service.js';

describe('sponsor words (spec 4.2: a family name that contains it counts)', () => {
  it('words are case-, accent- and punctuation-insensitive', () => {
    expect(words('  Hôpitaux de Paris, (AP-HP) ')).toEqual(['hopitaux', 'de', 'paris', 'ap', 'hp']);
    expect(words('Merck Sharp & Dohme LLC')).toEqual(['merck', 'sharp', 'dohme', 'llc']);
  });
  it.each([
    ['Pfizer', 'Pfizer', true],
    ['Pfizer Inc.', 'Pfizer', true],
    ['PFIZER', 'pfizer', true],
    ['Pfizerville Biologics', 'Pfizer', false],
    ['Wyeth', 'Pfizer', false],
    ['Merck Sharp & Dohme LLC', 'Merck Sharp & Dohme', true],
    ['Merck Sharp & Dohme LLC', 'Sharp Merck', false],
    ['Merck KGaA, Darmstadt, Germany', 'Merck Sharp', false],
  ])('%s contains %s: %s', (name, query, expected) => {
    expect(containsWords(words(name), words(query))).toBe(expected);
  });
  it('roles: collaborator excludes studies the sponsor also leads; any prefers lead', () => {
    const w = words('Pfizer');
    expect(roleInStudy('lead', 'Pfizer Inc.', [], w)).toBe('lead');
    expect(roleInStudy('collaborator', 'Pfizer', ['Pfizer'], w)).toBeNull();
    expect(roleInStudy('collaborator', 'Acme', ['BioNTech', 'Pfizer'], w)).toBe('collaborator');
    expect(roleInStudy('any', 'Pfizer', ['Pfizer'], w)).toBe('lead');
    expect(roleInStudy('any', null, [], w)).toBeNull();
  });
});

describe('parameters', () => {
  it('status: absent = ongoing, ALL anywhere = all, values normalised', () => {
    expect(parseStatus(undefined)).toEqual(['RECRUITING', 'NOT_YET_RECRUITING', 'ACTIVE_NOT_RECRUITING', 'ENROLLING_BY_INVITATION']);
    expect(parseStatus('recruiting,ALL')).toBe('ALL');
    expect(parseStatus('not yet recruiting, enrolling-by-invitation')).toEqual(['NOT_YET_RECRUITING', 'ENROLLING_BY_INVITATION']);
    expect(parseStatus(['COMPLETED', 'WITHDRAWN'])).toEqual(['COMPLETED', 'WITHDRAWN']);
  });
  it('limit: 1..200, larger clamped with the asked value kept', () => {
    expect(parseLimit('1')).toEqual({ limit: 1, limitRequested: null });
    expect(parseLimit('201')).toEqual({ limit: 200, limitRequested: 201 });
    expect(parseLimit(' 7 ')).toEqual({ limit: 7, limitRequested: null });
    expect(parseLimit('0')).toHaveProperty('usage');
  });
  it('sponsor longer than 200 characters: 400 with usage', () => {
    expect(parsePipelineQuery({ sponsor: 'x'.repeat(201) })).toHaveProperty('usage');
  });
});

describe('registry request', () => {
  const base: PipelineQuery = { sponsor: 'Pfizer', role: 'any', status: 'ALL', phase: ['PHASE1', 'PHASE2'], limit: 10, limitRequested: null };
  it('filter.advanced for role any with phases; quotes in the sponsor cannot break the phrase', () => {
    expect(advancedFilter('Pfizer', 'any', ['PHASE1', 'PHASE2'])).toBe(
      '(AREA[LeadSponsorName]EXPANSION[Term]"pfizer" OR AREA[CollaboratorName]EXPANSION[Term]"pfizer") AND (AREA[Phase]PHASE1 OR AREA[Phase]PHASE2)',
    );
    expect(advancedFilter('Foo" OR AREA[Phase]PHASE3 "', 'lead', null)).toBe('AREA[LeadSponsorName]EXPANSION[Term]"foo or area phase phase3"');
    expect(advancedFilter('&&', 'lead', null)).toBeNull();
  });
  it('first page asks countTotal, later pages pageToken; pageSize within 1..1000', () => {
    const first = studiesParams(base, 10, null)!;
    expect(first.get('countTotal')).toBe('true');
    expect(first.has('filter.overallStatus')).toBe(false);
    const next = studiesParams(base, 3, 'tok')!;
    expect(next.get('pageToken')).toBe('tok');
    expect(next.has('countTotal')).toBe(false);
    expect(next.get('pageSize')).toBe('3');
  });
  it('readPage: not an object, no studies, missing totalCount on page 1 are bad responses', () => {
    expect(() => readPage([], true)).toThrow(/not the expected JSON/);
    expect(() => readPage({ totalCount: 1 }, true)).toThrow(/no list of studies/);
    expect(() => readPage({ studies: [] }, true)).toThrow(/total count/);
    expect(readPage({ studies: [] }, false)).toEqual({ totalCount: null, nextPageToken: null, studies: [] });
  });
  it('environment: defaults, overrides and a clear error for a bad timeout', () => {
    expect(ctgovOptionsFromEnv({})).toEqual({ baseUrl: 'https://clinicaltrials.gov/api/v2', timeoutMs: 10000 });
    expect(ctgovOptionsFromEnv({ CTGOV_BASE_URL: 'http://127.0.0.1:9/api/v2', CTGOV_TIMEOUT_MS: '250' })).toEqual({ baseUrl: 'http://127.0.0.1:9/api/v2', timeoutMs: 250 });
    expect(() => ctgovOptionsFromEnv({ CTGOV_TIMEOUT_MS: 'soon' })).toThrow(/CTGOV_TIMEOUT_MS/);
  });
});

describe('negotiation and escaping', () => {
  it.each([
    [undefined, false],
    ['*/*', false],
    ['text/html', true],
    ['text/*', true],
    ['application/json, text/html', false],
    ['text/html, application/json', false], // a tie is JSON: HTML only when strictly preferred
    ['text/html;q=0.9, application/json;q=0.8', true],
    ['text/html;q=0', false],
  ])('Accept %s prefers HTML: %s', (accept, expected) => {
    expect(prefersHtml(accept)).toBe(expected);
  });
  it('escapeMarkdown keeps hostile text literal', () => {
    expect(escapeMarkdown('a|b\n[c](javascript:x) <i>')).toBe('a\\|b \\[c\\]\\(javascript:x\\) \\<i\\>');
  });
  it('redactTrialIds removes NCT-shaped ids', () => {
    expect(redactTrialIds('bad NCT01234567 and nct 0042')).toBe('bad [trial id] and [trial id]');
  });
});

describe('escapeMarkdown and entities', () => {
  it('keeps a plain & readable but neutralises entity references', () => {
    expect(escapeMarkdown('Merck Sharp & Dohme')).toBe('Merck Sharp & Dohme');
    expect(escapeMarkdown('&lt;script&gt; &#60;')).toBe('\\&lt;script\\&gt; \\&\\#60;');
  });
});
