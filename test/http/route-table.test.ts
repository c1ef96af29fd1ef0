/**
 * The route table of `serve` (src/http/route-table.ts): the app's API catalog is exactly it, the
 * CLI's help of `serve` lists every resource of it, and a drift is named.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { routeTableDrift, SERVED_RESOURCES } from '../../src/http/route-table.js';
import { CLI } from '../helpers/paths.js';

describe('the route table of serve', () => {
  it('is the API catalog the app registers, in order', async () => {
    const app = await buildApp({ storePath: null });
    try {
      const res = await app.inject('/.well-known/api-catalog');
      expect(res.statusCode).toBe(200);
      expect(res.json().linkset.map((l: { anchor: string }) => l.anchor)).toEqual([...SERVED_RESOURCES]);
      expect(SERVED_RESOURCES).toContain('/triage');
    } finally {
      await app.close();
    }
  });

  it('is what the help of `serve` lists', () => {
    const help = execFileSync(process.execPath, [CLI, 'serve', '--help'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    for (const path of SERVED_RESOURCES) expect(help).toContain(path);
    expect(help).toContain('/interactions, /masking and /pipeline over a store');
  });

  it('names a drift between the registered routes and the table', () => {
    expect(routeTableDrift([...SERVED_RESOURCES])).toBeNull();
    expect(routeTableDrift(['/signals'])).toMatch(/^the routes registered as resources \(\/signals\) differ from the route table/);
  });
});
