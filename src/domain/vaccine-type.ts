/**
 * The one owner of the vax_type rule: the build (src/ingest/mining, src/ingest/store/import.ts) writes it
 * into the store and the signals service (src/serve/signals/catalog.ts) falls back on it for a
 * store whose vaccine rows lack a type.
 *
 * The vaccine type of a vaccine name (spec 2.1 `vax_type`): "Vaccine name with the
 * parenthetical product suffix removed (a name ending in a numeral-suffixed product form loses
 * that suffix; `COVID19` stays `COVID19`)".
 *
 * Rule, checked against every distinct `VAX_NAME` of the 1990-2006 release (148 names) and the
 * names of the current VAERS layout:
 * 1. The last parenthetical group at the end of the name is removed, with balanced parentheses,
 *    so nested groups go together: `COVID19 (COVID19 (PFIZER-BIONTECH))` -> `COVID19`,
 *    `HPV (GARDASIL 9)` -> `HPV`, `PNEUMO (PREVNAR13)` -> `PNEUMO`. Only one group goes:
 *    `INFLUENZA (SEASONAL) (FLUZONE)` -> `INFLUENZA (SEASONAL)`, which keeps the seasonal and
 *    the `INFLUENZA (H1N1)` types apart.
 * 2. A numeral suffix separated from the type by `-` or a space is removed too:
 *    `COVID19-2 (COVID19-2 (MODERNA))` (the bivalent product form) -> `COVID19`. A numeral
 *    glued to letters is part of the type's name and stays: `COVID19` stays `COVID19`.
 * A name without a trailing parenthetical group is its own type (trimmed); a name that would
 * become empty keeps itself.
 */
export function vaxType(vaxName: string): string {
  const name = vaxName.trim();
  let type = name;
  if (type.endsWith(')')) {
    let depth = 0;
    for (let i = type.length - 1; i >= 0; i--) {
      const ch = type[i];
      if (ch === ')') depth++;
      else if (ch === '(') {
        depth--;
        if (depth === 0) {
          type = type.slice(0, i).trimEnd();
          break;
        }
      }
    }
  }
  type = type.replace(/[-\s]+\d+$/, '').trimEnd();
  return type === '' ? name : type;
}
