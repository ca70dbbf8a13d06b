"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RowBuilder = void 0;
exports.recordsOf = recordsOf;
const call_record_row_1 = require("../../src/ingestion/call-record.row");
const call_record_validation_1 = require("../../src/ingestion/call-record.validation");
const call_generator_1 = require("../../src/tools/call-generator");
/** Records `startIndex … startIndex+count-1` of the run: the same ones whichever process asks. */
function recordsOf(spec, startIndex, count) {
    return (0, call_generator_1.generateCalls)({ count, startIndex, seed: spec.seed, from: new Date(spec.fromMs), to: new Date(spec.toMs), trunkIds: spec.trunks.map((t) => t.id) });
}
/**
 * call_records rows exactly as CallRecordWriter builds them for calls it has not seen before:
 * validated, enriched from the trunk, `rowOf` with a strictly increasing version.
 */
class RowBuilder {
    spec;
    providers;
    lastVersion = 0;
    constructor(spec) {
        this.spec = spec;
        this.providers = new Map(spec.trunks.map((t) => [t.id, t.provider]));
    }
    rows(records) {
        const now = new Date();
        const rows = [];
        for (const input of records)
            rows.push((0, call_record_row_1.rowOf)(this.enrich(input), this.nextVersion(), now));
        return rows;
    }
    enrich(input) {
        const verdict = (0, call_record_validation_1.validateCallRecord)(input);
        if (!verdict.ok)
            throw new Error(`generated record ${input.id} is invalid: ${verdict.code} ${verdict.message}`);
        const provider = this.providers.get(verdict.record.trunk_id);
        if (provider === undefined)
            throw new Error(`generated record ${input.id} names unknown trunk ${verdict.record.trunk_id}`);
        return { ...verdict.record, account_id: this.spec.accountId, provider };
    }
    nextVersion() {
        this.lastVersion = Math.max(this.lastVersion + 1, Date.now() * 1000);
        return this.lastVersion;
    }
}
exports.RowBuilder = RowBuilder;
//# sourceMappingURL=ingest-records.js.map