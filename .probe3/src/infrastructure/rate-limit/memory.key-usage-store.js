"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MemoryKeyUsageStore = void 0;
/** Same semantics as the Redis store: last use only moves forward, unknown keys read as zeros. */
class MemoryKeyUsageStore {
    usage = new Map();
    async record(keyId, at, isError) {
        const atMs = at.getTime();
        if (Number.isNaN(atMs))
            throw new RangeError('record() needs a valid date');
        const entry = this.usage.get(keyId) ?? { requests: 0, errors: 0, lastUsedAtMs: atMs };
        entry.requests += 1;
        if (isError)
            entry.errors += 1;
        entry.lastUsedAtMs = Math.max(entry.lastUsedAtMs, atMs);
        this.usage.set(keyId, entry);
    }
    async get(keyIds) {
        const result = new Map();
        for (const id of keyIds) {
            const entry = this.usage.get(id);
            result.set(id, {
                lastUsedAt: entry ? new Date(entry.lastUsedAtMs) : null,
                requestCount: entry?.requests ?? 0,
                errorCount: entry?.errors ?? 0,
            });
        }
        return result;
    }
    async close() { }
}
exports.MemoryKeyUsageStore = MemoryKeyUsageStore;
//# sourceMappingURL=memory.key-usage-store.js.map