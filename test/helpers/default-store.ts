/**
 * The real default store of the test run (built once by test/global-setup.ts from data/vaers
 * into the cache): its path, or null with the message a skipping test prints.
 */
import { inject } from 'vitest';

/** The default store's path, or null when data/vaers is absent (then `skipMessage` says so). */
export const DEFAULT_STORE: string | null = inject('defaultStorePath');

/** Prints why `what` is skipped when there is no default store; returns whether it is there. */
export function hasDefaultStore(what: string): boolean {
  if (DEFAULT_STORE === null) console.warn(`${what} skipped: no default store (data/vaers is absent; test/global-setup.ts builds it from there)`);
  return DEFAULT_STORE !== null;
}
