"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_TIMEOUT_MS = exports.EXECUTOR_SETTINGS = void 0;
exports.bindParams = bindParams;
exports.checkTableName = checkTableName;
exports.stringifyRow = stringifyRow;
exports.toJsonEachRow = toJsonEachRow;
exports.parseJsonEachRow = parseJsonEachRow;
const clickhouse_port_1 = require("./clickhouse.port");
/**
 * Settings both adapters apply to every statement (server: client settings; chDB: engine
 * arguments), so the same SQL yields the same JSON. Why each one is here: see clickhouse.port.ts.
 */
exports.EXECUTOR_SETTINGS = {
    output_format_json_quote_64bit_integers: 0,
    date_time_input_format: 'best_effort',
    date_time_output_format: 'iso',
    input_format_skip_unknown_fields: 0,
};
/** Both adapters' statement time limit: past it ClickHouse stops the query (TIMEOUT_EXCEEDED). */
exports.DEFAULT_TIMEOUT_MS = 30_000;
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TABLE_NAME = /^[a-z_][a-z0-9_]*$/;
/**
 * Normalises what the two libraries would format differently: the HTTP client sends a Date as a
 * Unix timestamp and a boolean as 1/0, chDB a Date as 'YYYY-MM-DD HH:MM:SS' (dropping the
 * milliseconds) and a boolean as true/false. We send the client's forms to both.
 */
function bindParams(params) {
    const bound = {};
    for (const [name, value] of Object.entries(params ?? {})) {
        if (!PARAM_NAME.test(name))
            throw new clickhouse_port_1.ClickHouseQueryError(`invalid query parameter name: ${JSON.stringify(name)}`);
        bound[name] = bindValue(name, value);
    }
    return bound;
}
function bindValue(name, value) {
    if (value instanceof Date)
        return unixTimestamp(name, value);
    if (typeof value === 'boolean')
        return value ? 1 : 0;
    if (typeof value === 'number')
        return checkNumber(name, value);
    if (Array.isArray(value)) {
        for (const item of value)
            if (typeof item === 'number')
                checkNumber(name, item);
        return value;
    }
    return value;
}
function unixTimestamp(name, date) {
    const ms = date.getTime();
    if (Number.isNaN(ms))
        throw new clickhouse_port_1.ClickHouseQueryError(`query parameter ${name} is an invalid Date`);
    const seconds = Math.floor(ms / 1000);
    const fraction = ms - seconds * 1000;
    return fraction === 0 ? String(seconds) : `${seconds}.${String(fraction).padStart(3, '0')}`;
}
function checkNumber(name, value) {
    if (!Number.isFinite(value))
        throw new clickhouse_port_1.ClickHouseQueryError(`query parameter ${name} is not finite: ${value}`);
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
        throw new clickhouse_port_1.ClickHouseQueryError(`query parameter ${name} is beyond ±2^53 and has lost precision; pass a string`);
    }
    return value;
}
function checkTableName(table) {
    if (!TABLE_NAME.test(table))
        throw new clickhouse_port_1.ClickHouseQueryError(`invalid table name: ${JSON.stringify(table)}`);
    return table;
}
/** JSON for one row; bigint becomes a string, which ClickHouse parses into (U)Int64/128/256. */
function stringifyRow(row) {
    return JSON.stringify(row, (_key, value) => (typeof value === 'bigint' ? value.toString() : value));
}
function toJsonEachRow(rows) {
    return rows.map(stringifyRow).join('\n') + '\n';
}
/** JSONEachRow text to objects. JSON escapes newlines inside strings, so '\n' only ends rows. */
function parseJsonEachRow(text) {
    const rows = [];
    let start = 0;
    while (start < text.length) {
        let end = text.indexOf('\n', start);
        if (end === -1)
            end = text.length;
        if (end > start)
            rows.push(JSON.parse(text.slice(start, end)));
        start = end + 1;
    }
    return rows;
}
//# sourceMappingURL=clickhouse.format.js.map