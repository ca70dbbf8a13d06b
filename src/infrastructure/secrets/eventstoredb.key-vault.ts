import {
  type EventStoreDBClient,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  StreamDeletedError,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { toStoreError } from '../event-store/eventstoredb/eventstoredb.mapping';
import { checkVaultArgs, DataKeyConflictError, type KeyVault } from './key-vault.port';

export const DATA_KEY_CREATED = 'DataKeyCreated';
export const dataKeyStream = (ownerId: string): string => `datakey-${ownerId}`;

/**
 * The key vault in EventStoreDB: one stream per owner, `datakey-<ownerId>`, holding one
 * DataKeyCreated { wrapped_key } event. destroy() tombstones (hard-deletes) the stream rather
 * than soft-deleting it: a tombstoned stream can never be written again, which is what keeps a
 * destroyed owner from being given a new key, and its events are removed by the next scavenge
 * (until then the server refuses to read them). Storage failures surface as
 * EventStoreUnavailableError.
 */
export class EventStoreDbKeyVault implements KeyVault {
  constructor(private readonly client: EventStoreDBClient) {}

  async put(ownerId: string, wrappedKey: string): Promise<void> {
    checkVaultArgs(ownerId, wrappedKey);
    for (let attempt = 0; attempt < 2; attempt++) {
      const current = await this.get(ownerId);
      if (current === wrappedKey) return;
      if (current !== null) throw new DataKeyConflictError(ownerId, current === 'destroyed' ? 'destroyed' : 'exists');
      try {
        const event = jsonEvent({ type: DATA_KEY_CREATED, data: { wrapped_key: wrappedKey } });
        await this.client.appendToStream(dataKeyStream(ownerId), event, { expectedRevision: NO_STREAM });
        return;
      } catch (error) {
        if (error instanceof StreamDeletedError) throw new DataKeyConflictError(ownerId, 'destroyed');
        // Another put won the race: read again and compare with what it stored.
        if (!(error instanceof WrongExpectedVersionError)) throw toStoreError(error);
      }
    }
    throw new DataKeyConflictError(ownerId, 'exists');
  }

  async get(ownerId: string): Promise<string | 'destroyed' | null> {
    checkVaultArgs(ownerId);
    const stream = dataKeyStream(ownerId);
    try {
      for await (const resolved of this.client.readStream(stream, {
        fromRevision: 0n,
        maxCount: 1,
        direction: FORWARDS,
      })) {
        if (resolved.event?.type === DATA_KEY_CREATED) return wrappedKeyOf(resolved.event.data, ownerId);
      }
      return null;
    } catch (error) {
      if (error instanceof StreamDeletedError) return 'destroyed';
      if (error instanceof StreamNotFoundError) return (await this.softDeleted(stream)) ? 'destroyed' : null;
      throw toStoreError(error);
    }
  }

  async destroy(ownerId: string): Promise<void> {
    checkVaultArgs(ownerId);
    try {
      // Expected revision ANY: tombstoning an owner that never had a key still blocks later puts.
      await this.client.tombstoneStream(dataKeyStream(ownerId));
    } catch (error) {
      if (error instanceof StreamDeletedError) return; // already tombstoned
      throw toStoreError(error);
    }
  }

  /**
   * A soft-deleted stream (an operator's deleteStream) reads as not found, like one that never
   * existed; its metadata keeps truncateBefore. Its key is gone either way, so it counts as
   * destroyed and put() refuses it rather than resurrecting the stream.
   */
  private async softDeleted(stream: string): Promise<boolean> {
    try {
      const { metadata } = await this.client.getStreamMetadata(stream);
      return metadata?.truncateBefore !== undefined;
    } catch (error) {
      if (error instanceof StreamDeletedError) return true;
      throw toStoreError(error);
    }
  }
}

function wrappedKeyOf(data: unknown, ownerId: string): string {
  const wrapped = (data as { wrapped_key?: unknown } | null)?.wrapped_key;
  if (typeof wrapped !== 'string' || wrapped.length === 0)
    throw new Error(`key vault: malformed ${DATA_KEY_CREATED} event for ${ownerId}`);
  return wrapped;
}
