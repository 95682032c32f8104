// Privacy requests. A person asks with an address and what they want; the answer never says
// whether the address is known. When the site holds anything about it, the address gets an
// e-mail with a signed link valid 24 hours: the link names the request, its expiry and the
// address, and its signature (keyed by the server's secret, bound to the kind) proves the site
// made it, so it acts without a login. The request is kept with the address's keyed hash only.
import { desc, eq } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { privacyRequests } from '#db/schema/privacy.ts';
import { env } from '#server/env.ts';
import { enqueueMail } from '#server/mail/outbox.ts';
import { LIMITS, hit } from '#server/http/rate-limit.ts';
import { signature, validSignature } from '#server/http/signing.ts';
import { addressHash } from '#server/newsletter/suppression.ts';
import type { PrivacyKind, PrivacyRequestDto } from '#shared/schemas/privacy.ts';
import { DAY_MS } from '#shared/time.ts';
import { privacyLinkMail } from './mail.ts';
import { holdingsOf, holdsAnything } from './personal-data.ts';

/** How long a request's link works. */
export const LINK_VALID_MS = DAY_MS;
/** How long the owner has to answer a request. */
export const ANSWER_WITHIN_MS = 30 * DAY_MS;

const PAGES: Record<PrivacyKind, string> = { access: '/privacy/access', erasure: '/privacy/erase' };

const b64 = (s: string) => Buffer.from(s).toString('base64url');

/** The signed link of a request (its page; the page's download or confirm carries the same token). */
export function requestLink(kind: PrivacyKind, id: number, email: string, now = Date.now()): string {
  const payload = `${id}.${now + LINK_VALID_MS}.${b64(email.trim().toLowerCase())}`;
  return `${env().SITE_URL}${PAGES[kind]}?t=${payload}.${signature('privacy-link', `${kind}:${payload}`)}`;
}

export interface LinkedRequest {
  id: number;
  email: string;
  state: 'sent' | 'done';
}

/** The request a link names, when its signature holds for that kind and it has not expired; else null. */
export function requestByLink(db: Pick<Db, 'select'>, kind: PrivacyKind, token: string | null | undefined, now = Date.now()): LinkedRequest | null {
  const parts = (token ?? '').split('.');
  if (parts.length !== 4 || (token ?? '').length > 800) return null;
  const [id, exp, address, sig] = parts as [string, string, string, string];
  if (!validSignature('privacy-link', `${kind}:${id}.${exp}.${address}`, sig)) return null;
  if (!/^\d{1,15}$/.test(exp) || Number(exp) <= now || !/^\d{1,12}$/.test(id)) return null;
  const email = Buffer.from(address, 'base64url').toString();
  const row = db
    .select()
    .from(privacyRequests)
    .where(eq(privacyRequests.id, Number(id)))
    .get();
  if (!row || row.kind !== kind || row.addressHash !== addressHash(email)) return null;
  return { id: row.id, email, state: row.state };
}

/**
 * A person's request: counted against the address whatever it is (so nothing tells known from
 * unknown), and answered by e-mail only when the site holds something about the address.
 */
export function askPrivacy(db: Db, kind: PrivacyKind, email: string): void {
  const hash = addressHash(email);
  hit(LIMITS.privacyPerAddress, hash);
  if (!holdsAnything(holdingsOf(db, email))) return;
  db.transaction((tx) => {
    const { id } = tx.insert(privacyRequests).values({ kind, addressHash: hash }).returning({ id: privacyRequests.id }).get();
    enqueueMail(tx, { kind: `privacy-${kind}`, to: email, ...privacyLinkMail(kind, requestLink(kind, id, email)) });
  });
}

/** The request answered: the copy downloaded, or the data erased. */
export function markDone(db: Pick<Db, 'update'>, id: number, now = Date.now()): void {
  db.update(privacyRequests)
    .set({ state: 'done', doneAt: new Date(now) })
    .where(eq(privacyRequests.id, id))
    .run();
}

/** The owner's own export or erasure (a request that came another way): recorded as answered. */
export function recordOwnerRequest(db: Pick<Db, 'insert'>, kind: PrivacyKind, email: string, now = Date.now()): number {
  return db
    .insert(privacyRequests)
    .values({ kind, via: 'owner', state: 'done', addressHash: addressHash(email), createdAt: new Date(now), doneAt: new Date(now) })
    .returning({ id: privacyRequests.id })
    .get().id;
}

/** Requests for the admin, newest first, with the date each is due. */
export function listRequests(db: Pick<Db, 'select'>, now = Date.now(), limit = 500): PrivacyRequestDto[] {
  return db
    .select()
    .from(privacyRequests)
    .orderBy(desc(privacyRequests.createdAt), desc(privacyRequests.id))
    .limit(limit)
    .all()
    .map((r) => ({
      id: r.id,
      kind: r.kind,
      state: r.state === 'sent' && r.createdAt.getTime() + LINK_VALID_MS <= now ? 'expired' : r.state,
      via: r.via,
      createdAt: r.createdAt,
      doneAt: r.doneAt,
      dueAt: new Date(r.createdAt.getTime() + ANSWER_WITHIN_MS),
    }));
}
