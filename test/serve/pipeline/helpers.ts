/**
 * Shared setup for the /pipeline tests: a minimal Fastify app with only the pipeline plugin,
 * pointed at a fake registry, and a fixture data set the tests write to a temp file.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { pipelineRoutes } from '../../../src/http/pipeline-route.js';
import { apiStudy, type StudySpec } from './fake-ctgov.js';

/** A browser's Accept header (Chromium's). */
export const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8';

/** Builds an app serving only /pipeline against `baseUrl`. */
export async function pipelineApp(baseUrl: string, timeoutMs = 2000): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(pipelineRoutes, { baseUrl, timeoutMs });
  await app.ready();
  return app;
}

/** A hostile title: must be shown as text, never run. */
export const HOSTILE_TITLE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> & "quotes" | pipes';

/** The fixture registry (test-written). Pfizer family, near-misses and role cases. */
export const FIXTURE_STUDIES: StudySpec[] = [
  { nct: 'NCT00000001', lead: 'Pfizer', status: 'RECRUITING', phases: ['PHASE3'], title: 'Pfizer phase 3 recruiting' },
  { nct: 'NCT00000002', lead: 'Pfizer Inc.', status: 'NOT_YET_RECRUITING', phases: ['PHASE1', 'PHASE2'] },
  { nct: 'NCT00000003', lead: 'Pfizer', status: 'COMPLETED', phases: ['PHASE2'] },
  { nct: 'NCT00000004', lead: 'Pfizer', status: 'ACTIVE_NOT_RECRUITING' },
  { nct: 'NCT00000005', lead: 'Pfizer', status: 'ENROLLING_BY_INVITATION', phases: ['EARLY_PHASE1'] },
  { nct: 'NCT00000006', lead: 'Pfizer', status: 'TERMINATED', phases: ['PHASE4'] },
  { nct: 'NCT00000007', lead: 'Pfizer', status: 'RECRUITING', phases: ['NA'] },
  { nct: 'NCT00000008', lead: 'Pfizerville Biologics', status: 'RECRUITING', phases: ['PHASE3'] },
  { nct: 'NCT00000009', lead: 'Acme University', collaborators: ['Pfizer'], status: 'RECRUITING', phases: ['PHASE2'] },
  { nct: 'NCT00000010', lead: 'Pfizer', collaborators: ['Pfizer Inc.'], status: 'RECRUITING', phases: ['PHASE3'] },
  { nct: 'NCT00000011', lead: 'Wyeth', status: 'RECRUITING', phases: ['PHASE3'] },
  { nct: 'NCT00000012', lead: 'Merck Sharp & Dohme LLC', collaborators: ['Pfizer'], status: 'COMPLETED', phases: ['PHASE3'] },
  { nct: 'NCT00000014', lead: 'Pfizer', status: 'RECRUITING', phases: ['PHASE2'], title: HOSTILE_TITLE },
];

/** Writes the fixture registry (API v2 study objects) to a temp JSON file; returns its path. */
export function writeFixture(studies: StudySpec[] = FIXTURE_STUDIES): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pipeline-fixture-'));
  const file = path.join(dir, 'studies.json');
  writeFileSync(file, JSON.stringify(studies.map(apiStudy)));
  return file;
}

/** NCT ids of a JSON /pipeline body, in order. */
export function ids(body: { studies: { nct_id: string }[] }): string[] {
  return body.studies.map((s) => s.nct_id);
}
