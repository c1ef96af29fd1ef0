/**
 * Finding the official VAERS files in a folder and opening them as byte streams.
 *
 * A folder may hold, in any mix: `<YEAR>VAERSDATA.csv`, `<YEAR>VAERSVAX.csv`,
 * `<YEAR>VAERSSYMPTOMS.csv` (plain or `.gz`), `NonDomesticVAERS{DATA,VAX,SYMPTOMS}.csv`, and the
 * official zips as downloaded (per-year `2006VAERSData.zip`, all-years `AllVAERSDataCSVS.zip`;
 * any `*.zip` whose name contains "VAERS"). Names match case-insensitively; members of a zip
 * match by their base name. Files that match none of these are ignored.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { createHash, type Hash } from 'node:crypto';
import { basename, join } from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { UserError } from '../../domain/user-error.js';
import { openZip, type OpenZip, type ZipMember } from './zip.js';

/** The three file kinds of one VAERS year (spec of the official files: VAERS data use guide). */
export type VaersKind = 'DATA' | 'VAX' | 'SYMPTOMS';
/** Kinds in the order a group is read: DATA first, so VAX and SYMPTOMS rows can be joined. */
const KINDS: readonly VaersKind[] = ['DATA', 'VAX', 'SYMPTOMS'];
/** Group name of the NonDomestic files (they carry no year). */
const NONDOMESTIC = 'NonDomestic';

const CSV_NAME = /^(\d{4}|nondomestic)vaers(data|vax|symptoms)\.csv(\.gz)?$/i;
const VAERS_ZIP = /vaers.*\.zip$/i;
/** Read size for files on disk: large reads cut thread-pool round trips. */
const READ_CHUNK = 1 << 20;

/** One CSV to read: a file on disk (plain or gzip) or a member of a zip. */
export interface VaersMember {
  /** `1999` or `NonDomestic`. */
  group: string;
  kind: VaersKind;
  /** Short name for examples: `1999VAERSDATA.csv.gz`, `AllVAERSDataCSVS.zip:1999VAERSDATA.csv`. */
  label: string;
  /** Name for error messages: the path, e.g. `~/vaers/AllVAERSDataCSVS.zip:1999VAERSDATA.csv`. */
  where: string;
  /** Index into `VaersFolder.sources` of the file on disk this CSV comes from. */
  source: number;
  /** Bytes the progress counts against: file size on disk, or the member's uncompressed size. */
  bytesTotal: number;
  gzip: boolean;
  zipMember: ZipMember | null;
}

/** A file on disk that feeds the read; `sha256` and `bytes` are filled while streaming. */
export interface FolderSource {
  name: string;
  path: string;
  bytes: number;
  zip: OpenZip | null;
}

/** What `scanFolder` found: groups in reading order (years ascending, NonDomestic last). */
export interface VaersFolder {
  groups: { group: string; members: Record<VaersKind, VaersMember> }[];
  sources: FolderSource[];
  /** Closes the open zips. Safe to call more than once. */
  close(): void;
}

function groupName(raw: string): string {
  return /^nondomestic$/i.test(raw) ? NONDOMESTIC : raw;
}

/** The entries of `dir`, sorted. @throws UserError when it is missing or not a folder. */
async function listFolder(dir: string): Promise<string[]> {
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) throw new UserError(`--vaers ${dir}: not a folder`);
    return (await readdir(dir)).sort();
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`--vaers ${dir}: folder not found or not readable`);
  }
}

/** Groups in reading order: years ascending, NonDomestic last. */
function byReadingOrder(a: string, b: string): number {
  return a === NONDOMESTIC ? 1 : b === NONDOMESTIC ? -1 : Number(a) - Number(b);
}

/**
 * What a scan of one folder has found so far: the CSVs by group and kind, and the files on disk
 * they come from (`sources`, in the order their first CSV was found).
 */
class FolderScan {
  readonly sources: FolderSource[] = [];
  private readonly found = new Map<string, VaersMember>();
  private nondomesticSeen = false;

  constructor(
    private readonly dir: string,
    private readonly includeNondomestic: boolean,
  ) {}

  /** Adds the file `name` of the folder when it is a VAERS CSV or a VAERS zip; ignores others. */
  async addFile(name: string): Promise<void> {
    const path = join(this.dir, name);
    const m = CSV_NAME.exec(name);
    if (m) await this.addCsv(name, path, m);
    else if (VAERS_ZIP.test(name)) await this.addZip(name, path);
  }

  /** A plain or gzip CSV on disk (`m`: its CSV_NAME match). */
  private async addCsv(name: string, path: string, m: RegExpExecArray): Promise<void> {
    const bytes = (await stat(path)).size;
    const source: FolderSource = { name, path, bytes, zip: null };
    this.add({ group: groupName(m[1]), kind: m[2].toUpperCase() as VaersKind, label: name, where: path, bytesTotal: bytes, gzip: Boolean(m[3]), zipMember: null }, source);
  }

