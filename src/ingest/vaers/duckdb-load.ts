/**
 * Loading the official VAERS files into DuckDB tables with DuckDB's own `read_csv` (issue 41,
 * "DuckDB reads and joins"): each CSV (plain, .gz, or a zip member; both layouts) is streamed
 * through the Windows-1252 -> UTF-8 transcoder (transcode.ts: the streaming reader's exact
 * characters) into a scratch file, then `read_csv` reads all files of a kind at once
 * (`union_by_name`, every column as text) into `raw_data`, `raw_vax`, `raw_symptoms`, each row
 * with `grp`, the index of its group in reading order (sources.ts: years ascending, NonDomestic
 * last), and `line`, the physical line its record starts on (record-lines.ts numbers them on the
 * way in: the line the streaming reader names); the table's insertion order is the reading order (rowid).
 *
 * Errors stay those of the streaming reader: a missing required column is a UserError naming the
 * file and its header line (csv.ts `requireColumns`); when `read_csv` refuses a file (broken
 * quoting, a wrong field count), the kind's files are re-read by the streaming reader (csv.ts),
 * whose UserError names the file and line; should it accept them all, the UserError quotes DuckDB.
 * Narratives never reach the V8 heap here: they go from the file to DuckDB.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { UserError } from '../../domain/user-error.js';
import { readCsv, requireColumns, type ColumnIndex } from './csv.js';
import { memberProgress, openMember, type SourceHashes, type VaersFolder, type VaersKind, type VaersMember, type VaersProgress } from './sources.js';
import { Cp1252ToUtf8 } from './transcode.js';
import { LINE_COLUMN, RecordLines } from './record-lines.js';

/** The table each kind is loaded into. */
export const RAW_TABLES: Readonly<Record<VaersKind, string>> = { DATA: 'raw_data', VAX: 'raw_vax', SYMPTOMS: 'raw_symptoms' };

/** The columns a kind's header must have (as the streaming reader requires them). */
const REQUIRED: Readonly<Record<VaersKind, readonly string[]>> = {
  DATA: ['VAERS_ID', 'RECVDATE'], VAX: ['VAERS_ID', 'VAX_NAME'], SYMPTOMS: ['VAERS_ID', 'SYMPTOM1'],
};

/**
 * Longest line DuckDB accepts, in bytes (csv.ts accepts records of 8 million characters). Its read
 * buffers are given twice that: by default they are 16 times the longest line (512 MB each, one per
 * thread, held pinned: with a memory cap of 300 MB the 10% sample's read failed allocating one).
 */
const MAX_LINE_BYTES = 32_000_000;

const quote = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** The header of a transcoded CSV (its first line), upper-cased and trimmed as csv.ts maps it. */
async function headerOf(file: string, member: VaersMember): Promise<ColumnIndex> {
  const columns: ColumnIndex = new Map();
  let line = 1;
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 16 });
  let head = '';
  for await (const chunk of stream) {
    head += chunk as string;
    if (/\r|\n/.test(head.replace(/^[\r\n]+/, ''))) break;
  }
  stream.destroy();
  const leading = /^[\r\n]*/.exec(head)?.[0] ?? '';
  line += (leading.match(/\r\n|\r|\n/g) ?? []).length;
  const numbered = head.slice(leading.length).split(/\r\n|\r|\n/)[0] ?? '';
  // The line column record-lines.ts put first is not the file's.
  const first = numbered.startsWith(`${LINE_COLUMN},`) ? numbered.slice(LINE_COLUMN.length + 1) : numbered;
  if (first === '') throw new UserError(`${member.where}: empty file (no header line)`);
  first.split(',').forEach((name, i) => {
    const key = name.replace(/^"|"$/g, '').trim().toUpperCase();
    if (!columns.has(key)) columns.set(key, i);
  });
  requireColumns(columns, [...REQUIRED[member.kind]], member.where, line);
  return columns;
}

/**
 * Streams one member (decompressed, transcoded to UTF-8) into `file` and checks its header.
 * @throws UserError as the streaming reader: binary data, a corrupt gzip or zip, a missing column.
 */
async function transcodeMember(member: VaersMember, folder: VaersFolder, file: string, reading: LoadReading, fileIndex: number): Promise<ColumnIndex> {
  const progress = memberProgress(member, fileIndex, folder.groups.length * 3, reading.onProgress);
  const stages = await openMember(member, folder, progress.bytes, reading.hashes?.of(member) ?? null);
  try {
    await pipeline([...stages, new Cp1252ToUtf8(member.where), new RecordLines(), createWriteStream(file)] as unknown as ReadonlyArray<NodeJS.ReadWriteStream>);
    progress.end();
  } catch (error) {
    if (error instanceof UserError) throw error;
    // The streaming reader words gzip, zip and I/O failures: let it read the member to say what is wrong.
    await readCsv(await openMember(member, folder, () => undefined, null), member.where, { onHeader: () => undefined, onRecord: () => undefined });
    throw new UserError(`${member.where}: cannot read (${error instanceof Error ? error.message : String(error)})`);
  }
  return headerOf(file, member);
}

