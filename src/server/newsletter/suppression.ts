// Erased addresses: each is kept only as a keyed hash (an HMAC with the server's secret, so the
// list reads as nothing without it), and no import adds such an address again. The person
// signing up anew and confirming is a new consent: it lifts the suppression.
import { eq } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { suppressedAddresses } from '#db/schema/privacy.ts';
import { signature } from '#server/http/signing.ts';

type Tx = Pick<Db, 'insert' | 'select' | 'delete'>;

/** The keyed hash an address is known by once erased (the same for any case of the address). */
export const addressHash = (email: string) => signature('address-hash', email.trim().toLowerCase());

/** Keeps an erased address as its keyed hash only. */
export function suppressAddress(tx: Pick<Db, 'insert'>, email: string): void {
  tx.insert(suppressedAddresses)
    .values({ addressHash: addressHash(email) })
    .onConflictDoNothing()
    .run();
}

/** A new, confirmed consent of an erased address: imports may add it again. */
export function liftSuppression(tx: Pick<Db, 'delete'>, email: string): void {
  tx.delete(suppressedAddresses)
    .where(eq(suppressedAddresses.addressHash, addressHash(email)))
    .run();
}

/** Whether an address was erased (and not signed up and confirmed anew since). */
export function isSuppressed(tx: Tx, email: string): boolean {
  return Boolean(
    tx
      .select({ h: suppressedAddresses.addressHash })
      .from(suppressedAddresses)
      .where(eq(suppressedAddresses.addressHash, addressHash(email)))
      .get(),
  );
}
