// The site document: published (what visitors read), the owner's draft (what 'Preview' shows
// admins), and a revision for every publish. The published document is read from the database
// once per change and kept in memory; pages read it from there on every render.
import { and, desc, eq, lt, max, sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { siteDocument, siteRevisions } from '#db/schema/site.ts';
import { users } from '#db/schema/auth.ts';
import { env } from '#server/env.ts';
import { conflict, fromZod, HttpError, notFound } from '#server/http/errors.ts';
import { ifMatchVersion, type SeenVersion } from '#server/http/if-match.ts';
import { contentChanged } from '#server/http/pages/page-cache.ts';
import { sanitizePolicyHtml } from '#server/html/sanitize.ts';
import { packagesOf, SITE_REVISIONS_PAGE, SiteDocumentSchema, type SiteDocument, type SiteRevisionDto, type SiteStateDto } from '#shared/schemas/site.ts';
import { defaultSiteDocument } from './defaults.ts';
import { changedParts, pagesShowing } from './pages.ts';
import { readStoredSite, tellFilled } from './upgrade.ts';

const ROW = 1;

/** The document as stored and exported: stable key order (the schema's), two-space indent. */
export const serializeSite = (doc: SiteDocument) => `${JSON.stringify(doc, null, 2)}\n`;

/** A valid document with its rich text sanitised, as it is stored. */
function clean(doc: SiteDocument): SiteDocument {
  return { ...doc, privacyPolicy: { ...doc.privacyPolicy, sections: doc.privacyPolicy.sections.map((s) => ({ ...s, html: sanitizePolicyHtml(s.html) })) } };
}

/** The defaults as stored (through the schema, rich text cleaned). */
const defaultsAsStored = () => clean(SiteDocumentSchema.parse(defaultSiteDocument(env())));

/**
 * Reads stored JSON. A document an older version wrote that this one's schema refuses is read
 * with the refused or missing parts from the defaults (and a warning logged) rather than failing
 * every page that shows it.
 */
function parseStored(json: string, which = 'a revision'): SiteDocument {
  const read = readStoredSite(json, defaultsAsStored);
  tellFilled(which, json, read.filled);
  return read.doc;
}

// The published document, parsed once: pages, the admin (which publishes) and the background
// jobs (whose e-mails name the brand and the contact address) all read this one copy, so each
// sees a publish at once.
const held: { cache: { doc: SiteDocument; json: string } | null } = { cache: null };

/** The row, made from the defaults (and the old environment variables) the first time it is asked for. */
function row(db: Db) {
  const found = db.select().from(siteDocument).where(eq(siteDocument.id, ROW)).get();
  if (found) return found;
  // Through the schema, so the stored text is what an export of it gives (the schema's key order).
  const first = serializeSite(defaultsAsStored());
  db.transaction((tx) => {
    const made = tx.insert(siteDocument).values({ id: ROW, published: first }).onConflictDoNothing().run();
    if (made.changes > 0) tx.insert(siteRevisions).values({ document: first }).run();
  });
  return db.select().from(siteDocument).where(eq(siteDocument.id, ROW)).get()!;
}

/** What visitors read. */
export function getPublishedSite(db: Db): SiteDocument {
  if (held.cache) return held.cache.doc;
  const json = row(db).published;
  held.cache = { doc: parseStored(json, 'published'), json };
  return held.cache.doc;
}

const parseDraft = (draft: string | null) => (draft === null ? null : parseStored(draft, 'draft'));

/** The draft, or null when there is none. */
export const getDraftSite = (db: Db): SiteDocument | null => parseDraft(row(db).draft);

/** Both documents and the version, from one read of the row. */
export function siteState(db: Db): SiteStateDto {
  const { draft, version } = row(db);
  return { published: getPublishedSite(db), draft: parseDraft(draft), version };
}

/** The ETag of a version of the site's row. */
export const siteEtag = (version: number) => `"site-${version}"`;

/** The state as an answer, its version also as the ETag an If-Match can name. */
export function siteAnswer(db: Db): Response {
  const state = siteState(db);
  return Response.json(state, { headers: { 'Cache-Control': 'no-store', ETag: siteEtag(state.version) } });
}

/** The version a request's If-Match header names (`"site-N"`); 400 for one that names no version of the site. */
export const seenVersion = (request: Request): SeenVersion => ifMatchVersion(request, 'site', 'the site, as in "site-12"');

const changedElsewhere = () => new HttpError(412, 'The site was changed in another tab or by another admin since you opened it. Nothing was saved.');

/** The row's filter for a write: the site's row, at the version the editor saw when it named one. */
const atVersion = (seen: SeenVersion) => (seen === undefined ? eq(siteDocument.id, ROW) : and(eq(siteDocument.id, ROW), eq(siteDocument.version, seen)));
const nextVersion = sql`${siteDocument.version} + 1`;

/** 412 when the editor names a version the site has moved on from. */
export function checkSeen(db: Db, seen: SeenVersion): void {
  if (seen !== undefined && row(db).version !== seen) throw changedElsewhere();
}

/** Throws 412 when a write at `seen` changed no row: the version moved on meanwhile. */
function written(changes: number): void {
  if (changes === 0) throw changedElsewhere();
}

/**
 * Saves a whole (already validated) document as the draft. Cleaning rich text can lengthen it
 * ('&' is written '&amp;', open tags are closed): what is stored is checked again, so a draft
 * that could not be read back is refused (400) rather than kept.
 */
export function saveSiteDraft(db: Db, doc: SiteDocument, seen?: SeenVersion): SiteDocument {
  row(db);
  const checked = SiteDocumentSchema.safeParse(clean(doc));
  if (!checked.success) throw fromZod(checked.error);
  const stored = checked.data;
  written(
    db
      .update(siteDocument)
      .set({ draft: serializeSite(stored), draftUpdatedAt: new Date(), version: nextVersion })
      .where(atVersion(seen))
      .run().changes,
  );
  return stored;
}

/** Throws the draft away. */
export function discardSiteDraft(db: Db, seen?: SeenVersion): void {
  row(db);
  written(db.update(siteDocument).set({ draft: null, draftUpdatedAt: null, version: nextVersion }).where(atVersion(seen)).run().changes);
}

/**
 * Makes the draft live and keeps it as a revision (who, when). Only the pages showing what
 * changed are refreshed, at their very next request. 409 without a draft.
 */
export function publishSite(db: Db, userId: string, seen?: SeenVersion): SiteDocument {
  const before = getPublishedSite(db);
  const { draft, version } = row(db);
  // The draft the editor has not seen is not published on its behalf.
  if (seen !== undefined && version !== seen) throw changedElsewhere();
  if (draft === null) throw conflict('There is no draft to publish.');
  const doc = parseStored(draft);
  db.transaction((tx) => {
    // At the version read above: the draft published is the one checked.
    written(tx.update(siteDocument).set({ published: draft, draft: null, draftUpdatedAt: null, publishedAt: new Date(), version: nextVersion }).where(atVersion(version)).run().changes);
    tx.insert(siteRevisions).values({ document: draft, publishedBy: userId }).run();
  });
  held.cache = { doc, json: draft };
  const pages = pagesShowing(before, doc);
  if (pages) contentChanged({ scope: pages, now: true });
  return doc;
}

/** A document with the packages that book as event type `from` booking as `to`, or null when none does. */
function withEventType(doc: SiteDocument, from: string, to: string): SiteDocument | null {
  if (!packagesOf(doc).some((p) => p.eventType === from)) return null;
  const packageTabs = doc.workWithMe.packageTabs.map((tab) => ({ ...tab, packages: tab.packages.map((p) => (p.eventType === from ? { ...p, eventType: to } : p)) }));
  return { ...doc, workWithMe: { ...doc.workWithMe, packageTabs } };
}

/**
 * An event type's slug changed (call within its transaction): the packages of the published
 * document and of the draft that book as it follow it, in place. Renaming it publishes nothing
 * else and makes no revision; an older revision restored names the old slug, which publishing
 * then refuses with the reason.
 */
export function renameEventTypeInSite(db: Pick<Db, 'select' | 'update'>, from: string, to: string): void {
  const stored = db.select().from(siteDocument).where(eq(siteDocument.id, ROW)).get();
  if (!stored) return;
  const published = withEventType(parseStored(stored.published), from, to);
  const draft = stored.draft === null ? null : withEventType(parseStored(stored.draft), from, to);
  if (!published && !draft) return;
  db.update(siteDocument)
    .set({ ...(published && { published: serializeSite(published) }), ...(draft && { draft: serializeSite(draft) }), version: nextVersion })
    .where(eq(siteDocument.id, ROW))
    .run();
  // Read again at the next use (a rolled-back change included).
  held.cache = null;
}

/**
 * A page of the revisions (those older than `before`, the newest when absent), newest first:
 * each with what it changed against the publish before it, which one is live, and which is the
 * very first.
 */
export function listSiteRevisions(db: Db, before?: number): SiteRevisionDto[] {
  const rows = db
    .select({ id: siteRevisions.id, kind: siteRevisions.kind, document: siteRevisions.document, publishedAt: siteRevisions.publishedAt, publishedBy: users.username })
    .from(siteRevisions)
    .leftJoin(users, eq(users.id, siteRevisions.publishedBy))
    .where(before === undefined ? undefined : lt(siteRevisions.id, before))
    .orderBy(desc(siteRevisions.id))
    .limit(SITE_REVISIONS_PAGE)
    .all();
  const published = eq(siteRevisions.kind, 'published');
  const live = db
    .select({ id: max(siteRevisions.id) })
    .from(siteRevisions)
    .where(published)
    .get()?.id;
  // The publish before the page's oldest, for what that one changed.
  const oldest = rows.at(-1);
  const previous =
    oldest &&
    db
      .select({ document: siteRevisions.document })
      .from(siteRevisions)
      .where(and(published, lt(siteRevisions.id, oldest.id)))
      .orderBy(desc(siteRevisions.id))
      .get();
  let previousDoc = previous ? parseStored(previous.document) : null;
  const out: SiteRevisionDto[] = [];
  for (const r of rows.toReversed()) {
    const doc = parseStored(r.document);
    out.push({
      id: r.id,
      publishedAt: r.publishedAt,
      publishedBy: r.kind === 'draft' ? null : r.publishedBy,
      kind: r.kind,
      changed: previousDoc ? changedParts(previousDoc, doc) : [],
      live: r.id === live,
      first: previousDoc === null,
    });
    if (r.kind === 'published') previousDoc = doc;
  }
  return out.reverse();
}

/**
 * Makes a revision the draft (publish to make it live). The draft it replaces, when there is one
 * and it differs, is kept as a revision of its own: a restore never loses unpublished work.
 */
export function restoreSiteRevision(db: Db, id: number, seen?: SeenVersion): SiteDocument {
  const found = db.select({ document: siteRevisions.document }).from(siteRevisions).where(eq(siteRevisions.id, id)).get();
  if (!found) throw notFound('Revision not found');
  return db.transaction(
    (tx) => {
      const replaced = row(db).draft;
      // Refused (412, nothing kept) when the version moved on since the editor loaded it.
      const restored = saveSiteDraft(db, parseStored(found.document), seen);
      if (replaced !== null && replaced !== serializeSite(restored)) tx.insert(siteRevisions).values({ document: replaced, kind: 'draft' }).run();
      return restored;
    },
    { behavior: 'immediate' },
  );
}

/** The published document as the export file's text. */
export const exportSite = (db: Db) => serializeSite(getPublishedSite(db));
