import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Only unicast addresses on the public internet may be webhook targets (ipaddr.js range names). */
const ALLOWED_RANGES = new Set(['unicast']);

/**
 * True for loopback, private (RFC 1918, fc00::/7), link-local, multicast, unspecified, carrier
 * NAT, reserved and documentation ranges, and for IPv4-mapped IPv6 forms of any of them.
 */
export function isForbiddenAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return !ALLOWED_RANGES.has(parsed.range());
}

export class ForbiddenAddressError extends Error {
  constructor(readonly address: string) {
    super(
      `refused to connect to a private or reserved address (${address}); set WEBHOOK_ALLOW_PRIVATE=true to allow it`,
    );
    this.name = 'ForbiddenAddressError';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A dns.lookup for the socket itself: the address is checked after resolution and it is the one
 * connected to, so a name that resolves to a public address at registration and a private one
 * later (DNS rebinding) is still refused.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, []);
      const refused = allowPrivate ? undefined : addresses.find((a) => isForbiddenAddress(a.address));
      if (refused) return callback(new ForbiddenAddressError(refused.address), []);
      if ((options as { all?: boolean }).all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** An IP literal in the URL never goes through lookup: it is checked here. */
export function checkLiteralHost(hostname: string, allowPrivate: boolean): void {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (!allowPrivate && isIP(bare) !== 0 && isForbiddenAddress(bare)) throw new ForbiddenAddressError(bare);
}
