// The site document: published (what visitors read), the owner's draft (what 'Preview' shows
// admins), and a revision for every publish. The published document is read from the database
// once per change and kept in memory; pages read it from there on every render.
import { desc, eq } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { siteDocument, siteRevisions } from '#db/schema/site.ts';
import { users } from '#db/schema/auth.ts';
import { env } from '#server/env.ts';
import { conflict, fromZod, notFound } from '#server/http/errors.ts';
import { contentChanged } from '#server/http/page-cache.ts';
import { sanitizePolicyHtml } from '#server/services/sanitize.ts';
import { packagesOf, SiteDocumentSchema, type SiteDocument, type SiteRevisionDto, type SiteStateDto } from '#shared/schemas/site.ts';
import { defaultSiteDocument } from './defaults.ts';
import { changedParts, pagesShowing } from './pages.ts';

const ROW = 1;

/** The document as stored and exported: stable key order (the schema's), two-space indent. */
export const serializeSite = (doc: SiteDocument) => `${JSON.stringify(doc, null, 2)}\n`;

/** A valid document with its rich text sanitised, as it is stored. */
function clean(doc: SiteDocument): SiteDocument {
  return { ...doc, privacyPolicy: { ...doc.privacyPolicy, sections: doc.privacyPolicy.sections.map((s) => ({ ...s, html: sanitizePolicyHtml(s.html) })) } };
}

/** Parses stored JSON; a stored document that no longer fits the schema is a bug worth hearing about. */
const parseStored = (json: string): SiteDocument => SiteDocumentSchema.parse(JSON.parse(json));

let cache: { doc: SiteDocument; json: string } | null = null;

/** The row, made from the defaults (and the old environment variables) the first time it is asked for. */
function row(db: Db) {
  const found = db.select().from(siteDocument).where(eq(siteDocument.id, ROW)).get();
  if (found) return found;
  // Through the schema, so the stored text is what an export of it gives (the schema's key order).
  const first = serializeSite(clean(SiteDocumentSchema.parse(defaultSiteDocument(env()))));
  db.transaction((tx) => {
    const made = tx.insert(siteDocument).values({ id: ROW, published: first }).onConflictDoNothing().run();
    if (made.changes > 0) tx.insert(siteRevisions).values({ document: first }).run();
  });
  return db.select().from(siteDocument).where(eq(siteDocument.id, ROW)).get()!;
}

/** What visitors read. */
export function getPublishedSite(db: Db): SiteDocument {
  if (cache) return cache.doc;
  const json = row(db).published;
  cache = { doc: parseStored(json), json };
  return cache.doc;
}

/** The draft, or null when there is none. */
export function getDraftSite(db: Db): SiteDocument | null {
  const draft = row(db).draft;
  return draft === null ? null : parseStored(draft);
}

export const siteState = (db: Db): SiteStateDto => ({ published: getPublishedSite(db), draft: getDraftSite(db) });

/**
 * Saves a whole (already validated) document as the draft. Cleaning rich text can lengthen it
 * ('&' is written '&amp;', open tags are closed): what is stored is checked again, so a draft
 * that could not be read back is refused (400) rather than kept.
 */
export function saveSiteDraft(db: Db, doc: SiteDocument): SiteDocument {
  row(db);
  const checked = SiteDocumentSchema.safeParse(clean(doc));
  if (!checked.success) throw fromZod(checked.error);
  const stored = checked.data;
  db.update(siteDocument)
    .set({ draft: serializeSite(stored), draftUpdatedAt: new Date() })
    .where(eq(siteDocument.id, ROW))
    .run();
  return stored;
}

/** Throws the draft away. */
export function discardSiteDraft(db: Db): void {
  row(db);
  db.update(siteDocument).set({ draft: null, draftUpdatedAt: null }).where(eq(siteDocument.id, ROW)).run();
}

/**
 * Makes the draft live and keeps it as a revision (who, when). Only the pages showing what
 * changed are refreshed, at their very next request. 409 without a draft.
 */
export function publishSite(db: Db, userId: string): SiteDocument {
  const before = getPublishedSite(db);
  const draft = row(db).draft;
  if (draft === null) throw conflict('There is no draft to publish.');
  const doc = parseStored(draft);
  db.transaction((tx) => {
    tx.update(siteDocument).set({ published: draft, draft: null, draftUpdatedAt: null, publishedAt: new Date() }).where(eq(siteDocument.id, ROW)).run();
    tx.insert(siteRevisions).values({ document: draft, publishedBy: userId }).run();
  });
  cache = { doc, json: draft };
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
    .set({ ...(published && { published: serializeSite(published) }), ...(draft && { draft: serializeSite(draft) }) })
    .where(eq(siteDocument.id, ROW))
    .run();
  // Read again at the next use (a rolled-back change included).
  cache = null;
}

/** Every publish, newest first, with what it changed against the one before. */
export function listSiteRevisions(db: Db): SiteRevisionDto[] {
  const rows = db
    .select({ id: siteRevisions.id, document: siteRevisions.document, publishedAt: siteRevisions.publishedAt, publishedBy: users.username })
    .from(siteRevisions)
    .leftJoin(users, eq(users.id, siteRevisions.publishedBy))
    .orderBy(desc(siteRevisions.id))
    .limit(200)
    .all();
  return rows.map((r, i) => {
    const older = rows[i + 1];
    return { id: r.id, publishedAt: r.publishedAt, publishedBy: r.publishedBy, changed: older ? changedParts(parseStored(older.document), parseStored(r.document)) : [] };
  });
}

/** Makes a revision the draft (publish to make it live). */
export function restoreSiteRevision(db: Db, id: number): SiteDocument {
  const found = db.select({ document: siteRevisions.document }).from(siteRevisions).where(eq(siteRevisions.id, id)).get();
  if (!found) throw notFound('Revision not found');
  return saveSiteDraft(db, parseStored(found.document));
}

/** The published document as the export file's text. */
export const exportSite = (db: Db) => serializeSite(getPublishedSite(db));