  /** The VAERS CSVs inside a zip (matched by base name; `.gz` members and `._` resource forks skipped). */
  private async addZip(name: string, path: string): Promise<void> {
    const zip = await openZip(path, path);
    const source: FolderSource = { name, path, bytes: (await stat(path)).size, zip };
    let vaersMembers = 0;
    for (const member of zip.members) {
      const base = basename(member.path);
      const mm = CSV_NAME.exec(base);
      if (!mm || mm[3] || base.startsWith('._')) continue;
      vaersMembers++;
      this.add({ group: groupName(mm[1]), kind: mm[2].toUpperCase() as VaersKind, label: `${name}:${base}`, where: `${path}:${base}`, bytesTotal: member.uncompressedSize, gzip: false, zipMember: member }, source);
    }
    if (!this.sources.includes(source)) zip.close();
    if (vaersMembers === 0) throw new UserError(`${path}: holds no VAERS CSV files (<YEAR>VAERSDATA.csv, ...)`);
  }

  /** Records one CSV (NonDomestic ones only with `includeNondomestic`). @throws UserError when its group and kind were already found. */
  private add(member: Omit<VaersMember, 'source'>, source: FolderSource): void {
    if (member.group === NONDOMESTIC) {
      this.nondomesticSeen = true;
      if (!this.includeNondomestic) return;
    }
    const key = `${member.group}/${member.kind}`;
    const before = this.found.get(key);
    if (before) {
      throw new UserError(
        `${this.dir}: ${member.group} VAERS${member.kind} found twice (${before.label} and ${member.label}); ` +
          'keep one copy, or the same reports would be counted twice',
      );
    }
    let index = this.sources.indexOf(source);
    if (index < 0) index = this.sources.push(source) - 1;
    this.found.set(key, { ...member, source: index });
  }

  /**
   * The groups found, in reading order, each with its three kinds.
   * @throws UserError when nothing was found, or a group misses a kind.
   */
  groups(): VaersFolder['groups'] {
    this.requireSomething();
    const groupNames = [...new Set([...this.found.values()].map((m) => m.group))].sort(byReadingOrder);
    return groupNames.map((group) => ({ group, members: this.membersOf(group) }));
  }

  /** @throws UserError when no VAERS CSV was found (saying so when only NonDomestic files were left out). */
  private requireSomething(): void {
    if (this.found.size > 0) return;
    if (this.nondomesticSeen) throw new UserError(`${this.dir}: only NonDomestic VAERS files found; pass --include-nondomestic to read them`);
    throw new UserError(
      `${this.dir}: no VAERS files found (expected <YEAR>VAERSDATA.csv, <YEAR>VAERSVAX.csv, <YEAR>VAERSSYMPTOMS.csv, ` +
        'plain or .gz, or the official zips such as 2006VAERSData.zip or AllVAERSDataCSVS.zip)',
    );
  }

  /** The DATA, VAX and SYMPTOMS members of `group`. @throws UserError naming the missing kind. */
  private membersOf(group: string): Record<VaersKind, VaersMember> {
    const members = {} as Record<VaersKind, VaersMember>;
    for (const kind of KINDS) {
      const member = this.found.get(`${group}/${kind}`);
      if (!member) {
        const present = KINDS.map((k) => this.found.get(`${group}/${k}`)?.label).filter(Boolean).join(', ');
        const what = group === NONDOMESTIC ? 'NonDomestic' : `year ${group}`;
        throw new UserError(`${this.dir}: ${what} has ${present} but no VAERS${kind} file (${group}VAERS${kind}.csv, .csv.gz or in a zip)`);
      }
      members[kind] = member;
    }
    return members;
  }
}

/**
 * Lists the VAERS CSVs in `dir`, opening zips to list their members.
 * @throws UserError: folder missing or not a folder; no VAERS files; only NonDomestic files and
 *   `includeNondomestic` off; a year/kind found twice; a year missing one of DATA/VAX/SYMPTOMS;
 *   a VAERS zip that is corrupt or holds no VAERS CSV.
 */
export async function scanFolder(dir: string, includeNondomestic: boolean): Promise<VaersFolder> {
  const names = await listFolder(dir);
  const scan = new FolderScan(dir, includeNondomestic);
  const sources = scan.sources;
  const folder: VaersFolder = {
    groups: [],
    sources,
    close: () => {
      for (const s of sources) s.zip?.close();
      for (const s of sources) s.zip = null;
    },
  };
  try {
    for (const name of names) await scan.addFile(name);
    folder.groups = scan.groups();
    return folder;
  } catch (error) {
    folder.close();
    throw error;
  }
}

/** Byte-counting pass-through that also feeds an optional hash. */
class Tap extends Transform {
  constructor(private readonly onChunk: (chunk: Buffer) => void) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.onChunk(chunk);
    done(null, chunk);
  }
}

/**
 * The byte stages of one member for `readCsv`: source stream, counter (and hash for files on
 * disk), gunzip for `.gz`. `onBytes(n)` receives the running count of bytes against
 * `member.bytesTotal`; `hash`, when given, sees the file's raw bytes (a file's own sha256).
 */
