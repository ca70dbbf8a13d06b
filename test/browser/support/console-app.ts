import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { generateCalls } from '../../../bench/lib/calls/call-generator';
import type { ApiClient } from '../../support/http-client';
import { startTestApp, TestApp } from '../../support/test-app';
import { launchChromium } from './browser';

export const BUILT_CONSOLE = join(__dirname, '..', '..', '..', 'dist', 'console');

/** The app (its built console, dist/console) and a Chromium that trusts its certificate. */
export async function startConsoleApp(): Promise<{ app: TestApp; browser: Browser; origin: string }> {
  if (!existsSync(join(BUILT_CONSOLE, 'index.html')))
    throw new Error('dist/console is not built: npm run test:browser builds it (npm run build)');
  const app = await startTestApp({ CONSOLE_DIR: BUILT_CONSOLE });
  const browser = await launchChromium(app.running.tls!.cert);
  return { app, browser, origin: `https://localhost:${app.running.port}` };
}

/** Generated call records for a trunk over the last `hours`, sent through POST /v1/ingest/calls. */
export async function ingestCalls(gateway: ApiClient, trunkIds: string[], count: number, hours = 24): Promise<number> {
  const now = Date.now();
  const records = [
    ...generateCalls({ count, trunkIds, from: new Date(now - hours * 3_600_000), to: new Date(now - 60_000), seed: 7 }),
  ];
  let accepted = 0;
  for (let i = 0; i < records.length; i += 500) {
    const response = await gateway.call('POST', '/v1/ingest/calls', {
      rawBody: records
        .slice(i, i + 500)
        .map((r) => JSON.stringify(r))
        .join('\n'),
      headers: { 'content-type': 'application/x-ndjson' },
    });
    if (response.status !== 200) throw new Error(`ingest: ${response.status} ${response.text}`);
    accepted += response.body.accepted;
  }
  return accepted;
}
