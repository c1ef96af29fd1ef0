/**
 * The linkage's reading of the report text (features.ts LINKAGE_TEXT: SYMPTOM_TEXT, OTHER_MEDS,
 * HISTORY, PRIOR_VAX) a chunk of reports at a time, for a caller that receives the text in chunks
 * (the build's linkage thread, src/ingest/mining/linkage-worker.ts): each chunk's word lists and
 * dates (features.ts readTextValues) and patient evidence (patient-evidence.ts readPatientEvidence)
 * are taken as it arrives, and the chunk's text can go, so the whole text is never held at once
 * (issue 41: the build's peak memory). Given to linkReports as `LinkageOptions.text`, it gives the
 * same features and evidence as reading the text columns whole (the same functions, row by row).
 */
import { emptyTextValues, readTextValues, type LinkageText, type LinkageTextValues } from './features.js';
import { ListPacker } from './pack.js';
import { emptyPatientEvidence, readPatientEvidence, type PatientEvidence } from './patient-evidence.js';

/** Text columns of a chunk of reports (index j: report `start + j`); a column null or absent: blank for every report of the chunk. */
export type LinkageTextChunk = Partial<Record<LinkageText, ReadonlyArray<string | null> | null>>;

/** The text values and patient evidence of `count` reports, read chunk by chunk (see the module header). */
export class LinkageTextReader {
  readonly values: LinkageTextValues;
  readonly evidence: PatientEvidence;
  private readonly lists = new ListPacker();

  constructor(readonly count: number) {
    this.values = emptyTextValues(count);
    this.evidence = emptyPatientEvidence(count);
  }

  /**
   * Reads the text of reports `start` .. `start + k - 1`, k the longest column of `chunk`.
   * @throws RangeError when the chunk runs past `count`.
   */
  read(start: number, chunk: LinkageTextChunk): void {
    const size = Math.max(0, ...Object.values(chunk).map((column) => column?.length ?? 0));
    if (start < 0 || start + size > this.count) throw new RangeError(`linkage text: reports ${start}..${start + size - 1} past the ${this.count} reports`);
    for (let j = 0; j < size; j++) {
      const text = { narrative: chunk.narrative?.[j], otherMeds: chunk.otherMeds?.[j], history: chunk.history?.[j], priorVax: chunk.priorVax?.[j] };
      readTextValues(this.values, this.lists, start + j, text);
      readPatientEvidence(this.evidence, start + j, text.narrative, text.history, text.priorVax);
    }
  }
}
