import type { MessageBus } from '../cluster/cluster.port';
import type { SecretBox } from './secret-box';

export const destroyChannel = (namespace: string): string => `${namespace}secrets:destroyed`;

/** The longest a destroy waits for the other instances to drop the key (one that is away resyncs on return). */
const ACK_TIMEOUT_MS = 2000;

/**
 * Connects a SecretBox to the other instances: a destroy here is published, and its caller answers
 * only once every instance that received it has marked the owner destroyed in its cache; a
 * reconnect of the subscriber (messages may have been lost meanwhile) empties the cache.
 */
export async function shareDestroys(box: SecretBox, bus: MessageBus, namespace: string): Promise<void> {
  const channel = destroyChannel(namespace);
  await bus.subscribeAcked(channel, (ownerId) => box.forgetDestroyed(ownerId));
  bus.onResync(() => box.forgetAll());
  box.attachBroadcast({ publish: async (ownerId) => void (await bus.publishAcked(channel, ownerId, ACK_TIMEOUT_MS)) });
}
