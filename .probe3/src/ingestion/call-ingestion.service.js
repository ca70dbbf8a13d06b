"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.CallIngestion = exports.CALL_RECORD_WRITER = void 0;
const common_1 = require("@nestjs/common");
const read_model_store_port_1 = require("../infrastructure/read-model/read-model-store.port");
const trunk_view_1 = require("../projections/trunks/trunk-view");
const domain_error_1 = require("../shared/domain-error");
const call_record_validation_1 = require("./call-record.validation");
const call_record_writer_1 = require("./call-record.writer");
const ndjson_parser_1 = require("./ndjson.parser");
exports.CALL_RECORD_WRITER = Symbol('CallRecordWriter');
/** Validates each record on its own, enriches it from its trunk, and hands the good ones to the writer. */
let CallIngestion = class CallIngestion {
    store;
    writer;
    constructor(store, writer) {
        this.store = store;
        this.writer = writer;
    }
    async ingest(accountId, body) {
        const lines = linesOf(body);
        const rejected = [];
        const valid = [];
        lines.forEach((line, index) => {
            if (line.error !== undefined)
                return rejected.push({ index, id: null, code: 'invalid_json', message: line.error });
            const verdict = (0, call_record_validation_1.validateCallRecord)(line.value);
            if (!verdict.ok)
                return rejected.push({ index, id: idOf(line.value), code: verdict.code, message: verdict.message });
            valid.push({ index, record: null, verdict });
        });
        const trunks = await this.trunksOf(valid.map((v) => (v.verdict.ok ? v.verdict.record.trunk_id : '')));
        const accepted = [];
        for (const { index, verdict } of valid) {
            if (!verdict.ok)
                continue;
            const trunk = trunks.get(verdict.record.trunk_id);
            // Another account's trunk is reported exactly like a missing one: ids do not leak.
            if (!trunk || trunk.account_id !== accountId) {
                rejected.push({ index, id: verdict.record.id, code: 'unknown_trunk', message: `trunk ${verdict.record.trunk_id} does not exist in this account` });
                continue;
            }
            accepted.push({ ...verdict.record, account_id: accountId, provider: trunk.ai_provider });
        }
        await this.writer.submit(accepted);
        return { accepted: accepted.length, rejected: rejected.sort((a, b) => a.index - b.index) };
    }
    async trunksOf(ids) {
        const distinct = [...new Set(ids)];
        const values = distinct.length > 0 ? await this.store.mget(distinct.map(trunk_view_1.trunkKeys.trunk)) : [];
        const found = new Map();
        values.forEach((value, i) => {
            if (value)
                found.set(distinct[i], JSON.parse(value));
        });
        return found;
    }
};
exports.CallIngestion = CallIngestion;
exports.CallIngestion = CallIngestion = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(read_model_store_port_1.READ_MODEL_STORE)),
    __param(1, (0, common_1.Inject)(exports.CALL_RECORD_WRITER)),
    __metadata("design:paramtypes", [Object, call_record_writer_1.CallRecordWriter])
], CallIngestion);
function linesOf(body) {
    if (body instanceof ndjson_parser_1.NdjsonBody)
        return body.lines;
    const list = Array.isArray(body) ? body : body && typeof body === 'object' && Array.isArray(body.calls) ? body.calls : null;
    if (!list)
        throw new domain_error_1.DomainError('missing_required_field', 'Send NDJSON (application/x-ndjson), a JSON array of records, or {"calls": [...]}');
    if (list.length > ndjson_parser_1.MAX_RECORDS_PER_REQUEST)
        throw new domain_error_1.DomainError('payload_too_large', `At most ${ndjson_parser_1.MAX_RECORDS_PER_REQUEST} records per request`);
    return list.map((value) => ({ value }));
}
function idOf(value) {
    const id = value && typeof value === 'object' ? value.id : undefined;
    return typeof id === 'string' && id.length <= 100 ? id : null;
}
//# sourceMappingURL=call-ingestion.service.js.map