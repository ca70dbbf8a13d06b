import { randomUUID } from 'node:crypto';
import type { SecretBox } from '../../src/infrastructure/secrets/secret-box.port';
import { reservationDecider, sipUsernameStream, trunkNameStream } from '../../src/trunks/domain/reservation.decider';
import { type TrunkCommand, trunkDecider, type TrunkState, trunkStream } from '../../src/trunks/domain/trunk.decider';
import type { TrunkEvent } from '../../src/trunks/domain/trunk.events';
import type { Provider, ProviderWiring } from '../../src/trunks/domain/trunk.types';
import { type Append, type HistoryClock, toNew } from './rebuild-history';

const PROVIDERS: Provider[] = ['openai', 'elevenlabs', 'custom'];
const PROMPT =
  'You are the front desk of a dental practice. Greet the caller, ask how you can help, book or move appointments. ';

/**
 * One trunk's life as the API would write it: reserved and created, then updated (prompts, VAD,
 * voices, pauses, renames), its SIP password rotated now and then, and for some deleted at the
 * end with its reservations released. Commands go through the real decider, so every event has
 * the shape the projections expect.
 */
export class TrunkLife {
  private state: TrunkState = trunkDecider.initialState();
  private revision = -1;
  private steps = 0;
  readonly length: number;
  private readonly deletes: boolean;
  private readonly actor: string;
  /** Renames of the current append: [new name, at, previous name]. */
  private renames: [string, Date, string][] = [];

  constructor(
    private readonly trunkId: string,
    private readonly accountId: string,
    private readonly rand: () => number,
    private readonly secrets: SecretBox,
    private readonly clock: HistoryClock,
  ) {
    this.length = 10 + Math.floor(rand() * 50);
    this.deletes = rand() < 0.3;
    this.actor = `key_${accountId}_0`;
  }

  get done(): boolean {
    return this.state.status === 'deleted' || (this.steps >= this.length && !this.deletes);
  }

  /** The reservations and the TrunkCreated of the trunk. */
  async create(): Promise<Append[]> {
    const at = this.clock.next();
    const sipUsername = `sip_${this.trunkId}`;
    const name = `Line ${this.trunkId}`;
    const provider = PROVIDERS[Math.floor(this.rand() * PROVIDERS.length)];
    await this.secrets.createDataKey(this.trunkId);
    const command: TrunkCommand = {
      type: 'CreateTrunk',
      data: {
        trunkId: this.trunkId,
        accountId: this.accountId,
        name,
        provider,
        sipUsername,
        sipPassword: await this.secrets.encrypt(this.trunkId, 'sip_password', `pw-${randomUUID()}`),
        wiring: await this.wiring(provider),
        settings: { system_prompt: PROMPT, vad: { threshold: 0.5, silence_duration_ms: 500 } },
        at,
      },
    };
    return [
      this.reserve(sipUsernameStream(sipUsername), sipUsername, at),
      this.reserve(trunkNameStream(this.accountId, name), name, at),
      this.decide(command),
    ];
  }

  /** The trunk's next `count` events in one append (fewer at the end of its life), or null. */
  async next(count: number): Promise<Append[] | null> {
    if (this.done) return null;
    const events: TrunkEvent[] = [];
    const before = this.revision;
    const appends: Append[] = [];
    this.renames = [];
    for (let i = 0; i < count && !this.done; i++) {
      const command = this.steps >= this.length ? this.deleteCommand() : await this.stepCommand();
      this.steps += 1;
      const decided = trunkDecider.decide(command, this.state);
      for (const event of decided) this.state = trunkDecider.evolve(this.state, event);
      events.push(...decided);
    }
    if (events.length === 0) return null;
    this.revision += events.length;
    // A rename holds the new name before the trunk takes it and lets the old one go after.
    appends.push(...this.renames.map(([name, at]) => this.reserve(trunkNameStream(this.accountId, name), name, at)));
    appends.push({ stream: trunkStream(this.trunkId), events: toNew(events, this.actor), expected: before });
    appends.push(...this.renames.map(([, at, previous]) => this.release(previous, at)));
    if (this.state.status === 'deleted') appends.push(...this.releases());
    return appends;
  }

