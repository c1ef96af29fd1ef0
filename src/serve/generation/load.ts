/**
 * Loading one store file as a Generation (generation.ts): the file opened and held, its metadata
 * read and checked, its identity (identity.ts storeBuildId) and build id (build-id.ts), the
 * default analysis loaded before this resolves, the other analyses and the case series after
 * (`Generation.complete`). src/http/live-store.ts loads a store beside the served one with it.
 */
import { performance } from 'node:perf_hooks';
import { CasesService } from '../cases/service.js';
import { AnalysesService } from '../signals/analyses.js';
import { eventGroupsOfMeta } from '../store/event-groups.js';
import { OpenStore, readStoreMeta } from '../store/serving.js';
import { buildId } from './build-id.js';
import { Generation } from './generation.js';
import { storeBuildId } from './identity.js';

/**
 * Loads the store at `path`; resolves once its default analysis is loaded (the rest continue in
 * `complete`). @throws Error when the file cannot be opened or its metadata or default analysis read.
 */
export async function loadGeneration(path: string): Promise<Generation> {
  const started = performance.now();
  const store = await OpenStore.open(path);
  try {
    const meta = await readStoreMeta(store);
    const analyses = await AnalysesService.open(path, meta);
    const cases = CasesService.open(path, meta.reports_through, eventGroupsOfMeta(meta));
    cases.catch(() => undefined);
    const storeId = storeBuildId(meta);
    return new Generation(path, meta, storeId, buildId(storeId), analyses, cases, started, store);
  } catch (error) {
    store.close();
    throw error;
  }
}
