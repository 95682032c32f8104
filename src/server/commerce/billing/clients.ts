// Clients: whoever paid for a package. At the first payment they get an account (or their
// existing one, found by e-mail, is linked), approved because they paid, and an e-mail with a
// link to choose their password. What a client sees of their packages, payments and sessions,
// and what the owner sees of every client.
import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, like } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { accounts, passkeys, sessions, twoFactors, users, verifications } from '#db/schema/auth.ts';
import { clientPackages, clients } from '#db/schema/clients.ts';
import { orders } from '#db/schema/commerce.ts';
import { resetLink } from '#server/accounts/auth.ts';
import { env } from '#server/env.ts';
import { notFound } from '#server/http/errors.ts';
import { enqueueMail } from '#server/mail/outbox.ts';
import { bookingEventTypes, bookings } from '#db/schema/booking.ts';
import { manageUrl } from '#server/booking/settings.ts';
import { downloadsForPayment } from '#server/commerce/downloads.ts';
import type { ClientDto, ClientPackageDto, ClientPaymentDto, ClientSessionDto } from '#shared/schemas/billing.ts';
import { setPasswordMail } from './mail.ts';
import { hasPayment, paidPayments, sessionsGranted, sessionsUsed, type ClientPackage } from '#server/booking/package-sessions.ts';

type Tx = Pick<Db, 'select' | 'insert' | 'update'>;
export type Client = typeof clients.$inferSelect;

/** How long a new client's set-password link works. */
const SET_PASSWORD_MS = 7 * 24 * 60 * 60_000;

/** The client row of an e-mail address, made the first time it checks out. */
export function clientFor(tx: Tx, email: string): Client {
  tx.insert(clients).values({ email }).onConflictDoNothing().run();
  return tx.select().from(clients).where(eq(clients.email, email)).get()!;
}

/** A free username from the address's local part ('ana.lee@x.com' -> 'ana.lee', then 'ana.lee2', ...). */
function freeUsername(tx: Tx, email: string): string {
  const base =
    email
      .split('@')[0]!
      .toLowerCase()
      .replace(/[^a-z0-9_.-]+/g, '')
      .slice(0, 40) || 'client';
  const stem = base.length >= 3 ? base : `${base}-client`;
  const taken = new Set(
    tx
      .select({ u: users.username })
      .from(users)
      .where(like(users.username, `${stem}%`))
      .all()
      .map((r) => r.u),
  );
  if (!taken.has(stem)) return stem;
  for (let i = 2; ; i++) if (!taken.has(`${stem}${i}`)) return `${stem}${i}`;
}

/**
 * Gives a paying client their account, inside the payment's transaction: links the user with
 * their e-mail (approving it: they paid), or makes one. A user without a password (a new one)
 * gets a single-use link to choose it, valid for a week.
 *
 * Registering proves nothing about an address, so an existing account whose address was never
 * shown to be its owner's (anyone can register with someone else's) loses every way in before
 * it is linked: its password, sessions, passkeys and two-factor secret. Only the buyer's mailbox,
 * through the set-password link, opens it. An admin's account is linked as it is.
 */
