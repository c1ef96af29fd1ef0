/**
 * The build's report text off the V8 heap (src/ingest/vaers/report-text.ts): the reader appends
 * each kept report's narrative columns to a scratch DuckDB file, its consumers read them back in
 * chunks (textChunks), and the store's `reports` table joins them in SQL (write.ts). The text
 * read back must be the text the reader keeps on the heap, value for value, in report order; the
 * store built through the file must hold the same narratives; the scratch file never outlives
 * the build, whether it succeeds or fails.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { NARRATIVE_REPORT_COLUMNS } from '../../../src/domain/report-columns.js';
import { buildStore } from '../../../src/ingest/mining/build.js';
import { readVaers } from '../../../src/ingest/vaers/read.js';
import { hasText, ReportText, textChunks } from '../../../src/ingest/vaers/report-text.js';
import { UserError } from '../../../src/domain/user-error.js';
import { tempDir } from './fixtures.js';
import { NARRATIVE_101, writeReportFolder } from './report-fixtures.js';

const FIELDS = NARRATIVE_REPORT_COLUMNS.map((c) => c.field);

/** A temporary folder holding the report fixture's VAERS files in its `vaers` folder. */
async function reportFolderIn(): Promise<{ dir: string; vaers: string }> {
  const dir = await tempDir();
  const vaers = join(dir, 'vaers');
  await mkdir(vaers);
  await writeReportFolder(vaers);
  return { dir, vaers };
}

