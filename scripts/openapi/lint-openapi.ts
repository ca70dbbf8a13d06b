import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLIENT_SCHEMA_FILE, clientSchemaSource } from './client-schema';
import { documentDefects } from './document-checks';
import { buildDocumentOffline } from './offline-document';

const ROOT = join(__dirname, '..', '..');

/**
 * `npm run lint:openapi` (part of `npm run lint`): the document the server serves, built without
 * starting it, passes redocly's strict rules, Spectral's spectral:oas (0 warnings) and our own checks, and the committed client types
 * are what it generates. That every status the e2e tests receive is documented is checked during
 * the jest run itself (test/support/openapi-conformance.ts), against that same run's responses.
 */
/** Runs a linter's CLI from node_modules (config files named relative to this folder); true when it passed. */
function runCli(bin: string[], args: string[], env: Record<string, string> = {}): boolean {
  const withConfig = args.map((arg) => (arg.endsWith('.yaml') ? join(__dirname, arg) : arg));
  const run = spawnSync(process.execPath, [join(ROOT, 'node_modules', ...bin), ...withConfig], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return run.status === 0;
}

async function main(): Promise<void> {
  const document = await buildDocumentOffline();
  const dir = mkdtempSync(join(tmpdir(), 'trunkline-openapi-'));
  const file = join(dir, 'openapi.json');
  let failed = false;
  try {
    writeFileSync(file, JSON.stringify(document, null, 2));
    const redocly = runCli(['@redocly', 'cli', 'bin', 'cli.js'], ['lint', file, '--config', 'redocly.yaml'], {
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    });
    // Spectral's spectral:oas ruleset as well (what integrators lint with): warnings fail too.
    const spectral = runCli(
      ['@stoplight', 'spectral-cli', 'dist', 'index.js'],
      ['lint', file, '--ruleset', 'spectral.yaml', '--fail-severity', 'warn'],
    );
    failed ||= !redocly || !spectral;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  for (const defect of documentDefects(document)) {
    console.error(`openapi: ${defect}`);
    failed = true;
  }
  if (readFileSync(CLIENT_SCHEMA_FILE, 'utf8') !== (await clientSchemaSource(document))) {
    console.error(`openapi: ${CLIENT_SCHEMA_FILE} is stale: run npm run client:generate`);
    failed = true;
  }
  if (failed) process.exit(1);
  console.log('openapi: the document passes redocly, Spectral and the document checks; the client types are current');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
