// The audit log: every admin write that succeeded leaves one row (who, when, what, the id and a
// short summary). The summary is built only from what names a thing (a title, a name, a slug)
// and from on/off switches: never a free-text value of the request, so no password, token,
// card detail or body can land here.
import { and, count, desc, eq, gte, like, lt, or, type SQL } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { auditLog } from '#db/schema/audit.ts';
import { DAY_MS } from '#shared/time.ts';
import type { AuditEntryDto, AuditQuery } from '#shared/schemas/security.ts';
import type { PageDto } from '#shared/schemas/paging.ts';
import { windowOf } from '#server/http/paging.ts';

/** Rows are kept two years (the database refuses to delete a younger one). */
export const AUDIT_KEEP_MS = 730 * DAY_MS;

export interface AuditActor {
  id: string | null;
  name: string;
}

export interface AuditEntry {
  action: string;
  targetId?: string | undefined;
  summary?: string | undefined;
}

/** The audit actor of a signed-in user. */
export const actorOf = (user: { id: string; username: string }): AuditActor => ({ id: user.id, name: user.username });

/**
 * An admin's change to their own account (two-factor, passkeys, sessions, password), an admin
 * still to set up two-factor included; a non-admin's is not audited.
 */
export function auditAccountChange(db: Db, user: { id: string; username: string; isAdmin: boolean; adminPending?: boolean }, action: string, targetId = user.id, summary?: string): void {
  if (user.isAdmin || user.adminPending) recordAudit(db, actorOf(user), { action, targetId, summary });
}

export function recordAudit(db: Db, actor: AuditActor, entry: AuditEntry): void {
  db.insert(auditLog)
    .values({
      actorId: actor.id,
      actorName: actor.name.slice(0, 100),
      action: entry.action.slice(0, 100),
      targetId: (entry.targetId ?? '').slice(0, 200),
      summary: (entry.summary ?? '').slice(0, 300),
    })
    .run();
}

const VERBS: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' };

/**
 * An action's name from the route and method: '/api/admin/comments/[id]/approve' POST is
 * 'comments.approve', '/api/blog-posts/[id]' PUT 'blog-posts.update', '/api/admin/settings'
 * PUT 'settings.update'.
 */
export function actionOf(method: string, routePattern: string): string {
  const parts = routePattern
    .replace(/^\/api\/(admin\/)?/, '')
    .split('/')
    .filter((p) => p && !p.startsWith('['));
  const verb = VERBS[method] ?? method.toLowerCase();
  const last = routePattern.split('/').at(-1) ?? '';
  // A route ending in a word after an id ('/[id]/approve') or a word of its own ('/site/publish') names the action.
  if (method === 'POST' && parts.length > 1 && !last.startsWith('[')) return parts.join('.');
  return [...parts, verb].join('.');
}

/** The names a summary may use from an answer or a request body: what a thing is called. */
const NAME_KEYS = ['title', 'name', 'subject', 'slug', 'username', 'code', 'status', 'fileName', 'productName'];

/** A short summary: the thing's name from the answer, and the switches the request turned. */
export function summaryOf(answer: unknown, body: unknown): string {
  const parts: string[] = [];
  const from = (answer && typeof answer === 'object' && !Array.isArray(answer) ? answer : {}) as Record<string, unknown>;
  for (const key of NAME_KEYS) {
    const v = from[key];
    if ((typeof v === 'string' && v.length > 0) || typeof v === 'number') {
      parts.push(`${key}: ${String(v).slice(0, 80)}`);
      break;
    }
  }
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const switches = Object.entries(body as Record<string, unknown>).filter(([, v]) => typeof v === 'boolean');
    for (const [k, v] of switches.slice(0, 6)) parts.push(`${k}=${String(v)}`);
  }
  return parts.join(', ');
}

const toDto = (r: typeof auditLog.$inferSelect): AuditEntryDto => r;

function conditions(query: AuditQuery): SQL | undefined {
  const c: (SQL | undefined)[] = [];
  if (query.actor) c.push(eq(auditLog.actorName, query.actor));
  if (query.action) c.push(or(eq(auditLog.action, query.action), like(auditLog.action, `${query.action.replace(/[%_\\]/g, '')}.%`)));
  if (query.from) c.push(gte(auditLog.ts, new Date(`${query.from}T00:00:00Z`)));
  if (query.to) c.push(lt(auditLog.ts, new Date(new Date(`${query.to}T00:00:00Z`).getTime() + DAY_MS)));
  return and(...c);
}

/** One page of the log, newest first, with the actors and actions there are to filter by. */
export function pageAudit(db: Db, query: AuditQuery): PageDto<AuditEntryDto, { actors: string[]; actions: string[] }> {
  const where = conditions(query);
  const { page, pageSize, offset } = windowOf(query);
  const items = db.select().from(auditLog).where(where).orderBy(desc(auditLog.ts), desc(auditLog.id)).limit(pageSize).offset(offset).all().map(toDto);
  const total = db.select({ n: count() }).from(auditLog).where(where).get()?.n ?? 0;
  const actors = db
    .selectDistinct({ v: auditLog.actorName })
    .from(auditLog)
    .orderBy(auditLog.actorName)
    .all()
    .map((r) => r.v);
  const actions = db
    .selectDistinct({ v: auditLog.action })
    .from(auditLog)
    .orderBy(auditLog.action)
    .all()
    .map((r) => r.v);
  return { items, total, page, pageSize, stats: { actors, actions } };
}

/** Every row the filter matches, newest first (the CSV export). */
export const listAudit = (db: Db, query: AuditQuery): AuditEntryDto[] => db.select().from(auditLog).where(conditions(query)).orderBy(desc(auditLog.ts), desc(auditLog.id)).all().map(toDto);

/** Deletes rows over two years old (the hourly job). */
export function pruneAudit(db: Db, now = Date.now()): number {
  return db
    .delete(auditLog)
    .where(lt(auditLog.ts, new Date(now - AUDIT_KEEP_MS - DAY_MS)))
    .run().changes;
}
