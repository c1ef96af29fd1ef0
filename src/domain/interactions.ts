/**
 * Co-reported vaccines (docs/interactions.md): the words shared by the build and the server for
 * the Omega interaction measure (src/stats/omega.ts) and the masking ratio (src/stats/masking.ts):
 * the `interactions` table of the store, its row shape, the bound on co-reporting and the caveat.
 */

/**
 * The bound of the build: Omega is computed for the vaccine pairs named together on at least this
 * many reports of the window (n11. >= MIN_CO_REPORTS), and stored for each event named on at
 * least MIN_TRIPLE_REPORTS of their co-reports. The cost of the bound is measured by bench/interactions.ts
 * (docs/interactions.md "Cost").
 */
export const MIN_CO_REPORTS = 10;

/**
 * Triples are stored from this many reports on (n111 >= 3): with fewer, Omega025 <= 0 whatever
 * E111 (at n111 = 2 and E111 = 0 the 2.5% quantile of Gamma(2.5, rate 0.5) is 0.83 < 1, so
 * Omega025 = -0.27), so such a triple is never a signal; leaving them out stores about 3.5 times
 * fewer rows (bench/interactions.ts). A window without a stored row of a triple is one where the
 * pair was co-reported on fewer than MIN_CO_REPORTS reports or the triple on fewer than 3.
 */
export const MIN_TRIPLE_REPORTS = 3;

/** Why both measures need a caveat: what every answer carrying them says. */
export const INTERACTION_CAVEAT =
  'Omega and the masking ratio describe how vaccines are reported together in VAERS, not a biological interaction or a masked risk: ' +
  'vaccines given at one visit are reported together, and a high Omega or masking ratio is a hypothesis for review, not a finding.';

/**
 * The counts of one triple (V1, V2, E) in one window, in reports: the margins of the 2x2x2
 * table. `n11` (n11.) names V1 and V2; `n1_1` (n1.1) V1 and E; `n_11` (n.11) V2 and E;
 * `n1` (n1..) V1; `n_1` (n.1.) V2; `n__1` (n..1) E; `N` every report of the window.
 */
export interface OmegaCounts {
  n111: number;
  n11: number;
  n1_1: number;
  n_11: number;
  n1: number;
  n_1: number;
  n__1: number;
  N: number;
}

/** Omega of one triple (src/stats/omega.ts): the baseline share g11, the expected count E111 and Omega with its 95% credibility interval (log2 units). */
export interface OmegaResult {
  g11: number;
  e111: number;
  omega: number;
  omega025: number;
  omega975: number;
}

/** One stored triple (V1, V2, E) in one window, V1 < V2 (UTF-16 order); counts in reports. */
export interface InteractionRow extends OmegaCounts, OmegaResult {
  analysis: string;
  /** The window's last quarter (`YYYYQn`). */
  quarter: string;
  vaccine1: string;
  vaccine2: string;
  event: string;
}

/** The columns of the `interactions` table, in order, with their DuckDB types. */
export const INTERACTION_COLUMNS: ReadonlyArray<readonly [keyof InteractionRow, 'VARCHAR' | 'INTEGER' | 'DOUBLE']> = [
  ['analysis', 'VARCHAR'], ['quarter', 'VARCHAR'], ['vaccine1', 'VARCHAR'], ['vaccine2', 'VARCHAR'], ['event', 'VARCHAR'],
  ['n111', 'INTEGER'], ['n11', 'INTEGER'], ['n1_1', 'INTEGER'], ['n_11', 'INTEGER'], ['n1', 'INTEGER'], ['n_1', 'INTEGER'],
  ['n__1', 'INTEGER'], ['N', 'INTEGER'], ['g11', 'DOUBLE'], ['e111', 'DOUBLE'], ['omega', 'DOUBLE'], ['omega025', 'DOUBLE'], ['omega975', 'DOUBLE'],
];

/** The table's name in the store. */
export const INTERACTIONS_TABLE = 'interactions';

/** DDL of the `interactions` table (a store built before it has none: the server then answers 503 for it). */
export const INTERACTIONS_SQL = `CREATE TABLE ${INTERACTIONS_TABLE} (${INTERACTION_COLUMNS.map(([name, type]) => `"${name}" ${type} NOT NULL`).join(', ')});`;
