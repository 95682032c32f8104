// Requests the server makes to addresses it was handed (the media of an uploaded WordPress
// export): never to loopback, private, link-local or metadata addresses unless the operator
// allows them, checked after DNS resolution on every hop. The address is checked again when the
// connection is made, so a name that resolves to a public address for the check and a private
// one for the request (DNS rebinding) is refused too.
import { lookup, type LookupAddress } from 'node:dns';
import { lookup as lookupAll } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Agent, fetch, type RequestInit } from 'undici';

const BLOCKED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 3], // multicast and reserved
] as const)
  BLOCKED.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  BLOCKED.addSubnet(net, bits, 'ipv6');

/** Whether `address` (an IP literal) is one a request from here must not reach. IPv4-mapped IPv6 is checked as IPv4. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The refusal: it names the host, never what is or is not listening there. */
export class RefusedAddressError extends Error {
  constructor(host: string) {
    super(`refused: ${host} is a loopback, private or link-local address`);
    this.name = 'RefusedAddressError';
  }
}

/** DNS lookup for the connection itself: a private answer fails the connection. */
const checkedLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused) return callback(new RefusedAddressError(hostname), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const first = addresses[0]!;
    return callback(null, first.address, first.family);
  });
};

let guarded: Agent | undefined;
const guardedAgent = () => (guarded ??= new Agent({ connect: { lookup: checkedLookup } }));

/** Resolves `hostname` (or takes the literal) and throws RefusedAddressError when any address is private. */
async function assertPublicHost(hostname: string): Promise<void> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  let addresses = [bare];
  if (!isIP(bare)) {
    try {
      addresses = (await lookupAll(bare, { all: true })).map((a) => a.address);
    } catch (err) {
      // Told apart from a refusal the same way fetch's own failure to connect is.
      throw new TypeError('fetch failed', { cause: err });
    }
  }
  if (addresses.some(isPrivateAddress)) throw new RefusedAddressError(hostname);
}

const MAX_REDIRECTS = 5;

/**
 * fetch() for an address from outside: http(s) only, redirects followed by hand (at most five),
 * each hop's host resolved and refused when private, unless `allowPrivate` (the operator's
 * choice, for an old site on their own network).
 */
export async function fetchPublic(url: string, init: RequestInit & { allowPrivate: boolean }): Promise<Response> {
  const { allowPrivate, ...rest } = init;
  let target = new URL(url);
  for (let hop = 0; ; hop++) {
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`refused: only http and https addresses are fetched`);
    if (!allowPrivate) await assertPublicHost(target.hostname);
    const res = await fetch(target, { ...rest, redirect: 'manual', ...(allowPrivate ? {} : { dispatcher: guardedAgent() }) });
    const location = res.headers.get('location');
    // undici's own Response is the one Node's fetch returns; only its declared stream types differ.
    if (res.status < 300 || res.status >= 400 || !location) return res as unknown as Response;
    await res.body?.cancel();
    if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
    target = new URL(location, target);
  }
}
