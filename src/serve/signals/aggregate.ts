/**
 * The pair aggregate of spec 2.1: one Pair (its fields: src/serve/signals/pair.ts) per (vaccine, event)
 * from its quarterly rows.
 *
 * Aggregation rule (spec 2.1): only quarters with `n_methods_flagged >= 2` (the serving floor,
 * docs/design.md) enter the aggregate. Fields that the spec defines "on the full series"
 * (`eb05_peak_pre2021`, `eb05_peak_pre2021_quarter`, `eb05_peak_quarter`) use every quarter of
 * the pair. Choices where the spec leaves room, applied here and documented in the API notes:
 * - `ewma_eb05` is the peak EWMA EB05 over the flagged quarters (the same rows as `eb05`);
 * - `quarters_flagged` counts flagged quarters whose `is_signal_any` is true (the "filtered
 *   rows" of `first_quarter`/`latest_quarter`);
 * - `n_methods_max` is the same over flagged quarters or the full series (its maximum is >= 2).
 * A pair with no flagged quarter is not served (the aggregator returns null).
 */
import { COVID_ERA_FIRST, COVID_ERA_LAST, formatQuarter, isRecent, type QuarterIndex } from '../../domain/quarter.js';
import type { AggregateColumnEntry, QuarterlyRow } from '../../domain/columns.js';
import { isFlagged } from '../../domain/floor.js';
import type { Pair } from './pair.js';

/** Spec 2.1 background_note, case 1: a COVID-19 vaccine (one sentence). */
export const NOTE_COVID_VACCINE =
  'COVID-19 vaccine reports dominate the 2021-2022 reporting background, so this vaccine\'s own volume shapes the expected counts its EB05 is measured against.';
/** Spec 2.1 background_note, case 2: another vaccine whose peak lies in 2021Q1-2022Q4 (one sentence). */
export const NOTE_COVID_ERA_PEAK =
  'The EB05 peak falls in 2021-2022, when COVID-19 vaccine reports shrank the background of other vaccines, so the peak may partly reflect that distortion (this note is not a rescaled EB05).';

/** True when `vax_type` is the COVID-19 type (spec 2.1: `COVID19`), case-insensitive. */
export function isCovidType(vaxType: string): boolean {
  return vaxType.toUpperCase() === 'COVID19';
}

/**
 * The quarterly values the aggregate reads: the columns with `served.aggregate` in
 * src/domain/columns.ts (quarter, n, eb05, ewma_eb05, n_methods_flagged, is_signal_any) as a
 * QuarterlyRow has them, the quarter as its index.
 */
export type AggregateInput = Omit<Pick<QuarterlyRow, AggregateColumnEntry['name']>, 'quarter'> & { quarter: QuarterIndex };

/**
 * Accumulates the quarterly rows of one pair, in any order, and yields its spec 2.1 Pair.
 * Ties of a peak go to the earliest quarter.
 */
export class PairAccumulator {
  private n = 0;
  private eb05: number | null = null;
  private ewma: number | null = null;
  private nMethodsMax = 0;
  private quartersFlagged = 0;
  private first: QuarterIndex | null = null;
  private latest: QuarterIndex | null = null;
  private peak: number | null = null;
  private peakQuarter: QuarterIndex = 0;
  private pre: number | null = null;
  private preQuarter: QuarterIndex = 0;

  /** Adds one quarterly row. */
  add(row: AggregateInput): void {
    this.addValues(row.quarter, row.n, row.eb05, row.ewma_eb05, row.n_methods_flagged, row.is_signal_any);
  }

  /** `add` with the row's values as arguments (no object per row: the catalog load calls this). */
  addValues(q: QuarterIndex, n: number, eb05: number | null, ewma: number | null, nMethodsFlagged: number, isSignalAny: boolean): void {
    if (eb05 !== null) {
      if (this.peak === null || eb05 > this.peak || (eb05 === this.peak && q < this.peakQuarter)) {
        this.peak = eb05;
        this.peakQuarter = q;
      }
      if (q < COVID_ERA_FIRST && (this.pre === null || eb05 > this.pre || (eb05 === this.pre && q < this.preQuarter))) {
        this.pre = eb05;
        this.preQuarter = q;
      }
    }
    if (!isFlagged(nMethodsFlagged)) return;
    this.n += n;
    if (eb05 !== null && (this.eb05 === null || eb05 > this.eb05)) this.eb05 = eb05;
    if (ewma !== null && (this.ewma === null || ewma > this.ewma)) this.ewma = ewma;
    if (nMethodsFlagged > this.nMethodsMax) this.nMethodsMax = nMethodsFlagged;
    if (isSignalAny) this.quartersFlagged++;
    if (this.first === null || q < this.first) this.first = q;
    if (this.latest === null || q > this.latest) this.latest = q;
  }

  /**
   * The Pair, fields in table order (src/serve/signals/pair.ts), or null when no quarter reached the
   * floor (such a pair is not served).
   * @param reportsThrough latest quarter in the data (for `emerging`); null for an empty store.
   */
  result(vaccine: string, vaxType: string, event: string, reportsThrough: QuarterIndex | null): Pair | null {
    if (this.first === null || this.latest === null) return null;
    const covid = isCovidType(vaxType);
    const peakQuarter = this.peak === null ? null : this.peakQuarter;
    const peakInCovidEra = !covid && peakQuarter !== null && peakQuarter >= COVID_ERA_FIRST && peakQuarter <= COVID_ERA_LAST;
    return {
      vaccine,
      drug: vaccine,
      vax_name: vaccine,
      vax_type: vaxType,
      event,
      n: this.n,
      eb05: this.eb05,
      eb05_peak_pre2021: this.pre,
      eb05_peak_pre2021_quarter: this.pre === null ? null : formatQuarter(this.preQuarter),
      eb05_peak_quarter: peakQuarter === null ? null : formatQuarter(peakQuarter),
      peak_in_covid_era: peakInCovidEra,
      background_note: covid ? NOTE_COVID_VACCINE : peakInCovidEra ? NOTE_COVID_ERA_PEAK : null,
      ewma_eb05: this.ewma,
      n_methods_max: this.nMethodsMax,
      quarters_flagged: this.quartersFlagged,
      first_quarter: formatQuarter(this.first),
      latest_quarter: formatQuarter(this.latest),
      emerging: isRecent(this.first, reportsThrough),
    };
  }
}
