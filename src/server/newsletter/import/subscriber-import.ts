// Subscriber import: a CSV from Kit, Mailchimp, Substack, Ghost, Beehiiv or anywhere with an
// e-mail column becomes subscribers here with their consent as the file gives it. The file is
// kept under the data folder and worked through by the one job runner, a batch of rows per step,
// each batch written in one transaction together with the place reached in the file: a restart
// (even a SIGKILL) goes on from there and no row counts twice. No e-mail is sent by an import.
import { randomBytes } from 'node:crypto';
import { closeSync, copyFileSync, createWriteStream, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, asc, desc, eq, lt, ne } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { subscriberImports } from '#db/schema/audience.ts';
import { env } from '#server/env.ts';
import { getDb } from '#server/db.ts';
import { HttpError, badRequest, notFound } from '#server/http/errors.ts';
import { readFileUpload } from '#server/http/files/file-upload.ts';
import { wakeJob } from '#server/jobs/runner.ts';
import { logger } from '#server/log.ts';
import { catchUpWithKit } from '#server/newsletter/kit.ts';
import { subscriberStatus } from '#server/newsletter/subscribers.ts';
import { tellImported } from '#server/newsletter/events.ts';
import { addressHash } from '#server/newsletter/suppression.ts';
import type { ImportMappingDto, InvalidRowDto, SubscriberImportDto } from '#shared/schemas/subscriber-import.ts';
import { TAG_NAME_MAX } from '#shared/schemas/subscriber-import.ts';
import { readHeader, readRow, tagsOf, type ColumnIndexes, type Format, type ImportRow } from './columns.ts';
import { eachRow, readRows, type CsvRow, type Place } from './csv-chunks.ts';

export const SUBSCRIBER_IMPORT_JOB = 'subscriber-import';
/** The largest CSV taken: about 100,000 rows of a usual export. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
/** A step ends after this much work (then one commit), so a page waits at most about this long. */
const STEP_BUDGET_MS = 10;
/** The refused rows listed (all are counted). */
const INVALID_LISTED = 1000;
/** A preview's file is kept a day for the import that follows it. */
const PREVIEW_KEPT_MS = 24 * 60 * 60_000;

const TOO_LARGE = `The file is too large: the limit is ${MAX_IMPORT_BYTES / 1024 / 1024} MB`;
const NO_FILE = 'Choose a CSV file of subscribers';
const NOT_CSV = 'Only CSV files (.csv) can be imported';
const NO_EMAIL = 'No e-mail column found: the first row must name the columns, one of them "email" or "Email Address"';
const CSV_TYPES = new Set(['', 'application/octet-stream', 'text/csv', 'text/plain', 'application/csv', 'text/comma-separated-values', 'application/vnd.ms-excel', 'text/x-csv']);

/** Where uploaded CSVs wait while their import runs: beside the database, never served. */
const importsDir = () => {
  const dir = join(dirname(resolve(env().DATABASE_URL)), 'imports');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
};
const newFilePath = () => join(importsDir(), `${randomBytes(16).toString('hex')}.csv`);

export interface StartImportOptions {
  /** The CSV: a file's path (moved into the imports folder) or a stream (written there). */
  csv: string | Readable;
  /** The file's name as the owner knows it. */
  fileName: string;
  /** Subscribers' source becomes `import:<sourceName>`; by default the service recognised, else the file's name. */
  sourceName?: string;
  /** Tags added to every row (beside the file's own). */
  tags?: string[];
  /** Count what would happen, writing nothing (the preview). */
  dryRun?: boolean;
  /** The admin who started it. */
  startedBy?: string | null;
}

/**
 * Starts importing a subscriber CSV in the background and answers its id (GET it for progress).
 * 400, with the file removed, when it is empty, not text, or its first row names no e-mail column.
 */
