"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isoFromChDateTime = exports.chDateTime = void 0;
exports.totalLatency = totalLatency;
exports.rowOf = rowOf;
const call_record_1 = require("./call-record");
/** ClickHouse DateTime64(3) text: `YYYY-MM-DD hh:mm:ss.sss`, read as UTC by the column's zone. */
const chDateTime = (date) => date.toISOString().replace('T', ' ').replace('Z', '');
exports.chDateTime = chDateTime;
const isoFromChDateTime = (text) => `${text.replace(' ', 'T')}Z`;
exports.isoFromChDateTime = isoFromChDateTime;
/** Total latency exists only when all three parts were reported. */
function totalLatency(r) {
    if (r.carrier_lag_ms === null || r.ai_latency_ms === null || r.gateway_processing_ms === null)
        return null;
    return r.carrier_lag_ms + r.ai_latency_ms + r.gateway_processing_ms;
}
function rowOf(record, version, now) {
    const total = totalLatency(record);
    return {
        account_id: record.account_id,
        start_time: (0, exports.chDateTime)(record.start_time),
        call_id: record.id,
        version,
        sign: 1,
        trunk_id: record.trunk_id,
        provider: record.provider,
        direction: record.direction,
        status: record.status,
        from_number: record.from,
        to_number: record.to,
        end_time: record.end_time ? (0, exports.chDateTime)(record.end_time) : null,
        duration_seconds: record.duration_seconds,
        carrier_lag_ms: record.carrier_lag_ms,
        ai_latency_ms: record.ai_latency_ms,
        gateway_processing_ms: record.gateway_processing_ms,
        total_latency_ms: total,
        latency_bin: total === null ? 0 : (0, call_record_1.latencyBin)(total),
        packet_loss_percent: record.packet_loss_percent,
        jitter_ms: record.jitter_ms,
        codec_used: record.codec_used ?? '',
        codec_group: (0, call_record_1.codecGroup)(record.codec_used),
        disconnect_reason: record.disconnect_reason ?? '',
        turns: JSON.stringify(record.turns),
        sip_trace: record.sip_trace ?? '',
        ingested_at: (0, exports.chDateTime)(now),
    };
}
//# sourceMappingURL=call-record.row.js.map