import { chmodSync, mkdtempSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync, readdirSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NarrativeIndex } from '../../../src/serve/narratives/index.js';
import { indexFileOf, indexKey, loadIndexFile, saveAndReopen, saveIndexFile } from '../../../src/serve/narratives/index-file.js';
import { StoreReadError } from '../../../src/serve/query/store-read-error.js';
import { parseTextQuery } from '../../../src/serve/narratives/query.js';
import type { NarrativeRecord } from '../../../src/serve/narratives/records.js';

const record = (id: number, sym: string | null, his: string | null = null): NarrativeRecord => ({ id, fields: [sym, null, his, null, null, null] });
const CORPUS = [
  record(7, 'Pt developed fever and rash. Fevers persisted 3 days.'),
  record(3, 'Guillain-Barré syndrome 3 weeks after vaccination.', "Bell's palsy 1998"),
  record(12, null),
  record(5, 'Feverish; INTUSSUSCEPTION confirmed — “smart quotes” €'),
];
const dir = mkdtempSync(join(tmpdir(), 'rs-index-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The VAERS_IDs a text query finds. */
function found(index: NarrativeIndex, text: string): number[] {
  const parsed = parseTextQuery(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return [...index.search(parsed.query)].map((r) => index.idAt(r));
}

describe('the narrative index kept beside its store', () => {
  const store = join(dir, 'store.duckdb');
  writeFileSync(store, 'a store');
  const file = indexFileOf(store);

  it('reads back what was written: the same ids, texts, vocabulary and answers', async () => {
    const built = NarrativeIndex.build(CORPUS);
    expect(await saveIndexFile(file, indexKey(store), built)).toBe(true);
    const loaded = loadIndexFile(file, indexKey(store))!;
    expect(loaded).not.toBeNull();
    expect(loaded.stats()).toEqual({ ...built.stats(), heldBytes: 0 });
    expect([0, 1, 2, 3].map((r) => loaded.idAt(r))).toEqual([7, 3, 12, 5]);
    expect(loaded.ordinalOf(12)).toBe(2);
    expect(loaded.fields(3)).toEqual(['Feverish; INTUSSUSCEPTION confirmed — “smart quotes” €', null, null, null, null, null]);
    expect(loaded.text(1, 2)).toBe("Bell's palsy 1998");
    expect(found(loaded, 'fever*')).toEqual([7, 5]);
    expect(found(loaded, '"guillain barre"')).toEqual([3]);
    expect(found(loaded, 'fever* -rash')).toEqual([5]);
    // Shared memory, as a worker thread needs it; the texts and postings stay in the file.
    expect(loaded.share().ids.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(loaded.share().postings).toBeNull();
    expect(loaded.share().texts.bytes).toBeNull();
    expect(built.stats().heldBytes).toBeGreaterThan(0);
    expect(loaded.stats().heldBytes).toBe(0);
    expect(readdirSync(dir).filter((n) => n.includes('.tmp-'))).toEqual([]);
    loaded.close();
  });

  it('reads the texts and postings from the file it checked: a file renamed onto the path is not read, a truncated one is a StoreReadError', async () => {
    const key = indexKey(store);
    await saveIndexFile(file, key, NarrativeIndex.build(CORPUS));
    const loaded = loadIndexFile(file, key)!;
    const whole = readFileSync(file);
    // Another index renamed onto the path: the loaded one still reads its own file.
    const other = join(dir, 'other.narratives');
    await saveIndexFile(other, key, NarrativeIndex.build([record(9, 'nothing alike')]));
    renameSync(other, file);
    expect(loaded.text(0, 0)).toBe('Pt developed fever and rash. Fevers persisted 3 days.');
    expect(found(loaded, 'fever*')).toEqual([7, 5]);
    loaded.close();
    // The same file cut short after it was checked: reading a text past the cut fails as a storage failure.
    writeFileSync(file, whole);
    const cut = loadIndexFile(file, key)!;
    truncateSync(file, 200);
    expect(() => cut.fields(3)).toThrow(StoreReadError);
    expect(() => cut.fields(3)).toThrow(/truncated/);
    expect(() => found(cut, 'fever')).toThrow(StoreReadError);
    cut.close();
  });

  it('a phrase verified over many candidates read from the file, near and far apart (reads grouped), finds what the index in memory finds', async () => {
    // 400 reports; every 7th holds the phrase in one field, every 5th holds both words apart; every 11th carries 6,000 characters of filler (a gap past the grouping's).
    const filler = 'lorem ipsum '.repeat(500);
    const many = Array.from({ length: 400 }, (_, i): NarrativeRecord => ({
      id: 1000 + i,
      fields: [i % 11 === 0 ? filler : `report ${i}`, i % 7 === 0 ? 'seen at urgent care' : null, i % 5 === 0 ? 'care was urgent' : null, null, i % 13 === 0 ? 'Urgent   Care!' : null, null],
    }));
    const built = NarrativeIndex.build(many);
    const reopened = (await saveAndReopen(file, indexKey(store), built))!;
    try {
      const expected = many.filter((r) => r.fields.some((t) => t !== null && /urgent\W+care/i.test(t))).map((r) => r.id);
      expect(expected.length).toBe(84); // 58 multiples of 7 and 31 of 13 in 0..399, 5 of both (0, 91, 182, 273, 364)
      expect(found(built, '"urgent care"')).toEqual(expected);
      expect(found(reopened, '"urgent care"')).toEqual(expected);
      expect(found(reopened, '"care was urgent" -"urgent care"')).toEqual(found(built, '"care was urgent" -"urgent care"'));
      expect(found(reopened, '"lorem ipsum lorem"')).toEqual(many.filter((_, i) => i % 11 === 0).map((r) => r.id));
    } finally {
      reopened.close();
    }
  });

  it('a phrase of a common word read by its positions from the file, candidates far apart (one read each) and near, finds what a scan of the words finds', async () => {
    // 3,000 reports, each with `the` 150 times (a 64-entry block of its positions is about 10 kB,
    // past the reads' 4 kB gap); `the patient` in every 97th, `patient the` in every 89th, and
    // in every 101st `the` ending SYMPTOM_TEXT with `patient` opening HISTORY (two fields: no phrase).
    const many = Array.from({ length: 3000 }, (_, i): NarrativeRecord => {
      const words = Array.from({ length: 150 }, (_, k) => `the w${k % 7}`);
      if (i % 97 === 0) words.splice(40, 0, 'The Patient');
      if (i % 89 === 0) words.splice(90, 0, 'patient the');
      return record(2000 + i, `${words.join(' ')}${i % 101 === 0 ? ' the' : ''}`, i % 101 === 0 ? 'patient seen' : null);
    });
    const scan = (list: string[]): number[] => many.filter((r) => r.fields.some((t) => {
      const w = t === null ? [] : t.toLowerCase().split(/[^a-z0-9]+/);
      return w.some((_, k) => list.every((x, j) => w[k + j] === x));
    })).map((r) => r.id);
    const built = NarrativeIndex.build(many);
    const reopened = (await saveAndReopen(file, indexKey(store), built))!;
    try {
      const thePatient = new Set(scan(['the', 'patient']));
      expect(thePatient.size).toBe(31);
      for (const text of ['"the patient"', '"patient the"', '"the w3 the"', '"patient the w0"', 'the w3 -"the patient"']) {
        const parsed = parseTextQuery(text);
        if (!parsed.ok) throw new Error(parsed.error);
        const expected = parsed.query.excluded.length > 0 ? many.map((r) => r.id).filter((id) => !thePatient.has(id)) : scan(parsed.key.slice(1, -1).split(' '));
        expect(found(built, text)).toEqual(expected);
        expect(found(reopened, text)).toEqual(expected);
      }
    } finally {
      reopened.close();
    }
  });

  it('saveAndReopen answers the index reading the file it wrote, with the same answers', async () => {
    const key = indexKey(store);
    const built = NarrativeIndex.build(CORPUS);
    const reopened = (await saveAndReopen(file, key, built))!;
    expect(reopened.stats()).toEqual({ ...built.stats(), heldBytes: 0 });
    expect([0, 1, 2, 3].map((r) => reopened.fields(r))).toEqual([0, 1, 2, 3].map((r) => built.fields(r)));
    expect(found(reopened, 'fever* -rash')).toEqual([5]);
    expect(found(reopened, '"guillain barre"')).toEqual([3]);
    reopened.close();
    expect(loadIndexFile(file, key)!.stats()).toEqual(reopened.stats());
  });

  it('is not used for a store file changed since (another key)', async () => {
    const key = indexKey(store);
    await saveIndexFile(file, key, NarrativeIndex.build(CORPUS));
    utimesSync(store, new Date(2000, 0, 1), new Date(2000, 0, 1));
    expect(indexKey(store)).not.toBe(key);
    expect(loadIndexFile(file, indexKey(store))).toBeNull();
    expect(loadIndexFile(file, key)).not.toBeNull();
  });

  it('is not used when damaged: a changed byte, a truncated file, another format, no file', async () => {
    const key = indexKey(store);
    await saveIndexFile(file, key, NarrativeIndex.build(CORPUS));
    const whole = readFileSync(file);
    const flipped = Buffer.from(whole);
    flipped[flipped.length - 20] ^= 1;
    writeFileSync(file, flipped);
    expect(loadIndexFile(file, key)).toBeNull();
    writeFileSync(file, whole.subarray(0, whole.length - 9));
    expect(loadIndexFile(file, key)).toBeNull();
    writeFileSync(file, Buffer.concat([Buffer.from('RSNIDX00'), whole.subarray(8)]));
    expect(loadIndexFile(file, key)).toBeNull();
    writeFileSync(file, whole);
    expect(loadIndexFile(file, key)).not.toBeNull();
    expect(loadIndexFile(join(dir, 'absent.narratives'), key)).toBeNull();
  });

  it.skipIf(process.getuid?.() === 0)('a folder that cannot be written leaves no file and resolves false', async () => {
    const locked = mkdtempSync(join(dir, 'locked-'));
    chmodSync(locked, 0o500);
    try {
      expect(await saveIndexFile(join(locked, 'x.narratives'), 'k', NarrativeIndex.build(CORPUS))).toBe(false);
      expect(readdirSync(locked)).toEqual([]);
    } finally {
      chmodSync(locked, 0o700);
    }
  });

  it('a path inside a missing folder resolves false', async () => {
    expect(await saveIndexFile(join(dir, 'missing', 'x.narratives'), 'k', NarrativeIndex.build(CORPUS))).toBe(false);
  });

  it('has the same key whether the program runs from src/ (tsx) or dist/: the code digest reads the sources', async () => {
    const dist = await import(new URL('../../../dist/serve/narratives/index-file.js', import.meta.url).href) as typeof import('../../../src/serve/narratives/index-file.js');
    expect(dist.indexKey(store)).toBe(indexKey(store));
  });
});
