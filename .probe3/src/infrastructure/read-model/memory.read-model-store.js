"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MemoryReadModelStore = void 0;
const memory_sorted_set_1 = require("./memory.sorted-set");
const rank_range_1 = require("./rank-range");
const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';
/**
 * Process-memory read models with Redis's semantics, down to its quirks: MGET answers null for a
 * key of another type while GET/HGETALL/ZCARD throw WRONGTYPE; a hash or sorted set that loses
 * its last element disappears. Each instance is its own namespace. Calls are synchronous inside,
 * so a write is atomic for every reader.
 */
class MemoryReadModelStore {
    data = new Map();
    async get(key) {
        return this.read(key, 'string')?.value ?? null;
    }
    async mget(keys) {
        return keys.map((key) => this.stringOrNull(key));
    }
    async hgetall(key) {
        return Object.fromEntries(this.read(key, 'hash')?.fields ?? []);
    }
    async zcard(key) {
        return this.read(key, 'zset')?.set.size ?? 0;
    }
    async zrange(key, offset, count, order) {
        return this.members(key, offset, count, order);
    }
    /** Without an await inside, so no write can land between the count and the values. */
    async page(indexKey, valuePrefix, offset, count, order) {
        const members = this.members(indexKey, offset, count, order);
        return {
            total: this.read(indexKey, 'zset')?.set.size ?? 0,
            values: members.map((member) => this.stringOrNull(valuePrefix + member)),
        };
    }
    /** Like EXEC: every op runs even after one fails (no rollback), then the first error is thrown. */
    async write(ops) {
        let firstError;
        for (const op of ops) {
            try {
                this.apply(op);
            }
            catch (err) {
                firstError ??= err;
            }
        }
        if (firstError)
            throw firstError;
    }
    async clear() {
        this.data.clear();
    }
    async ping() { }
    async close() { }
    apply(op) {
        switch (op.op) {
            case 'set':
                this.data.set(op.key, { type: 'string', value: op.value });
                return;
            case 'del':
                this.data.delete(op.key);
                return;
            case 'hset':
                return this.hset(op.key, op.fields);
            case 'hdel':
                return this.hdel(op.key, op.fields);
            case 'zadd':
                return this.zadd(op.key, op.score, op.member);
            case 'zrem':
                return this.zrem(op.key, op.member);
        }
    }
    members(key, offset, count, order) {
        const range = (0, rank_range_1.rankRange)(offset, count);
        const set = this.read(key, 'zset')?.set;
        if (!range || !set)
            return [];
        return set.range(range[0], range[1], order === 'desc');
    }
    hset(key, fields) {
        const names = Object.keys(fields);
        if (names.length === 0)
            return;
        const entry = this.read(key, 'hash') ?? { type: 'hash', fields: new Map() };
        for (const name of names)
            entry.fields.set(name, fields[name]);
        this.data.set(key, entry);
    }
    zadd(key, score, member) {
        const entry = this.read(key, 'zset') ?? { type: 'zset', set: new memory_sorted_set_1.MemorySortedSet() };
        entry.set.add(member, score);
        this.data.set(key, entry);
    }
    hdel(key, fields) {
        const hash = this.read(key, 'hash')?.fields;
        if (!hash)
            return;
        for (const field of fields)
            hash.delete(field);
        if (hash.size === 0)
            this.data.delete(key);
    }
    zrem(key, member) {
        const set = this.read(key, 'zset')?.set;
        if (!set)
            return;
        set.remove(member);
        if (set.size === 0)
            this.data.delete(key);
    }
    stringOrNull(key) {
        const entry = this.data.get(key);
        return entry?.type === 'string' ? entry.value : null;
    }
    read(key, type) {
        const entry = this.data.get(key);
        if (!entry)
            return undefined;
        if (entry.type !== type)
            throw new Error(WRONGTYPE);
        return entry;
    }
}
exports.MemoryReadModelStore = MemoryReadModelStore;
//# sourceMappingURL=memory.read-model-store.js.map