"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CLICKHOUSE_MIGRATIONS = void 0;
const _001_call_records_1 = require("./001-call-records");
/**
 * The ClickHouse schema, applied in order at start (runMigrations). Append new versions; never edit
 * or renumber a released one. Write every statement repeatable (IF NOT EXISTS), and give time
 * columns an explicit zone (DateTime64(3, 'UTC')) so embedded chDB and a server agree.
 *
 */
exports.CLICKHOUSE_MIGRATIONS = [_001_call_records_1.CALL_RECORDS_MIGRATION];
//# sourceMappingURL=index.js.map