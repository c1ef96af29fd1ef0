/**
 * collectGarbage (src/serve/generation/collect.ts): a full collection on demand, run after a
 * retired store generation closes, so that what it held goes at once.
 */
import { describe, expect, it, vi } from 'vitest';
import { collectGarbage } from '../../../src/serve/generation/collect.js';

const SIZE = 64 * 2 ** 20;
type Box = { held: Uint8Array | null };
// The buffer is made, read and dropped in functions of their own: a temporary in the test's own frame
// (an interpreter register) would keep it reachable through the collection.
const fill = (box: Box): void => { box.held = new Uint8Array(SIZE).fill(1); };
const last = (box: Box): number | undefined => box.held?.[SIZE - 1];
const drop = (box: Box): void => { box.held = null; };

describe('collectGarbage', () => {
  it('frees an unreachable 64 MiB ArrayBuffer at once (V8 would keep it until it needed memory)', async () => {
    const box: Box = { held: null };
    fill(box);
    const before = process.memoryUsage().arrayBuffers;
    expect(before).toBeGreaterThanOrEqual(SIZE);
    expect(last(box)).toBe(1);
    drop(box);
    await new Promise((done) => setImmediate(done)); // nothing of this turn left on the stack
    expect(collectGarbage()).toBe(true);
    // V8 frees a collected buffer's memory on a background thread, right after the collection.
    await vi.waitFor(() => expect(process.memoryUsage().arrayBuffers).toBeLessThanOrEqual(before - SIZE), { timeout: 2000, interval: 20 });
  });
});
