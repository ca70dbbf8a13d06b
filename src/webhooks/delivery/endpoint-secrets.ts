import { SIGNING_SECRET_FIELD } from '../domain/webhook-signer';
import { Inject, Injectable } from '@nestjs/common';
import { SECRET_BOX, SecretBox } from '../../infrastructure/secrets/secret-box';
import { CommandRunner } from '../../eventsourcing/command-runner';
import { webhookEndpointDecider, webhookEndpointStream } from '../domain/webhook-endpoint.decider';

interface Unsealed {
  revision: number;
  current: string;
  previous: { secret: string; expiresAt: number } | null;
}

const MAX_CACHED = 10_000;

/**
 * Unsealed signing secrets for the worker, read from the endpoint's stream (read models never
 * hold them) and cached in this process by stream revision: a rotation bumps the revision that
 * the endpoint view carries, so a stale entry is never used.
 */
@Injectable()
export class EndpointSecrets {
  private readonly cache = new Map<string, Unsealed>();

  constructor(
    private readonly runner: CommandRunner,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
  ) {}

  /** The secrets to sign with now (current first); null when the endpoint no longer exists. */
  async signingSecrets(endpointId: string, viewRevision: number, now: Date): Promise<string[] | null> {
    let entry = this.cache.get(endpointId);
    if (!entry || entry.revision < viewRevision) {
      const loaded = await this.load(endpointId);
      if (!loaded) return null;
      entry = loaded;
    }
    const previous = entry.previous && entry.previous.expiresAt > now.getTime() ? [entry.previous.secret] : [];
    return [entry.current, ...previous];
  }

  forget(endpointId: string): void {
    this.cache.delete(endpointId);
  }

  private async load(endpointId: string): Promise<Unsealed | null> {
    const { state, revision } = await this.runner.load(webhookEndpointStream(endpointId), webhookEndpointDecider);
    if (state.status !== 'live') return null;
    const current = await this.secrets.decrypt(endpointId, SIGNING_SECRET_FIELD, state.secret);
    const previous = state.previousSecret
      ? {
          secret: await this.secrets.decrypt(endpointId, SIGNING_SECRET_FIELD, state.previousSecret.secret),
          expiresAt: Date.parse(state.previousSecret.expiresAt),
        }
      : null;
    const entry = { revision, current, previous };
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(endpointId, entry);
    return entry;
  }
}
