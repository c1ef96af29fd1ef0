/**
 * The record splitter of the reader (src/ingest/vaers/csv-records.ts) against csv-parse (the
 * library the reader used before) on the same text cut into chunks at every position: the same
 * records, and the physical line each starts on counted by hand.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CsvRecords, CsvSyntaxError } from '../../../src/ingest/vaers/csv-records.js';

/** The records of `text` pushed in pieces of `size` characters (0: whole). */
function split(text: string, size = 0): Array<[string[], number]> {
  const out: Array<[string[], number]> = [];
  const records = new CsvRecords((fields, line) => out.push([fields, line]), 1000);
  if (size === 0) records.push(text);
  else for (let i = 0; i < text.length; i += size) records.push(text.slice(i, i + size));
  records.end();
  return out;
}

const TEXT = 'VAERS_ID,SYMPTOM_TEXT,X\r\n1,"Fever 39C, then a ""seizure"";\r\nrecovered",\r\n2,plain,"a\nb\rc"\r\n\r\n3,"",last';

describe('CsvRecords', () => {
  it('gives csv-parse\'s records, whatever the chunks, with each record\'s first physical line', () => {
    const expected = (parse(TEXT, { relax_column_count: true, skip_empty_lines: true }) as string[][]);
    for (let size = 0; size <= TEXT.length; size++) {
      const got = split(TEXT, size);
      expect(got.filter(([f]) => !(f.length === 1 && f[0] === '')).map(([f]) => f)).toEqual(expected);
      // Header line 1; record 1 spans lines 2-3; record 2 lines 4-6 (LF and CR inside quotes); an empty line 7; record 3 line 8.
      expect(got.map(([, line]) => line)).toEqual([1, 2, 4, 7, 8]);
    }
  });

  it('LF and CR line ends, and a last record without one', () => {
    expect(split('a,b\nc,d\re,f')).toEqual([[['a', 'b'], 1], [['c', 'd'], 2], [['e', 'f'], 3]]);
    expect(split('a,\n')).toEqual([[['a', ''], 1]]);
  });

  it('malformed quoting: the line of the quote, or the first line of a quote never closed', () => {
    const problem = (text: string): [number, string] => {
      try {
        split(text, 3);
      } catch (error) {
        return [(error as CsvSyntaxError).line, (error as CsvSyntaxError).message];
      }
      return [0, 'no error'];
    };
    expect(problem('h\n"a\nb"x,c\n')).toEqual([3, 'a quote inside an unquoted field, or text after a closing quote']);
    expect(problem('h\nab"c\n')).toEqual([2, 'a quote inside an unquoted field, or text after a closing quote']);
    expect(problem('h\nok\n"never closed,\nmore\n')).toEqual([3, 'a quoted field that is never closed']);
    expect(problem(`h\n"${'x'.repeat(1200)}`)).toEqual([2, 'a record longer than 1000 characters (an unclosed quote?)']);
  });
});
