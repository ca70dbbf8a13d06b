"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ServerClickHouse = void 0;
exports.toPortError = toPortError;
const client_1 = require("@clickhouse/client");
const event_store_logger_1 = require("../../event-store/event-store.logger");
const clickhouse_errors_1 = require("../clickhouse.errors");
const clickhouse_format_1 = require("../clickhouse.format");
const clickhouse_port_1 = require("../clickhouse.port");
/**
 * A ClickHouse server over HTTP. Selects and commands run with wait_end_of_query=1: the server
 * buffers the result, so an error raised mid-query arrives as an HTTP error instead of a truncated
 * 200 body.
 */
class ServerClickHouse {
    client;
    kind = 'server';
    closed = false;
    constructor(client) {
        this.client = client;
    }
    static connect(options) {
        const timeoutMs = options.timeoutMs ?? clickhouse_format_1.DEFAULT_TIMEOUT_MS;
        const client = (0, client_1.createClient)({
            url: options.url,
            application: 'trunkline',
            request_timeout: timeoutMs + 5_000,
            clickhouse_settings: { ...clickhouse_format_1.EXECUTOR_SETTINGS, max_execution_time: Math.ceil(timeoutMs / 1000) },
            json: { parse: JSON.parse, stringify: clickhouse_format_1.stringifyRow },
        });
        return new ServerClickHouse(client);
    }
    async command(sql, params) {
        const query_params = (0, clickhouse_format_1.bindParams)(params);
        await this.run(() => this.client.command({ query: sql, query_params, clickhouse_settings: { wait_end_of_query: 1 } }));
    }
    async query(sql, params) {
        const query_params = (0, clickhouse_format_1.bindParams)(params);
        return this.run(async () => {
            const result = await this.client.query({
                query: sql,
                query_params,
                format: 'JSONEachRow',
                clickhouse_settings: { wait_end_of_query: 1 },
            });
            return result.json();
        });
    }
    async insert(table, rows) {
        (0, clickhouse_format_1.checkTableName)(table);
        if (rows.length === 0)
            return;
        // async_insert=0 even if the user's profile turns it on: the promise must mean "stored".
        await this.run(() => this.client.insert({ table, values: rows, format: 'JSONEachRow', clickhouse_settings: { async_insert: 0 } }));
    }
    async ping() {
        // A SELECT rather than /ping, so that wrong credentials fail the health check too.
        const result = await this.run(() => this.client.ping({ select: true }));
        if (!result.success)
            throw toPortError(result.error);
    }
    async close() {
        if (this.closed)
            return;
        this.closed = true;
        await this.client.close();
    }
    async run(call) {
        if (this.closed)
            throw new clickhouse_port_1.ClickHouseUnavailableError('ClickHouse executor is closed');
        try {
            return await call();
        }
        catch (error) {
            throw toPortError(error);
        }
    }
}
exports.ServerClickHouse = ServerClickHouse;
/**
 * The server's errors carry a numeric code (as a string); anything else came from the transport
 * (refused, reset, timed out, a proxy's 5xx) unless it is a programming error on our side.
 */
function toPortError(error) {
    if ((0, clickhouse_errors_1.isPortError)(error))
        return error;
    const code = error?.code;
    const message = (0, event_store_logger_1.redactCredentials)(error instanceof Error ? error.message : String(error));
    if (typeof code === 'string' && /^\d+$/.test(code))
        return (0, clickhouse_errors_1.fromClickHouseCode)(message, Number(code), error);
    if (error instanceof TypeError || error instanceof SyntaxError || error instanceof RangeError) {
        return new clickhouse_port_1.ClickHouseQueryError(message, error);
    }
    return new clickhouse_port_1.ClickHouseUnavailableError(`ClickHouse unreachable: ${message}`, error);
}
//# sourceMappingURL=server.clickhouse.js.map