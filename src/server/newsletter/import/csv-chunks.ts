// Reads a CSV file from a byte offset, one row at a time, so an import can stop after any row
// and go on from the same place after a restart. Only one chunk of the file is in memory; a row
// cut off at the chunk's end is left for the next read.
import { closeSync, openSync, readSync } from 'node:fs';
import Papa from 'papaparse';

/** The first read: about a 10 ms step's rows of a usual export; doubled while a single row does not fit. */
const CHUNK_BYTES = 32 * 1024;

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

export interface CsvFormat {
  newline: string;
  delimiter: string;
}

export interface Chunk extends Place, CsvFormat {
  rows: CsvRow[];
  /** The whole file has been read. */
  end: boolean;
}

/** After one chunk: the place after the last row taken, and the format. */
export interface Read extends Place, CsvFormat {
  /** The whole file has been read. */
  end: boolean;
}

const count = (text: string, char: string, from: number, to: number) => {
  let n = 0;
  for (let i = text.indexOf(char, from); i !== -1 && i < to; i = text.indexOf(char, i + 1)) n += 1;
  return n;
};

/** Whether every cell of a row is blank (such rows are skipped). */
const blank = (cells: string[]) => {
  for (const cell of cells) if (cell.trim()) return false;
  return true;
};

/**
 * Up to `maxRows` complete rows of `file` from `place` (rows of empty cells skipped), with the
 * place after them. `format` (newline and delimiter) is guessed from the text when absent.
 */
export function readRows(file: string | number, size: number, place: Place, maxRows: number, format?: CsvFormat): Chunk {
  const rows: CsvRow[] = [];
  const take = (row: CsvRow) => rows.push(row) < maxRows;
  let read = eachRow(file, size, place, format, take);
  while (rows.length === 0 && !read.end) read = eachRow(file, size, read, format, take);
  return { ...read, rows };
}

/**
 * Hands the complete rows of one chunk of `file` (a path, or a descriptor open for reading) from
 * `place` to `take`, one by one, until it answers false or the chunk ends (rows of empty cells
 * skipped); answers the place after the last row taken. `format` is guessed from the text when absent.
 */
export function eachRow(file: string | number, size: number, place: Place, format: CsvFormat | undefined, take: (row: CsvRow) => boolean): Read {
  const fd = typeof file === 'number' ? file : openSync(file, 'r');
  try {
    for (let want = CHUNK_BYTES; ; want *= 2) {
      const length = Math.min(want, size - place.offset);
      const buffer = Buffer.allocUnsafe(length);
      const got = readSync(fd, buffer, 0, length, place.offset);
      const end = place.offset + got >= size;
      const text = buffer.toString('utf8', 0, got);
      const read = parseChunk(text, end, place, format, take);
      if (read.offset > place.offset || end) return read;
    }
  } finally {
    if (typeof file !== 'number') closeSync(fd);
  }
}

function parseChunk(text: string, end: boolean, place: Place, format: CsvFormat | undefined, take: (row: CsvRow) => boolean): Read {
  let newline = format?.newline ?? '\n';
  let delimiter = format?.delimiter ?? ',';
  let done = 0;
  let line = place.line;
  let stopped = false;
  Papa.parse<string[]>(text, {
    // Known the format, blank rows are told apart here (Papa's 'greedy' joins every row's cells to
    // look); the header's read lets Papa skip them, as its guess of the delimiter then does.
    ...(format ? { newline: format.newline as '\n', delimiter: format.delimiter } : { skipEmptyLines: 'greedy' as const }),
    step: (result, parser) => {
      const cursor = result.meta.cursor;
      const unclosedQuote = result.errors.some((e) => e.code === 'MissingQuotes');
      // The chunk may have cut this row: it is read again from its start next time.
      const complete = end || (!unclosedQuote && (cursor < text.length || text.endsWith(result.meta.linebreak)));
      if (!complete) {
        stopped = true;
        return void parser.abort();
      }
      if (!format) {
        newline = result.meta.linebreak;
        delimiter = result.meta.delimiter;
      }
      const nl = newline.includes('\n') ? '\n' : '\r';
      const lineAfter = line + count(text, nl, done, cursor);
      let more = true;
      if (!blank(result.data)) {
        // The row's last line, less the line breaks inside its quoted cells.
        const last = text.endsWith(nl, cursor) ? lineAfter - 1 : lineAfter;
        const inside = result.data.reduce((n, cell) => n + count(cell, nl, 0, cell.length), 0);
        more = take({ cells: result.data, line: last - inside, unclosedQuote });
      }
      done = cursor;
      line = lineAfter;
      if (!more) {
        stopped = true;
        parser.abort();
      }
    },
  });
  const offset = place.offset + Buffer.byteLength(text.slice(0, done));
  return { offset, line, newline, delimiter, end: end && !stopped };
}
