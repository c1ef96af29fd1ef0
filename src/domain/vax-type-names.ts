/**
 * The long names of the VAERS `VAX_TYPE` codes: the committed table
 * `data/vax-types/vax-types.csv` (columns `vax_type,name`; its sources and how the names were
 * written: `data/vax-types/README.md`). Used where a type-level analysis (items `vax_type`,
 * src/domain/analysis-rules.ts) matches a request's `vaccine` or `q`: the code or its long name.
 *
 * The table is read once, on the first call, from the repository's `data/vax-types` folder
 * (found relative to this module, so it works from `src/` under tsx and from `dist/` alike).
 * A code not in the table has no long name (it still matches by its code).
 */
import { tableOnce, tableRows } from './csv-table.js';

/** Where the table lives: `data/vax-types/vax-types.csv` at the repository root (two folders above this module). */
export const VAX_TYPE_TABLE_URL = new URL('../../data/vax-types/vax-types.csv', import.meta.url);

/**
 * Parses the table's CSV text (header `vax_type,name`) into code -> long name.
 * @throws Error naming the line for a missing code or name, or a code listed twice.
 */
export function parseVaxTypeTable(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const { cells, line } of tableRows(text)) {
    const code = cells.vax_type ?? '';
    const name = cells.name ?? '';
    if (!code || !name) throw new Error(`parseVaxTypeTable: line ${line} needs a vax_type and a name`);
    if (out.has(code)) throw new Error(`parseVaxTypeTable: line ${line} lists '${code}' a second time`);
    out.set(code, name);
  }
  return out;
}

/** Every code with its long name (read and checked on the first call; throws when the file is missing or invalid). */
export const vaxTypeNames: () => ReadonlyMap<string, string> = tableOnce(VAX_TYPE_TABLE_URL, parseVaxTypeTable);

/** The long name of a VAX_TYPE code (`FLU3` -> `INFLUENZA (SEASONAL) TRIVALENT`), or null when the table has none. */
export function vaxTypeName(code: string): string | null {
  return vaxTypeNames().get(code) ?? null;
}
