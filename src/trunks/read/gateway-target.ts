import { isIP } from 'node:net';
import type { GatewayRecord } from '../projections/trunk-view';
import type { ReadSettings } from './read.settings';

/**
 * Where the gateway relays a trunk's calls: the provider's SIP_ROUTE_* template with the trunk's
 * values filled in (each URI-escaped), or null when no route is configured for its provider.
 */
export function sipTargetOf(record: GatewayRecord, routes: ReadSettings['sipRoutes']): string | null {
  const template = routes[record.ai_provider];
  if (!template) return null;
  const values: Record<string, string> = {
    trunk_id: record.trunk_id,
    account_id: record.account_id,
    sip_username: record.sip_username,
    elevenlabs_agent_id: record.elevenlabs_agent_id ?? '',
  };
  return template.replace(/\{([a-z_]+)\}/g, (_match, name: string) => encodeURIComponent(values[name] ?? ''));
}

/**
 * The allow list as CIDR blocks (`198.51.100.7` → `198.51.100.7/32`, IPv6 lower-case), the form
 * Kamailio's ipops `is_in_subnet` takes as one comma-separated argument. null: any source.
 */
export function allowedCidrsOf(addresses: string[] | null): string[] | null {
  if (addresses === null) return null;
  return addresses.map((entry) => {
    const [address, prefix] = entry.split('/');
    const family = isIP(address);
    const bits = prefix ?? (family === 6 ? '128' : '32');
    return `${family === 6 ? address.toLowerCase() : address}/${Number(bits)}`;
  });
}
