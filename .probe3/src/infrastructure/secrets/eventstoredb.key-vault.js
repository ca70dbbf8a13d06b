"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EventStoreDbKeyVault = exports.dataKeyStream = exports.DATA_KEY_CREATED = void 0;
const db_client_1 = require("@eventstore/db-client");
const eventstoredb_mapping_1 = require("../event-store/eventstoredb/eventstoredb.mapping");
const key_vault_port_1 = require("./key-vault.port");
exports.DATA_KEY_CREATED = 'DataKeyCreated';
const dataKeyStream = (ownerId) => `datakey-${ownerId}`;
exports.dataKeyStream = dataKeyStream;
/**
 * The key vault in EventStoreDB: one stream per owner, `datakey-<ownerId>`, holding one
 * DataKeyCreated { wrapped_key } event. destroy() tombstones (hard-deletes) the stream rather
 * than soft-deleting it: a tombstoned stream can never be written again, which is what keeps a
 * destroyed owner from being given a new key, and its events are removed by the next scavenge
 * (until then the server refuses to read them). Storage failures surface as
 * EventStoreUnavailableError.
 */
class EventStoreDbKeyVault {
    client;
    constructor(client) {
        this.client = client;
    }
    async put(ownerId, wrappedKey) {
        (0, key_vault_port_1.checkVaultArgs)(ownerId, wrappedKey);
        for (let attempt = 0; attempt < 2; attempt++) {
            const current = await this.get(ownerId);
            if (current === wrappedKey)
                return;
            if (current !== null)
                throw new key_vault_port_1.DataKeyConflictError(ownerId, current === 'destroyed' ? 'destroyed' : 'exists');
            try {
                const event = (0, db_client_1.jsonEvent)({ type: exports.DATA_KEY_CREATED, data: { wrapped_key: wrappedKey } });
                await this.client.appendToStream((0, exports.dataKeyStream)(ownerId), event, { expectedRevision: db_client_1.NO_STREAM });
                return;
            }
            catch (error) {
                if (error instanceof db_client_1.StreamDeletedError)
                    throw new key_vault_port_1.DataKeyConflictError(ownerId, 'destroyed');
                // Another put won the race: read again and compare with what it stored.
                if (!(error instanceof db_client_1.WrongExpectedVersionError))
                    throw (0, eventstoredb_mapping_1.toStoreError)(error);
            }
        }
        throw new key_vault_port_1.DataKeyConflictError(ownerId, 'exists');
    }
    async get(ownerId) {
        (0, key_vault_port_1.checkVaultArgs)(ownerId);
        const stream = (0, exports.dataKeyStream)(ownerId);
        try {
            for await (const resolved of this.client.readStream(stream, { fromRevision: 0n, maxCount: 1, direction: db_client_1.FORWARDS })) {
                if (resolved.event?.type === exports.DATA_KEY_CREATED)
                    return wrappedKeyOf(resolved.event.data, ownerId);
            }
            return null;
        }
        catch (error) {
            if (error instanceof db_client_1.StreamDeletedError)
                return 'destroyed';
            if (error instanceof db_client_1.StreamNotFoundError)
                return (await this.softDeleted(stream)) ? 'destroyed' : null;
            throw (0, eventstoredb_mapping_1.toStoreError)(error);
        }
    }
    async destroy(ownerId) {
        (0, key_vault_port_1.checkVaultArgs)(ownerId);
        try {
            // Expected revision ANY: tombstoning an owner that never had a key still blocks later puts.
            await this.client.tombstoneStream((0, exports.dataKeyStream)(ownerId));
        }
        catch (error) {
            if (error instanceof db_client_1.StreamDeletedError)
                return; // already tombstoned
            throw (0, eventstoredb_mapping_1.toStoreError)(error);
        }
    }
    /**
     * A soft-deleted stream (an operator's deleteStream) reads as not found, like one that never
     * existed; its metadata keeps truncateBefore. Its key is gone either way, so it counts as
     * destroyed and put() refuses it rather than resurrecting the stream.
     */
    async softDeleted(stream) {
        try {
            const { metadata } = await this.client.getStreamMetadata(stream);
            return metadata?.truncateBefore !== undefined;
        }
        catch (error) {
            if (error instanceof db_client_1.StreamDeletedError)
                return true;
            throw (0, eventstoredb_mapping_1.toStoreError)(error);
        }
    }
}
exports.EventStoreDbKeyVault = EventStoreDbKeyVault;
function wrappedKeyOf(data, ownerId) {
    const wrapped = data?.wrapped_key;
    if (typeof wrapped !== 'string' || wrapped.length === 0)
        throw new Error(`key vault: malformed ${exports.DATA_KEY_CREATED} event for ${ownerId}`);
    return wrapped;
}
//# sourceMappingURL=eventstoredb.key-vault.js.map