import type { Logger } from 'pino';
import { Call } from './call/call';
import type { MediaLegFactory } from './call/ports';
import type { Settings } from './settings';
import { SipServer } from './sip/server';
import { SipTransport } from './sip/transport';
import { trunklineClient } from './trunkline/api';
import { RecordSpool } from './trunkline/records';
import { TrunkDirectory } from './trunkline/trunks';

/** The media gateway: SIP server, calls, the trunk directory and the record spool, started and stopped together. */
export class MediaGateway {
  private readonly calls = new Set<Call>();
  private readonly transport: SipTransport;
  private readonly server: SipServer;
  private readonly directory: TrunkDirectory;
  readonly spool: RecordSpool;
  private readonly finishing = new Set<Promise<void>>();

  constructor(
    private readonly settings: Settings,
    private readonly log: Logger,
    private readonly media: MediaLegFactory,
  ) {
    const client = trunklineClient(settings);
    this.directory = new TrunkDirectory(client, log);
    this.spool = new RecordSpool(settings.spoolDir, client, log);
    this.transport = new SipTransport(settings.sipHost, settings.sipPort, {
      message: (message, peer) => {
        try {
          this.server.handle(message, peer);
        } catch (error) {
          // One message that trips a bug costs that message, never the process.
          this.log.error({ err: (error as Error).message, source: peer.address }, 'SIP message handling failed');
        }
      },
      garbage: (peer, bytes) => this.server.countGarbage(peer, bytes),
    });
    this.server = new SipServer(
      this.transport,
      new Set(settings.trustedSources),
      {
        invite: (request, peer, key) => {
          const call = new Call(request, peer, key, {
            settings,
            log,
            server: this.server,
            directory: this.directory,
            spool: this.spool,
            media: this.media,
            active: () => this.calls.size,
            ended: (c) => {
              this.calls.delete(c);
              // The record waits for the media summary (a worker's reply): stop() waits for it too.
              const finished = c.finished;
              this.finishing.add(finished);
              void finished.finally(() => this.finishing.delete(finished));
            },
          });
          this.calls.add(call);
          // Registered before start() sends anything, so a quick CANCEL finds it.
          queueMicrotask(() => void call.start());
          return call;
        },
      },
      log,
    );
  }

  async start(): Promise<{ sipPort: number }> {
    await this.transport.start();
    this.directory.start();
    this.spool.start();
    return { sipPort: this.transport.udpPort() };
  }

  activeCalls(): number {
    return this.calls.size;
  }

  /** Ends every call (BYE / 503), lets the records reach the spool, then closes sockets. */
  async stop(): Promise<void> {
    for (const call of [...this.calls]) call.shutdown();
    // A moment for the BYEs to leave before the socket closes.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await Promise.all(this.finishing);
    this.directory.stop();
    await this.spool.stop();
    await this.transport.stop();
  }
}
