/**
 * The build's progress on a log (src/ingest/mining/progress.ts stderrProgress, not a terminal): a
 * step that moves no count (the read's SQL steps) is a line of its own under its phase.
 */
import { describe, expect, it } from 'vitest';
import { stderrProgress } from '../../../src/ingest/mining/progress.js';

describe('stderrProgress on a log', () => {
  it('prints each note as a line of the phase', () => {
    const lines: string[] = [];
    const stream = { isTTY: false, write: (text: string) => lines.push(text) } as unknown as NodeJS.WriteStream;
    const progress = stderrProgress(stream);
    progress.start('read', 108, 'files');
    progress.update(108, 'NonDomesticVAERSSYMPTOMS.csv');
    progress.note?.('read_csv SYMPTOMS');
    progress.note?.('vaers_reports');
    expect(lines).toEqual(['read: 108 files\n', 'read: 100% (108/108 files) NonDomesticVAERSSYMPTOMS.csv\n', 'read: read_csv SYMPTOMS\n', 'read: vaers_reports\n']);
  });
});
