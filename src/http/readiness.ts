/**
 * Readiness per analysis (docs/operations.md "Readiness per analysis"): which analyses of the
 * served store answer now (`ready`), which are being loaded (`loading`: the store file is complete,
 * its analyses load one after the other, the default first) and which are being built (`building`:
 * no store file yet). A route of an analysis not ready answers 503 with the Error object, naming
 * its state, and `Retry-After` (resource.ts); a route of a loading analysis of a served store
 * waits for its load instead (seconds). `/readyz` lists the three (health.ts).
 */
import { phaseText, type LiveStore } from './live-store.js';

/** The analyses of the served (or prepared) store by state; each name in exactly one list. */
export interface AnalysesReadiness {
  ready: string[];
  loading: string[];
  building: string[];
}

/**
 * Readiness of each analysis: with a served store, its loaded analyses are `ready` and the rest
 * `loading`, and while only the default store's first analysis is served, the others `building`
 * (LiveStore.building); without one, while the default store is prepared, every analysis of `names` (the
 * analyses it will hold) is `building` or, when the store file is complete, `loading`; with no
 * store and nothing prepared, or while the cache is looked up (`checking`), every list is empty.
 */
export function analysesReadiness(live: LiveStore, names: readonly string[]): AnalysesReadiness {
  const generation = live.current;
  if (generation) {
    const ready = generation.analyses.loadedNames;
    const building = live.building.filter((n) => !generation.analyses.names.includes(n));
    return { ready, loading: generation.analyses.names.filter((n) => !ready.includes(n)), building };
  }
  const state = live.preparing?.state;
  if (state === 'loading') return { ready: [], loading: [...names], building: [] };
  if (state === 'building' || state === 'waiting') return { ready: [], loading: [], building: [...names] };
  return { ready: [], loading: [], building: [] }; // no store, or the cache not looked up yet
}

/**
 * The Error message for analysis `name` when it is being built while the default store's first
 * analysis is served (LiveStore.building), else null: the route answers 503 with Retry-After
 * (resource.ts), never a 404 or another analysis's answer.
 */
export function buildingMessage(live: LiveStore, name: string): string | null {
  if (!live.building.includes(name)) return null;
  const where = live.preparing ? ` (phase ${phaseText(live.preparing)})` : '';
  return `analysis ${name} is being built${where}: the default store's first analysis (${live.current?.analyses.defaultName ?? 'the default'}) answers meanwhile; retry in a few seconds`;
}