export function admitClient(tx: Tx & Pick<Db, 'delete'>, client: Client, packageName: string): void {
  if (client.userId) return;
  let user = tx.select().from(users).where(eq(users.email, client.email)).get();
  const unproven = user && !user.isAdmin && !user.emailVerified;
  if (user && unproven) {
    tx.delete(accounts)
      .where(and(eq(accounts.userId, user.id), eq(accounts.providerId, 'credential')))
      .run();
    tx.delete(sessions).where(eq(sessions.userId, user.id)).run();
    tx.delete(passkeys).where(eq(passkeys.userId, user.id)).run();
    tx.delete(twoFactors).where(eq(twoFactors.userId, user.id)).run();
  }
  if (user) {
    tx.update(users)
      .set({ isApproved: true, emailVerified: true, ...(unproven && { twoFactorEnabled: false }) })
      .where(eq(users.id, user.id))
      .run();
  } else {
    const username = freeUsername(tx, client.email);
    user = tx.insert(users).values({ id: randomUUID(), username, displayUsername: username, email: client.email, emailVerified: true, name: username, isApproved: true }).returning().get();
  }
  tx.update(clients).set({ userId: user.id, updatedAt: new Date() }).where(eq(clients.id, client.id)).run();
  const hasPassword = tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.userId, user.id), eq(accounts.providerId, 'credential')))
    .get();
  if (hasPassword) return;
  // The record better-auth's own reset flow writes, so its reset endpoint (the /auth/reset page) takes the link.
  const token = randomBytes(18).toString('base64url');
  tx.insert(verifications)
    .values({ id: randomUUID(), identifier: `reset-password:${token}`, value: user.id, expiresAt: new Date(Date.now() + SET_PASSWORD_MS) })
    .run();
  const site = env().SITE_URL;
  enqueueMail(tx, { kind: 'client-set-password', to: client.email, ...setPasswordMail({ packageName, username: user.username, url: resetLink(site, token), accountUrl: `${site}/account` }) });
}

/** A package's status as shown: one in force with a payment under dispute reads 'disputed' (its sessions and downloads are paused). */
function shownStatus(tx: Pick<Db, 'select'>, p: ClientPackage): ClientPackageDto['status'] {
  return (p.status === 'active' || p.status === 'past_due' || p.status === 'completed') && hasPayment(tx, p.id, 'disputed') ? 'disputed' : p.status;
}

export function toClientPackageDto(tx: Pick<Db, 'select'>, p: ClientPackage): ClientPackageDto {
  const paid = paidPayments(tx, p.id);
  const total = sessionsGranted(p, paid);
  const used = sessionsUsed(tx, p.id);
  return {
    id: p.id,
    packageId: p.packageId,
    packageName: p.packageName,
    billing: p.billing,
    amount: p.amount,
    instalments: p.instalments,
    status: shownStatus(tx, p),
    paymentsMade: paid,
    nextPaymentAt: p.status === 'active' || p.status === 'past_due' ? p.nextPaymentAt : null,
    payUrl: p.status === 'past_due' ? p.payUrl : null,
    eventType: p.eventType,
    sessionsTotal: total,
    sessionsUsed: used,
    sessionsLeft: Math.max(0, total - used),
    createdAt: p.createdAt,
    endedAt: p.endedAt,
  };
}

const toPaymentDto = (o: typeof orders.$inferSelect): ClientPaymentDto => ({
  id: o.id,
  clientPackageId: o.clientPackageId,
  productName: o.productName,
  amount: o.amount,
  status: o.status,
  createdAt: o.createdAt,
});

/** Every package of the given clients that got past checkout, newest first. */
function packagesOf(db: Pick<Db, 'select'>, clientIds: number[]): ClientPackage[] {
  if (clientIds.length === 0) return [];
  return db.select().from(clientPackages).where(inArray(clientPackages.clientId, clientIds)).orderBy(desc(clientPackages.createdAt), desc(clientPackages.id)).all();
}

/** A signed-in user's client record, or undefined when they never bought a package. */
export const clientOfUser = (db: Pick<Db, 'select'>, userId: string): Client | undefined => db.select().from(clients).where(eq(clients.userId, userId)).get();

/** The sessions booked from some packages (cancelled ones left out), soonest first. */
export function clientSessions(db: Pick<Db, 'select'>, packageIds: number[]): ClientSessionDto[] {
  if (packageIds.length === 0) return [];
  return db
    .select({ b: bookings, typeName: bookingEventTypes.name })
    .from(bookings)
    .innerJoin(bookingEventTypes, eq(bookingEventTypes.id, bookings.eventTypeId))
    .where(and(inArray(bookings.clientPackageId, packageIds), eq(bookings.status, 'confirmed')))
    .orderBy(bookings.start)
    .all()
    .map(({ b, typeName }) => ({ id: b.id, clientPackageId: b.clientPackageId!, typeName, start: b.start, end: b.end, manageUrl: manageUrl(b) }));
}

