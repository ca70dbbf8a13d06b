"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.describeMachine = describeMachine;
const node_os_1 = require("node:os");
const ioredis_1 = require("ioredis");
const pg_1 = require("pg");
async function describeMachine(databaseUrl, redisUrl) {
    const pg = new pg_1.Client({ connectionString: databaseUrl });
    await pg.connect();
    const redis = new ioredis_1.Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
        const { rows } = await pg.query('SHOW server_version');
        await redis.connect();
        const info = await redis.info('server');
        return {
            cpu: (0, node_os_1.cpus)()[0]?.model.trim() ?? 'unknown',
            cores: (0, node_os_1.cpus)().length,
            node: process.version,
            postgres: `PostgreSQL ${rows[0].server_version.split(' ')[0]}`,
            redis: /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown',
            loadAverage: Math.round((0, node_os_1.loadavg)()[0] * 100) / 100,
        };
    }
    finally {
        await pg.end();
        redis.disconnect();
    }
}
//# sourceMappingURL=machine.js.map