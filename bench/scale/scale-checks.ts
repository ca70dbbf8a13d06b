import { Redis } from 'ioredis';
import { Client } from 'pg';
import { Agent, request } from 'undici';
import { READ_MODEL_EVENT_TYPES } from '../../src/read-models/read-models.service';

export interface ScaleChecks {
  recordsSent: number;
  recordsCounted: number;
  eventsStored: number;
  eventsApplied: number;
}

/**
 * Nothing counted twice: the calls over every instance's own store add up to the records sent,
 * and every stored event of the read-model runner's types was applied once to the shared read
 * models (waiting up to 5 s for the projections to catch up).
 */
export async function checkCounts(
  stores: { databaseUrl: string; redisUrl: string; schema: string; namespace: string },
  instances: { origin: string; ca: string }[],
  readKey: string,
  sent: number,
): Promise<ScaleChecks> {
  let counted = 0;
  for (const instance of instances) {
    const agent = new Agent({ connect: { ca: instance.ca } });
    try {
      const response = await request(`${instance.origin}/v1/calls?limit=1`, {
        headers: { authorization: `Bearer ${readKey}` },
        dispatcher: agent,
      });
      counted += Number(((await response.body.json()) as { pagination: { total: number } }).pagination.total);
    } finally {
      await agent.close();
    }
  }
  const pg = new Client({ connectionString: stores.databaseUrl });
  const redis = new Redis(stores.redisUrl);
  try {
    await pg.connect();
    for (let attempt = 0; ; attempt++) {
      // The runner counts the events of its types (name reservations are not among them).
      const { rows } = await pg.query<{ n: string }>(
        `SELECT count(*) AS n FROM "${stores.schema}".events WHERE type = ANY ($1::text[])`,
        [READ_MODEL_EVENT_TYPES],
      );
      const stored = Number(rows[0].n);
      const applied = Number((await redis.hget(`${stores.namespace}rm:projection-stats:read-models`, 'events')) ?? 0);
      if (applied >= stored || attempt === 49)
        return { recordsSent: sent, recordsCounted: counted, eventsStored: stored, eventsApplied: applied };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await pg.end();
    redis.disconnect();
  }
}
