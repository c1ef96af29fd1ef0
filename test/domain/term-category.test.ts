/**
 * The non-clinical term list (data/terms/non-clinical.csv, documented in data/terms/README.md)
 * and its reader src/domain/term-category.ts. The last block reads the real VAERS SYMPTOMS files
 * under ../shared/data and is skipped, with a message, when they are absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  nonClinicalTerms, parseTermList, TERM_CATEGORIES, TERM_CATEGORY_TEXT, TERM_LIST_URL, termCategory, type TermCategory,
} from '../../src/domain/term-category.js';
import { readSymptomTerms, symptomFiles } from '../../scripts/list-terms.js';
import { REPO_ROOT, SHARED_DATA } from '../helpers/paths.js';

const repoRoot = REPO_ROOT;
const csvPath = path.join(repoRoot, 'data', 'terms', 'non-clinical.csv');
const readmePath = path.join(repoRoot, 'data', 'terms', 'README.md');
const csvText = readFileSync(csvPath, 'utf8');
const rows = parse(csvText, { columns: false, skip_empty_lines: true }) as string[][];

/** The README's category table: category -> [terms, of them in 1990-2006]. */
function readmeCounts(): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (const line of readFileSync(readmePath, 'utf8').split('\n')) {
    const m = /^\| `([a-z_]+)` \|.*\| ([\d,]+) \| ([\d,]+) \| [\d,]+ \| [\d,]+ \|$/.exec(line);
    if (m) out.set(m[1], [Number(m[2].replace(/,/g, '')), Number(m[3].replace(/,/g, ''))]);
  }
  return out;
}

describe('data/terms/non-clinical.csv', () => {
  it('has the header term,category,note and three cells on every row', () => {
    expect(rows[0]).toEqual(['term', 'category', 'note']);
    for (const row of rows) expect(row.length, row.join(',')).toBe(3);
  });

  it('parses: every category is one of the documented set, no term twice, no blank or padded term', () => {
    const list = parseTermList(csvText);
    expect(list.size).toBe(rows.length - 1);
    for (const row of rows.slice(1)) {
      expect(row[0], row.join(',')).toBe(row[0].trim());
      expect(row[0].length).toBeGreaterThan(0);
      expect(TERM_CATEGORIES as readonly string[]).toContain(row[1]);
    }
    const used = new Set(rows.slice(1).map((r) => r[1]));
    expect([...used].sort()).toEqual([...TERM_CATEGORIES].sort());
  });

  it('is sorted by category (in the documented order) then term, so that a diff reads well', () => {
    const keys = rows.slice(1).map((r) => [TERM_CATEGORIES.indexOf(r[1] as TermCategory), r[0].toLowerCase()] as const);
    for (let i = 1; i < keys.length; i++) {
      const [c0, t0] = keys[i - 1], [c1, t1] = keys[i];
      expect(c0 < c1 || (c0 === c1 && t0 < t1), `${t0} before ${t1}`).toBe(true);
    }
  });

  it("the README's table gives each category's number of terms", () => {
    const documented = readmeCounts();
    expect([...documented.keys()]).toEqual([...TERM_CATEGORIES]);
    for (const category of TERM_CATEGORIES) {
      expect(documented.get(category)![0], category).toBe(rows.filter((r) => r[1] === category).length);
    }
  });

  it('every category has a sentence for answers', () => {
    for (const category of TERM_CATEGORIES) expect(TERM_CATEGORY_TEXT[category].length).toBeGreaterThan(20);
  });
});

