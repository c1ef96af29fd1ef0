/**
 * Analysis names with modifiers (`SUBSET@types`, the alias `types`), the VAX_TYPE long-name
 * table (data/vax-types) and name matching over a type-level vocabulary (a code or its long name).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANALYSIS_MODIFIERS, analysisRule, DEFAULT_ANALYSES, parseAnalysisName } from '../../src/domain/analysis-rules.js';
import { parseVaxTypeTable, vaxTypeName, vaxTypeNames } from '../../src/domain/vax-type-names.js';
import type { Pair } from '../../src/serve/signals/pair.js';
import { parseAnalyses } from '../../src/ingest/mining/build.js';
import { exactVaccines, substringVaccines, vaxTypeIndex } from '../../src/serve/query/names.js';
import { indexPairs } from '../../src/serve/signals/catalog.js';
import { matchPairs } from '../../src/serve/signals/match.js';
import type { SignalsParams } from '../../src/serve/signals/parameters.js';
import { SHARED_DATA, sharedDataPresent } from '../helpers/paths.js';

describe('analysis names with modifiers', () => {
  it('SUBSET@types keeps the subset rule and E of SUBSET and counts VAX_TYPE codes', () => {
    const serious = analysisRule('serious')!;
    const typed = analysisRule('serious@types')!;
    expect([typed.name, typed.items, typed.stratified, typed.subset]).toEqual(['serious@types', 'vax_type_code', true, serious.subset]);
    expect(typed.keeps).toBe(serious.keeps);
    expect(typed.title).toBe('Serious reports, by vaccine type');
    expect(analysisRule('all@types')!.stratified).toBe(false);
    expect(serious.items).toBe('vaccine');
  });

  it('types is stratified@types under its own name; the same object on every call', () => {
    const types = analysisRule('types')!;
    expect([types.name, types.items, types.stratified, types.subset]).toEqual(['types', 'vax_type_code', true, null]);
    expect(analysisRule('types')).toBe(types);
    expect(DEFAULT_ANALYSES).toContain('types');
  });

  it('unknown bases and modifiers, and a modifier named twice, are refused with the choices', () => {
    expect(analysisRule('nope@types')).toBeUndefined();
    expect(parseAnalysisName('serious@nope')).toEqual({ ok: false, error: expect.stringMatching(/unknown modifier "@nope".*@dedup, @types/) });
    expect(parseAnalysisName('serious@types@types')).toEqual({ ok: false, error: 'modifier "@types" is named twice in "serious@types@types"' });
    expect(parseAnalysisName('nope')).toEqual({ ok: false, error: expect.stringMatching(/unknown analysis "nope" \(choose from all, stratified.*each optionally with @dedup, @types, @groups; or types, groups\)/) });
    expect(ANALYSIS_MODIFIERS.map((m) => m.name)).toEqual(['dedup', 'types', 'groups']);
  });

  it('--analyses takes modified names and types, and refuses bad ones', () => {
    expect(parseAnalyses('all,types,death@types').map((a) => [a.name, a.items])).toEqual([['all', 'vaccine'], ['types', 'vax_type_code'], ['death@types', 'vax_type_code']]);
    expect(() => parseAnalyses('all,serious@typo')).toThrow(/--analyses: unknown modifier "@typo"/);
    expect(() => parseAnalyses('types,types')).toThrow(/"types" is named twice/);
  });
});

describe('VAX_TYPE long names (data/vax-types/vax-types.csv)', () => {
  it('parses the table and refuses a repeated or incomplete row', () => {
    expect([...parseVaxTypeTable('vax_type,name\nFLU3,"INFLUENZA (SEASONAL) TRIVALENT"\n')]).toEqual([['FLU3', 'INFLUENZA (SEASONAL) TRIVALENT']]);
    expect(() => parseVaxTypeTable('vax_type,name\nA,x\nA,y\n')).toThrow(/line 3 lists 'A' a second time/);
    expect(() => parseVaxTypeTable('vax_type,name\nA,\n')).toThrow(/line 2 needs a vax_type and a name/);
  });

  it('names the codes; a code without a row has none', () => {
    expect(vaxTypeName('FLU3')).toBe('INFLUENZA (SEASONAL) TRIVALENT');
    expect(vaxTypeName('HPV4')).toBe('HPV QUADRIVALENT');
    expect(vaxTypeName('NOT-A-CODE')).toBeNull();
  });

  const shared = SHARED_DATA;
  const vaxFiles = ['vaers', 'vaers-vax-symptoms'].flatMap((folder) => {
    const dir = path.join(shared, folder);
    return existsSync(dir) ? [dir] : [];
  });
  it.skipIf(vaxFiles.length === 0 && !sharedDataPresent(path.join(SHARED_DATA, 'vaers'), 'VAX_TYPE codes of the raw VAX files'))('covers every VAX_TYPE code of ../shared/data/vaers and vaers-vax-symptoms (the codes read from the raw VAX files)', async () => {
    const { readdirSync } = await import('node:fs');
    const { gunzipSync } = await import('node:zlib');
    const { parse } = await import('csv-parse/sync');
    const codes = new Set<string>();
    for (const dir of vaxFiles) {
      for (const file of readdirSync(dir).filter((f) => /VAERSVAX\.csv(\.gz)?$/.test(f))) {
        const bytes = readFileSync(path.join(dir, file));
        const text = (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('latin1');
        for (const row of parse(text, { columns: true, relax_column_count: true, relax_quotes: true }) as Array<Record<string, string>>) {
          const code = (row.VAX_TYPE ?? '').trim();
          if (code !== '') codes.add(code);
        }
      }
    }
    expect(codes.size).toBeGreaterThanOrEqual(60);
    expect([...codes].filter((c) => !vaxTypeNames().has(c))).toEqual([]);
  }, 120_000);
});

describe('matching in a type-level analysis: a code or its long name', () => {
  const vocabulary = vaxTypeIndex(['FLU3', 'FLUN3', 'HPV4', 'XYZ9']);

  it('matches a code, its long name (ignoring case), and a code without a long name by its code', () => {
    expect(exactVaccines(vocabulary, 'flu3')).toEqual(['FLU3']);
    expect(exactVaccines(vocabulary, 'Influenza (Seasonal) Trivalent')).toEqual(['FLU3']);
    expect(exactVaccines(vocabulary, 'HPV QUADRIVALENT')).toEqual(['HPV4']);
    expect(exactVaccines(vocabulary, 'XYZ9')).toEqual(['XYZ9']);
    expect(exactVaccines(vocabulary, 'INFLUENZA (SEASONAL)')).toEqual([]);
    expect(vocabulary.vaxTypeOf.get('FLU3')).toBe('FLU3');
  });

  it('q substrings reach the long names: "trivalent" finds FLU3 and FLUN3', () => {
    expect(substringVaccines(vocabulary, 'trivalent').sort()).toEqual(['FLU3', 'FLUN3']);
    expect(substringVaccines(vocabulary, 'intranasal')).toEqual(['FLUN3']);
  });

  it('/signals matching of a type-level catalog: vaccine=code or long name selects the code\'s pairs; vax_type is the code', () => {
    const pair = (vaccine: string, event: string): Pair => ({ vaccine, vax_type: vaccine, event, n: 3, eb05: 2, latest_quarter: '2006Q4' }) as Pair;
    const catalog = indexPairs([pair('FLU3', 'Guillain-Barre syndrome'), pair('FLU3', 'Pain'), pair('HPV4', 'Syncope')],
      { reportsThrough: '2006Q4', hasIc025: true, vaxTypeOf: new Map(), codesOf: new Map(), items: 'vax_type_code' });
    const match = (params: Partial<SignalsParams>): string[] => {
      const result = matchPairs(catalog, { format: 'json', sort: 'eb05', order: 'desc', limit: 50, offset: 0, ...params } as SignalsParams);
      if (!result.ok) throw new Error(result.error.error);
      return result.match.ids.map((id) => `${catalog.pairs[id].vaccine} x ${catalog.pairs[id].event}`).sort();
    };
    expect(match({ vaccine: 'FLU3' })).toEqual(['FLU3 x Guillain-Barre syndrome', 'FLU3 x Pain']);
    expect(match({ vaccine: 'influenza (seasonal) trivalent', event: 'Guillain-Barre syndrome' })).toEqual(['FLU3 x Guillain-Barre syndrome']);
    expect(match({ q: 'quadrivalent' })).toEqual(['HPV4 x Syncope']);
    expect(match({ vaccine: 'INFLUENZA (SEASONAL) (FLUZONE)' })).toEqual([]);
    expect(catalog.items).toBe('vax_type_code');
    expect(catalog.vaxTypeOf.get('HPV4')).toBe('HPV4');
  });
});
