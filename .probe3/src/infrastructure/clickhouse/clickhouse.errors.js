"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isUnavailableCode = isUnavailableCode;
exports.fromClickHouseCode = fromClickHouseCode;
exports.isPortError = isPortError;
const clickhouse_port_1 = require("./clickhouse.port");
/**
 * ClickHouse error codes that mean "not now" rather than "this statement is wrong": the caller
 * answers 503 and may retry. Both adapters classify by code, never by message text.
 */
const UNAVAILABLE_CODES = new Set([
    159, // TIMEOUT_EXCEEDED (our max_execution_time)
    160, // TOO_SLOW
    202, // TOO_MANY_SIMULTANEOUS_QUERIES
    209, // SOCKET_TIMEOUT
    210, // NETWORK_ERROR
    236, // ABORTED
    241, // MEMORY_LIMIT_EXCEEDED
    242, // TABLE_IS_READ_ONLY
    243, // NOT_ENOUGH_SPACE
    252, // TOO_MANY_PARTS
    319, // UNKNOWN_STATUS_OF_INSERT
    394, // QUERY_WAS_CANCELLED
    425, // SYSTEM_ERROR
    516, // AUTHENTICATION_FAILED: a deployment problem, not a bad statement
    999, // KEEPER_EXCEPTION
]);
function isUnavailableCode(code) {
    return code !== undefined && UNAVAILABLE_CODES.has(code);
}
/** Maps an error that carries a ClickHouse code (server or engine) to one of the port's errors. */
function fromClickHouseCode(message, code, cause) {
    return isUnavailableCode(code)
        ? new clickhouse_port_1.ClickHouseUnavailableError(message, cause, code)
        : new clickhouse_port_1.ClickHouseQueryError(message, cause, code);
}
function isPortError(error) {
    return error instanceof clickhouse_port_1.ClickHouseQueryError || error instanceof clickhouse_port_1.ClickHouseUnavailableError;
}
//# sourceMappingURL=clickhouse.errors.js.map