/**
 * `npm run media-gateway`: the SIP UAS that bridges carriers' RTP to the trunks' agents and reports
 * each call to Trunkline (docs/media-gateway.md). Settings come from the environment, checked once.
 */
import { mediaLegs } from './call/media-workers';
import { MediaGateway } from './gateway';
import { gatewayLogger } from './logger';
import { loadSettings, SettingsError } from './settings';

async function main(): Promise<void> {
  let settings;
  try {
    settings = loadSettings();
  } catch (error) {
    if (error instanceof SettingsError) {
      process.stderr.write(`media-gateway: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  // The key and the agents' provider keys never reach a log line.
  const log = gatewayLogger(settings);
  const gateway = new MediaGateway(settings, log, mediaLegs(settings, log));
  const { sipPort } = await gateway.start();
  log.info(
    {
      sip: `${settings.sipHost}:${sipPort}`,
      transports: ['udp', 'tcp'],
      rtp: [settings.rtpPortMin, settings.rtpPortMax],
      media_workers: settings.mediaWorkers,
    },
    'media gateway listening',
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, calls: gateway.activeCalls() }, 'stopping');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    void gateway.stop().then(() => process.exit(0));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

void main().catch((error: Error) => {
  process.stderr.write(`media-gateway failed to start: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
