import type { Browser, BrowserContext, Page } from 'playwright-core';
import { provisionAccount, TestApp } from '../support/test-app';
import { newWatchedPage, PageWatch } from './support/browser';
import { startConsoleApp } from './support/console-app';

/** Each payload would set window.__xss (or open a dialog) if the console ever rendered it as markup or a link. */
const MARKUP = '<img src=x onerror="window.__xss=(window.__xss||0)+1;alert(1)">';
const SVG = '<svg/onload=window.__xss=1>';
const SCRIPT = '"><script>window.__xss=1</script>';
const JS_URL = 'javascript:window.__xss=1;alert(1)';
const PLANTED = `${MARKUP} ${SCRIPT} ${JS_URL}`;

/**
 * Every free-text field the API accepts from a user (account, key, trunk, webhook, alert rule,
 * call record) carries markup and javascript: URLs; every page that shows them is opened twice:
 * under the console's CSP, and with the CSP bypassed, so that only text rendering stands between
 * the payload and the page. Nothing may run, no element or link may come of it, and the
 * strings must be visible as text.
 */
describe('console in Chromium: API strings are rendered as text', () => {
  let app: TestApp;
  let browser: Browser;
  let origin: string;
  let accountKey: string;
  let adminKey: string;
  let trunkId: string;
  let callId: string;
  let endpointId: string;

  beforeAll(async () => {
    ({ app, browser, origin } = await startConsoleApp());
    const account = await provisionAccount(app, ['full'], `Acme ${PLANTED}`);
    accountKey = account.key;
    await app.admin.post('/v1/api-keys', { account_id: account.accountId, name: `key ${PLANTED}`, scopes: ['read'] });
    adminKey = (await app.admin.post('/v1/api-keys', { name: `admin ${PLANTED}`, scopes: ['admin'] })).body.key;
    const trunk = await account.client.post('/v1/trunks', {
      name: `Line ${PLANTED}`,
      ai_provider: 'custom',
      sip_username: 'xss-line',
      sip_password: 'a-long-secret',
      custom_endpoint: 'wss://agent.example.com/javascript:alert(1)',
      system_prompt: PLANTED,
    });
    expect(trunk.status).toBe(201);
    trunkId = trunk.body.id;
    expect((await account.client.patch(`/v1/trunks/${trunkId}`, { system_prompt: `${SVG} ${PLANTED}` })).status).toBe(
      200,
    );
    const endpoint = await account.client.post('/v1/webhook-endpoints', {
      url: 'https://hooks.example.com/javascript:alert(1)?q=%3Cimg%20src=x%20onerror=alert(1)%3E',
      description: PLANTED,
    });
    expect(endpoint.status).toBe(201);
    endpointId = endpoint.body.id;
    expect((await account.client.post(`/v1/webhook-endpoints/${endpointId}/test`)).status).toBeLessThan(300);
    expect(
      (
        await account.client.post('/v1/alert-rules', {
          name: PLANTED,
          metric: 'p95_latency_ms',
          comparison: 'gt',
          threshold: 1,
          window_minutes: 5,
        })
      ).status,
    ).toBe(201);
    callId = 'call_xss_1';
    const now = Date.now();
    const record = {
      id: callId,
      trunk_id: trunkId,
      from: '+14155550142',
      to: '+18005550100',
      status: 'connected',
      start_time: new Date(now - 600_000).toISOString(),
      end_time: new Date(now - 500_000).toISOString(),
      ai_latency_ms: 500,
      carrier_lag_ms: 40,
      gateway_processing_ms: 5,
      sip_trace: `INVITE sip:${SVG}@example.com SIP/2.0\nVia: SIP/2.0/TLS ${SVG}:5061\nX-Note: ${PLANTED}\nSIP/2.0 200 ${MARKUP}\nVia: SIP/2.0/TLS ${SVG}:5061`,
    };
    const ingested = await account.client.call('POST', '/v1/ingest/calls', { body: [record] });
    expect(ingested.body).toEqual({ accepted: 1, rejected: [] });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** The pages that show the planted strings, and one string each must show as text. */
  const accountPages = () => [
    ['#/trunks', `Line ${MARKUP}`],
    [`#/trunks/${trunkId}`, SVG],
    ['#/overview?range=24h', `Line ${MARKUP}`],
    ['#/calls', callId],
    [`#/calls/${callId}`, SVG],
    ['#/webhooks', PLANTED],
    [`#/webhooks/${endpointId}`, 'ping'],
    ['#/alerts', PLANTED],
  ];
  const adminPages = () => [['#/api-keys', `admin ${MARKUP}`]];

  async function visitAll(context: BrowserContext, key: string, pages: string[][]): Promise<PageWatch> {
    const { page, watch } = await newWatchedPage(context);
    await page.goto(`${origin}/console`);
    await page.fill('#api-key', key);
    await page.click('button[type=submit]');
    await page.waitForSelector('main h1:not(:text("Trunkline console"))');
    for (const [hash, expectedText] of pages) {
      await page.goto(`${origin}/console${hash}`);
      await page
        .waitForFunction((text) => document.body.innerText.includes(text), expectedText, { timeout: 10_000 })
        .catch(async () => {
          throw new Error(
            `${hash} never showed ${expectedText}; it shows: ${(await page.innerText('body')).slice(0, 600)}`,
          );
        });
      if (hash.startsWith('#/calls/')) await openEveryMessage(page);
      await page.waitForTimeout(100);
      expect({ hash, ...(await inspect(page)) }).toEqual({ hash, ran: null, injected: 0, scriptLinks: 0 });
    }
    return watch;
  }

  async function openEveryMessage(page: Page): Promise<void> {
    for (const button of await page.locator('.ladder-list button').all()) await button.click();
  }

  async function inspect(page: Page) {
    return page.evaluate(() => ({
      ran: (window as unknown as { __xss?: number }).__xss ?? null,
      injected: document.querySelectorAll('img[src="x"], main script, svg[onload], [onerror], [onload]').length,
      scriptLinks: [...document.querySelectorAll('a[href], [src], [action], [formaction]')].filter((el) =>
        /^\s*javascript:/i.test(el.getAttribute('href') ?? el.getAttribute('src') ?? el.getAttribute('action') ?? ''),
      ).length,
    }));
  }

  it.each([
    ['under the console CSP', false],
    ['with the CSP bypassed (text rendering alone)', true],
  ])('runs nothing planted on any page, %s', async (_label, bypassCSP) => {
    const context = await browser.newContext({ bypassCSP, viewport: { width: 1280, height: 900 } });
    try {
      const account = await visitAll(context, accountKey, accountPages());
      const admin = await visitAll(context, adminKey, adminPages());
      expect({ account, admin }).toEqual({
        account: { errors: [], cspViolations: [], dialogs: [] },
        admin: { errors: [], cspViolations: [], dialogs: [] },
      });
    } finally {
      await context.close();
    }
  });
});