describe('report text in a scratch DuckDB file', () => {
  it('holds every narrative column of every kept report, read back in chunks equal to the heap columns', async () => {
    const dir = await tempDir();
    await writeReportFolder(dir);
    const heap = (await readVaers(dir, { narratives: true })).details;
    const text = await ReportText.create(join(dir, 'scratch.duckdb'));
    try {
      const data = await readVaers(dir, { narratives: true, text });
      await text.finishWriting();
      const d = data.details;
      expect(d.text).toBe(text);
      for (const f of FIELDS) expect(d[f]).toBeNull(); // nothing on the heap
      expect(hasText(d)).toBe(true);
      expect(text.reports).toBe(6);
      const chunks: Array<{ start: number; count: number }> = [];
      const read = Object.fromEntries(FIELDS.map((f) => [f, [] as Array<string | null>]));
      for await (const chunk of textChunks(d, FIELDS, 4)) {
        chunks.push({ start: chunk.start, count: chunk.count });
        for (const f of FIELDS) read[f].push(...chunk.columns[f]!);
      }
      expect(chunks).toEqual([{ start: 0, count: 4 }, { start: 4, count: 2 }]);
      expect(read.narrative).toEqual([NARRATIVE_101, null, null, null, 'Sore arm', null]);
      expect(read.allergies).toEqual([null, null, null, null, 'Penicillin', null]);
      for (const f of FIELDS) expect(read[f]).toEqual(heap[f]);
      // The same chunks from the heap columns (a read without a scratch file).
      const fromHeap: Array<string | null> = [];
      for await (const chunk of textChunks(heap, ['labData'], 4)) fromHeap.push(...chunk.columns.labData!);
      expect(fromHeap).toEqual(['WBC 12.1', null, null, null, null, null]);
    } finally {
      await text.remove();
    }
    expect(existsSync(join(dir, 'scratch.duckdb'))).toBe(false);
    expect(existsSync(join(dir, 'scratch.duckdb.wal'))).toBe(false);
  });

  it('a read without narratives writes no text and gives no chunks', async () => {
    const dir = await tempDir();
    await writeReportFolder(dir);
    const text = await ReportText.create(join(dir, 'scratch.duckdb'));
    try {
      const data = await readVaers(dir, { narratives: false, text });
      expect(text.reports).toBe(0);
      expect(hasText(data.details)).toBe(false);
      const chunks = [];
      for await (const chunk of textChunks(data.details, ['narrative'], 4)) chunks.push(chunk);
      expect(chunks).toEqual([]);
    } finally {
      await text.remove();
    }
  });

  it('a build with --narratives stores the text read through the file, and leaves no scratch file; nor does a build that fails in the read', async () => {
    const { dir, vaers } = await reportFolderIn();
    const heap = (await readVaers(vaers, { narratives: true })).details;
    const out = join(dir, 'store.duckdb');
    await buildStore({ vaers, out, narratives: true, workers: 1 });
    const instance = await DuckDBInstance.create(out, { access_mode: 'READ_ONLY' });
    const connection = await instance.connect();
    try {
      const columns = NARRATIVE_REPORT_COLUMNS.map((c) => c.store);
      const stored = (await connection.runAndReadAll(`SELECT vaers_id::DOUBLE AS vaers_id, ${columns.join(', ')} FROM reports`)).getRowObjectsJS();
      const expected = Array.from({ length: heap.count }, (_, i) => ({
        vaers_id: heap.id[i], ...Object.fromEntries(NARRATIVE_REPORT_COLUMNS.map((c) => [c.store, heap[c.field]![i]])),
      }));
      // The table's own order: newest RECVDATE first, then VAERS_ID descending (report-tables.ts).
      const order = [...expected.keys()].sort((a, b) => heap.received[b] - heap.received[a] || heap.id[b] - heap.id[a]);
      expect(stored).toEqual(order.map((i) => expected[i]));
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
    expect((await readdir(dir)).sort()).toEqual(['store.duckdb', 'vaers']);
    // A DATA file with a broken row: the read stops with the file and line, and the scratch file goes.
    const bad = join(dir, 'bad');
    await mkdir(bad);
    await writeReportFolder(bad);
    const data = (await readdir(bad)).find((f) => /DATA\.csv$/i.test(f))!;
    await writeFile(join(bad, data), `VAERS_ID,RECVDATE,SYMPTOM_TEXT\n1,01/01/2005,"unterminated\n`);
    await expect(buildStore({ vaers: bad, out: join(dir, 'failed.duckdb'), narratives: true, workers: 1 })).rejects.toBeInstanceOf(UserError);
    expect((await readdir(dir)).sort()).toEqual(['bad', 'store.duckdb', 'vaers']);
  }, 60_000);

  it('reads a chunk of 40,000 reports of 4,000-character narratives within the read-only memory cap, exactly and in order', async () => {
    const dir = await tempDir();
    const text = await ReportText.create(join(dir, 'long.duckdb'));
    const empty = Object.fromEntries(FIELDS.map((f) => [f, null])) as Record<(typeof FIELDS)[number], string | null>;
    // Report i's text: its number then a filler sentence, cut to 4,000 (narrative) and 1,000 (LAB_DATA) characters.
    const narrativeOf = (i: number): string => `${i} ${'patient developed a rash and fever after the dose; '.repeat(80)}`.slice(0, 4000);
    try {
      for (let i = 0; i < 40000; i++) text.add({ ...empty, narrative: narrativeOf(i), labData: narrativeOf(i).slice(0, 1000) });
      await text.finishWriting();
      const read = await text.read(['narrative', 'labData'], 0, 40000);
      expect(read.narrative.length).toBe(40000);
      expect(read.labData.length).toBe(40000);
      let wrong = 0;
      for (let i = 0; i < 40000; i++) if (read.narrative[i] !== narrativeOf(i) || read.labData[i] !== narrativeOf(i).slice(0, 1000)) wrong++;
      expect(wrong).toBe(0);
      const middle = await text.read(['narrative'], 39998, 40000);
      expect(middle.narrative.map((s) => s!.slice(0, 6))).toEqual(['39998 ', '39999 ']);
    } finally {
      await text.remove();
    }
  });

  it('a build with --narratives whose output folder cannot be written fails with a message about --out', async () => {
    const { vaers } = await reportFolderIn();
    // /proc exists but takes no new files, even for root.
    const failed = buildStore({ vaers, out: '/proc/x.duckdb', narratives: true, workers: 1 });
    await expect(failed).rejects.toBeInstanceOf(UserError);
    await expect(failed).rejects.toThrow(/^build: --out \/proc\/x\.duckdb: cannot write a file in its folder \/proc \(/);
  });
});
