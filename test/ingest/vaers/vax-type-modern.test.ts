/**
 * The vax_type rule (spec 2.1) on every distinct VAX_NAME of the real 2007-2025 VAX files
 * (../shared/data/vaers-vax-symptoms): the COVID-19 products as VAERS names
 * them, RSV, Gardasil 9, Shingrix. Skipped with a message when the folder is absent.
 */
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import { parse } from 'csv-parse';
import iconv from 'iconv-lite';
import { beforeAll, describe, expect, it } from 'vitest';
import { vaxType } from '../../../src/domain/vaccine-type.js';
import { SHARED_DATA } from '../../helpers/paths.js';

const folder = path.resolve(SHARED_DATA, 'vaers-vax-symptoms');
const present = existsSync(folder);
if (!present) console.warn(`vax_type check on the 2007-2025 names skipped: ${folder} is absent`);

/** Distinct trimmed VAX_NAME values of every *VAERSVAX*.csv.gz in the folder (Windows-1252). */
async function vaxNames(): Promise<Map<string, Set<string>>> {
  const names = new Map<string, Set<string>>();
  for (const file of readdirSync(folder).filter((f) => /VAERSVAX.*\.csv\.gz$/.test(f))) {
    const rows = createReadStream(path.join(folder, file)).pipe(createGunzip()).pipe(iconv.decodeStream('win1252'))
      .pipe(parse({ columns: true, relax_column_count: true }));
    for await (const row of rows as AsyncIterable<Record<string, string>>) {
      const name = (row.VAX_NAME ?? '').trim();
      if (!names.has(name)) names.set(name, new Set());
      names.get(name)!.add((row.VAX_TYPE ?? '').trim());
    }
  }
  return names;
}

describe.skipIf(!present)('vax_type on the real 2007-2025 VAX_NAMEs (spec 2.1)', () => {
  let names: Map<string, Set<string>>;
  beforeAll(async () => {
    names = await vaxNames();
  }, 120_000);

  it('every name gives a non-empty type without a product suffix; 242 names, 76 types', () => {
    expect(names.size).toBe(242);
    const types = new Set([...names.keys()].map(vaxType));
    expect(types.size).toBe(76);
    for (const name of names.keys()) {
      const type = vaxType(name);
      expect(type.length, name).toBeGreaterThan(0);
      // Only the influenza types keep a parenthetical group (seasonal vs H1N1), per the rule.
      if (type.endsWith(')')) expect(['INFLUENZA (SEASONAL)', 'INFLUENZA (H1N1)'], name).toContain(type);
    }
  });

  it('every COVID-19 product, monovalent and bivalent (VAX_TYPE COVID19 and COVID19-2), is COVID19', () => {
    const covid = [...names.keys()].filter((name) => name.startsWith('COVID19'));
    expect(covid).toContain('COVID19 (COVID19 (MODERNA BIVALENT))');
    expect(covid.length).toBeGreaterThanOrEqual(9);
    for (const name of covid) expect(vaxType(name), name).toBe('COVID19');
    expect(names.get('COVID19 (COVID19 (MODERNA BIVALENT))')).toEqual(new Set(['COVID19-2']));
  });

  it.each([
    ['RSV (ABRYSVO)', 'RSV'], ['RSV (AREXVY)', 'RSV'], ['RSV (MRESVIA)', 'RSV'],
    ['HPV (GARDASIL 9)', 'HPV'], ['HPV (GARDASIL)', 'HPV'], ['HPV (CERVARIX)', 'HPV'],
    ['ZOSTER (SHINGRIX)', 'ZOSTER'], ['ZOSTER LIVE (ZOSTAVAX)', 'ZOSTER LIVE'],
    ['INFLUENZA (H1N1) (H1N1 (MONOVALENT) (CSL))', 'INFLUENZA (H1N1)'], ['SMALLPOX + MONKEYPOX (JYNNEOS)', 'SMALLPOX + MONKEYPOX'],
  ])('%s -> %s', (name, type) => {
    expect(names.has(name)).toBe(true);
    expect(vaxType(name)).toBe(type);
  });
});
