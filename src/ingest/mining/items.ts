/**
 * The items of an analysis (src/domain/analysis-rules.ts `ItemKind`): what each kept report
 * counts as its vaccines, before counting (src/ingest/mining/counts.ts).
 *
 * - `vaccine`: the products, the reader's distinct `VAX_NAME` indexes (`VaersData.reports[i].vaccines`).
 * - `vax_type`: the VAERS `VAX_TYPE` codes of the report's VAX rows (each row's own `VAX_TYPE`
 *   cell, as the VAERS data use guide defines it), each code once per report however many
 *   products of that type it names: the items of Oracle Empirica Signal's VAERS runs. A VAX
 *   row with a blank `VAX_TYPE` names no type; a report none of whose rows has one names no
 *   item and is not counted in that analysis.
 */
import type { ItemKind } from '../../domain/analysis-rules.js';
import type { VaersData } from '../vaers/read.js';

/** The items of every kept report: item names and, per report (index as `VaersData.reports`), its distinct ascending item indexes. */
export interface ReportItems {
  /** Item names (products, or VAX_TYPE codes sorted by UTF-16 code units). */
  names: readonly string[];
  /** Report i's items: distinct, ascending indexes into `names` (possibly empty for `vax_type`). */
  lists: ReadonlyArray<readonly number[]>;
}

/**
 * The items of `kind` of every report of `data` (read from `data.reports` for products and from
 * the VAX rows of `data.details` for types; both share the report index).
 */
export function reportItems(data: VaersData, kind: ItemKind): ReportItems {
  if (kind === 'vaccine') return { names: data.vaccines, lists: data.reports.map((r) => r.vaccines) };
  const { start, type } = data.details.vaccines;
  const { strings } = data.details;
  // The codes by their string numbers, then numbered in sorted order.
  const codeOfString = new Map<number, string>();
  for (const s of type) if (s >= 0 && !codeOfString.has(s)) codeOfString.set(s, strings[s]);
  const names = [...new Set(codeOfString.values())].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const indexOfName = new Map(names.map((name, i) => [name, i]));
  const indexOfString = new Map([...codeOfString].map(([s, code]) => [s, indexOfName.get(code)!]));
  const lists: number[][] = [];
  for (let i = 0; i + 1 < start.length; i++) {
    const own = new Set<number>();
    for (let row = start[i]; row < start[i + 1]; row++) if (type[row] >= 0) own.add(indexOfString.get(type[row])!);
    lists.push([...own].sort((a, b) => a - b));
  }
  return { names, lists };
}
