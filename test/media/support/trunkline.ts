import { startServiceProcess, ServiceProcess } from '../../support/service-process';
import { ProcessGroup } from '../../../bench/lib/sip/processes';
import { ADMIN_KEY, SIP_DOMAIN } from '../../sip/support/trunkline';

const READY_MS = 120_000;

/**
 * Trunkline on its embedded defaults as its own process (fixed port and data directory, so a
 * restart brings back the same service), routing every provider's trunks to the media gateway.
 */
export async function startTrunkline(
  group: ProcessGroup,
  settings: { dataDir: string; port: number; mediaGatewayPort: number },
): Promise<ServiceProcess> {
  const service = await startServiceProcess(
    {
      PORT: String(settings.port),
      DATA_DIR: settings.dataDir,
      ADMIN_API_KEY: ADMIN_KEY,
      SIP_DOMAIN,
      // sip_target of custom trunks: the media gateway, which looks the trunk up by the request-URI user.
      SIP_ROUTE_CUSTOM: `sip:{sip_username}@127.0.0.1:${settings.mediaGatewayPort}`,
      SIP_ROUTE_OPENAI: `sip:{sip_username}@127.0.0.1:${settings.mediaGatewayPort}`,
      SIP_ROUTE_ELEVENLABS: `sip:{sip_username}@127.0.0.1:${settings.mediaGatewayPort}`,
      LOG_LEVEL: 'warn',
    },
    READY_MS,
  );
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