/** Whether `error` is DuckDB's "Out of Memory Error" (its memory cap reached: nothing wrong with the files). */
export function isOutOfMemory(error: unknown): boolean {
  return error instanceof Error && /^Out of Memory Error/.test(error.message);
}

/**
 * After `read_csv` refused a kind's files: when DuckDB ran out of memory, says so (naming the
 * files it was reading); else the streaming reader's error for the first bad file, else DuckDB's wording.
 */
async function explainRefusal(members: VaersMember[], folder: VaersFolder, error: unknown): Promise<UserError> {
  const files = members.map((m) => m.where).join(', ');
  if (isOutOfMemory(error)) {
    return new UserError(`${files}: out of memory while DuckDB's read_csv read them (${error instanceof Error ? error.message.split('\n')[0] : ''})`);
  }
  for (const member of members) {
    try {
      await readCsv(await openMember(member, folder, () => undefined, null), member.where, { onHeader: () => undefined, onRecord: () => undefined });
    } catch (e) {
      if (e instanceof UserError) return e;
      throw e;
    }
  }
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new UserError(`${files}: not valid CSV (${message})`);
}

/**
 * What a load reports while it reads: `hashes` sees every file's bytes on disk (the sources' sha256,
 * sources.ts SourceHashes), `onProgress` hears each CSV's progress (its `fileIndex` counts in
 * the load's order: every DATA file, then every VAX, then every SYMPTOMS file).
 */
export interface LoadReading {
  hashes?: SourceHashes;
  onProgress?: (event: VaersProgress) => void;
  /** Hears each kind's `read_csv` as it begins (`read_csv DATA`, ...). */
  onStepStart?: (step: string) => void;
}

/** Each group's header (csv.ts ColumnIndex: upper-cased trimmed name -> its position in the file), per kind, index = group. */
export type VaersHeaders = Record<VaersKind, ColumnIndex[]>;

/**
 * Loads every CSV of `folder` into `raw_data`, `raw_vax` and `raw_symptoms` of `connection`
 * (replacing them), every column as VARCHAR plus `grp` (INTEGER, group index in reading order) and
 * `line` (INTEGER, the physical line the record starts on, as csv.ts numbers it);
 * scratch files go to `scratch` (a folder that exists) and are removed before returning; `onStep`
 * hears the seconds of each kind's transcoding and `read_csv` (bench/read-duckdb.ts); `reading`: see LoadReading.
 * Returns each file's header (the columns a group's file has, as the streaming reader maps them).
 * @throws UserError naming the file (and the line where it applies), as the streaming reader does.
 */
export async function loadVaersTables(
  folder: VaersFolder, connection: DuckDBConnection, scratch: string, onStep?: (step: string, seconds: number) => void, reading: LoadReading = {},
): Promise<VaersHeaders> {
  let fileIndex = 0;
  const headers: VaersHeaders = { DATA: [], VAX: [], SYMPTOMS: [] };
  const files: string[] = [];
  try {
    for (const kind of ['DATA', 'VAX', 'SYMPTOMS'] as const) {
      const members = folder.groups.map((g) => g.members[kind]);
      const paths = members.map((_, group) => join(scratch, `g${String(group).padStart(5, '0')}-${kind}.csv`));
      let t0 = performance.now();
      for (const [i, member] of members.entries()) {
        files.push(paths[i]);
        headers[kind].push(await transcodeMember(member, folder, paths[i], reading, fileIndex++));
      }
      const sql = `CREATE OR REPLACE TABLE ${RAW_TABLES[kind]} AS
        SELECT CAST(regexp_extract(filename, 'g(\\d+)-[A-Z]+\\.csv$', 1) AS INTEGER) AS grp,
          CAST(${LINE_COLUMN} AS INTEGER) AS line, * EXCLUDE (filename, ${LINE_COLUMN})
        FROM read_csv([${paths.map(quote).join(', ')}], union_by_name = true, all_varchar = true, header = true,
          delim = ',', quote = '"', escape = '"', strict_mode = true, null_padding = false, filename = true,
          max_line_size = ${MAX_LINE_BYTES}, buffer_size = ${2 * MAX_LINE_BYTES}, normalize_names = false)`;
      onStep?.(`transcode ${kind}`, (performance.now() - t0) / 1000);
      reading.onStepStart?.(`read_csv ${kind}`);
      t0 = performance.now();
      try {
        await connection.run(sql);
      } catch (error) {
        throw await explainRefusal(members, folder, error);
      }
      onStep?.(`read_csv ${kind}`, (performance.now() - t0) / 1000);
      for (const path of paths) await rm(path, { force: true });
    }
    return headers;
  } finally {
    for (const path of files) await rm(path, { force: true });
  }
}