/** What the client area shows: their packages (not those still awaiting a first payment), payments with their downloads, and sessions. */
export function accountOf(db: Db, userId: string): { client: Client | null; packages: ClientPackageDto[]; payments: ClientPaymentDto[]; sessions: ClientSessionDto[] } {
  const client = clientOfUser(db, userId);
  if (!client) return { client: null, packages: [], payments: [], sessions: [] };
  const pkgs = packagesOf(db, [client.id]).filter((p) => p.status !== 'pending');
  const payments = pkgs.length
    ? db
        .select()
        .from(orders)
        .where(
          and(
            inArray(
              orders.clientPackageId,
              pkgs.map((p) => p.id),
            ),
            inArray(orders.status, ['succeeded', 'refunded', 'disputed', 'lost']),
          ),
        )
        .orderBy(desc(orders.createdAt), desc(orders.id))
        .all()
    : [];
  const packages = pkgs.map((p) => toClientPackageDto(db, p));
  // A package's downloads are paused while one of its payments is disputed.
  const paused = new Set(packages.filter((p) => p.status === 'disputed').map((p) => p.id));
  return {
    client,
    packages,
    payments: payments.map((o) => ({
      ...toPaymentDto(o),
      downloads: o.status === 'succeeded' && (o.clientPackageId === null || !paused.has(o.clientPackageId)) ? downloadsForPayment(o.paymentIntentId) : [],
    })),
    sessions: clientSessions(
      db,
      pkgs.map((p) => p.id),
    ),
  };
}

/** The signed-in client's own package; 404 for anyone else's (or none). */
export function ownPackage(db: Pick<Db, 'select'>, userId: string, clientPackageId: number): ClientPackage {
  const client = clientOfUser(db, userId);
  const p = client
    ? db
        .select()
        .from(clientPackages)
        .where(and(eq(clientPackages.id, clientPackageId), eq(clientPackages.clientId, client.id)))
        .get()
    : undefined;
  if (!p || p.status === 'pending') throw notFound('Package not found');
  return p;
}

/** Admin: every client who paid at least once (or holds a package), newest first, with packages and payments; or just the one asked for. */
export function listClients(db: Db, onlyId?: number): ClientDto[] {
  const rows = db
    .select({ client: clients, username: users.username })
    .from(clients)
    .leftJoin(users, eq(users.id, clients.userId))
    .where(onlyId === undefined ? undefined : eq(clients.id, onlyId))
    .orderBy(desc(clients.createdAt))
    .all();
  const pkgs = packagesOf(
    db,
    rows.map((r) => r.client.id),
  ).filter((p) => p.status !== 'pending');
  const pays = pkgs.length
    ? db
        .select()
        .from(orders)
        .where(
          inArray(
            orders.clientPackageId,
            pkgs.map((p) => p.id),
          ),
        )
        .orderBy(desc(orders.createdAt))
        .all()
    : [];
  return rows
    .map(({ client, username }) => {
      const mine = pkgs.filter((p) => p.clientId === client.id);
      const ids = new Set(mine.map((p) => p.id));
      return {
        id: client.id,
        email: client.email,
        username,
        notes: client.notes,
        createdAt: client.createdAt,
        packages: mine.map((p) => toClientPackageDto(db, p)),
        payments: pays.filter((o) => o.clientPackageId !== null && ids.has(o.clientPackageId)).map(toPaymentDto),
      };
    })
    .filter((c) => c.packages.length > 0);
}

export function getClient(db: Db, id: number): ClientDto {
  const [found] = listClients(db, id);
  if (!found) throw notFound('Client not found');
  return found;
}

export function setClientNotes(db: Db, id: number, notes: string): ClientDto {
  const done = db.update(clients).set({ notes, updatedAt: new Date() }).where(eq(clients.id, id)).run();
  if (done.changes === 0) throw notFound('Client not found');
  return getClient(db, id);
}
