import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import type { ApiClient } from '../support/http-client';
import { provisionAccount, TestApp } from '../support/test-app';
import { seriousViolations } from './support/axe';
import { screenshotDir } from './support/screenshots';
import { newWatchedPage, PageWatch } from './support/browser';
import { ingestCalls, startConsoleApp } from './support/console-app';

const SHOTS = screenshotDir();
const CALLS = 400;

/**
 * The operator's walk through the console, in one browser session as a person would take it:
 * sign in, create a trunk, see calls arrive on the overview, open a call, rotate a password, read
 * the history, and be signed out when an admin revokes the key. Each page is photographed for
 * docs/console.md and checked by axe-core.
 */
describe('console in Chromium: the operator flow', () => {
  let app: TestApp;
  let browser: Browser;
  let origin: string;
  let account: { accountId: string; key: string; keyId: string; client: ApiClient };
  let gateway: ApiClient;
  let adminKey: string;
  let context: BrowserContext;
  let page: Page;
  let watch: PageWatch;
  let trunkId: string;
  const axeFindings: Record<string, unknown[]> = {};

  beforeAll(async () => {
    ({ app, browser, origin } = await startConsoleApp());
    account = await provisionAccount(app, ['full'], 'Acme Voice');
    const ingest = await app.admin.post('/v1/api-keys', {
      account_id: account.accountId,
      name: 'sip-gateway',
      scopes: ['ingest'],
    });
    gateway = app.admin.withKey(ingest.body.key);
    adminKey = (await app.admin.post('/v1/api-keys', { name: 'operator admin', scopes: ['admin'] })).body.key;
    context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    ({ page, watch } = await newWatchedPage(context));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** A screenshot for docs/console.md and axe-core's serious and critical findings on the page. */
  async function checkPage(name: string): Promise<void> {
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
    axeFindings[name] = await seriousViolations(page);
    expect({ page: name, violations: axeFindings[name] }).toEqual({ page: name, violations: [] });
  }

  async function signIn(key: string): Promise<void> {
    await page.fill('#api-key', key);
    await page.click('button[type=submit]');
  }

  it('signs in with a key typed into the page, kept in sessionStorage only', async () => {
    await page.goto(`${origin}/console`);
    await page.waitForSelector('#api-key');
    await checkPage('01-sign-in');
    await signIn(account.key);
    await page.waitForSelector('h1:text("Overview")');
    expect(page.url()).not.toContain(account.key);
    const stored = await page.evaluate(() => ({
      session: JSON.stringify(sessionStorage),
      local: localStorage.length,
      cookie: document.cookie,
    }));
    expect(stored.session).toContain(account.key);
    expect(stored).toMatchObject({ local: 0, cookie: '' });
  });

  it('creates a trunk, showing the API validation error at its field first, and sees it listed', async () => {
    await page.click('nav >> text=Trunks');
    await page.click('button:text("New trunk")');
    await page.fill('#trunk-name', 'Main line');
    await page.fill('#trunk-sip_username', 'main line!');
    await page.fill('#trunk-sip_password', 'a-long-secret');
    await page.fill('#trunk-openai_api_key', `sk-test-${'a1B2'.repeat(10)}`);
    await page.click('button:text("Create trunk")');
    const fieldError = page.locator('#trunk-sip_username-error');
    await fieldError.waitFor();
    expect(await fieldError.textContent()).toMatch(/sip_username/);
    await page.fill('#trunk-sip_username', 'main-line');
    await page.click('button:text("Create trunk")');
    await page.waitForSelector('[data-testid=trunk-name]:text("Main line")');
    trunkId = decodeURIComponent(/#\/trunks\/([^?]+)/.exec(page.url())![1]);
    expect(trunkId).toMatch(/^conn_/);
    await page.click('nav >> text=Trunks');
    await page.waitForSelector(`[data-testid=trunks-table] a:text("Main line")`);
    await checkPage('05-trunks');
  });

  it('shows the ingested calls in the overview totals and draws its charts', async () => {
    expect(await ingestCalls(gateway, [trunkId], CALLS)).toBe(CALLS);
    await page.click('nav >> text=Overview');
    await page.waitForSelector('[data-testid=overview-charts][data-complete]');
    await page.waitForSelector('figure[data-chart=latency][data-drawn]');
    const calls = await page.locator('.tile:has(dt:text-is("Calls")) dd').textContent();
    expect(calls).toBe(String(CALLS));
    for (const chart of ['volume', 'latency', 'latency-by-trunk']) {
      const painted = await page.evaluate((id) => {
        const canvas = document.querySelector<HTMLCanvasElement>(`figure[data-chart="${id}"] canvas`);
        if (!canvas) return 0;
        const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        let inked = 0;
        for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) inked++;
        return inked;
      }, chart);
      expect({ chart, painted: painted > 500 }).toEqual({ chart, painted: true });
    }
    await checkPage('02-overview');
  });

  it('lists the calls with filters and opens one: latency waterfall and SIP ladder', async () => {
    await page.click('nav >> text=Calls');
    await page.waitForSelector('[data-testid=calls-table] tbody tr');
    expect(await page.textContent('p[aria-live]')).toContain(`${CALLS} matching calls`);
    await page.selectOption('.filters select >> nth=1', 'connected');
    await page.click('button:text("Filter")');
    await page.waitForFunction(() => location.hash.includes('status=connected'));
    await page.waitForSelector('[data-testid=calls-table][aria-busy=false] tbody tr');
    const statuses = await page.locator('[data-testid=calls-table] tbody .badge').allTextContents();
    expect(new Set(statuses)).toEqual(new Set(['connected']));
    await page.click('button:text("Next")');
    await page.waitForFunction(() => location.hash.includes('cursor='));
    await page.waitForSelector('[data-testid=calls-table][aria-busy=false] tbody tr');
    await checkPage('03-calls');
    await page.locator('[data-testid=calls-table] tbody tr a').first().click();
    await page.waitForSelector('[data-testid=latency-waterfall]');
    await page.waitForSelector('[data-testid=sip-ladder] svg');
    expect(await page.locator('[data-testid=sip-ladder] .ladder-list li').count()).toBeGreaterThanOrEqual(5);
    await page.locator('[data-testid=sip-ladder] .ladder-list button').first().click();
    expect(await page.textContent('.sip-text')).toMatch(/^INVITE /);
    await checkPage('04-call-detail');
  });

  it("shows a media gateway's call: turns on a timeline with processing times, barge-in, jitter, loss and MOS", async () => {
    const start = Date.now() - 120_000;
    const record = {
      id: 'call_console_media',
      trunk_id: trunkId,
      from: '+14155550100',
      to: '+14155550199',
      start_time: new Date(start).toISOString(),
      answered_at: new Date(start + 1_000).toISOString(),
      end_time: new Date(start + 21_400).toISOString(),
      sip_code: 200,
      metrics: { jitter_ms: 7, packet_loss_percent: 1.25, codec_used: 'PCMU', mos: 4.12 },
      turns: [
        { turn_number: 1, speaker: 'agent', duration_ms: 2_000, start_offset_ms: 1_200 },
        { turn_number: 2, speaker: 'caller', duration_ms: 3_000, start_offset_ms: 3_500 },
        {
          turn_number: 3,
          speaker: 'agent',
          duration_ms: 1_500,
          processing_time_ms: 640,
          interrupted: true,
          start_offset_ms: 7_140,
        },
        { turn_number: 4, speaker: 'caller', duration_ms: 2_000, start_offset_ms: 8_400 },
        { turn_number: 5, speaker: 'agent', duration_ms: 4_000, processing_time_ms: 820, start_offset_ms: 11_220 },
      ],
    };
    const sent = await gateway.post('/v1/ingest/calls', [record]);
    expect(sent.body).toEqual({ accepted: 1, rejected: [] });
    await page.goto(`${origin}/console#/calls/${record.id}`);
    // The hash route keeps the page: wait for this call's detail, not the one shown before.
    await page.waitForFunction((id) => document.body.innerText.includes(id), record.id);
    await page.waitForSelector('[data-testid=turn-timeline]');
    const rows = await page
      .locator('[data-testid=turns-table] tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows).toEqual([
      ['1', 'agent', '1.2 s', '2,000 ms', '–', ''],
      ['2', 'caller', '3.5 s', '3,000 ms', '–', ''],
      ['3', 'agent', '7.1 s', '1,500 ms', '640 ms', 'interrupted'],
      ['4', 'caller', '8.4 s', '2,000 ms', '–', ''],
      ['5', 'agent', '11.2 s', '4,000 ms', '820 ms', ''],
    ]);
    expect(await page.textContent('[data-testid=turn-timeline] > p')).toBe(
      '5 turns over 15.2 s · agent response 730 ms on average · 1 interrupted',
    );
    // Drawn where they belong: the processing time right before its agent turn, in proportion.
    const boxes = await page.locator('.lanes .turn').evaluateAll((spans) =>
      spans.map((el) => ({
        cls: el.className,
        x: el.getBoundingClientRect().x,
        w: el.getBoundingClientRect().width,
      })),
    );
    const third = boxes.find((b) => b.cls.includes('interrupted'))!;
    const processing = boxes.filter((b) => b.cls.includes('processing'));
    expect(processing).toHaveLength(2);
    expect(Math.abs(processing[0].x + processing[0].w - third.x)).toBeLessThan(1.5);
    expect(third.w / processing[0].w).toBeCloseTo(1_500 / 640, 1);
    const quality = await page.locator('h2:text("Quality") + dl').textContent();
    expect(quality).toContain('Jitter7 ms');
    expect(quality).toContain('Packet loss1.25 %');
    expect(quality).toContain('MOS4.12 (satisfied)');
    expect(await page.locator('dt:text-is("Billable") + dd').textContent()).toBe('20 s');
    await checkPage('04b-call-turns');
  });

  it('rotates the SIP password (shown once), edits the trunk and reads its history and past state', async () => {
    await page.goto(`${origin}/console#/trunks/${trunkId}`);
    await page.click('button:text("Rotate SIP password")');
    const secret = await page.locator('[data-testid=secret-value]').textContent();
    expect(secret).toMatch(/^\S{32}$/);
    await page.click('button:text("I have saved it")');
    expect(await page.locator('[data-testid=secret-value]').count()).toBe(0);
    await page.click('button:text("Edit")');
    await page.fill('#trunk-name', 'Main line (EU)');
    await page.click('button:text("Save changes")');
    await page.waitForSelector('[data-testid=trunk-name]:text("Main line (EU)")');
    const timeline = page.locator('[data-testid=history-timeline] li');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=history-timeline] li').length === 3);
    expect(await timeline.locator('strong').allTextContents()).toEqual([
      'Configuration changed',
      'SIP password rotated',
      'Created',
    ]);
    // Who acted, by the key's name (the id stays in the tooltip).
    const actors = timeline.locator('[data-testid=history-actor]');
    expect((await actors.allTextContents()).map((text) => text.trim())).toEqual(Array(3).fill('by full key'));
    expect(await actors.first().getAttribute('title')).toBe(account.keyId);
    await page.waitForSelector('figure[data-chart=trunk-latency][data-drawn]');
    await checkPage('06-trunk-detail');
    await timeline.last().locator('a:text("State after this change")').click();
    await page.waitForSelector('[data-testid=trunk-name]:text-is("Main line")');
    expect(await page.textContent('.notice[role=status]')).toMatch(/As it was at/);
  });

  it('breaks the failed calls down by SIP code on the overview', async () => {
    const start = Date.now() - 600_000;
    const failed = [486, 486, 486, 503, 503].map((sip_code, i) => ({
      id: `call_console_failed_${i}`,
      trunk_id: trunkId,
      from: '+14155550100',
      to: '+14155550199',
      start_time: new Date(start + i * 1_000).toISOString(),
      end_time: new Date(start + i * 1_000 + 800).toISOString(),
      sip_code,
    }));
    expect((await gateway.post('/v1/ingest/calls', failed)).body).toEqual({ accepted: 5, rejected: [] });
    await page.click('nav >> text=Overview');
    const table = page.locator('[data-testid=failure-codes-table]');
    await page.waitForSelector('[data-testid=failure-codes-table] td:text("486 Busy Here")');
    const rows = await table
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    // The generated calls carry no SIP code: they are the "none reported" row.
    const none = rows.find((row) => row[0] === 'none reported');
    expect(Number(none?.[1])).toBeGreaterThan(0);
    expect(rows.filter((row) => row !== none).map((row) => row.slice(0, 2))).toEqual([
      ['486 Busy Here', '3'],
      ['503 Service Unavailable', '2'],
    ]);
  });

  it('shows the INVITEs the gateway refused on the overview, by reason and by SIP code, apart from the calls', async () => {
    const at = Date.now() - 300_000;
    const refused = [
      ['over_capacity', 503],
      ['over_capacity', 503],
      ['address_not_allowed', 403],
    ].map(([reason, sip_code], i) => ({
      id: `rej_console_${i}`,
      at: new Date(at + i * 1_000).toISOString(),
      reason,
      sip_code,
      source_address: '198.51.100.7',
      trunk_id: trunkId,
    }));
    expect((await gateway.post('/v1/ingest/rejections', refused)).body).toMatchObject({ rejected: [] });
    const calls = await page.locator('.tile:has(dt:text-is("Calls")) dd').textContent();
    await page.click('nav >> text=Calls');
    await page.click('nav >> text=Overview');
    await page.waitForSelector('[data-testid=rejection-reasons-table] td:text("over capacity")');
    const rows = (table: string) =>
      page
        .locator(`[data-testid=${table}] tbody tr`)
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(await page.textContent('[data-testid=rejections-total]')).toMatch(/^3 INVITEs refused by the SIP gateway/);
    expect(await rows('rejection-reasons-table')).toEqual([
      ['over capacity', '2', '66.67 %'],
      ['address not allowed', '1', '33.33 %'],
    ]);
    expect(await rows('rejection-codes-table')).toEqual([
      ['503 Service Unavailable', '2', '66.67 %'],
      ['403 Forbidden', '1', '33.33 %'],
    ]);
    // Refused INVITEs are not calls: the calls figure did not move.
    expect(await page.locator('.tile:has(dt:text-is("Calls")) dd').textContent()).toBe(calls);
  });

  it("breaks the trunk's failed calls down on its page, from the one overview answer it asks", async () => {
    const rowsOf = (table: string) =>
      page
        .locator(`[data-testid=${table}] tbody tr`)
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    const asked: string[] = [];
    const seen = (request: Request) => {
      const url = new URL(request.url());
      if (url.pathname === '/v1/analytics/overview') asked.push(url.search);
    };
    page.on('request', seen);
    await page.goto(`${origin}/console#/trunks/${trunkId}`);
    await page.waitForSelector('figure[data-chart=trunk-latency][data-drawn]');
    await page.waitForSelector('[data-testid=failure-codes-table] td:text("486 Busy Here")');
    page.off('request', seen);
    // The five failed calls of this trunk ingested minutes ago, by code; the generated calls (no code,
    // spread over the last 24 hours) are the "none reported" row.
    const codes = await rowsOf('failure-codes-table');
    expect(codes.filter((row) => row[0] !== 'none reported').map((row) => row.slice(0, 2))).toEqual([
      ['486 Busy Here', '3'],
      ['503 Service Unavailable', '2'],
    ]);
    const classes = await rowsOf('failures-table');
    const count = (row: (string | null)[]) => Number(row[1]?.replace(/,/g, ''));
    const failed = classes.reduce((sum, row) => sum + count(row), 0);
    expect(codes.reduce((sum, row) => sum + count(row), 0)).toBe(failed);
    // One overview request, for this trunk: the latency chart, the refusals and the failures share it.
    expect(asked).toEqual([expect.stringMatching(new RegExp(`[?&]trunk_id=${trunkId}(&|$)`))]);
  });

  it('manages webhook endpoints and alert rules', async () => {
    await page.click('nav >> text=Webhooks');
    await page.fill('#webhook-url', 'https://hooks.example.com/trunkline');
    await page.fill('#webhook-description', 'Ops pager');
    await page.click('button:text("Add endpoint")');
    expect(await page.locator('[data-testid=secret-value]').textContent()).toMatch(/^whsec_/);
    await page.waitForSelector('[data-testid=endpoints-table] td:text("https://hooks.example.com/trunkline")');
    await page.click('button:text("Send test")');
    await checkPage('08-webhooks');
    await page.click('a:text("Deliveries")');
    await page.waitForSelector(
      '[data-testid=deliveries-table] td:has-text("webhook.test"), [data-testid=deliveries-table] tbody tr',
    );
    await page.click('nav >> text=Alert rules');
    await page.fill('#rule-name', 'Slow answers');
    await page.selectOption('#rule-trunk', trunkId);
    await page.click('button:text("Add rule")');
    await page.waitForSelector('[data-testid=rules-table] td:text("Slow answers")');
    // The rule's trunk by its name, not its id.
    expect(
      await page.locator('[data-testid=rules-table] tr:has(td:text("Slow answers")) td').nth(3).textContent(),
    ).toBe('Main line (EU)');
    await checkPage('09-alerts');
  });

  it('tells an account key that API keys need the admin scope instead of breaking', async () => {
    await page.click('nav >> text=API keys');
    await page.waitForSelector('.notice.scope');
    expect(await page.textContent('.notice.scope')).toMatch(/admin/i);
    await checkPage('10-scope-message');
  });

  it('signs the user out with the reason once an admin revokes the key', async () => {
    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const admin = await newWatchedPage(adminContext);
    const adminPage = admin.page;
    await adminPage.goto(`${origin}/console`);
    await adminPage.fill('#api-key', adminKey);
    await adminPage.click('button[type=submit]');
    await adminPage.waitForSelector('h1:text("API keys")');
    await adminPage.selectOption('[data-testid=account-picker]', account.accountId);
    await adminPage.waitForSelector('[data-testid=keys-table] td:text("full key")');
    const usage = await adminPage.locator('[data-testid=keys-table] tr:has(td:text("full key")) td').allTextContents();
    expect(Number(usage[6].replace(/,/g, ''))).toBeGreaterThan(10);
    // Issue one (shown once), then revoke the key the operator is signed in with.
    await adminPage.fill('#key-name', 'reporting');
    await adminPage.click('button:text("Issue key")');
    expect(await adminPage.locator('[data-testid=secret-value]').textContent()).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
    await adminPage.click('button:text("I have saved it")');
    const row = adminPage.locator('[data-testid=keys-table] tr:has(td:text("full key"))');
    await row.locator('button:text("Revoke")').click();
    await row.locator('button:text("Revoke now")').click();
    await row.locator('.badge:has-text("revoked")').waitFor();
    page = adminPage;
    await checkPage('07-api-keys');
    page = (await context.pages())[0];
    expect(admin.watch).toEqual({ errors: [], cspViolations: [], dialogs: [] });
    await adminContext.close();

    await page.click('nav >> text=Calls');
    await page.waitForSelector('[data-testid=signed-out-reason]');
    expect(await page.textContent('[data-testid=signed-out-reason]')).toContain('This API key has been revoked');
    expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain(account.key);
    await checkPage('11-signed-out');
  });

  it('ran with no script error, CSP violation or dialog on any page', () => {
    expect(watch).toEqual({ errors: [], cspViolations: [], dialogs: [] });
  });
});
