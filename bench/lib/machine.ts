import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { Redis } from 'ioredis';
import { Client } from 'pg';

export interface Host {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  /** 1-minute load average when the bench started: other work on the machine skews the figures. */
  loadAverage: number;
}

export interface Machine extends Host {
  postgres: string;
  redis: string;
}

export function describeHost(): Host {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    loadAverage: loadAverageNow(),
  };
}

export function loadAverageNow(): number {
  return Math.round(loadavg()[0] * 100) / 100;
}

/** The host and the versions of the PostgreSQL and Redis the bench runs against. */
export async function describeMachine(databaseUrl: string, redisUrl: string): Promise<Machine> {
  const pg = new Client({ connectionString: databaseUrl });
  await pg.connect();
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    const { rows } = await pg.query<{ server_version: string }>('SHOW server_version');
    await redis.connect();
    const info = await redis.info('server');
    return {
      ...describeHost(),
      postgres: `PostgreSQL ${rows[0].server_version.split(' ')[0]}`,
      redis: /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown',
    };
  } finally {
    await pg.end();
    redis.disconnect();
  }
}

/** The installed chdb package (the engine's own version comes from `SELECT version()`). */
export function chdbPackageVersion(): string {
  try {
    return (JSON.parse(readFileSync(require.resolve('chdb/package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** The machine line every platform bench prints first. */
export function machineLine(m: Machine, loadAverageAtEnd?: number): string {
  const end = loadAverageAtEnd === undefined ? '' : `, ${loadAverageAtEnd} at end`;
  return (
    `machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, node ${m.node}; ${m.postgres}; Redis ${m.redis};` +
    ` load average ${m.loadAverage} at start${end}`
  );
}
