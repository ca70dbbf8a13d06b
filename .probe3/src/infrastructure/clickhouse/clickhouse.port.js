"use strict";
/**
 * The ClickHouse executor port. Adapters: ClickHouse server over HTTP (`@clickhouse/client`) and
 * embedded chDB in the data directory. Both run the same SQL and pass
 * test/contract/clickhouse.contract.ts.
 *
 * Parameters use ClickHouse's own `{name:Type}` placeholders in the SQL text; values never enter
 * the SQL. Do not put a FORMAT clause in the SQL: the adapters choose the format.
 *
 * Both adapters apply the same settings (clickhouse.format.ts, EXECUTOR_SETTINGS), so results look
 * the same whichever runs:
 * - 64-bit and wider integers come back as JSON numbers (output_format_json_quote_64bit_integers=0):
 *   exact up to 2^53. Select `toString(x)` where an exact 64-bit value matters (hashes, ids).
 * - DateTime/DateTime64 come back as ISO 8601 in UTC (`2024-05-01T12:00:00.250Z`), whatever the
 *   engine's time zone; Date as `2024-05-01`.
 * - Inserted rows may carry `Date` objects (sent as ISO 8601, parsed best-effort) and `bigint`
 *   (sent as a string, which ClickHouse reads into 64-bit columns). Unknown columns are an error.
 * - Time zones: chDB uses the process's zone, a server its own. Declare time columns with an
 *   explicit zone (`DateTime64(3, 'UTC')`) so functions like toStartOfDay agree.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.silentClickHouseLogger = exports.ClickHouseQueryError = exports.ClickHouseUnavailableError = exports.CLICKHOUSE = void 0;
exports.CLICKHOUSE = Symbol('ClickHouse');
/** ClickHouse cannot be reached, timed out, is overloaded or closed: callers answer 503. */
class ClickHouseUnavailableError extends Error {
    cause;
    clickhouseCode;
    constructor(message, cause, clickhouseCode) {
        super(message);
        this.cause = cause;
        this.clickhouseCode = clickhouseCode;
        this.name = 'ClickHouseUnavailableError';
    }
}
exports.ClickHouseUnavailableError = ClickHouseUnavailableError;
/** The statement failed: a bug in the SQL or bad data. Retrying the same call will not help. */
class ClickHouseQueryError extends Error {
    cause;
    clickhouseCode;
    constructor(message, cause, clickhouseCode) {
        super(message);
        this.cause = cause;
        this.clickhouseCode = clickhouseCode;
        this.name = 'ClickHouseQueryError';
    }
}
exports.ClickHouseQueryError = ClickHouseQueryError;
exports.silentClickHouseLogger = { info: () => undefined, warn: () => undefined };
//# sourceMappingURL=clickhouse.port.js.map