export async function startSubscriberImport(options: StartImportOptions): Promise<{ id: number }> {
  const file = newFilePath();
  try {
    if (typeof options.csv === 'string') moveFile(options.csv, file);
    else await pipeline(options.csv, createWriteStream(file, { mode: 0o600 }));
    const size = statSync(file).size;
    if (size === 0) throw badRequest('The file is empty');
    const head = readRows(file, size, { offset: 0, line: 1 }, 1);
    const first = head.rows[0];
    if (!first || first.cells.some((c) => c.includes('\0'))) throw badRequest('The file is not a CSV file');
    const header = readHeader(first.cells);
    if (!header) throw badRequest(NO_EMAIL, [{ path: ['file'], message: NO_EMAIL }]);
    const tags = [...new Set((options.tags ?? []).map((t) => t.trim()).filter((t) => t && t.length <= TAG_NAME_MAX))];
    const sourceName = (options.sourceName ?? header.format ?? options.fileName).slice(0, 200);
    const row = getDb()
      .insert(subscriberImports)
      .values({
        dryRun: options.dryRun ?? false,
        fileName: options.fileName.slice(0, 255),
        filePath: file,
        fileSize: size,
        sourceName,
        format: header.format,
        mapping: JSON.stringify({ columns: header.columns, names: header.mapping }),
        newline: head.newline,
        delimiter: head.delimiter,
        tags: JSON.stringify(tags),
        offset: head.offset,
        line: head.line,
        startedBy: options.startedBy ?? null,
      })
      .returning({ id: subscriberImports.id })
      .get();
    wakeJob(SUBSCRIBER_IMPORT_JOB);
    return row;
  } catch (err) {
    rmSync(file, { force: true });
    throw err;
  }
}

function moveFile(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch {
    // Another filesystem: copied, then the original removed.
    copyFileSync(from, to);
    rmSync(from, { force: true });
  }
}

/**
 * The admin's upload (multipart: `file`, a CSV up to 20 MB; `tags`, comma-separated): 413 over
 * the limit, 415 for a file that is not a CSV, 400 without an e-mail column; nothing is kept then.
 */
export async function importUploadedSubscribers(request: Request, startedBy: string, dryRun: boolean): Promise<{ id: number }> {
  const upload = await readFileUpload(request, {
    path: newFilePath(),
    maxBytes: MAX_IMPORT_BYTES,
    tooLarge: TOO_LARGE,
    noFile: NO_FILE,
    refuse: (name, type) => (/\.(csv|txt)$/i.test(name) && CSV_TYPES.has(type) ? null : NOT_CSV),
  });
  return startSubscriberImport({ csv: upload.path, fileName: upload.fileName, tags: tagsOf(upload.fields.tags ?? ''), dryRun, startedBy });
}

/** Turns a finished preview into the import itself, from the file already here (the same id). */
export function runPreviewedImport(id: number): { id: number } {
  const db = getDb();
  const run = db.select().from(subscriberImports).where(eq(subscriberImports.id, id)).get();
  if (!run) throw notFound('Import not found');
  if (!run.dryRun || run.status !== 'done' || !run.filePath || !existsSync(run.filePath)) throw new HttpError(409, 'Only a finished preview can be imported: upload the file again');
  const { offset, line } = readRows(run.filePath, run.fileSize, { offset: 0, line: 1 }, 1);
  db.update(subscriberImports)
    .set({ dryRun: false, status: 'running', offset, line, total: 0, added: 0, updated: 0, unchanged: 0, suppressed: 0, invalidCount: 0, invalid: '[]', finishedAt: null, startedAt: new Date() })
    .where(eq(subscriberImports.id, id))
    .run();
  wakeJob(SUBSCRIBER_IMPORT_JOB);
  return { id };
}

type ImportRun = typeof subscriberImports.$inferSelect;

const toDto = (run: ImportRun): SubscriberImportDto => {
  const { names } = JSON.parse(run.mapping) as { names: ImportMappingDto };
  return {
    id: run.id,
    status: run.status,
    dryRun: run.dryRun,
    fileName: run.fileName,
    format: run.format as Format,
    source: `import:${run.sourceName}`,
    mapping: names,
    tags: JSON.parse(run.tags) as string[],
    progress: run.status === 'done' ? 100 : Math.min(99, Math.floor((run.offset / run.fileSize) * 100)),
    total: run.total,
    added: run.added,
    updated: run.updated,
    unchanged: run.unchanged,
    suppressed: run.suppressed,
    invalid: JSON.parse(run.invalid) as InvalidRowDto[],
    invalidCount: run.invalidCount,
    error: run.error,
  };
};

/** One import: its progress while it runs, its counts after. */
export function getSubscriberImport(id: number): SubscriberImportDto {
  const run = getDb().select().from(subscriberImports).where(eq(subscriberImports.id, id)).get();
  if (!run) throw notFound('Import not found');
  return toDto(run);
}

/** What a batch did to the counts. */
interface Tally {
  total: number;
  added: number;
  updated: number;
  unchanged: number;
  suppressed: number;
  invalid: InvalidRowDto[];
}

/** The emails a preview has seen, so a row repeated in the file counts as already here (per process). */
const previewSeen = new Map<number, Set<string>>();

