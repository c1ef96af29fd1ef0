/**
 * The export's files and limits (issue 45: "bulk exports that cannot starve the server or leak").
 *
 * - Each export file is written once per served store (generation), then served to every request
 *   for it until the generation closes, which removes its files ({@link Exports.of}: a dispose hook
 *   on the generation). Files live in the app's exports folder (src/serve/export/folder.ts).
 * - At most `limits.exports` export requests at once (waiting for their file or being sent);
 *   past it the route answers 503 with Retry-After ({@link Exports.admit}).
 * - At most `limits.writers` files written at once, each by a writer process
 *   (src/serve/export/copy.ts): the others wait their turn.
 * - A file being written for requests that have all left (their clients closed the connection)
 *   is stopped: its writer killed, its partial file removed.
 * - A client that stops reading for `limits.idleSeconds` is disconnected (the route).
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { ExportCancelled, WriterSlots } from './copy.js';
import { ExportFolder, exportsRoot, sweepDeadFolders } from './folder.js';

/** The export's limits (docs/operations.md, "Exports"). */
export interface ExportLimits {
  /** Export requests served at once (waiting for their file or being sent); past it 503. */
  exports: number;
  /** Export files written at once (one writer process each). */
  writers: number;
  /** Seconds a download may go without its client reading before the connection is closed. */
  idleSeconds: number;
}

/** The limits of a server (2 writers: the machine this runs on has 2 cores; 16 downloads of the 132 MB CSV use about 1 MB of buffers each). */
export const EXPORT_LIMITS: ExportLimits = { exports: 16, writers: 2, idleSeconds: 60 };

/** A written export file and its size in bytes. */
export interface ReadyFile {
  path: string;
  size: number;
}

/** What an export file's lifetime hangs on: a served store (src/http/live-store.ts Generation). */
export interface FilesOwner {
  /** 12 hex digits naming the store (the files' folder name). */
  readonly storeId: string;
  /** Runs `dispose` once when the owner closes (after its last request). */
  whenClosed(dispose: () => Promise<void>): void;
}

/** Writes one export file to `out`; rejects with ExportCancelled once `signal` aborts. */
export type WriteExport = (out: string, signal: AbortSignal) => Promise<void>;

interface Entry {
  ready: ReadyFile | null;
  done: Promise<ReadyFile>;
  waiters: number;
  stop: AbortController;
}

/** The export files of one generation (see the file comment). */
export class GenerationFiles {
  private readonly entries = new Map<string, Entry>();
  private dir: string | null = null;
  private serial = 0;
  private disposed = false;

  constructor(private readonly name: string, private readonly folder: ExportFolder, private readonly slots: WriterSlots) {}

  /** The file of `key` when it is written (a HEAD answers its size), else null. */
  ready(key: string): ReadyFile | null {
    return this.entries.get(key)?.ready ?? null;
  }

  /**
   * The file of `key` (its name `fileName`), written by `write` unless it already is or is being
   * written. Rejects with ExportCancelled when `signal` aborts first (and stops the writing when no
   * other request waits for it) or when the files are disposed of; with the writer's error when it
   * fails (the next request tries again).
   */
  obtain(key: string, fileName: string, write: WriteExport, signal: AbortSignal): Promise<ReadyFile> {
    if (this.disposed) return Promise.reject(new ExportCancelled());
    let entry = this.entries.get(key);
    if (entry?.ready) return Promise.resolve(entry.ready);
    if (!entry) entry = this.start(key, fileName, write);
    const waiting = entry;
    waiting.waiters++;
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        waiting.waiters--;
        signal.removeEventListener('abort', leave);
        return true;
      };
      const leave = (): void => {
        if (!settle()) return;
        if (waiting.waiters === 0 && !waiting.ready) waiting.stop.abort();
        reject(new ExportCancelled());
      };
      if (signal.aborted) return leave();
      signal.addEventListener('abort', leave, { once: true });
      waiting.done.then((file) => { if (settle()) resolve(file); }, (error: unknown) => { if (settle()) reject(error); });
    });
  }

  private start(key: string, fileName: string, write: WriteExport): Entry {
    const stop = new AbortController();
    this.dir ??= this.folder.subfolder(this.name);
    // One folder per file: the file, its `.part` while written and DuckDB's spills, removed together when the writing stops.
    const own = path.join(this.dir, String(++this.serial));
    const out = path.join(own, fileName);
    const entry: Entry = { ready: null, waiters: 0, stop, done: Promise.resolve(null as unknown as ReadyFile) };
    entry.done = (async () => {
      const release = await this.slots.acquire(stop.signal);
      try {
        await mkdir(own, { recursive: true });
        await write(out, stop.signal);
        if (stop.signal.aborted) throw new ExportCancelled();
        entry.ready = { path: out, size: (await stat(out)).size };
        return entry.ready;
      } finally {
        release();
      }
    })();
    entry.done.catch(async () => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      await rm(own, { recursive: true, force: true });
    });
    this.entries.set(key, entry);
    return entry;
  }

  /** Stops the files being written and removes every file (idempotent). */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const entry of this.entries.values()) entry.stop.abort();
    await Promise.allSettled([...this.entries.values()].map((e) => e.done));
    this.entries.clear();
    if (this.dir !== null) await rm(this.dir, { recursive: true, force: true });
  }
}

/** The exports of one app: its folder, its limits, and the files of each generation it served. */
export class Exports {
  readonly folder: ExportFolder;
  private readonly slots: WriterSlots;
  private admitted = 0;
  private readonly files = new Map<FilesOwner, GenerationFiles>();

  /** Removes the folders of dead processes (a crash) first (folder.ts sweepDeadFolders). */
  constructor(readonly limits: ExportLimits = EXPORT_LIMITS, root: string = exportsRoot()) {
    sweepDeadFolders(root);
    this.folder = new ExportFolder(root);
    this.slots = new WriterSlots(limits.writers);
  }

  /** Export requests admitted now. */
  get active(): number {
    return this.admitted;
  }

  /** Admits one export request: its release function (call it once, when the answer ends), or null past `limits.exports`. */
  admit(): (() => void) | null {
    if (this.admitted >= this.limits.exports) return null;
    this.admitted++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.admitted--;
    };
  }

  /** The files of `owner`, removed when it closes. */
  of(owner: FilesOwner): GenerationFiles {
    let files = this.files.get(owner);
    if (!files) {
      const created = new GenerationFiles(owner.storeId, this.folder, this.slots);
      this.files.set(owner, created);
      owner.whenClosed(async () => {
        this.files.delete(owner);
        await created.dispose();
      });
      files = created;
    }
    return files;
  }

  /** Stops every writer and removes the app's folder (at app close: SIGTERM, SIGINT). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.files.values()].map((f) => f.dispose()));
    this.files.clear();
    await this.folder.remove();
  }
}
