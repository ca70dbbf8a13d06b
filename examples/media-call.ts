/**
 * One call with speech through the whole voice path, on loopback, and its record
 * (README "A call with speech"): Trunkline on its embedded defaults, the reference Kamailio
 * gateway, the media gateway, a mock Media Streams agent that answers each sentence after 400 ms,
 * and a SIPp carrier playing two sentences said by espeak-ng.
 *
 *   node -r @swc-node/register examples/media-call.ts
 *
 * Needs Debian's kamailio, kamailio-utils-modules, kamailio-extra-modules, sip-tester, espeak-ng, sox.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway } from '../bench/lib/sip/gateway';
import { freeUdpPort, ProcessGroup } from '../bench/lib/sip/processes';
import { freePort, until } from '../test/support/free-port';
import { testCertificate } from '../test/support/provider-stubs';
import { customBody } from '../test/support/trunk-requests';
import { startMediaGateway } from '../test/media/support/media-gateway';
import { startMockAgent, toneReply } from '../test/media/support/mock-agent';
import { RtpCounter } from '../test/media/support/network';
import { runMediaCalls } from '../test/media/support/sipp-media';
import { makeSpeech } from '../test/media/support/speech';
import { startTrunkline } from '../test/media/support/trunkline';
import { freeUdpRange } from '../test/media/support/udp-range';
import { caFileOf, provision } from '../test/sip/support/trunkline';

async function main(): Promise<void> {
  const group = new ProcessGroup();
  const dir = mkdtempSync(join(tmpdir(), 'trunkline-media-call-'));
  try {
    const certificate = await testCertificate();
    const agent = await startMockAgent({ certificate, replyDelayMs: 400, reply: toneReply(1_000) });
    writeFileSync(join(dir, 'agent-ca.pem'), certificate.cert);
    const [mediaPort, kamailioPort] = [await freeUdpPort(), await freeUdpPort()];
    const settings = { dataDir: join(dir, 'trunkline'), port: await freePort(), mediaGatewayPort: mediaPort };
    const rtpPorts = await freeUdpRange(100, ['127.0.0.1']);
    const service = await startTrunkline(group, settings);
    const { client, gatewayKey } = await provision(service);
    await startMediaGateway(group, {
      sipPort: mediaPort,
      trunklineUrl: `${service.origin}/v1`,
      gatewayKey,
      trunklineCaFile: caFileOf(settings.dataDir),
      agentCaFile: join(dir, 'agent-ca.pem'),
      spoolDir: join(dir, 'spool'),
      rtpPortMin: rtpPorts,
      rtpPortMax: rtpPorts + 99,
    });
    await startGateway(group, {
      sipPort: kamailioPort,
      sipDomain: 'sip.trunkline.test',
      trunklineUrl: `${service.origin}/v1`,
      gatewayKey,
      caFile: caFileOf(settings.dataDir),
      env: { MEDIA_GATEWAY_RECORDS: '1' },
    });
    const trunk = (
      await client.post('/v1/trunks', customBody({ sip_password: 'quick-start-pw', custom_endpoint: agent.url }))
    ).body as { id: string; sip_username: string };
    const speech = makeSpeech(
      dir,
      'caller',
      ['I would like to check my order please', 'And when will it arrive'],
      [3, 2],
    );
    const counter = await RtpCounter.open();
    const run = await runMediaCalls(group, dir, {
      gatewayPort: kamailioPort,
      user: trunk.sip_username,
      password: 'quick-start-pw',
      shape: { kind: 'answered', wav: speech.wav, end: 'caller' },
      mediaPorts: [counter.port],
      pauseMs: Math.round(speech.durationS * 1000) + 1000,
    });
    if (run.exitCode !== 0) throw new Error(`SIPp: ${run.output.slice(-2000)}`);
    await until(
      'the record',
      async () => (await client.get(`/v1/calls?trunk_id=${trunk.id}`)).body.calls.length === 1,
      60_000,
    );
    const [item] = (await client.get(`/v1/calls?trunk_id=${trunk.id}`)).body.calls;
    const record = (await client.get(`/v1/calls/${item.id}`)).body;
    const { sip_trace: trace, ...shown } = record;
    console.log(JSON.stringify(shown, null, 2));
    console.log(
      `sip_trace: ${String(trace).split('\n').length} lines; the caller received ${counter.packets} RTP packets of agent audio`,
    );
    counter.close();
    await agent.close();
  } finally {
    await group.stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
