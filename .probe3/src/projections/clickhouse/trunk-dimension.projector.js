"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TrunkDimensionProjector = void 0;
const event_store_port_1 = require("../../infrastructure/event-store/event-store.port");
const position_waiters_1 = require("../position-waiters");
const NAME = 'trunk-dimension';
/**
 * Projects trunks (name, provider, deleted) from the event store into ClickHouse, so analytics
 * show a renamed trunk under its new name and a deleted one under its last. Rows replace by
 * version (the event's position), so re-applying a batch after a crash changes nothing; the
 * checkpoint is written after the rows.
 */
class TrunkDimensionProjector {
    events;
    clickhouse;
    subscription = null;
    checkpoint = null;
    waiters = new position_waiters_1.PositionWaiters();
    checkpointVersion = 0;
    constructor(events, clickhouse) {
        this.events = events;
        this.clickhouse = clickhouse;
    }
    async start() {
        const [saved] = await this.clickhouse.query('SELECT argMax(position, version) AS position FROM projection_checkpoints WHERE name = {name:String} HAVING count() > 0', { name: NAME });
        this.checkpoint = saved?.position ? (0, event_store_port_1.decodePosition)(saved.position) : null;
        this.subscription = this.events.subscribe({ after: this.checkpoint, batchSize: 1000 }, (batch) => this.apply(batch));
    }
    async stop() {
        await this.subscription?.stop();
        this.subscription = null;
        this.waiters.cancelAll();
    }
    waitFor(position, timeoutMs) {
        return this.waiters.wait((p) => this.checkpoint !== null && (0, event_store_port_1.comparePositions)(this.checkpoint, p) >= 0, position, timeoutMs);
    }
    async apply(batch) {
        if (batch.length === 0)
            return;
        const rows = await this.rowsOf(batch.filter((e) => ['TrunkCreated', 'TrunkUpdated', 'TrunkDeleted'].includes(e.type)));
        if (rows.size > 0)
            await this.clickhouse.insert('trunk_dimension', [...rows.values()]);
        const last = batch[batch.length - 1].position;
        this.checkpointVersion = Math.max(this.checkpointVersion + 1, Date.now() * 1000);
        await this.clickhouse.insert('projection_checkpoints', [{ name: NAME, position: (0, event_store_port_1.encodePosition)(last), version: this.checkpointVersion }]);
        this.checkpoint = last;
        this.waiters.advance(last);
    }
    async rowsOf(events) {
        const rows = await this.current(events.filter((e) => e.type !== 'TrunkCreated').map((e) => e.data.trunk_id));
        for (const stored of events) {
            const event = stored;
            const version = Number(stored.position.lo);
            const id = event.data.trunk_id;
            if (event.type === 'TrunkCreated') {
                rows.set(id, { account_id: event.data.account_id, trunk_id: id, name: event.data.name, provider: event.data.ai_provider, deleted: 0, version });
            }
            else if (rows.has(id)) {
                const row = rows.get(id);
                if (event.type === 'TrunkDeleted')
                    rows.set(id, { ...row, deleted: 1, version });
                else if (event.type === 'TrunkUpdated' && event.data.changes.name !== undefined)
                    rows.set(id, { ...row, name: event.data.changes.name, version });
            }
        }
        return rows;
    }
    async current(trunkIds) {
        if (trunkIds.length === 0)
            return new Map();
        const rows = await this.clickhouse.query('SELECT account_id, trunk_id, name, provider, deleted, version FROM trunk_dimension FINAL WHERE trunk_id IN {ids:Array(String)}', { ids: [...new Set(trunkIds)] });
        return new Map(rows.map((r) => [r.trunk_id, { ...r, version: Number(r.version), deleted: Number(r.deleted) }]));
    }
}
exports.TrunkDimensionProjector = TrunkDimensionProjector;
//# sourceMappingURL=trunk-dimension.projector.js.map