import { join } from 'node:path';
import { ProcessGroup, Spawned } from '../../../bench/lib/sip/processes';

const ROOT = join(__dirname, '..', '..', '..');
const READY_MS = 120_000;

export interface MediaGatewaySettings {
  sipPort: number;
  trunklineUrl: string;
  gatewayKey: string;
  trunklineCaFile: string;
  agentCaFile: string;
  spoolDir: string;
  rtpPortMin: number;
  rtpPortMax: number;
  env?: Record<string, string>;
  /** Node flags before the entry point (bench:media's --cpu-prof). */
  nodeArgs?: string[];
}

/** `media-gateway/src/main.ts` (through swc) as its own process, resolved once it logs that it listens. */
export async function startMediaGateway(group: ProcessGroup, settings: MediaGatewaySettings): Promise<Spawned> {
  const gateway = group.spawn(
    'media-gateway',
    process.execPath,
    [...(settings.nodeArgs ?? []), '-r', '@swc-node/register', join(ROOT, 'media-gateway/src/main.ts')],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        TRUNKLINE_URL: settings.trunklineUrl,
        TRUNKLINE_GATEWAY_KEY: settings.gatewayKey,
        TRUNKLINE_CA_FILE: settings.trunklineCaFile,
        AGENT_CA_FILE: settings.agentCaFile,
        SIP_HOST: '127.0.0.1',
        SIP_PORT: String(settings.sipPort),
        RTP_PORT_MIN: String(settings.rtpPortMin),
        RTP_PORT_MAX: String(settings.rtpPortMax),
        TRUSTED_SOURCES: '127.0.0.1',
        SPOOL_DIR: settings.spoolDir,
        LOG_LEVEL: 'info',
        ...settings.env,
      },
      urgent: true,
    },
  );
  const started = Date.now();
  while (!gateway.output().includes('media gateway listening')) {
    if (gateway.child.exitCode !== null) throw new Error(`media gateway exited:\n${gateway.output()}`);
    if (Date.now() - started > READY_MS)
      throw new Error(`media gateway not listening in ${READY_MS} ms:\n${gateway.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return gateway;
}
