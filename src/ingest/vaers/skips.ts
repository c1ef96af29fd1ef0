/**
 * Tally of what the reader left out and why, with a few examples each, for the
 * build summary (reports skipped and why).
 */

/** One reason with its count and up to `MAX_EXAMPLES` examples. Same shape as `SkipReason`. */
export interface SkipCount {
  reason: string;
  count: number;
  examples: string[];
}

/** Examples kept per reason. */
export const MAX_EXAMPLES = 5;

/**
 * The reasons, worded with their unit. Each DATA record that is read lands in exactly one of:
 * kept, `BAD_ID` (DATA), `EARLIER_VERSION_DATA`, `DUPLICATE_ID`, `BAD_RECVDATE`, `NO_VACCINE`, `NO_EVENT`
 * (follow-up versions: versions.ts).
 */
export const SKIP = {
  BAD_RECVDATE: 'report skipped: RECVDATE missing or not a MM/DD/YYYY date',
  NO_VACCINE: 'report skipped: no VAX row with a VAX_NAME',
  NO_EVENT: 'report skipped: no SYMPTOMS row with a term in SYMPTOM1..5',
  DUPLICATE_ID: 'DATA row skipped: VAERS_ID already read (first row kept)',
  BAD_ID: 'row skipped: VAERS_ID not an integer',
  VAX_ORPHAN: 'VAX row skipped: VAERS_ID not in DATA',
  SYMPTOMS_ORPHAN: 'SYMPTOMS row skipped: VAERS_ID not in DATA',
  EARLIER_VERSION_DATA: "DATA row skipped: an earlier version (the report's latest version, with its own DATA row, is in a later year's files)",
  VAX_EARLIER_VERSION: "VAX row skipped: an earlier version of its report (ORDER below the report's latest)",
  SYMPTOMS_EARLIER_VERSION: "SYMPTOMS row skipped: an earlier version of its report (ORDER below the report's latest)",
} as const;

const ORDER: readonly string[] = Object.values(SKIP);

/** Counts per reason. */
export class SkipTally {
  private readonly byReason = new Map<string, SkipCount>();

  /** Counts one skip; `example` is called only while fewer than 5 examples are kept. */
  add(reason: string, example: () => string): void {
    let entry = this.byReason.get(reason);
    if (!entry) {
      entry = { reason, count: 0, examples: [] };
      this.byReason.set(reason, entry);
    }
    entry.count++;
    if (entry.examples.length < MAX_EXAMPLES) entry.examples.push(example());
  }

  /** Count of one reason (0 when never seen). */
  count(reason: string): number {
    return this.byReason.get(reason)?.count ?? 0;
  }

  /** All reasons seen, in the order of `SKIP` (reasons not in `SKIP` last). */
  list(): SkipCount[] {
    const rank = (r: string): number => (ORDER.includes(r) ? ORDER.indexOf(r) : ORDER.length);
    return [...this.byReason.values()].sort((a, b) => rank(a.reason) - rank(b.reason));
  }
}

/** Where a cell that could not be read was found, and the cell as written. */
export interface UnparseableExample {
  vaers_id: number;
  /** The file's short name (`1999VAERSDATA.csv.gz`, `AllVAERSDataCSVS.zip:1999VAERSDATA.csv`). */
  file: string;
  line: number;
  cell: string;
}

/** Cells of one field that could not be read (kept as unknown): how many, up to 5 examples. */
export interface UnparseableValues {
  field: string;
  count: number;
  examples: UnparseableExample[];
}

/** Counts per field of the cells that could not be read, with examples (the build summary counts them, with examples). */
export class ValueTally {
  private readonly byField = new Map<string, UnparseableValues>();

  constructor(private readonly order: readonly string[]) {}

  /** Counts one cell of `field`. */
  add(field: string, example: UnparseableExample): void {
    let entry = this.byField.get(field);
    if (!entry) {
      entry = { field, count: 0, examples: [] };
      this.byField.set(field, entry);
    }
    entry.count++;
    if (entry.examples.length < MAX_EXAMPLES) entry.examples.push(example);
  }

  /** The fields with unreadable cells, in the order given to the constructor (others last). */
  list(): UnparseableValues[] {
    const rank = (f: string): number => (this.order.includes(f) ? this.order.indexOf(f) : this.order.length);
    return [...this.byField.values()].sort((a, b) => rank(a.field) - rank(b.field));
  }
}
