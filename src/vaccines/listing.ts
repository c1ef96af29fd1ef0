/**
 * The vaccine listing of `GET /vaccines` (the explorer's front door): every vaccine
 * name of the store with its vax_type (spec 2.1), the VAERS `VAX_TYPE` codes seen with it, how
 * many reports name it and the quarters of the first and latest of them (from the report
 * tables), and how many of its pairs the default analysis serves (flagged: at least one quarter
 * with n_methods_flagged >= 2, spec 4.1) and how many of those are emerging (spec 2.1 `emerging`).
 * Transport-free; computed once per loaded store (src/http/live-store.ts).
 */
import type { ReportIndex } from '../cases/index.js';
import { HYPOTHESIS } from '../domain/caveats.js';
import { formatQuarter } from '../domain/quarter.js';
import { compareText } from '../query/names.js';
import type { Catalog } from '../signals/catalog.js';

/** One vaccine name of `GET /vaccines`. */
export interface VaccineEntry {
  /** The VAERS `VAX_NAME`. */
  vaccine: string;
  /** Its vax_type (spec 2.1). */
  vax_type: string;
  /** The VAERS `VAX_TYPE` codes seen with the name, sorted. */
  vax_type_codes: string[];
  /** Distinct reports naming the vaccine; null when the store has no report tables. */
  reports: number | null;
  /** Quarter (RECVDATE) of the first and of the latest report naming it; null without report tables. */
  first_quarter: string | null;
  latest_quarter: string | null;
  /** Pairs of this vaccine served by /signals in the default analysis. */
  flagged_pairs: number;
  /** Of those, the pairs whose first flagged quarter is in the last four quarters of the data. */
  emerging_pairs: number;
}

/** The body of `GET /vaccines`. */
export interface VaccineListing {
  /** The analysis whose pairs are counted (the default one). */
  analysis: string;
  reports_through: string | null;
  /** Every vaccine name, sorted by name (UTF-16 code units). */
  vaccines: VaccineEntry[];
  hypothesis: string;
}

/**
 * Builds the listing from the default analysis's catalog and the store's reports (null: a store
 * without report tables, whose entries then carry null report counts and quarters).
 */
export function vaccineListing(analysis: string, catalog: Catalog, reports: ReportIndex | null): VaccineListing {
  const names = new Set<string>(catalog.vaccineNames);
  for (const name of reports?.vaccineNames ?? []) names.add(name);
  // Codes from the report tables too (a name absent from the store's vaccines table: an import).
  const reportCodes = new Map<string, Set<string>>();
  if (reports) {
    reports.data.vaccines.name.forEach((name, row) => {
      const code = reports.data.vaccines.type[row];
      if (code === null || catalog.codesOf.has(name)) return;
      const set = reportCodes.get(name) ?? new Set<string>();
      reportCodes.set(name, set.add(code));
    });
  }
  const vaccines = [...names].sort(compareText).map((vaccine): VaccineEntry => {
    const pairIds = catalog.pairsByVaccine.get(vaccine) ?? [];
    const codes = new Set(catalog.codesOf.get(vaccine) ?? []);
    let count: number | null = null;
    let first: string | null = null;
    let latest: string | null = null;
    if (reports) {
      const list = reports.reportsByVaccine.get(vaccine) ?? new Int32Array(0);
      count = list.length;
      // Reports are stored newest first: the list's first index is the latest report.
      if (list.length > 0) {
        latest = formatQuarter(reports.data.quarter[list[0]]);
        first = formatQuarter(reports.data.quarter[list[list.length - 1]]);
      }
      for (const code of reportCodes.get(vaccine) ?? []) codes.add(code);
    }
    return {
      vaccine,
      vax_type: catalog.vaxTypeOf.get(vaccine) ?? reports?.vocabulary.vaxTypeOf.get(vaccine) ?? '',
      vax_type_codes: [...codes].sort(compareText),
      reports: count,
      first_quarter: first,
      latest_quarter: latest,
      flagged_pairs: pairIds.length,
      emerging_pairs: pairIds.reduce((k, id) => k + (catalog.pairs[id].emerging ? 1 : 0), 0),
    };
  });
  return { analysis, reports_through: catalog.reportsThrough, vaccines, hypothesis: HYPOTHESIS };
}
