import { CommandBus } from '@nestjs/cqrs';
import { createApp, type RunningApp } from '../../src/app.factory';
import { loadConfig } from '../../src/platform/config/app-config';
import { CreateAccount } from '../../src/accounts/write/create-account.handler';
import { IssueApiKey } from '../../src/api-keys/write/api-key.handlers';
import { CreateTrunk } from '../../src/trunks/write/create-trunk.handler';
import type { CreateTrunkRequestDto } from '../../src/trunks/write/dto/create-trunk.request.dto';
import {
  type AppProvision,
  type AppReady,
  PROVISION_ENV,
  type ProvisionedAccount,
  type TrunkProvider,
} from './app-messages';
import { type AnyHandler, failStartup, type OpHandlers, serveControl } from './child-control';

/** A bench's own part of its app child: the requests it answers, and fields for its `ready`. */
export interface AppExtension<E, O> {
  handlers?: OpHandlers<O>;
  ready?: E;
}

/**
 * The real app in its own process (forked by start-app.ts), configured from the environment the
 * bench sets. `extend` gets the running app first (to instrument it, or to answer bench-only
 * requests); then what BENCH_APP_PROVISION asks for is provisioned through the command bus, and
 * the port, certificate and keys go to the bench in the `ready` message.
 */
export function serveApp<E = object, O = object>(
  extend?: (running: RunningApp) => AppExtension<E, O> | Promise<AppExtension<E, O>>,
): void {
  start(extend).catch(failStartup);
}

async function start<E, O>(
  extend?: (running: RunningApp) => AppExtension<E, O> | Promise<AppExtension<E, O>>,
): Promise<void> {
  const running = await createApp(loadConfig(process.env));
  const handlers: Record<string, AnyHandler> = {};
  serveControl(() => running.close(), handlers);
  if (!running.tls) throw new Error('the bench needs TLS_MODE=native');
  const extension = (await extend?.(running)) ?? {};
  Object.assign(handlers, extension.handlers);
  const spec = process.env[PROVISION_ENV];
  const ready: AppReady<E> = {
    type: 'ready',
    port: running.port,
    cert: running.tls.cert,
    key: running.tls.key,
    pid: process.pid,
    adminKey: running.generatedAdminKey,
    account: spec ? await provision(running.app.get(CommandBus), JSON.parse(spec) as AppProvision) : null,
    extra: extension.ready ?? ({} as E),
  };
  process.send?.(ready);
}

async function provision(bus: CommandBus, spec: AppProvision): Promise<ProvisionedAccount> {
  const metadata = { actor: 'bench', correlation_id: 'bench-setup' };
  const account: { id: string } = await bus.execute(new CreateAccount(spec.account, metadata));
  const keys: ProvisionedAccount['keys'] = {};
  for (const scope of spec.keys) {
    const input = { accountId: account.id, name: `bench ${scope} key`, scopes: [scope], expiresAt: null };
    const issued: { key: string } = await bus.execute(new IssueApiKey(input, metadata));
    keys[scope] = issued.key;
  }
  const trunks: ProvisionedAccount['trunks'] = [];
  for (let i = 0; i < spec.trunks; i++) {
    const request = trunkRequest(i, spec.providers[i % spec.providers.length]);
    const trunk: { id: string } = await bus.execute(new CreateTrunk(account.id, request, metadata));
    trunks.push({ id: trunk.id, provider: request.ai_provider });
  }
  return { id: account.id, keys, trunks };
}

/** Provider wiring in the shapes PROVIDER_VALIDATION=format accepts; never a real key. */
function trunkRequest(i: number, provider: TrunkProvider): CreateTrunkRequestDto {
  const base = {
    name: `Bench trunk ${i + 1}`,
    ai_provider: provider,
    sip_username: `bench-trunk-${i + 1}`,
    sip_password: 'bench-password-0123456789',
  };
  if (provider === 'openai') return { ...base, openai_api_key: `sk-proj-${'a'.repeat(40)}` };
  if (provider === 'elevenlabs')
    return { ...base, elevenlabs_api_key: 'b'.repeat(32), elevenlabs_agent_id: `agent_${'c'.repeat(20)}` };
  return { ...base, custom_endpoint: `wss://agent.example.com/voice/bench-${i + 1}` };
}
