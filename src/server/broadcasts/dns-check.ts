// Whether the From domain is set up as Gmail's and Yahoo's bulk-sender rules require: an SPF
// record, the DKIM public key at selector._domainkey (matching the key we sign with), and a
// DMARC policy. Each says plainly what is missing and where it goes.
import { createPublicKey } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { env } from '#server/env.ts';
import { dkimKey, fromAddress } from '#server/mail/sender.ts';
import { mailFrom } from '#server/site/mail.ts';
import type { DnsCheck, DnsCheckItem } from '#shared/schemas/broadcast.ts';

/** A check is kept this long: DNS changes slowly, and every screen would otherwise ask again. */
const KEEP_MS = 60_000;
let kept: { at: number; check: DnsCheck } | null = null;

/** The domain of the From address. */
function fromDomain(from: string): string {
  const address = fromAddress(from);
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

function resolver(): Resolver {
  const r = new Resolver({ timeout: 2_000, tries: 2 });
  const servers = env().DNS_SERVERS;
  if (servers) r.setServers(servers.split(',').map((s) => s.trim()));
  return r;
}

interface Lookup {
  name: string;
  records: string[];
  /** Why the lookup itself failed (a timeout, a refused query): then nothing is known. */
  error: string | null;
}

/** The TXT records at `name`, each joined from its strings; none when the name has none or does not exist. */
async function txt(r: Resolver, name: string): Promise<Lookup> {
  try {
    return { name, records: (await r.resolveTxt(name)).map((parts) => parts.join('')), error: null };
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'error';
    if (code === 'ENODATA' || code === 'ENOTFOUND') return { name, records: [], error: null };
    return { name, records: [], error: code };
  }
}

const unknown = (name: DnsCheckItem['name'], lookup: Lookup): DnsCheckItem => ({ name, ok: false, message: `Could not look up ${lookup.name} (${lookup.error}); try again later.`, record: null });

/** A DKIM record's `p=` value: the base64 of the public key (SPKI, DER). */
const dkimPublicKey = (record: string) => /(?:^|;)\s*p=([^;]*)/.exec(record)?.[1]?.replace(/\s+/g, '') ?? null;

function spfCheck(domain: string, lookup: Lookup): DnsCheckItem {
  if (lookup.error) return unknown('SPF', lookup);
  const spf = lookup.records.filter((r) => /^v=spf1(\s|$)/i.test(r));
  if (spf.length === 0) return { name: 'SPF', ok: false, message: `No SPF record: add a TXT record at ${domain} starting with "v=spf1" that names the servers allowed to send for it.`, record: null };
  if (spf.length > 1) return { name: 'SPF', ok: false, message: `${domain} has ${spf.length} SPF records; receivers treat that as none. Merge them into one.`, record: spf.join(' | ') };
  return { name: 'SPF', ok: true, message: 'SPF record found.', record: spf[0]! };
}

function dkimCheck(domain: string, lookup: Lookup | null): DnsCheckItem {
  const key = dkimKey(env());
  if (!key || !lookup)
    return { name: 'DKIM', ok: false, message: 'Mail is not DKIM-signed: set DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY, then publish the public key at selector._domainkey.', record: null };
  if (lookup.error) return unknown('DKIM', lookup);
  const record = lookup.records.find((r) => /(^|;)\s*p=/.test(r)) ?? null;
  if (!record) return { name: 'DKIM', ok: false, message: `No DKIM key at ${lookup.name}: publish a TXT record "v=DKIM1; k=rsa; p=…" with the public key of DKIM_PRIVATE_KEY.`, record: null };
  const ours = createPublicKey(key.privateKey).export({ type: 'spki', format: 'der' }).toString('base64');
  if (dkimPublicKey(record) !== ours) return { name: 'DKIM', ok: false, message: `The key at ${lookup.name} is not the public key of DKIM_PRIVATE_KEY: signatures will not verify.`, record };
  const aligned = domain === key.domainName || domain.endsWith(`.${key.domainName}`);
  if (!aligned) return { name: 'DKIM', ok: false, message: `Mail is signed for ${key.domainName} but sent from ${domain}: DMARC needs the two to match.`, record };
  return { name: 'DKIM', ok: true, message: `DKIM key found at ${lookup.name} and matches the signing key.`, record };
}

function dmarcCheck(domain: string, lookup: Lookup): DnsCheckItem {
  if (lookup.error) return unknown('DMARC', lookup);
  const dmarc = lookup.records.find((r) => /^v=DMARC1(\s|;|$)/i.test(r)) ?? null;
  if (!dmarc) return { name: 'DMARC', ok: false, message: `No DMARC policy: add a TXT record at _dmarc.${domain} such as "v=DMARC1; p=none; rua=mailto:postmaster@${domain}".`, record: null };
  return { name: 'DMARC', ok: true, message: 'DMARC policy found.', record: dmarc };
}

/** Checks the From domain's DNS (kept for a minute unless `fresh`); a lookup that fails outright fails its check. */
export async function checkSendingDomain(fresh = false): Promise<DnsCheck> {
  if (!fresh && kept && Date.now() - kept.at < KEEP_MS) return kept.check;
  const e = env();
  const domain = fromDomain(mailFrom(e));
  const r = resolver();
  const key = dkimKey(e);
  const dkimName = key ? `${key.keySelector}._domainkey.${key.domainName}` : null;
  const [root, dkim, dmarc] = await Promise.all([txt(r, domain), dkimName ? txt(r, dkimName) : null, txt(r, `_dmarc.${domain}`)]);
  const checks = [spfCheck(domain, root), dkimCheck(domain, dkim), dmarcCheck(domain, dmarc)];
  const check = { domain, ok: checks.every((c) => c.ok), checks };
  kept = { at: Date.now(), check };
  return check;
}