/**
 * The background job's step: the next batch of the oldest import running (previews first),
 * written with its place in the file in one transaction. Answers the rows handled.
 */
export function importStep(db: Db = getDb()): number {
  const sql = statementsOf(db);
  const run = sql.nextRun.get();
  if (!run) {
    sweepPreviewFiles(db);
    return 0;
  }
  let fd: number;
  try {
    fd = openSync(run.filePath, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    db.update(subscriberImports).set({ status: 'failed', error: 'The uploaded file is gone: upload it again', finishedAt: new Date() }).where(eq(subscriberImports.id, run.id)).run();
    return 1;
  }
  const { columns } = JSON.parse(run.mapping) as { columns: ColumnIndexes };
  const now = new Date();
  const tally: Tally = { total: 0, added: 0, updated: 0, unchanged: 0, suppressed: 0, invalid: [] };
  const started = performance.now();
  let place: Place = { offset: run.offset, line: run.line };
  let end = false;
  const format = { newline: run.newline, delimiter: run.delimiter };
  const writer = new SubscriberWriter(sql, run, now);
  const handle = (row: CsvRow) => {
    tally.total += 1;
    const read = row.unclosedQuote ? { reason: 'A quote is not closed' } : readRow(row.cells, columns, now);
    if ('reason' in read) tally.invalid.push({ line: row.line, reason: read.reason });
    else tally[writer.apply(read)] += 1;
    return performance.now() - started < STEP_BUDGET_MS;
  };
  try {
    // The rows and the place after them are stored together, or neither is.
    db.$client.transaction(() => {
      writer.begin();
      while (!end && performance.now() - started < STEP_BUDGET_MS) {
        const read = eachRow(fd, run.fileSize, place, format, handle);
        place = { offset: read.offset, line: read.line };
        end = read.end;
      }
      tellImported(db, writer.touched);
      const listed = tally.invalid.length ? (JSON.parse(run.invalid) as InvalidRowDto[]) : [];
      sql.progress.run({
        id: run.id,
        offset: place.offset,
        line: place.line,
        total: tally.total,
        added: tally.added,
        updated: tally.updated,
        unchanged: tally.unchanged,
        suppressed: tally.suppressed,
        invalidCount: tally.invalid.length,
        invalid: tally.invalid.length && listed.length < INVALID_LISTED ? JSON.stringify([...listed, ...tally.invalid].slice(0, INVALID_LISTED)) : null,
        finishedAt: end ? now.getTime() : null,
      });
    })();
  } finally {
    closeSync(fd);
  }
  if (end) {
    previewSeen.delete(run.id);
    // A preview keeps its file for the import that may follow.
    if (!run.dryRun) {
      rmSync(run.filePath, { force: true });
      db.update(subscriberImports).set({ filePath: '' }).where(eq(subscriberImports.id, run.id)).run();
      // With Kit sync on, the active people it brought are added to Kit (one after another,
      // active and never through the form: an import e-mails nobody).
      catchUpWithKit();
    }
    logger.info({ job: SUBSCRIBER_IMPORT_JOB, id: run.id, dryRun: run.dryRun, total: run.total + tally.total }, 'subscriber import finished');
  }
  return Math.max(1, tally.total);
}

/** Removes the files of previews nobody imported within a day (and of imports that failed); an empty path marks a file removed. */
function sweepPreviewFiles(db: Db): void {
  const old = db
    .select({ id: subscriberImports.id, filePath: subscriberImports.filePath })
    .from(subscriberImports)
    .where(and(ne(subscriberImports.status, 'running'), ne(subscriberImports.filePath, ''), lt(subscriberImports.finishedAt, new Date(Date.now() - PREVIEW_KEPT_MS))))
    .all();
  for (const run of old) {
    rmSync(run.filePath, { force: true });
    db.update(subscriberImports).set({ filePath: '' }).where(eq(subscriberImports.id, run.id)).run();
  }
}

interface Existing {
  id: number;
  name: string | null;
  isActive: number;
  bouncedAt: number | null;
  unsubscribedAt: number | null;
  confirmTokenHash: string | null;
  kitPendingSince: number | null;
  subscribedAt: number;
}

type Columns = Omit<Existing, 'id'>;
type Outcome = 'added' | 'updated' | 'unchanged' | 'suppressed';

/** Where a row as stored stands (the same rule as everywhere: bounced, active, pending or unsubscribed). */
const statusOf = (s: Columns) =>
  subscriberStatus({
    isActive: s.isActive === 1,
    bouncedAt: s.bouncedAt === null ? null : new Date(s.bouncedAt),
    unsubscribedAt: s.unsubscribedAt === null ? null : new Date(s.unsubscribedAt),
    confirmTokenHash: s.confirmTokenHash,
    kitPendingSince: s.kitPendingSince === null ? null : new Date(s.kitPendingSince),
  });

/**
 * Applies rows to the subscribers (or, for a preview, only says what it would do). Rules: a new
 * address comes in as the file says (active, unsubscribed or bounced; one never confirmed at its
 * source gets no issues); an address unsubscribed or bounced here stays so; one the file says
 * left is no longer mailed; empty cells change nothing; the earliest subscription date is kept;
 * the file's and the owner's tags are added; a change is recorded in the subscriber's history.
 * An address whose holder had their data erased is not added back (it counts as suppressed).
 */
class SubscriberWriter {
  private readonly sql: Statements;
  private readonly tagIds = new Map<string, number>();
  private readonly source: string;
  private readonly extraTags: string[];
  private readonly seen: Set<string> | null;
  private readonly now: Date;
  /** Whether any address has been erased here: when none has, no row needs its keyed hash. */
  private anyErased = true;

  constructor(sql: Statements, run: ImportRun, now: Date) {
    this.now = now;
    this.sql = sql;
    this.source = `import:${run.sourceName}`;
    this.extraTags = JSON.parse(run.tags) as string[];
    this.seen = run.dryRun ? (previewSeen.get(run.id) ?? previewSeen.set(run.id, new Set()).get(run.id)!) : null;
  }

  /** The subscribers this step added or changed (their `imported` events written), for the import listeners. */
  readonly touched: number[] = [];

  /** Reads, in the step's transaction, what holds for all its rows. */
  begin(): void {
    this.anyErased = this.sql.anyErased.get() !== undefined;
  }

  apply(row: ImportRow): Outcome {
    const tags = [...row.tags, ...this.extraTags];
    const existing = this.sql.byEmail.get(row.email) as Existing | undefined;
    // Erased, and not confirmed anew since (a sign-up still pending proves nothing): left as it is.
    if ((!existing || statusOf(existing) !== 'active') && this.wasErased(row.email)) return 'suppressed';
    if (this.seen) return this.preview(row, existing, tags);
    const now = this.now.getTime();
    if (!existing) {
      const active = row.consent === 'active';
      const { id } = this.sql.insert.get({
        email: row.email,
        name: row.name,
        isActive: active ? 1 : 0,
        subscribedAt: (row.subscribedAt ?? this.now).getTime(),
        unsubscribedAt: row.consent === 'unsubscribed' ? (row.leftAt ?? this.now).getTime() : null,
        bouncedAt: row.consent === 'bounced' ? (row.leftAt ?? this.now).getTime() : null,
        source: this.source,
      }) as { id: number };
      for (const tag of tags) this.sql.tagSubscriber.run(id, this.tagId(tag));
      this.sql.event.run(id, now, this.source);
      this.touched.push(id);
      return active ? 'added' : 'suppressed';
    }
    const change = this.changeOf(row, existing);
    let tagged = 0;
    for (const tag of tags) tagged += this.sql.tagSubscriber.run(existing.id, this.tagId(tag)).changes;
    if (change) this.sql.update.run({ ...change, id: existing.id });
    if (change || tagged) {
      this.sql.event.run(existing.id, now, this.source);
      this.touched.push(existing.id);
    }
    const status = statusOf(change ?? existing);
    return status !== 'active' ? 'suppressed' : change || tagged ? 'updated' : 'unchanged';
  }

  /** Whether the address's holder had their data erased here (and has not signed up again since). */
  private wasErased(email: string): boolean {
    return this.anyErased && this.sql.erased.get(addressHash(email)) !== undefined;
  }

  /** The columns a row changes on an address already here, or null. */
  private changeOf(row: ImportRow, s: Existing): Columns | null {
    const { id: _id, ...next } = s;
    let changed = false;
    const set = <K extends keyof Columns>(field: K, value: Columns[K]) => {
      next[field] = value;
      changed = true;
    };
    if (row.name && !s.name) set('name', row.name);
    if (row.subscribedAt && row.subscribedAt.getTime() < s.subscribedAt) set('subscribedAt', row.subscribedAt.getTime());
    const status = statusOf(s);
    // Unsubscribed or bounced here stays so, whatever the file says.
    if (status === 'active' || status === 'pending') {
      const left = (row.leftAt ?? this.now).getTime();
      if (row.consent === 'active' && status === 'pending') {
        set('isActive', 1);
        set('kitPendingSince', null);
      } else if (row.consent === 'unsubscribed') {
        set('isActive', 0);
        set('unsubscribedAt', left);
        set('confirmTokenHash', null);
        set('kitPendingSince', null);
      } else if (row.consent === 'bounced') {
        set('isActive', 0);
        set('bouncedAt', left);
      }
    }
    return changed ? next : null;
  }

  private preview(row: ImportRow, existing: Existing | undefined, tags: string[]): Outcome {
    const seen = this.seen!;
    const repeated = seen.has(row.email);
    seen.add(row.email);
    if (!existing && !repeated) return row.consent === 'active' ? 'added' : 'suppressed';
    if (!existing) return row.consent === 'active' ? 'unchanged' : 'suppressed';
    const change = this.changeOf(row, existing);
    const status = statusOf(change ?? existing);
    if (status !== 'active') return 'suppressed';
    const tagged = tags.some((t) => !this.sql.hasTag.get(existing.id, t));
    return change || tagged ? 'updated' : 'unchanged';
  }

  private tagId(name: string): number {
    const key = name.toLowerCase();
    let id = this.tagIds.get(key);
    if (id === undefined) {
      this.sql.insertTag.run(name);
      id = (this.sql.tagByName.get(name) as { id: number }).id;
      this.tagIds.set(key, id);
    }
    return id;
  }
}

type Statements = ReturnType<typeof statements>;
const prepared = new WeakMap<Db, Statements>();
const statementsOf = (db: Db) => prepared.get(db) ?? prepared.set(db, statements(db)).get(db)!;

/**
 * The statements a step runs, prepared once per connection: 100,000 rows make several hundred
 * thousand of them, and a thousand steps, too many to build through the query builder each time.
 */
function statements(db: Db) {
  const c = db.$client;
  return {
    nextRun: db.select().from(subscriberImports).where(eq(subscriberImports.status, 'running')).orderBy(desc(subscriberImports.dryRun), asc(subscriberImports.id)).limit(1).prepare(),
    // The counts are added to (the step's own), the place and the refused rows listed replaced.
    progress: c.prepare(
      `update subscriber_imports set "offset" = @offset, line = @line, total = total + @total, added = added + @added, updated = updated + @updated,
        unchanged = unchanged + @unchanged, suppressed = suppressed + @suppressed, invalid_count = invalid_count + @invalidCount,
        invalid = coalesce(@invalid, invalid), status = iif(@finishedAt is null, status, 'done'), finished_at = coalesce(@finishedAt, finished_at) where id = @id`,
    ),
    anyErased: c.prepare('select 1 from suppressed_addresses limit 1'),
    byEmail: c.prepare(
      `select id, name, is_active as isActive, bounced_at as bouncedAt, unsubscribed_at as unsubscribedAt, confirm_token_hash as confirmTokenHash,
        kit_pending_since as kitPendingSince, subscribed_at as subscribedAt from newsletter_subscribers where email = ?`,
    ),
    insert: c.prepare(
      // No unsubscribe token: it is made when the first issue goes out (unsubscribeTokenOf), and
      // 100,000 random keys inserted at once would rewrite most pages of their index.
      `insert into newsletter_subscribers (email, name, is_active, subscribed_at, unsubscribed_at, bounced_at, source, unsubscribe_token)
        values (@email, @name, @isActive, @subscribedAt, @unsubscribedAt, @bouncedAt, @source, null) returning id`,
    ),
    update: c.prepare(
      `update newsletter_subscribers set name = @name, is_active = @isActive, bounced_at = @bouncedAt, unsubscribed_at = @unsubscribedAt,
        confirm_token_hash = @confirmTokenHash, kit_pending_since = @kitPendingSince, subscribed_at = @subscribedAt where id = @id`,
    ),
    insertTag: c.prepare('insert into tags (name) values (?) on conflict do nothing'),
    tagByName: c.prepare('select id from tags where lower(name) = lower(?)'),
    tagSubscriber: c.prepare('insert into subscriber_tags (subscriber_id, tag_id) values (?, ?) on conflict do nothing'),
    erased: c.prepare('select 1 from suppressed_addresses where address_hash = ?'),
    hasTag: c.prepare('select 1 from subscriber_tags st join tags t on t.id = st.tag_id where st.subscriber_id = ? and lower(t.name) = lower(?)'),
    event: c.prepare("insert into subscriber_events (subscriber_id, at, what, detail) values (?, ?, 'imported', ?)"),
  };
}
