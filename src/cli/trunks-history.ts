import { createEventStore } from '../infrastructure/event-store/event-store.factory';
import { loadConfig } from '../platform/config/app-config';
import { redact } from '../read/trunk-history/trunk-history.queries';
import { fold } from '../shared/decider';
import { trunkDecider, trunkStream } from '../write/trunks/domain/trunk.decider';
import { TrunkEvent } from '../write/trunks/domain/trunk.events';

/**
 * `npm run trunks:history -- <trunk_id>`: an auditor's replay of one trunk straight from the event
 * store: every event (secrets redacted) with who acted and when, then the state they fold into.
 */
async function main(): Promise<void> {
  const trunkId = process.argv[2];
  if (!trunkId || !/^conn_[A-Za-z0-9]{1,64}$/.test(trunkId)) {
    process.stderr.write('usage: npm run trunks:history -- <trunk_id>   (conn_…)\n');
    process.exit(2);
  }
  const config = loadConfig();
  const events = await createEventStore({
    url: config.eventStoreUrl ?? undefined,
    dataDir: config.dataDir,
    schema: config.eventStoreSchema,
  });
  try {
    const history = await events.readStream(trunkStream(trunkId));
    if (history.length === 0) {
      process.stderr.write(`no history for ${trunkId}\n`);
      process.exitCode = 1;
      return;
    }
    for (const event of history) {
      const who = `actor=${String(event.metadata.actor ?? '-')} request=${String(event.metadata.correlation_id ?? '-')}`;
      process.stdout.write(
        `#${event.revision} ${event.recordedAt.toISOString()} ${event.type} ${who}\n  ${JSON.stringify(redact(event.data))}\n`,
      );
    }
    const state = fold(trunkDecider, history as unknown as TrunkEvent[]);
    process.stdout.write(`\nresulting state:\n${JSON.stringify(redact(state), null, 2)}\n`);
  } finally {
    await events.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`trunks:history failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
