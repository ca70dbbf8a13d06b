import { createApp } from './app.factory';
import { ConfigError, loadConfig } from './platform/config/app-config';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`trunkline: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const running = await createApp(config);
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
      '',
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`trunkline: ${signal}: finishing in-flight requests\n`);
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
