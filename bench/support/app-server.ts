import { CommandBus } from '@nestjs/cqrs';
import { createApp, RunningApp } from '../../src/app.factory';
import { loadConfig } from '../../src/platform/config/app-config';
import { CreateAccount } from '../../src/write/accounts/create-account.handler';
import { IssueApiKey } from '../../src/write/api-keys/api-key.handlers';
import type { AppReady, ChildFailed } from './child-messages';

/*
 * The real app in its own process (forked by api.bench.ts), configured from the environment the
 * bench sets. Provisions one account and one full-scope key through the command bus, then reports
 * its port, certificate and keys over IPC. Stops on a `stop` message or when the bench goes away.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const running = await createApp(config);
  watchForStop(running);
  const adminKey = running.generatedAdminKey;
  if (!adminKey) throw new Error('expected a fresh event store schema, so that the app generates its admin key');
  if (!running.tls) throw new Error('the bench needs TLS_MODE=native');
  const bus = running.app.get(CommandBus);
  const metadata = { actor: 'bench', correlation_id: 'bench-setup' };
  const account = await bus.execute(new CreateAccount('Bench Account', metadata));
  const key = await bus.execute(new IssueApiKey({ accountId: account.id, name: 'bench key', scopes: ['full'], expiresAt: null }, metadata));
  const ready: AppReady = {
    type: 'ready', port: running.port, cert: running.tls.cert, key: running.tls.key, adminKey, ids: { account_id: account.id }, accountKey: key.key,
  };
  process.send?.(ready);
}

function watchForStop(running: RunningApp): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // process.exit (not a natural exit) so that --cpu-prof writes its profile in every case.
    running.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('message', (message: { type?: string }) => message?.type === 'stop' && stop());
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  const failed: ChildFailed = { type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  if (process.send) process.send(failed, () => process.exit(1));
  else process.exit(1);
});
