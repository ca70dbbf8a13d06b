"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ProjectionRunner = void 0;
const event_store_port_1 = require("../infrastructure/event-store/event-store.port");
const position_waiters_1 = require("./position-waiters");
const BATCH_SIZE = 500;
/**
 * Follows the event store from a checkpoint kept in the read-model store itself, written in the
 * same atomic batch as the projection's writes: a crash between the two cannot happen, so a
 * restart neither loses nor repeats an event's effect.
 */
class ProjectionRunner {
    name;
    projections;
    store;
    events;
    subscription = null;
    checkpoint = null;
    waiters = new position_waiters_1.PositionWaiters();
    constructor(name, projections, store, events) {
        this.name = name;
        this.projections = projections;
        this.store = store;
        this.events = events;
    }
    get checkpointKey() {
        return `checkpoint:${this.name}`;
    }
    async start() {
        const saved = await this.store.get(this.checkpointKey);
        this.checkpoint = saved ? (0, event_store_port_1.decodePosition)(saved) : null;
        this.subscription = this.events.subscribe({ after: this.checkpoint, batchSize: BATCH_SIZE }, (batch) => this.applyBatch(batch));
    }
    async stop() {
        await this.subscription?.stop();
        this.subscription = null;
        this.waiters.cancelAll();
    }
    /** Drops every read model of this store and replays all events from the start. */
    async rebuild() {
        await this.stop();
        await this.store.clear();
        this.checkpoint = null;
        await this.start();
    }
    /** Resolves true once every event up to `position` is applied, false after the timeout. */
    waitFor(position, timeoutMs) {
        return this.waiters.wait((p) => this.reached(p), position, timeoutMs);
    }
    /** Compares the checkpoint with the store: one small read, for /readyz and logs. */
    async status(now = new Date()) {
        const [next] = await this.events.readAll({ after: this.checkpoint, maxCount: 1 });
        const lagMs = next ? Math.max(0, now.getTime() - next.recordedAt.getTime()) : 0;
        return { name: this.name, checkpoint: this.checkpoint ? (0, event_store_port_1.encodePosition)(this.checkpoint) : null, lagMs, caughtUp: !next };
    }
    reached(position) {
        return this.checkpoint !== null && (0, event_store_port_1.comparePositions)(this.checkpoint, position) >= 0;
    }
    async applyBatch(batch) {
        if (batch.length === 0)
            return;
        const last = batch[batch.length - 1];
        const ops = await this.writesOf(batch);
        ops.push({ op: 'set', key: this.checkpointKey, value: (0, event_store_port_1.encodePosition)(last.position) });
        await this.store.write(ops);
        this.checkpoint = last.position;
        this.waiters.advance(last.position);
    }
    async writesOf(batch) {
        const pending = new Map();
        const view = { get: async (key) => (pending.has(key) ? pending.get(key) : this.store.get(key)) };
        const ops = [];
        for (const event of batch) {
            for (const projection of this.projections) {
                const writes = await projection.apply(event, view);
                for (const write of writes) {
                    if (write.op === 'set')
                        pending.set(write.key, write.value);
                    else if (write.op === 'del')
                        pending.set(write.key, null);
                    ops.push(write);
                }
            }
        }
        return ops;
    }
}
exports.ProjectionRunner = ProjectionRunner;
//# sourceMappingURL=projection-runner.js.map