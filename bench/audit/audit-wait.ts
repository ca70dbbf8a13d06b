import { getOnce } from '../lib/probe';

interface Target {
  origin: string;
  ca: string;
  key: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** /readyz answers 200 once the projections have caught up with the seeded log. */
export async function waitForReady(target: Target, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await getOnce(`${target.origin}/readyz`, target.ca)).status !== 200) {
    if (Date.now() > deadline) throw new Error('the app did not become ready');
    await sleep(500);
  }
}

/** The checkpointer has read the whole seeded log and sealed it: it no longer competes with the export. */
export async function waitForCheckpoint(target: Target, seeded: number, timeoutMs = 900_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const url = `${target.origin}/v1/audit-events?type=AuditCheckpointRecorded&resource_type=audit_checkpoint&limit=100`;
  for (;;) {
    const response = await getOnce(url, target.ca, { authorization: `Bearer ${target.key}` });
    if (response.status !== 200) throw new Error(`checkpoints: ${response.status} ${response.body}`);
    let page = JSON.parse(response.body) as {
      events: { data: { events: number } }[];
      pagination: { next_cursor: string | null };
    };
    let last = page.events[page.events.length - 1];
    while (page.pagination.next_cursor) {
      const next = await getOnce(`${url}&cursor=${page.pagination.next_cursor}`, target.ca, {
        authorization: `Bearer ${target.key}`,
      });
      page = JSON.parse(next.body) as typeof page;
      last = page.events[page.events.length - 1] ?? last;
    }
    if (last && last.data.events >= seeded) return;
    if (Date.now() > deadline) throw new Error('no checkpoint covered the seeded events in time');
    await sleep(1000);
  }
}
