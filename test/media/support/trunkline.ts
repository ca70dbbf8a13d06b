import { ServiceProcess } from '../../support/service-process';
import { ProcessGroup } from '../../../bench/lib/sip/processes';
import { startTrunklineRouting } from '../../sip/support/trunkline';

/**
 * Trunkline on its embedded defaults as its own process (fixed port and data directory, so a
 * restart brings back the same service), routing custom trunks to the media gateway.
 */
export function startTrunkline(
  group: ProcessGroup,
  settings: { dataDir: string; port: number; mediaGatewayPort: number },
): Promise<ServiceProcess> {
  return startTrunklineRouting(group, settings, {
    // sip_target of custom trunks: the media gateway, which looks the trunk up by the request-URI user.
    SIP_ROUTE_CUSTOM: `sip:{sip_username}@127.0.0.1:${settings.mediaGatewayPort}`,
  });
}
