import { CommandBus } from '@nestjs/cqrs';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/platform/config/app-config';
import { CreateAccount } from '../../src/write/accounts/create-account.handler';
import { IssueApiKey } from '../../src/write/api-keys/api-key.handlers';
import { failStartup, serveControl } from './child-control';
import type { AppReady } from './child-messages';

/*
 * The real app in its own process (forked by api.bench.ts), configured from the environment the
 * bench sets. Provisions one account and one full-scope key through the command bus, then reports
 * its port, certificate and keys over IPC.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const running = await createApp(config);
  serveControl(() => running.close());
  const adminKey = running.generatedAdminKey;
  if (!adminKey) throw new Error('expected a fresh event store schema, so that the app generates its admin key');
  if (!running.tls) throw new Error('the bench needs TLS_MODE=native');
  const bus = running.app.get(CommandBus);
  const metadata = { actor: 'bench', correlation_id: 'bench-setup' };
  const account = await bus.execute(new CreateAccount('Bench Account', metadata));
  const key = await bus.execute(
    new IssueApiKey({ accountId: account.id, name: 'bench key', scopes: ['full'], expiresAt: null }, metadata),
  );
  const ready: AppReady = {
    type: 'ready',
    port: running.port,
    cert: running.tls.cert,
    key: running.tls.key,
    adminKey,
    ids: { account_id: account.id },
    accountKey: key.key,
  };
  process.send?.(ready);
}

main().catch(failStartup);
