/**
 * `reporting-signals import --quarterly FILE --out STORE`: a store from a quarterly signals
 * table computed elsewhere (no VAERS files needed). A thin command over `src/ingest/store/import.ts`, which
 * documents the accepted columns and values.
 */
import { importQuarterly } from '../ingest/store/import.js';

/** Options of `import` as parsed by the CLI. */
export interface ImportOptions {
  quarterly: string;
  out: string;
}

/** CLI entry: imports and prints a one-line summary on standard error. */
export async function runImport(options: ImportOptions): Promise<void> {
  const summary = await importQuarterly(options.quarterly, options.out);
  process.stderr.write(
    `import: ${summary.rows} rows, ${summary.pairs} pairs, ${summary.vaccines} vaccines, reports through ` +
    `${summary.reportsThrough ?? '-'}, ic025 ${summary.hasIc025 ? 'present' : 'absent'} -> ${options.out}\n`,
  );
}