describe('termCategory', () => {
  it('names the category of listed terms', () => {
    const expected: Record<string, TermCategory> = {
      'Wrong drug administered': 'medication_error',
      'Incorrect dose administered': 'medication_error',
      'Inappropriate schedule of drug administration': 'medication_error',
      'Expired product administered': 'medication_error',
      'Accidental overdose': 'medication_error',
      'Product quality issue': 'product_issue',
      'Syringe issue': 'product_issue',
      'Off label use': 'product_use_issue',
      'Intentional overdose': 'product_use_issue',
      'No adverse event': 'no_adverse_event',
      'Drug ineffective': 'lack_of_effect',
      'Vaccination failure': 'lack_of_effect',
      'Unevaluable event': 'unevaluable_event',
      'Drug exposure during pregnancy': 'exposure',
      'Accidental exposure': 'exposure',
      'Vaccine positive rechallenge': 'rechallenge',
      'Similar reaction on previous exposure to drug': 'rechallenge',
      'Death of relative': 'social_circumstance',
      'Chest X-ray normal': 'investigation_no_finding',
      'Pregnancy test false positive': 'investigation_no_finding',
    };
    for (const [term, category] of Object.entries(expected)) expect(termCategory(term), term).toBe(category);
  });

  it('is null for clinical terms, including findings that end like a normal result', () => {
    for (const term of ['Intussusception', 'Guillain-Barre syndrome', 'Pyrexia', 'Injection site pain', 'Vaccination complication',
      'Adverse drug reaction', 'Drug toxicity', 'Autism', 'Base excess negative', 'Body height below normal', 'Chest X-ray', '']) {
      expect(termCategory(term), term).toBeNull();
    }
  });

  it('matches the trimmed term case-insensitively', () => {
    expect(termCategory('WRONG DRUG ADMINISTERED')).toBe('medication_error');
    expect(termCategory('  Unevaluable event ')).toBe('unevaluable_event');
  });

  it('reads the file in data/terms once', () => {
    expect(fileURLToPath(TERM_LIST_URL)).toBe(csvPath);
    expect(nonClinicalTerms()).toBe(nonClinicalTerms());
    expect(nonClinicalTerms().get('drug ineffective')).toEqual({ term: 'Drug ineffective', category: 'lack_of_effect', note: '' });
  });
});

describe('parseTermList: errors name the line', () => {
  it('unknown category, duplicate term (any case), empty term', () => {
    expect(() => parseTermList('term,category,note\nFoo,clinical,\n')).toThrow("parseTermList: line 2 (Foo) has category 'clinical'");
    expect(() => parseTermList('term,category,note\nFoo,exposure,\nFOO,exposure,\n')).toThrow("parseTermList: line 3 lists 'FOO' a second time");
    expect(() => parseTermList('term,category,note\n ,exposure,\n')).toThrow('parseTermList: line 2 has no term');
  });
});

const shared = SHARED_DATA;
const served = path.join(shared, 'vaers');
const later = [path.join(shared, 'vaers-vax-symptoms'), path.join(shared, 'vaers-modern-layout')];
const present = existsSync(served) && later.every((folder) => existsSync(folder));
if (!present) console.warn(`term list real-data test skipped: ${served} or ${later.join(', ')} is absent`);

describe.skipIf(!present)('the list against the real VAERS SYMPTOMS files (../shared/data)', () => {
  const servedTerms = new Set<string>();
  const allTerms = new Set<string>();
  beforeAll(() => {
    for (const folder of [served, ...later]) {
      for (const file of symptomFiles(folder)) {
        for (const terms of readSymptomTerms(file).values()) {
          for (const term of terms) {
            allTerms.add(term);
            if (folder === served) servedTerms.add(term);
          }
        }
      }
    }
  }, 300_000);

  it('every listed term occurs in the data, spelled as VAERS spells it (no typos)', () => {
    const missing = rows.slice(1).map((r) => r[0]).filter((term) => !allTerms.has(term));
    expect(missing).toEqual([]);
  });

  it("the README's table gives each category's number of terms found in 1990-2006", () => {
    const documented = readmeCounts();
    for (const category of TERM_CATEGORIES) {
      const inServed = rows.filter((r) => r[1] === category && servedTerms.has(r[0])).length;
      expect(inServed, category).toBe(documented.get(category)![1]);
    }
  });

  it('the named clinical and non-clinical terms are spelled as in the 1990-2006 files', () => {
    for (const term of ['Intussusception', 'Guillain-Barre syndrome', 'Pyrexia', 'Wrong drug administered', 'Drug ineffective',
      'Vaccination failure', 'Unevaluable event', 'No adverse event']) {
      expect(servedTerms.has(term), term).toBe(true);
    }
  });
});
