// The old site's files, brought over by a WordPress import: downloaded a few at a time, with a
// timeout, checked like an upload (size limit, type read from the bytes) and stored like one
// (so images get their smaller copies). A file is stored once, whatever the number of posts
// that use it, and across imports. What cannot be fetched is reported and left where it was.
// Every kind of file is fetched through fetchPublic: the addresses come from the uploaded file,
// so loopback, private and link-local hosts are refused (IMPORT_ALLOW_PRIVATE_HOSTS allows them).
import { rmSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import pLimit from 'p-limit';
import type { Db } from '#db/client.ts';
import { wordpressMedia } from '#db/schema/imports.ts';
import { env } from '#server/env.ts';
import { HttpError } from '#server/http/errors.ts';
import { fetchPublic, RefusedAddressError } from '#server/http/outbound.ts';
import { receive, storeChecked } from '#server/media/uploads.ts';
import { tempPath } from '#server/media/local.ts';
import { LIMITS } from '#server/media/upload-policy.ts';

/** Downloads at once, over the whole import. */
const CONCURRENCY = 4;
const TIMEOUT_MS = { image: 30_000, audio: 10 * 60_000 };

export interface MediaFailure {
  url: string;
  reason: string;
}

export class MediaFetcher {
  downloaded = 0;
  reused = 0;
  readonly failures: MediaFailure[] = [];
  private readonly limit = pLimit(CONCURRENCY);
  private readonly pending = new Map<string, Promise<string | null>>();

  private readonly db: Db;
  private readonly owner: string;

  constructor(db: Db, owner: string) {
    this.db = db;
    this.owner = owner;
  }

  /** This site's URL for the file at `url` (downloading it once), or null when it could not be brought over. */
  get(url: string, kind: 'image' | 'audio'): Promise<string | null> {
    let job = this.pending.get(url);
    if (!job) {
      job = this.limit(() => this.bring(url, kind));
      this.pending.set(url, job);
    }
    return job;
  }

  private async bring(url: string, kind: 'image' | 'audio'): Promise<string | null> {
    const known = this.db.select({ url: wordpressMedia.url }).from(wordpressMedia).where(eq(wordpressMedia.sourceUrl, url)).get();
    if (known) {
      this.reused += 1;
      return known.url;
    }
    const tmp = tempPath();
    try {
      const res = await fetchPublic(url, {
        signal: AbortSignal.timeout(TIMEOUT_MS[kind]),
        headers: { Accept: kind === 'image' ? 'image/*' : 'audio/*' },
        allowPrivate: env().IMPORT_ALLOW_PRIVATE_HOSTS,
      });
      if (!res.ok || !res.body) throw new Error(`the old site answered ${res.status}`);
      const limit = LIMITS[kind];
      if (Number(res.headers.get('content-length') ?? 0) > limit) throw new Error(`larger than the ${limit / 1024 / 1024} MB limit`);
      const size = await receive(res.body, tmp, limit);
      if (size === 0) throw new Error('the file is empty');
      const stored = await storeChecked(tmp, kind, size, this.owner);
      if (!stored) throw new Error(`not a supported ${kind} file`);
      this.db.insert(wordpressMedia).values({ sourceUrl: url, url: stored.url }).onConflictDoNothing().run();
      this.downloaded += 1;
      return stored.url;
    } catch (err) {
      this.failures.push({ url, reason: reasonOf(err) });
      return null;
    } finally {
      rmSync(tmp, { force: true });
    }
  }
}

function reasonOf(err: unknown): string {
  const refused = err instanceof RefusedAddressError ? err : err instanceof Error && err.cause instanceof RefusedAddressError ? err.cause : null;
  // Said the same whatever is (or is not) listening there.
  if (refused) return refused.message;
  if (err instanceof HttpError && err.status === 413) return err.message;
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return 'no answer in time';
  if (err instanceof Error && err.message.startsWith('fetch failed')) return `could not connect${err.cause instanceof Error ? ` (${err.cause.message})` : ''}`;
  return err instanceof Error ? err.message : String(err);
}
