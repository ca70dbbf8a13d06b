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
    for (const event of history) process.stdout.write(`${JSON.stringify(historyEventOf(event))}\n`);
    const state = fold(trunkDecider, history.filter(isTrunkEvent));
    if (state.status === 'none') return;
    const detail = detailOfState(state, config.sipDomain);
    process.stdout.write(`\nresulting state (as GET /v1/trunks/{id} shows it):\n${JSON.stringify(detail, null, 2)}\n`);
  } finally {
    await events.close();
  }
}

runCli('trunks:history', main);
