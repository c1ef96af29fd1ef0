/**
 * Reading a store's own rows in tests: the reference the serving read (src/store/serving.ts) is
 * checked against.
 */
import type { Store } from '../../src/store/read.js';
import type { QuarterlyRow } from '../../src/store/schema.js';

/** The quarterly rows of the pair (drug, event) as the store holds them, quarters ascending (spec 2.3). */
export async function storeSeries(store: Store, drug: string, event: string): Promise<QuarterlyRow[]> {
  const rows: QuarterlyRow[] = [];
  await store.forEachQuarterlyRow((row) => {
    if (row.drug === drug && row.event === event) rows.push(row);
  });
  return rows;
}
