import { apiKeyStream, isApiKeyEvent } from '../api-keys/domain/api-key.decider';
import type { EventStore, StoredEvent } from '../infrastructure/event-store/event-store.port';
import { detailOfState, historyEventOf } from '../trunks/read/trunk-history.queries';
import { fold } from '../shared/decider';
import { trunkDecider, trunkStream } from '../trunks/domain/trunk.decider';
import { isTrunkEvent } from '../trunks/domain/trunk.events';
import { cliArgs, cliConfig, openEventStore, runCli } from './cli-support';

/**
 * `npm run trunks:history -- <trunk_id>`: an auditor's replay of one trunk straight from the event
 * store, in the API's shapes: every event as `GET /v1/trunks/{id}/events` shows it (who acted,
 * when, secrets redacted), then the state they fold into as `GET /v1/trunks/{id}` shows it.
 */
async function main(): Promise<void> {
  const usage = 'usage: npm run trunks:history -- <trunk_id>   (conn_…)\n';
  const { positionals } = cliArgs({ allowPositionals: true }, usage);
  const [trunkId] = positionals;
  if (positionals.length !== 1 || !/^conn_[A-Za-z0-9]{1,64}$/.test(trunkId)) {
    process.stderr.write(usage);
    process.exit(2);
  }
  const config = cliConfig(
    'trunks:history',
    `stop the server first, or ask the server: GET /v1/trunks/${trunkId}/events`,
  );
  const events = await openEventStore(config);
  try {
    const history = await events.readStream(trunkStream(trunkId));
    if (history.length === 0) {
      process.stderr.write(`no history for ${trunkId}\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write('events (as GET /v1/trunks/{id}/events shows them):\n');
    const names = await keyNames(events, history);
    for (const event of history) {
      const shown = historyEventOf(event);
      shown.actor_name = (shown.actor && names.get(shown.actor)) ?? null;
      process.stdout.write(`${JSON.stringify(shown)}\n`);
    }
    const state = fold(trunkDecider, history.filter(isTrunkEvent));
    if (state.status === 'none') return;
    const detail = detailOfState(state, config.sipDomain);
    process.stdout.write(`\nresulting state (as GET /v1/trunks/{id} shows it):\n${JSON.stringify(detail, null, 2)}\n`);
  } finally {
    await events.close();
  }
}

runCli('trunks:history', main);

/**
 * The names of the trunk's account's keys that acted, as the API's actor_name gives them (which
 * reads the api-keys read model): here from each key's own stream, the server being stopped.
 */
async function keyNames(events: EventStore, history: StoredEvent[]): Promise<Map<string, string>> {
  const accountId = (history[0].data as { account_id?: string }).account_id;
  const actors = new Set(history.map((e) => e.metadata.actor).filter((a): a is string => !!a?.startsWith('key_')));
  const names = new Map<string, string>();
  for (const keyId of actors) {
    const issued = (await events.readStream(apiKeyStream(keyId)))
      .filter(isApiKeyEvent)
      .find((e) => e.type === 'ApiKeyIssued');
    if (issued?.type === 'ApiKeyIssued' && issued.data.account_id && issued.data.account_id === accountId)
      names.set(keyId, issued.data.name);
  }
  return names;
}
