import { cpus, loadavg } from 'node:os';
import { Redis } from 'ioredis';
import { Client } from 'pg';

export interface Machine {
  cpu: string;
  cores: number;
  node: string;
  postgres: string;
  redis: string;
  /** 1-minute load average when the bench started: other work on the machine skews the figures. */
  loadAverage: number;
}

export async function describeMachine(databaseUrl: string, redisUrl: string): Promise<Machine> {
  const pg = new Client({ connectionString: databaseUrl });
  await pg.connect();
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    const { rows } = await pg.query<{ server_version: string }>('SHOW server_version');
    await redis.connect();
    const info = await redis.info('server');
    return {
      cpu: cpus()[0]?.model.trim() ?? 'unknown',
      cores: cpus().length,
      node: process.version,
      postgres: `PostgreSQL ${rows[0].server_version.split(' ')[0]}`,
      redis: /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown',
      loadAverage: Math.round(loadavg()[0] * 100) / 100,
    };
  } finally {
    await pg.end();
    redis.disconnect();
  }
}
