import { createApp } from '../src/app.factory';
import { loadConfig } from '../src/platform/config/app-config';
import { failStartup, serveControl } from './support/child-control';

/**
 * One Trunkline instance of the scale bench (forked by scale.bench.ts), configured entirely from
 * the environment: every instance shares the bench's event-store schema, Redis namespace, master
 * key and admin key; each has its own data dir (certificate, embedded chDB).
 */
export interface InstanceReady {
  type: 'ready';
  port: number;
  cert: string;
}

async function main(): Promise<void> {
  const running = await createApp(loadConfig(process.env));
  serveControl(() => running.close());
  if (!running.tls) throw new Error('the bench needs TLS_MODE=native');
  const ready: InstanceReady = { type: 'ready', port: running.port, cert: running.tls.cert };
  process.send?.(ready);
}

main().catch(failStartup);
