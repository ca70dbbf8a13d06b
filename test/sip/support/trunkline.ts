import { join } from 'node:path';
import { ApiClient } from '../../support/http-client';
import { ServiceProcess, startServiceProcess } from '../../support/service-process';
import { ProcessGroup } from '../../../bench/lib/sip/processes';

export const SIP_DOMAIN = 'sip.trunkline.test';
export const ADMIN_KEY = `sk_live_${'S'.repeat(32)}`;

export interface TrunklineSettings {
  dataDir: string;
  port: number;
  /** Where the gateway relays custom trunks: the SIPp agent. */
  agentPort: number;
  /** Where it relays ElevenLabs trunks: a port nobody answers on (an agent that is down). */
  silentPort: number;
  /** Where it relays OpenAI trunks: an agent that refuses (486 for user names busy-…, else 503). */
  refuserPort?: number;
}

/**
 * Trunkline on its embedded defaults (PGlite, chDB, memory read models) as its own process, on a
 * fixed port and data directory so that a restart brings back the same service.
 */
export async function startTrunkline(group: ProcessGroup, settings: TrunklineSettings): Promise<ServiceProcess> {
  return startTrunklineRouting(group, settings, {
    SIP_ROUTE_CUSTOM: `sip:{sip_username}@127.0.0.1:${settings.agentPort}`,
    SIP_ROUTE_ELEVENLABS: `sip:{elevenlabs_agent_id}@127.0.0.1:${settings.silentPort}`,
    ...(settings.refuserPort ? { SIP_ROUTE_OPENAI: `sip:{sip_username}@127.0.0.1:${settings.refuserPort}` } : {}),
  });
}

/** Trunkline as its own process with the given SIP_ROUTE_* templates, stopped with the group. */
export async function startTrunklineRouting(
  group: ProcessGroup,
  settings: { dataDir: string; port: number },
  routes: Record<string, string>,
): Promise<ServiceProcess> {
  const service = await startServiceProcess({
    PORT: String(settings.port),
    DATA_DIR: settings.dataDir,
    ADMIN_API_KEY: ADMIN_KEY,
    SIP_DOMAIN,
    ...routes,
    LOG_LEVEL: 'warn',
  });
  group.adopt({
    name: 'trunkline',
    child: service.child,
    output: service.output,
    exited: service.exited,
    stop: async () => {
      if (service.child.exitCode === null) service.child.kill('SIGTERM');
      await service.exited;
    },
  });
  return service;
}

export const caFileOf = (dataDir: string) => join(dataDir, 'tls', 'cert.pem');

/** An account with a full key, a gateway key, and a client for each. */
export async function provision(service: ServiceProcess) {
  const admin = new ApiClient(service.origin, service.ca, ADMIN_KEY);
  const account = await admin.post('/v1/accounts', { name: 'Carrier customer' });
  const full = await admin.post('/v1/api-keys', { account_id: account.body.id, name: 'ops', scopes: ['full'] });
  const gateway = await admin.post('/v1/api-keys', { name: 'reference gateway', scopes: ['gateway'] });
  if (full.status !== 201 || gateway.status !== 201) throw new Error(`provisioning: ${full.text} ${gateway.text}`);
  return {
    admin,
    client: admin.withKey(full.body.key),
    gatewayKey: gateway.body.key as string,
  };
}
