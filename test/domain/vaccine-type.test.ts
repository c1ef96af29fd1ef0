import { describe, expect, it } from 'vitest';
import type { Pair } from '../../src/serve/signals/pair.js';
import { indexPairs } from '../../src/serve/signals/catalog.js';
import { vaxType } from '../../src/domain/vaccine-type.js';

describe('vaxType (spec 2.1 vax_type: the name without its parenthetical product suffix)', () => {
  it.each([
    ['VARICELLA (VARIVAX)', 'VARICELLA'],
    ['MEASLES + MUMPS + RUBELLA (MMR II)', 'MEASLES + MUMPS + RUBELLA'],
    ['POLIO VIRUS, INACT. (IPOL)', 'POLIO VIRUS, INACT.'],
    ['ADENOVIRUS (TYPE 4, NO BRAND NAME)', 'ADENOVIRUS'],
    ['INFLUENZA (SEASONAL) (FLUZONE)', 'INFLUENZA (SEASONAL)'],
    ['INFLUENZA (H1N1) (FLULAVAL)', 'INFLUENZA (H1N1)'],
    ['DTAP + HEPB + IPV (PEDIARIX)', 'DTAP + HEPB + IPV'],
  ])('removes the parenthetical product suffix: %s -> %s', (name, type) => {
    expect(vaxType(name)).toBe(type);
  });

  it.each([
    ['HPV (GARDASIL 9)', 'HPV'],
    ['PNEUMO (PREVNAR13)', 'PNEUMO'],
    ['PNEUMO (PREVNAR 20)', 'PNEUMO'],
    ['COVID19-2 (COVID19-2 (MODERNA))', 'COVID19'],
  ])('a numeral-suffixed product form loses that suffix: %s -> %s', (name, type) => {
    expect(vaxType(name)).toBe(type);
  });

  it.each([
    ['COVID19 (COVID19 (PFIZER-BIONTECH))', 'COVID19'],
    ['COVID19 (COVID19 (MODERNA))', 'COVID19'],
    ['COVID19', 'COVID19'],
  ])('COVID19 stays COVID19: %s -> %s', (name, type) => {
    expect(vaxType(name)).toBe(type);
  });

  it('keeps a name without parentheses, trims blanks, never returns an empty type', () => {
    expect(vaxType('  SMALLPOX ')).toBe('SMALLPOX');
    expect(vaxType('(NO BRAND NAME)')).toBe('(NO BRAND NAME)');
    expect(vaxType('HEP B (FOREIGN')).toBe('HEP B (FOREIGN');
  });
});

describe('spec 2.1 vax_type: one rule for the build and the signals service', () => {
  it('the catalog fallback (vaccine rows without a type) uses the same rule as the build', () => {
    const names = ['INFLUENZA (SEASONAL) (FLUZONE)', 'COVID19-2 (COVID19-2 (MODERNA))', 'HPV (GARDASIL 9)', 'COVID19'];
    const pairs = names.map((name) => ({ vaccine: name, event: 'Pyrexia', n: 1, eb05: null, latest_quarter: '2020Q1' }) as Pair);
    const catalog = indexPairs(pairs, { reportsThrough: null, hasIc025: false, vaxTypeOf: new Map(), codesOf: new Map() });
    for (const name of names) expect(catalog.vaxTypeOf.get(name), name).toBe(vaxType(name));
    expect(catalog.vaxTypeOf.get('INFLUENZA (SEASONAL) (FLUZONE)')).toBe('INFLUENZA (SEASONAL)');
    expect(catalog.vaxTypeOf.get('COVID19-2 (COVID19-2 (MODERNA))')).toBe('COVID19');
  });
});
