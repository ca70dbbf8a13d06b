import type { Logger } from 'pino';
import type { TrunklineClient } from '../../../clients/typescript';

/** What a call needs to know of its trunk: whose it is and how to reach its agent. Never logged (it may hold secrets). */
export interface TrunkAgent {
  trunkId: string;
  accountId: string;
  sipUsername: string;
  status: 'active' | 'inactive' | 'error' | 'deleted';
  provider: 'openai' | 'elevenlabs' | 'custom';
  customEndpoint: string | null;
  /** Provider keys in clear (gateway scope only): never logged, never on disk. */
  openaiApiKey: string | null;
  elevenlabsApiKey: string | null;
  elevenlabsAgentId: string | null;
  systemPrompt: string | null;
  vad: { threshold?: number; prefix_padding_ms?: number; silence_duration_ms?: number } | null;
  providerSettings: Record<string, unknown> | null;
}

export type Lookup = { found: true; trunk: TrunkAgent } | { found: false; reason: 'unknown' | 'unavailable' };

const TTL_MS = 60_000;
const FEED_EVERY_MS = 1_000;

/**
 * Trunks by SIP user name through Trunkline's agent lookup (`GET /gateway/trunks/{u}/agent`, scope
 * gateway only; every answer is an AgentCredentialsRead event in the account's audit log, and the
 * provider keys come decrypted). Held in memory only, never logged, for a minute at most, and
 * evicted by the change feed (`/gateway/changes`) as the reference gateway does
 * (docs/sip-gateway.md), so a rotation or deactivation reaches calls within about a second.
 */
export class TrunkDirectory {
  private readonly cache = new Map<string, { at: number; trunk: TrunkAgent }>();
  private cursor: string | undefined;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly client: TrunklineClient,
    private readonly log: Logger,
  ) {}

  start(): void {
    const poll = async () => {
      try {
        const { data } = await this.client.GET('/gateway/changes', { params: { query: { after: this.cursor } } });
        if (data) {
          if (data.flush) this.cache.clear();
          for (const name of data.changes) this.cache.delete(name);
          this.cursor = data.cursor;
        }
      } catch (error) {
        this.log.debug({ err: (error as Error).message }, 'change feed unavailable');
      }
      if (this.timer) this.timer = setTimeout(poll, FEED_EVERY_MS);
    };
    this.timer = setTimeout(poll, 0);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  async lookup(sipUsername: string): Promise<Lookup> {
    const name = sipUsername.toLowerCase();
    if (!/^[a-z0-9-]{1,64}$/.test(name)) return { found: false, reason: 'unknown' };
    const cached = this.cache.get(name);
    if (cached && Date.now() - cached.at < TTL_MS) return { found: true, trunk: cached.trunk };
    try {
      const trunk = await this.fetch(name);
      if (!trunk) return { found: false, reason: 'unknown' };
      if (trunk.status === 'active') this.cache.set(name, { at: Date.now(), trunk });
      return { found: true, trunk };
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, 'trunk lookup failed');
      return { found: false, reason: 'unavailable' };
    }
  }

  private async fetch(name: string): Promise<TrunkAgent | null> {
    const { data, error, response } = await this.client.GET('/gateway/trunks/{sip_username}/agent', {
      params: { path: { sip_username: name } },
    });
    if (response.status === 404) return null;
    if (response.status === 409) {
      // An inactive trunk: no secrets are disclosed; the call is refused 403.
      return { ...INACTIVE, sipUsername: name };
    }
    if (!data) throw new Error(`agent lookup answered ${response.status} ${JSON.stringify(error ?? {}).slice(0, 200)}`);
    return {
      trunkId: data.trunk_id,
      accountId: data.account_id,
      sipUsername: data.sip_username,
      status: data.status,
      provider: data.ai_provider,
      customEndpoint: data.custom_endpoint,
      openaiApiKey: data.openai_api_key,
      elevenlabsApiKey: data.elevenlabs_api_key,
      elevenlabsAgentId: data.elevenlabs_agent_id,
      systemPrompt: data.system_prompt,
      vad: data.vad ?? null,
      providerSettings: (data.provider_settings as Record<string, unknown> | null) ?? null,
    };
  }
}

const INACTIVE: TrunkAgent = {
  trunkId: '',
  accountId: '',
  sipUsername: '',
  status: 'inactive',
  provider: 'custom',
  customEndpoint: null,
  openaiApiKey: null,
  elevenlabsApiKey: null,
  elevenlabsAgentId: null,
  systemPrompt: null,
  vad: null,
  providerSettings: null,
};
