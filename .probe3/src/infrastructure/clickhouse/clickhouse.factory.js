"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createClickHouse = createClickHouse;
const node_path_1 = require("node:path");
const event_store_logger_1 = require("../event-store/event-store.logger");
const clickhouse_port_1 = require("./clickhouse.port");
const embedded_clickhouse_1 = require("./embedded/embedded.clickhouse");
const migrations_1 = require("./migrations");
const index_1 = require("./migrations/index");
const server_clickhouse_1 = require("./server/server.clickhouse");
/**
 * Picks the adapter, checks that it answers and applies the migrations before returning. Throws
 * ChdbMissingError when embedded mode is chosen and the optional chdb package is not installed.
 */
async function createClickHouse(options) {
    const logger = options.logger ?? clickhouse_port_1.silentClickHouseLogger;
    const url = options.url?.trim() || null;
    const dir = (0, node_path_1.join)(options.dataDir, 'clickhouse');
    const executor = url
        ? server_clickhouse_1.ServerClickHouse.connect({ url, timeoutMs: options.timeoutMs })
        : await embedded_clickhouse_1.EmbeddedClickHouse.open({ dir, timeoutMs: options.timeoutMs, logger });
    try {
        await executor.ping();
        await (0, migrations_1.runMigrations)(executor, options.migrations ?? index_1.CLICKHOUSE_MIGRATIONS, logger);
    }
    catch (error) {
        await executor.close().catch(() => undefined);
        throw error;
    }
    logger.info(url ? { adapter: 'server', url: (0, event_store_logger_1.redactCredentials)(url) } : { adapter: 'embedded', dir }, 'ClickHouse ready');
    return executor;
}
//# sourceMappingURL=clickhouse.factory.js.map