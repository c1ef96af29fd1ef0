/**
 * What identifies a served store and what a swap keeps: the store's build id (`store_build`,
 * deterministic: what a build made, not how it ran) and the features a replacement store must keep
 * (its analyses and narratives) for a live swap to go ahead unforced (src/http/live-store.ts).
 */
import { createHash } from 'node:crypto';
import type { StoreMeta } from '../../domain/store-schema.js';

/**
 * Metadata keys that say how a build ran rather than what it built: the build time, durations
 * (`seconds`, at any depth: the summary's phases, each analysis's fit and rows, the linkage),
 * the builder's peak memory and its worker count. They are left out of the store's build id.
 */
export const VOLATILE_META_KEYS: ReadonlySet<string> = new Set(['built_at', 'seconds', 'peakRssBytes', 'workers']);

/**
 * The metadata (or any part of it) without VOLATILE_META_KEYS, at any depth: what a build made, to
 * compare two stores' metadata (bench/compare-stores.ts, test/ingest/store/write-copy.test.ts).
 */
export function identityOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(identityOf);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !VOLATILE_META_KEYS.has(key)).map(([key, v]) => [key, identityOf(v)]));
}

/**
 * The store's build id: 12 hex digits of SHA-256 over its metadata as stored, less
 * VOLATILE_META_KEYS. What enters it: the source files (names, SHA-256), the build parameters, the
 * program version, the origin, the analyses with their counts and fits, the report and linkage
 * figures: so two builds of identical inputs by the same code have the same id (replicas that
 * build their own store agree on ETags and X-REPORTS-Build), and any change of input, code
 * version, parameter or result changes it.
 */
export function storeBuildId(meta: StoreMeta): string {
  return createHash('sha256').update(JSON.stringify(identityOf(meta))).digest('hex').slice(0, 12);
}

/**
 * What a swap from a store of metadata `current` to one of `next` would stop serving: the
 * analyses `next` lacks, and the narratives (text search, legal_share) when `current` kept them
 * and `next` did not. Empty when `next` serves at least as much.
 */
export function droppedFeatures(current: StoreMeta, next: StoreMeta): string[] {
  const names = (meta: StoreMeta): string[] => meta.analyses?.map((a) => a.name) ?? ['all'];
  const missing = names(current).filter((name) => !names(next).includes(name));
  const dropped = missing.length > 0 ? [`analyses ${missing.join(', ')}`] : [];
  if (current.parameters.narratives === true && next.parameters.narratives !== true) dropped.push('the narratives');
  return dropped;
}

