import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Client } from 'pg';

/**
 * Everything a bench run must undo, undone in reverse order whatever happened: each step runs
 * even when an earlier one fails, and each failure is reported rather than thrown.
 */
export class Cleanups {
  private readonly steps: { label: string; run: () => Promise<void> }[] = [];
  private running: Promise<void> | null = null;

  add(label: string, run: () => Promise<void>): void {
    this.steps.push({ label, run });
  }

  runAll(): Promise<void> {
    this.running ??= (async () => {
      for (const step of this.steps.reverse()) {
        try {
          await step.run();
        } catch (error) {
          process.stderr.write(
            `bench cleanup: ${step.label} failed: ${error instanceof Error ? error.message : String(error)}\n`,
          );
        }
      }
    })();
    return this.running;
  }
}

/** A fresh directory under the system's temp dir, removed by the cleanups. */
export function tempDir(cleanups: Cleanups, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.add(`remove ${dir}`, async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export async function dropSchema(url: string, schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`refusing to drop odd schema name ${schema}`);
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** SCAN + UNLINK over the namespace only; never FLUSHDB, the Redis may be shared. */
export async function deleteRedisNamespace(url: string, namespace: string): Promise<number> {
  if (namespace.length < 8) throw new Error(`refusing to delete short namespace ${namespace}`);
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let deleted = 0;
  try {
    const match = `${namespace.replace(/[*?[\]\\]/g, '\\$&')}*`;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 500);
      if (keys.length > 0) deleted += await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
  return deleted;
}
