"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CallRecordWriter = void 0;
const domain_error_1 = require("../shared/domain-error");
const call_record_row_1 = require("./call-record.row");
const DEFAULTS = { maxBatchRows: 50_000, lingerMs: 5, maxQueuedRecords: 200_000 };
/**
 * Micro-batches concurrent ingestion requests into large INSERTs, one at a time (so two versions
 * of one call are never decided concurrently). A submission resolves only after the INSERT
 * holding its rows returned: acknowledged means durable.
 */
class CallRecordWriter {
    clickhouse;
    queue = [];
    queued = 0;
    flushing = null;
    timer = null;
    lastVersion = 0;
    options;
    constructor(clickhouse, options = {}) {
        this.clickhouse = clickhouse;
        this.options = { ...DEFAULTS, ...options };
    }
    submit(records) {
        if (records.length === 0)
            return Promise.resolve();
        if (this.queued + records.length > this.options.maxQueuedRecords) {
            return Promise.reject(new domain_error_1.DomainError('service_unavailable', 'Ingestion is saturated; retry shortly', { retryAfterSeconds: 1 }));
        }
        return new Promise((resolve, reject) => {
            this.queue.push({ records, resolve, reject });
            this.queued += records.length;
            this.schedule();
        });
    }
    /** Writes everything queued (graceful shutdown). */
    async drain() {
        while (this.queue.length > 0 || this.flushing) {
            if (this.flushing)
                await this.flushing;
            else
                await this.flush();
        }
    }
    get depth() {
        return this.queued;
    }
    schedule() {
        if (this.flushing || this.timer)
            return;
        this.timer = setTimeout(() => {
            this.timer = null;
            void this.flush();
        }, this.options.lingerMs);
    }
    flush() {
        const batch = this.take();
        this.flushing = this.write(batch).finally(() => {
            this.flushing = null;
            if (this.queue.length > 0)
                this.schedule();
        });
        return this.flushing;
    }
    take() {
        const batch = [];
        let rows = 0;
        while (this.queue.length > 0 && (batch.length === 0 || rows + this.queue[0].records.length <= this.options.maxBatchRows)) {
            const next = this.queue.shift();
            rows += next.records.length;
            this.queued -= next.records.length;
            batch.push(next);
        }
        return batch;
    }
    async write(batch) {
        try {
            const latest = latestPerCall(batch.flatMap((s) => s.records));
            const previous = await this.previousVersions(latest);
            const now = new Date();
            const rows = [];
            for (const record of latest) {
                const old = previous.get(`${record.account_id}\u0000${record.id}`);
                if (old)
                    rows.push({ ...old, sign: -1 });
                rows.push((0, call_record_row_1.rowOf)(record, this.nextVersion(), now));
            }
            await this.clickhouse.insert('call_records', rows);
            for (const submission of batch)
                submission.resolve();
        }
        catch (error) {
            for (const submission of batch)
                submission.reject(error);
        }
    }
    /** The stored version of each call of the batch, to cancel it in the same INSERT. */
    async previousVersions(records) {
        const byAccount = new Map();
        for (const r of records)
            byAccount.set(r.account_id, [...(byAccount.get(r.account_id) ?? []), r.id]);
        const found = new Map();
        for (const [accountId, ids] of byAccount) {
            const rows = await this.clickhouse.query(`SELECT * EXCEPT (sign) FROM call_records FINAL WHERE account_id = {account:String} AND call_id IN {ids:Array(String)}`, { account: accountId, ids });
            for (const row of rows)
                found.set(`${row.account_id}\u0000${row.call_id}`, { ...row, sign: 1 });
        }
        return found;
    }
    /** Strictly increasing across this process: later submissions win. */
    nextVersion() {
        this.lastVersion = Math.max(this.lastVersion + 1, Date.now() * 1000);
        return this.lastVersion;
    }
}
exports.CallRecordWriter = CallRecordWriter;
/** Within one INSERT, the last occurrence of a call wins. */
function latestPerCall(records) {
    const last = new Map();
    for (const r of records)
        last.set(`${r.account_id}\u0000${r.id}`, r);
    return [...last.values()];
}
//# sourceMappingURL=call-record.writer.js.map