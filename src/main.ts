import { createApp, RunningApp } from './app.factory';
import { AppConfig, ConfigError, loadConfig } from './platform/config/app-config';
import { lockDataDir } from './platform/startup/data-dir.lock';
import { checkPortFree, listenProblem } from './platform/startup/port-check';
import { StartupError } from './platform/startup/startup-error';

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`trunkline: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  let running: RunningApp;
  try {
    // Both before any store is opened: a second instance or a busy port touches nothing.
    lockDataDir(config.dataDir, 'server', 'stop it first, or give this instance its own DATA_DIR');
    await checkPortFree(config.host, config.port);
    running = await createApp(config);
  } catch (error) {
    const problem = error instanceof StartupError ? error : listenProblem(error, config.host, config.port);
    process.stderr.write(
      `trunkline: ${problem?.message ?? `start-up failed: ${error instanceof Error ? error.message : String(error)}`}\n`,
    );
    // Unexpected failures keep their stack for whoever asked for detail.
    if (!problem && ['debug', 'trace'].includes(config.logLevel)) process.stderr.write(`${(error as Error).stack}\n`);
    process.exit(1);
  }
  process.stdout.write(`${banner(config, running).join('\n')}\n`);
  handleSignals(running);
}

function banner(config: AppConfig, running: RunningApp): string[] {
  const lines = [`Trunkline is listening on ${running.baseUrl}`];
  if (running.tls?.selfSigned)
    lines.push(`  TLS: self-signed certificate ${running.tls.certPath} (curl --cacert it, or -k)`);
  if (config.providerValidation === 'format')
    lines.push('  Provider keys: checked for format only (PROVIDER_VALIDATION=format)');
  if (running.generatedAdminKey) {
    lines.push(
      '',
      '  Admin API key (shown once, keep it safe; only its hash is stored):',
      `    ${running.generatedAdminKey}`,
      '  (lost it? stop the service and run: npm run admin:key -- --reset)',
      '',
    );
  }
  return lines;
}

/**
 * The longest a graceful stop may take: in-flight requests get 10 s (the front door), then every
 * module stops. Past this, the process exits anyway, naming what was still pending: everything
 * acknowledged is already durable (appends, ingested batches, checkpoints written atomically), so
 * a stop that hangs on a peer must not keep a deployment (or a test) waiting for it.
 */
const SHUTDOWN_DEADLINE_MS = 30_000;

function handleSignals(running: RunningApp): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`trunkline: ${signal}: finishing in-flight requests\n`);
    setTimeout(() => {
      const hooks = running.pendingShutdown().join(', ');
      const resources = process.getActiveResourcesInfo().join(', ');
      process.stderr.write(
        `trunkline: shutdown still running after ${SHUTDOWN_DEADLINE_MS / 1000} s (waiting for: ${hooks}; active: ${resources}); exiting\n`,
      );
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`trunkline: shutdown failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

void main();
