/**
 * The duplicate linkage measured on issue 43's labelled set (docs/duplicates.md, "The labelled
 * set"). Written by scripts/linkage-measure.ts; do not edit by hand.
 */
export const LINKAGE_MEASURED: Readonly<Record<string, unknown>> = {};
