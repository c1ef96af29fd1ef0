/**
 * The vaccine listing of `GET /vaccines` (the explorer's front door): every vaccine
 * name of the store with its vax_type (spec 2.1), the VAERS `VAX_TYPE` codes seen with it (and
 * their long names, src/domain/vax-type-names.ts), how
 * many reports name it and the quarters of the first and latest of them (from the report
 * tables), and how many of its pairs the default analysis serves (flagged: at least one quarter
 * with n_methods_flagged >= 2, spec 4.1) and how many of those are emerging (spec 2.1 `emerging`).
 * Transport-free; computed once per loaded store (src/http/live-store.ts).
 *
 * For an analysis whose items are VAERS VAX_TYPE codes (`types`, `SUBSET@types`) the listing is
 * of the codes instead: each code is its own `vaccine`, `vax_type` and only `vax_type_codes`
 * entry, and `reports` counts the reports with a VAX row of that code.
 */
import type { ReportIndex } from '../cases/index.js';
import { HYPOTHESIS } from '../query/caveats.js';
import { formatQuarter } from '../../domain/quarter.js';
import { vaxTypeName } from '../../domain/vax-type-names.js';
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
  /** The long name of each of `vax_type_codes`, in order (data/vax-types/vax-types.csv; null for a code the table lacks). */
  vax_type_names: Array<string | null>;
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
  if (catalog.items === 'vax_type_code') return typeListing(analysis, catalog, reports);
  const names = new Set<string>(catalog.vaccineNames);
  for (const name of reports?.vaccineNames ?? []) names.add(name);
  // Codes from the report tables too (a name absent from the store's vaccines table: an import).
  const reportCodes = new Map<string, Set<string>>();
  if (reports) {
    const { name: names, type } = reports.data.vaccines;
    for (let row = 0; row < names.length; row++) {
      const name = names.at(row);
      const code = type.at(row);
      if (code === null || catalog.codesOf.has(name)) continue;
      const set = reportCodes.get(name) ?? new Set<string>();
      reportCodes.set(name, set.add(code));
    }
  }
  const vaccines = [...names].sort(compareText).map((vaccine): VaccineEntry => {
    const codes = new Set(catalog.codesOf.get(vaccine) ?? []);
    for (const code of reportCodes.get(vaccine) ?? []) codes.add(code);
    const vaxType = catalog.vaxTypeOf.get(vaccine) ?? reports?.vocabulary.vaxTypeOf.get(vaccine) ?? '';
    return entry(vaccine, vaxType, codes, catalog, reports?.reportsByVaccine.get(vaccine), reports);
  });
  return { analysis, reports_through: catalog.reportsThrough, vaccines, hypothesis: HYPOTHESIS };
}

/** The listing of a type-level analysis: every VAX_TYPE code of its pairs and of the reports. */
function typeListing(analysis: string, catalog: Catalog, reports: ReportIndex | null): VaccineListing {
  const codes = new Set<string>(catalog.vaccineNames);
  for (const code of reports?.types.reportsByCode.keys() ?? []) codes.add(code);
  const vaccines = [...codes].sort(compareText).map((code) => entry(code, code, [code], catalog, reports?.types.reportsByCode.get(code), reports));
  return { analysis, reports_through: catalog.reportsThrough, vaccines, hypothesis: HYPOTHESIS };
}

/** One entry: `list` holds the reports naming the vaccine (newest first; undefined: none), counted only when the store has report tables (`reports`). */
function entry(vaccine: string, vaxType: string, codes: Iterable<string>, catalog: Catalog, list: Int32Array | undefined, reports: ReportIndex | null): VaccineEntry {
  const pairIds = catalog.pairsByVaccine.get(vaccine) ?? [];
  const named = reports ? list ?? new Int32Array(0) : null;
  // Reports are stored newest first: the list's first index is the latest report, its last the first.
  const quarterAt = (k: number): string | null => (reports && named && named.length > 0 ? formatQuarter(reports.data.quarter[named[k]]) : null);
  const sorted = [...codes].sort(compareText);
  return {
    vaccine,
    vax_type: vaxType,
    vax_type_codes: sorted,
    vax_type_names: sorted.map(vaxTypeName),
    reports: named === null ? null : named.length,
    first_quarter: quarterAt((named?.length ?? 0) - 1),
    latest_quarter: quarterAt(0),
    flagged_pairs: pairIds.length,
    emerging_pairs: pairIds.reduce((k, id) => k + (catalog.pairs[id].emerging ? 1 : 0), 0),
  };
}
