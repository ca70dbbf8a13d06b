import { alreadyIssued, BOOTSTRAP_ADMIN_KEY_ID, issueAdminKey } from '../api-keys/write/admin-key.bootstrap';
import { systemClock } from '../shared/clock';
import { CommandRunner } from '../eventsourcing/command-runner';
import { apiKeyDecider, apiKeyStream } from '../api-keys/domain/api-key.decider';
import { cliArgs, cliConfig, openEventStore, runCli } from './cli-support';

const USAGE = 'usage: npm run admin:key -- --reset   (revokes the admin key and prints a new one, once)\n';

/** The generated admin key, then the one each reset issued: key_admin, key_admin_2, key_admin_3, … */
const adminKeyId = (n: number) => (n === 1 ? BOOTSTRAP_ADMIN_KEY_ID : `${BOOTSTRAP_ADMIN_KEY_ID}_${n}`);

/**
 * `npm run admin:key -- --reset`: for a lost (or leaked) admin key. Revokes the admin key the
 * service generated, or the one the last reset issued, and issues a new one through the write
 * side (an ordinary ApiKeyIssued event; only its hash is stored), printed once. With the
 * embedded event store it runs only while the service is stopped (data-directory lock).
 */
async function main(): Promise<void> {
  const { values } = cliArgs({ options: { reset: { type: 'boolean' } } }, USAGE);
  if (!values.reset) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  const config = cliConfig('admin:key', 'stop the server first, then reset the admin key');
  const events = await openEventStore(config);
  try {
    const runner = new CommandRunner(events);
    const metadata = { actor: 'cli:admin:key' };
    let n = 1;
    while ((await runner.load(apiKeyStream(adminKeyId(n)), apiKeyDecider)).state.status !== 'none') n++;
    if (n > 1) {
      const previous = adminKeyId(n - 1);
      const { state } = await runner.load(apiKeyStream(previous), apiKeyDecider);
      if (state.status === 'active') {
        const revoke = { type: 'RevokeApiKey' as const, data: { keyId: previous, at: systemClock.now() } };
        await runner.run(apiKeyStream(previous), apiKeyDecider, revoke, metadata);
        process.stdout.write(`Revoked the previous admin key ${previous}.\n`);
      }
    }
    const issued = await issueAdminKey(
      runner,
      { keyId: adminKeyId(n), environment: config.appEnv, at: systemClock.now(), name: 'admin (reset)' },
      metadata,
    ).catch((error: unknown) => {
      throw alreadyIssued(error) ? new Error('another reset ran at the same time: run it again') : error;
    });
    const lines = [
      `New admin API key ${issued.keyId} (shown once, keep it safe; only its hash is stored):`,
      `  ${issued.key}`,
    ];
    if (config.adminApiKey) lines.push('ADMIN_API_KEY from the environment stays valid until you change it.');
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await events.close();
  }
}

runCli('admin:key', main);
