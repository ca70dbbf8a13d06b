import type { Logger } from 'pino';
import type { MessageBus } from '../../infrastructure/cluster/cluster.port';
import type { CredentialCache } from './credential-cache';

/** The longest a revocation waits for the other instances to drop the key from their caches. */
const ACK_TIMEOUT_MS = 2000;

export const revocationChannel = (namespace: string): string => `${namespace}credentials:revoked`;

/**
 * Keeps every instance's credential cache in step with revocations: `revoked(hash)` drops the key
 * here and resolves once every instance listening on the bus has dropped it too (or after
 * ACK_TIMEOUT_MS, logged; the cache's TTL is then the bound). A reconnect of the bus subscriber,
 * after which messages may have been lost, empties this instance's cache.
 */
export class CredentialRevocations {
  private constructor(
    private readonly cache: CredentialCache | null,
    private readonly bus: MessageBus | null,
    private readonly channel: string,
    private readonly logger: Logger,
  ) {}

  /** Without a cache there is nothing to keep in step: revoked() is then a no-op. */
  static async connect(
    cache: CredentialCache | null,
    bus: MessageBus | null,
    namespace: string,
    logger: Logger,
  ): Promise<CredentialRevocations> {
    const channel = revocationChannel(namespace);
    if (cache && bus) {
      await bus.subscribeAcked(channel, (hash) => cache.forget(hash));
      bus.onResync(() => cache.clear());
    }
    return new CredentialRevocations(cache, bus, channel, logger);
  }

  async revoked(keyHash: string): Promise<void> {
    if (!this.cache) return;
    this.cache.forget(keyHash);
    if (!this.bus) return;
    const acked = await this.bus.publishAcked(this.channel, keyHash, ACK_TIMEOUT_MS);
    if (!acked) {
      this.logger.warn(
        { timeoutMs: ACK_TIMEOUT_MS },
        'revocation: not every instance acknowledged in time; their cached copy expires within CREDENTIAL_CACHE_TTL_MS',
      );
    }
  }
}
