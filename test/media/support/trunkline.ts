import { ServiceProcess } from '../../support/service-process';
import { ProcessGroup } from '../../../bench/lib/sip/processes';
import { startTrunklineRouting } from '../../sip/support/trunkline';

/**
 * Trunkline on its embedded defaults as its own process (fixed port and data directory, so a
 * restart brings back the same service), routing every provider's trunks to the media gateway.
 */
export function startTrunkline(
  group: ProcessGroup,
  settings: { dataDir: string; port: number; mediaGatewayPort: number },
): Promise<ServiceProcess> {
  // sip_target of every trunk: the media gateway, which looks the trunk up by the request-URI user.
  const mediaGateway = `sip:{sip_username}@127.0.0.1:${settings.mediaGatewayPort}`;
  return startTrunklineRouting(group, settings, {
    SIP_ROUTE_CUSTOM: mediaGateway,
    SIP_ROUTE_OPENAI: mediaGateway,
    SIP_ROUTE_ELEVENLABS: mediaGateway,
  });
}
