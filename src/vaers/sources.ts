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
import { UserError } from '../errors.js';
import { openZip, type OpenZip, type ZipMember } from './zip.js';

/** The three file kinds of one VAERS year (spec of the official files: VAERS data use guide). */
export type VaersKind = 'DATA' | 'VAX' | 'SYMPTOMS';
/** Kinds in the order a group is read: DATA first, so VAX and SYMPTOMS rows can be joined. */
export const KINDS: readonly VaersKind[] = ['DATA', 'VAX', 'SYMPTOMS'];
/** Group name of the NonDomestic files (they carry no year). */
export const NONDOMESTIC = 'NonDomestic';

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
  /** Name for error messages: the path, e.g. `data/AllVAERSDataCSVS.zip:1999VAERSDATA.csv`. */
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

/**
 * Lists the VAERS CSVs in `dir`, opening zips to list their members.
 * @throws UserError: folder missing or not a folder; no VAERS files; only NonDomestic files and
 *   `includeNondomestic` off; a year/kind found twice; a year missing one of DATA/VAX/SYMPTOMS;
 *   a VAERS zip that is corrupt or holds no VAERS CSV.
 */
export async function scanFolder(dir: string, includeNondomestic: boolean): Promise<VaersFolder> {
  let names: string[];
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) throw new UserError(`--vaers ${dir}: not a folder`);
    names = (await readdir(dir)).sort();
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`--vaers ${dir}: folder not found or not readable`);
  }

  const sources: FolderSource[] = [];
  const found = new Map<string, VaersMember>();
  let nondomesticSeen = false;
  const folder: VaersFolder = {
    groups: [],
    sources,
    close: () => {
      for (const s of sources) s.zip?.close();
      for (const s of sources) s.zip = null;
    },
  };

  const add = (member: Omit<VaersMember, 'source'>, source: FolderSource): void => {
    if (member.group === NONDOMESTIC) {
      nondomesticSeen = true;
      if (!includeNondomestic) return;
    }
    const key = `${member.group}/${member.kind}`;
    const before = found.get(key);
    if (before) {
      throw new UserError(
        `${dir}: ${member.group} VAERS${member.kind} found twice (${before.label} and ${member.label}); ` +
          'keep one copy, or the same reports would be counted twice',
      );
    }
    let index = sources.indexOf(source);
    if (index < 0) index = sources.push(source) - 1;
    found.set(key, { ...member, source: index });
  };

  try {
    for (const name of names) {
      const path = join(dir, name);
      const m = CSV_NAME.exec(name);
      if (m) {
        const bytes = (await stat(path)).size;
        const source: FolderSource = { name, path, bytes, zip: null };
        add({ group: groupName(m[1]), kind: m[2].toUpperCase() as VaersKind, label: name, where: path, bytesTotal: bytes, gzip: Boolean(m[3]), zipMember: null }, source);
      } else if (VAERS_ZIP.test(name)) {
        const zip = await openZip(path, path);
        const source: FolderSource = { name, path, bytes: (await stat(path)).size, zip };
        let vaersMembers = 0;
        for (const member of zip.members) {
          const base = basename(member.path);
          const mm = CSV_NAME.exec(base);
          if (!mm || mm[3] || base.startsWith('._')) continue;
          vaersMembers++;
          add({ group: groupName(mm[1]), kind: mm[2].toUpperCase() as VaersKind, label: `${name}:${base}`, where: `${path}:${base}`, bytesTotal: member.uncompressedSize, gzip: false, zipMember: member }, source);
        }
        if (!sources.includes(source)) zip.close();
        if (vaersMembers === 0) throw new UserError(`${path}: holds no VAERS CSV files (<YEAR>VAERSDATA.csv, ...)`);
      }
    }

    if (found.size === 0) {
      if (nondomesticSeen) throw new UserError(`${dir}: only NonDomestic VAERS files found; pass --include-nondomestic to read them`);
      throw new UserError(
        `${dir}: no VAERS files found (expected <YEAR>VAERSDATA.csv, <YEAR>VAERSVAX.csv, <YEAR>VAERSSYMPTOMS.csv, ` +
          'plain or .gz, or the official zips such as 2006VAERSData.zip or AllVAERSDataCSVS.zip)',
      );
    }

    const groupNames = [...new Set([...found.values()].map((m) => m.group))].sort((a, b) =>
      a === NONDOMESTIC ? 1 : b === NONDOMESTIC ? -1 : Number(a) - Number(b),
    );
    for (const group of groupNames) {
      const members = {} as Record<VaersKind, VaersMember>;
      for (const kind of KINDS) {
        const member = found.get(`${group}/${kind}`);
        if (!member) {
          const present = KINDS.map((k) => found.get(`${group}/${k}`)?.label).filter(Boolean).join(', ');
          const what = group === NONDOMESTIC ? 'NonDomestic' : `year ${group}`;
          throw new UserError(`${dir}: ${what} has ${present} but no VAERS${kind} file (${group}VAERS${kind}.csv, .csv.gz or in a zip)`);
        }
        members[kind] = member;
      }
      folder.groups.push({ group, members });
    }
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