export async function openMember(
  member: VaersMember,
  folder: VaersFolder,
  onBytes: (bytesRead: number) => void,
  hash: Hash | null,
): Promise<[Readable, ...NodeJS.ReadWriteStream[]]> {
  let count = 0;
  const tap = new Tap((chunk) => {
    hash?.update(chunk);
    count += chunk.length;
    onBytes(count);
  });
  if (member.zipMember) {
    const zip = folder.sources[member.source].zip;
    if (!zip) throw new UserError(`${member.label}: zip already closed`);
    return [await zip.open(member.zipMember), tap];
  }
  const file = createReadStream(folder.sources[member.source].path, { highWaterMark: READ_CHUNK });
  return member.gzip ? [file, tap, createGunzip()] : [file, tap];
}

/** Streams a whole file through sha256 (used for zips, which are read by random access). */
export function hashFile(path: string): { done: Promise<string>; cancel(): void } {
  const hash = createHash('sha256');
  const stream = createReadStream(path);
  const done = new Promise<string>((resolve, reject) => {
    stream.on('data', (chunk) => hash.update(chunk));
    stream.on('end', () => resolve(hash.digest('hex')));
    stream.on('error', (e) => reject(new UserError(`${path}: cannot read (${e.message})`)));
  });
  done.catch(() => undefined);
  return { done, cancel: () => stream.destroy() };
}

/** A file on disk the data came from (a CSV, a .gz or a zip as found in the folder), for the build metadata. */
export interface SourceFile {
  /** File name within the folder, e.g. `1999VAERSDATA.csv.gz` or `AllVAERSDataCSVS.zip`. */
  name: string;
  /** sha256 of the file's bytes on disk (of the .gz or .zip itself), lower-case hex. */
  sha256: string;
  /** Size on disk in bytes. */
  bytes: number;
}

/**
 * The sha256 of every file of a folder, taken while it is read: a plain or .gz file's by its one
 * member's reading (`of`, given to openMember), a zip's by a read of its own started at once
 * (its members are read by random access). `list()` once every member was read; `cancel()` on failure.
 */
export class SourceHashes {
  private readonly zips: Array<ReturnType<typeof hashFile> | null>;
  private readonly files: Array<Hash | null>;

  constructor(private readonly folder: VaersFolder) {
    this.zips = folder.sources.map((s) => (s.zip ? hashFile(s.path) : null));
    this.files = folder.sources.map((s) => (s.zip ? null : createHash('sha256')));
  }

  /** The hash that sees `member`'s bytes on disk (openMember's `hash`), or null for a zip member. */
  of(member: VaersMember): Hash | null {
    return this.files[member.source];
  }

  /** The folder's files in name order with their sha256 and size. */
  async list(): Promise<SourceFile[]> {
    const sources: SourceFile[] = [];
    for (const [i, s] of this.folder.sources.entries()) {
      const zip = this.zips[i];
      sources.push({ name: s.name, sha256: zip ? await zip.done : (this.files[i] as Hash).digest('hex'), bytes: s.bytes });
    }
    return sources;
  }

  /** Stops the zips' own reads. */
  cancel(): void {
    for (const h of this.zips) h?.cancel();
  }
}

/**
 * Progress of a read, for progress bars (the readers print nothing). Sent when a CSV starts,
 * about every MiB, and when it ends. `file` is the CSV's short name (`2006VAERSDATA.csv.gz`,
 * `AllVAERSDataCSVS.zip:2006VAERSDATA.csv`); `bytesRead`/`bytesTotal` count the file's bytes on
 * disk for plain and .gz files, and the uncompressed bytes for zip members; `phase` is the kind
 * being read (`DATA`, `VAX` or `SYMPTOMS`). Added: `fileIndex` (0-based) of `fileCount` CSVs.
 */
export interface VaersProgress {
  file: string;
  bytesRead: number;
  bytesTotal: number | null;
  phase: string;
  fileIndex: number;
  fileCount: number;
}

const PROGRESS_STEP = 1 << 20;

/**
 * The progress events of one CSV (VaersProgress): sends the start at once; `bytes` is openMember's
 * `onBytes` (an event about every MiB); `end()` sends the last count.
 */
export function memberProgress(
  member: VaersMember, fileIndex: number, fileCount: number, onProgress: ((event: VaersProgress) => void) | undefined,
): { bytes: (bytesRead: number) => void; end: () => void } {
  const report = (bytesRead: number): void =>
    onProgress?.({ file: member.label, bytesRead, bytesTotal: member.bytesTotal, phase: member.kind, fileIndex, fileCount });
  let last = 0;
  let total = 0;
  report(0);
  return {
    bytes: (bytesRead) => {
      total = bytesRead;
      if (bytesRead - last >= PROGRESS_STEP) {
        last = bytesRead;
        report(bytesRead);
      }
    },
    end: () => report(total),
  };
}
