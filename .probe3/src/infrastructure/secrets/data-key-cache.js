"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DataKeyCache = void 0;
/**
 * Unwrapped data keys by owner: a small LRU whose entries also expire. 'destroyed' is cached
 * too: destruction is final, so that answer can never go stale. A Map keeps insertion order,
 * so re-inserting on a hit makes its first key the least recently used.
 */
class DataKeyCache {
    options;
    entries = new Map();
    constructor(options) {
        this.options = options;
    }
    get(ownerId) {
        const entry = this.entries.get(ownerId);
        if (!entry)
            return undefined;
        this.entries.delete(ownerId);
        if (entry.value !== 'destroyed' && entry.expiresAt <= this.options.now())
            return undefined;
        this.entries.set(ownerId, entry);
        return entry.value;
    }
    set(ownerId, value) {
        this.entries.delete(ownerId);
        this.entries.set(ownerId, { value, expiresAt: this.options.now() + this.options.ttlMs });
        while (this.entries.size > this.options.maxEntries) {
            const oldest = this.entries.keys().next().value;
            this.entries.delete(oldest);
        }
    }
    delete(ownerId) {
        this.entries.delete(ownerId);
    }
    get size() {
        return this.entries.size;
    }
}
exports.DataKeyCache = DataKeyCache;
//# sourceMappingURL=data-key-cache.js.map