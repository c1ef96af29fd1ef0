/**
 * collectGarbage (src/serve/generation/collect.ts): a full collection on demand, run after a
 * retired store generation closes, so that what it held goes at once.
 */
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../../src/serve/generation/collect.js';

describe('collectGarbage', () => {
  it('frees an unreachable 64 MiB ArrayBuffer at once (V8 would keep it until it needed memory)', () => {
    const size = 64 * 2 ** 20;
    const box: { held: Uint8Array | null } = { held: new Uint8Array(size).fill(1) };
    const before = process.memoryUsage().arrayBuffers;
    expect(before).toBeGreaterThanOrEqual(size);
    expect(box.held?.[size - 1]).toBe(1);
    box.held = null;
    expect(collectGarbage()).toBe(true);
    expect(process.memoryUsage().arrayBuffers).toBeLessThanOrEqual(before - size);
  });
});
