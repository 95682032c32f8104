// Reads a CSV file a few hundred rows at a time from a byte offset, so an import can stop after
// any batch and go on from the same place after a restart. Only the rows of one chunk are in
// memory; a row cut off at the chunk's end is left for the next read.
import { closeSync, openSync, readSync } from 'node:fs';
import Papa from 'papaparse';

/** The first read; doubled while a single row does not fit. */
const CHUNK_BYTES = 16 * 1024;

export interface CsvRow {
  cells: string[];
  /** The line the row starts on, as an editor counts them (1 = the file's first). */
  line: number;
  /** A quote left open until the end of the file. */
  unclosedQuote: boolean;
}

export interface Place {
  /** Bytes of the file before the next row. */
  offset: number;
  /** The line the next row starts on. */
  line: number;
}

export interface Chunk extends Place {
  rows: CsvRow[];
  newline: string;
  delimiter: string;
  /** The whole file has been read. */
  end: boolean;
}

const count = (text: string, char: string, from: number, to: number) => {
  let n = 0;
  for (let i = text.indexOf(char, from); i !== -1 && i < to; i = text.indexOf(char, i + 1)) n += 1;
  return n;
};

/**
 * Up to `maxRows` complete rows of `file` from `place` (rows of empty cells skipped), with the
 * place after them. `format` (newline and delimiter) is guessed from the text when absent.
 */
export function readRows(file: string, size: number, place: Place, maxRows: number, format?: { newline: string; delimiter: string }): Chunk {
  const fd = openSync(file, 'r');
  try {
    for (let want = CHUNK_BYTES; ; want *= 2) {
      const length = Math.min(want, size - place.offset);
      const buffer = Buffer.allocUnsafe(length);
      const got = readSync(fd, buffer, 0, length, place.offset);
      const end = place.offset + got >= size;
      const text = buffer.toString('utf8', 0, got);
      const chunk = parseChunk(text, end, place, maxRows, format);
      if (chunk.rows.length > 0 || end) return chunk;
    }
  } finally {
    closeSync(fd);
  }
}

function parseChunk(text: string, end: boolean, place: Place, maxRows: number, format?: { newline: string; delimiter: string }): Chunk {
  const rows: CsvRow[] = [];
  let newline = format?.newline ?? '\n';
  let delimiter = format?.delimiter ?? ',';
  let done = 0;
  let line = place.line;
  let stopped = false;
  Papa.parse<string[]>(text, {
    ...(format ? { newline: format.newline as '\n', delimiter: format.delimiter } : {}),
    skipEmptyLines: 'greedy',
    step: (result, parser) => {
      const cursor = result.meta.cursor;
      const unclosedQuote = result.errors.some((e) => e.code === 'MissingQuotes');
      // The chunk may have cut this row: it is read again from its start next time.
      const complete = end || (!unclosedQuote && (cursor < text.length || text.endsWith(result.meta.linebreak)));
      if (!complete || rows.length >= maxRows) {
        stopped = true;
        return void parser.abort();
      }
      if (!format) {
        newline = result.meta.linebreak;
        delimiter = result.meta.delimiter;
      }
      const nl = newline.includes('\n') ? '\n' : '\r';
      const lineAfter = line + count(text, nl, done, cursor);
      // The row's last line, less the line breaks inside its quoted cells.
      const last = text.endsWith(nl, cursor) ? lineAfter - 1 : lineAfter;
      const inside = result.data.reduce((n, cell) => n + count(cell, nl, 0, cell.length), 0);
      rows.push({ cells: result.data, line: last - inside, unclosedQuote });
      done = cursor;
      line = lineAfter;
    },
  });
  const offset = place.offset + Buffer.byteLength(text.slice(0, done));
  return { rows, offset, line, newline, delimiter, end: end && !stopped };
}
