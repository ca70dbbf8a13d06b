import type { Browser, Page } from 'playwright-core';
import type { ApiClient } from '../support/http-client';
import { provisionAccount, TestApp } from '../support/test-app';
import { trunkBody } from '../support/trunk-requests';
import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { CallStreams } from '../../src/analytics/live/call-streams';
import { newWatchedPage, PageWatch } from './support/browser';
import { ingestCalls, startConsoleApp } from './support/console-app';

/**
 * The calls list follows GET /v1/calls/stream: a call stored while the page is open appears on it
 * without a reload, and leaving the page ends the stream.
 */
describe('console in Chromium: calls as they happen', () => {
  let app: TestApp;
  let browser: Browser;
  let origin: string;
  let account: { key: string; client: ApiClient };
  let page: Page;
  let watch: PageWatch;
  let trunkId: string;

  beforeAll(async () => {
    ({ app, browser, origin } = await startConsoleApp());
    account = await provisionAccount(app, ['full'], 'Live Voice');
    trunkId = (await account.client.post('/v1/trunks', trunkBody())).body.id;
    await ingestCalls(account.client, [trunkId], 5);
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    ({ page, watch } = await newWatchedPage(context));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('shows a call ingested while the calls page is open, without a reload', async () => {
    await page.goto(`${origin}/console`);
    await page.fill('#api-key', account.key);
    await page.click('button[type=submit]');
    await page.waitForSelector('h1:text("Overview")');
    // Headers come once the service has taken the stream's position: what is stored after is sent.
    const streamOpen = page.waitForResponse((r) => r.url().includes('/v1/calls/stream') && r.status() === 200, {
      timeout: 120_000,
    });
    await page.click('nav >> text=Calls');
    await page.waitForSelector('[data-testid=calls-table][aria-busy=false] tbody tr');
    expect(await page.locator('[data-testid=calls-table] tbody tr').count()).toBe(5);
    // A mark on the window: a reload would lose it.
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    await streamOpen;
    const response = await account.client.post('/v1/ingest/calls', [
      {
        id: 'call_liveInBrowser',
        trunk_id: trunkId,
        from: '+14155550100',
        to: '+14155550199',
        status: 'connected',
        start_time: new Date().toISOString(),
        duration_seconds: 12,
      },
    ]);
    expect(response.body).toEqual({ accepted: 1, rejected: [] });
    expect(app.running.app.get(CallStreams, { strict: false }).openStreams).toBe(1);
    await page.waitForSelector('[data-testid=calls-table] tbody tr:first-child a:text("call_liveInBrowser")');
    expect(await page.locator('[data-testid=calls-table] tbody tr').count()).toBe(6);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  });

  it('ends the stream when the page is left, with no script error', async () => {
    await page.click('nav >> text=Trunks');
    await page.waitForSelector('h1:text("Trunks")');
    await page.waitForFunction(() => !document.querySelector('[data-testid=calls-table]'));
    const streams = app.running.app.get(CallStreams, { strict: false });
    for (const deadline = Date.now() + SETTLE_DEADLINE_MS; streams.openStreams > 0;) {
      if (Date.now() > deadline) throw new Error('the calls page left its stream open');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(watch).toEqual({ errors: [], cspViolations: [], dialogs: [] });
  });
});
