/**
 * The fields of a spec 2.1 Pair, in one table: per field its name, JSON type, whether it may be
 * null, whether the spec's schema requires it, its bounds or pattern, and what it means.
 * Everything that lists the fields derives from `PAIR_COLUMNS`:
 * - the TypeScript shape `Pair` (mapped from the table, so it follows it);
 * - `PAIR_FIELDS`, the JSON keys and the CSV header, in table order (src/serve/signals/render.ts);
 * - the JSON schema `PAIR_SCHEMA` (src/serve/signals/schemas.ts), and through it /openapi.json and the
 *   field table of the API notes (src/http/notes.ts).
 * The values are computed by the pair aggregate (src/serve/signals/aggregate.ts), which builds each
 * Pair with its fields in this order.
 *
 * Ground floor: this file imports nothing outside src/domain.
 */
import { QUARTER_PATTERN } from '../../domain/quarter.js';

/** JSON schema type of a Pair field (without null). */
export type PairFieldType = 'string' | 'integer' | 'number' | 'boolean';

/** One field of a spec 2.1 Pair. */
export interface PairFieldSpec {
  readonly name: string;
  readonly type: PairFieldType;
  /** Whether the value may be null (JSON type `[type, 'null']`). */
  readonly nullable: boolean;
  /** Required by the spec 2.1 schema (every field is present in our answers; the others are optional in the spec). */
  readonly required?: true;
  /** JSON schema `pattern` of a string (the quarter strings). */
  readonly pattern?: string;
  /** JSON schema bounds of a number. */
  readonly minimum?: number;
  readonly maximum?: number;
  /** Meaning, units and source (the schema's description). */
  readonly description: string;
}

/** The spec 2.1 Pair fields, in the order of the spec table (also the JSON key and CSV column order). */
export const PAIR_COLUMNS = [
  { name: 'vaccine', type: 'string', nullable: false, required: true, description: 'Vaccine name (VAX_NAME).' },
  { name: 'drug', type: 'string', nullable: false, required: true, description: 'Same string as vaccine.' },
  { name: 'vax_name', type: 'string', nullable: false, required: true, description: 'Same string as vaccine. Not the vaccine type.' },
  { name: 'vax_type', type: 'string', nullable: false, required: true, description: 'Vaccine name without its parenthetical product suffix (COVID19 stays COVID19).' },
  { name: 'event', type: 'string', nullable: false, required: true, description: 'Event preferred term.' },
  { name: 'n', type: 'integer', nullable: false, required: true, minimum: 0,
    description: 'Sum of quarterly observed counts over flagged quarters. Rolling windows overlap: not a count of unique reports.' },
  { name: 'eb05', type: 'number', nullable: true,
    description: 'Peak quarterly EB05 among quarters with n_methods_flagged >= 2 (raw quarterly value, not the EWMA).' },
  { name: 'eb05_peak_pre2021', type: 'number', nullable: true,
    description: 'Highest quarterly EB05 before 2021Q1 on the full series. Null when the pair has no pre-2021 quarter.' },
  { name: 'eb05_peak_pre2021_quarter', type: 'string', nullable: true, pattern: QUARTER_PATTERN, description: 'Earliest quarter that attains eb05_peak_pre2021.' },
  { name: 'eb05_peak_quarter', type: 'string', nullable: true, pattern: QUARTER_PATTERN, description: 'Earliest quarter that attains the full-series maximum EB05.' },
  { name: 'peak_in_covid_era', type: 'boolean', nullable: false,
    description: 'True when vax_type is not COVID19 and eb05_peak_quarter lies within 2021Q1 to 2022Q4.' },
  { name: 'background_note', type: 'string', nullable: true,
    description: 'One sentence on COVID-era background distortion (COVID-19 vaccines; other vaccines whose peak is in 2021-2022); null otherwise. Not a rescaled EB05.' },
  { name: 'ewma_eb05', type: 'number', nullable: true, description: 'Peak EWMA EB05 over the flagged quarters. A different number from eb05.' },
  { name: 'n_methods_max', type: 'integer', nullable: false, minimum: 0, maximum: 4, description: 'Highest n_methods_flagged across quarters.' },
  { name: 'quarters_flagged', type: 'integer', nullable: false, minimum: 0,
    description: 'Number of flagged quarters (n_methods_flagged >= 2) where is_signal_any is true.' },
  { name: 'first_quarter', type: 'string', nullable: false, pattern: QUARTER_PATTERN, description: 'First quarter with n_methods_flagged >= 2.' },
  { name: 'latest_quarter', type: 'string', nullable: false, pattern: QUARTER_PATTERN, description: 'Last quarter with n_methods_flagged >= 2.' },
  { name: 'emerging', type: 'boolean', nullable: false, required: true, description: 'True when first_quarter lies within the last four quarters of the data.' },
] as const satisfies readonly PairFieldSpec[];

/** One entry of {@link PAIR_COLUMNS}, with its literal types. */
export type PairColumn = (typeof PAIR_COLUMNS)[number];
/** Name of a Pair field. */
export type PairFieldName = PairColumn['name'];

/** The TypeScript type of a field's values, without null. */
type PairValueOf<C extends PairColumn> = C['type'] extends 'string' ? string : C['type'] extends 'boolean' ? boolean : number;

/** Spec 2.1 Pair: one property per row of {@link PAIR_COLUMNS}, null allowed where the row is `nullable`. */
export type Pair = { -readonly [C in PairColumn as C['name']]: PairValueOf<C> | (C['nullable'] extends true ? null : never) };

/** Spec 2.1 field names, in table order: the JSON keys and the CSV header. */
export const PAIR_FIELDS: readonly PairFieldName[] = PAIR_COLUMNS.map((c) => c.name);