  private async stepCommand(): Promise<TrunkCommand> {
    const at = this.clock.next();
    const { accountId } = this;
    const roll = this.rand();
    if (roll < 0.15) {
      const sipPassword = await this.secrets.encrypt(this.trunkId, 'sip_password', `pw-${randomUUID()}`);
      return { type: 'RotateSipPassword', data: { accountId, sipPassword, at } };
    }
    const n = this.steps;
    const changes =
      roll < 0.5
        ? { system_prompt: `${PROMPT}Revision ${n}.` }
        : roll < 0.65
          ? { vad: { threshold: 0.3 + (n % 5) / 10, silence_duration_ms: 300 + (n % 7) * 100 } }
          : roll < 0.8
            ? { provider_settings: { model: 'gpt-realtime', voice: ['alloy', 'verse', 'sage'][n % 3] } }
            : roll < 0.9
              ? { status: this.state.status === 'active' ? ('inactive' as const) : ('active' as const) }
              : roll < 0.95
                ? { allowed_addresses: [`203.0.113.${n % 250}/32`] }
                : { name: this.rename(at) };
    return { type: 'UpdateTrunk', data: { accountId, changes, at } };
  }

  private rename(at: Date): string {
    const previous = this.state.status === 'none' ? '' : this.state.name;
    const name = `Line ${this.trunkId} v${this.steps}`;
    this.renames.push([name, at, previous]);
    return name;
  }

  private deleteCommand(): TrunkCommand {
    return { type: 'DeleteTrunk', data: { accountId: this.accountId, at: this.clock.next() } };
  }

  private decide(command: TrunkCommand): Append {
    const events = trunkDecider.decide(command, this.state);
    for (const event of events) this.state = trunkDecider.evolve(this.state, event);
    this.revision += events.length;
    return { stream: trunkStream(this.trunkId), events: toNew(events, this.actor), expected: 'no_stream' };
  }

  private reserve(stream: string, value: string, at: Date): Append {
    const events = reservationDecider(value).decide(
      { type: 'Reserve', data: { ownerId: this.trunkId, at } },
      { holder: null, since: null },
    );
    return { stream, events: toNew(events, this.actor), expected: 'no_stream' };
  }

  private releases(): Append[] {
    if (this.state.status !== 'deleted') return [];
    const at = this.clock.next();
    return [
      this.release(this.state.name, at),
      this.releaseStream(sipUsernameStream(this.state.sipUsername), this.state.sipUsername, at),
    ];
  }

  /** Each name and user name is reserved once (revision 0) and released once. */
  private release(name: string, at: Date): Append {
    return this.releaseStream(trunkNameStream(this.accountId, name), name, at);
  }

  private releaseStream(stream: string, value: string, at: Date): Append {
    const events = reservationDecider(value).decide(
      { type: 'Release', data: { ownerId: this.trunkId, at } },
      { holder: this.trunkId, since: null },
    );
    return { stream, events: toNew(events, this.actor), expected: 0 };
  }

  private async wiring(provider: Provider): Promise<ProviderWiring> {
    if (provider === 'custom') return { custom_endpoint: `wss://agents.example.com/${this.trunkId}` };
    if (provider === 'openai')
      return { openai_api_key: await this.secrets.encrypt(this.trunkId, 'openai_api_key', `sk-${randomUUID()}`) };
    return {
      elevenlabs_api_key: await this.secrets.encrypt(this.trunkId, 'elevenlabs_api_key', `el-${randomUUID()}`),
      elevenlabs_agent_id: `agent_${this.trunkId}`,
    };
  }
}
