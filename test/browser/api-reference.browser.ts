import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../support/test-app';
import { newWatchedPage } from './support/browser';
import { screenshotDir } from './support/screenshots';
import { startConsoleApp } from './support/console-app';

describe('API reference in Chromium', () => {
  let app: TestApp;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    ({ app, browser, origin } = await startConsoleApp());
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('renders /v1/openapi.json with Swagger UI, without a key, under its CSP', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, watch } = await newWatchedPage(context);
    const response = await page.goto(`${origin}/docs`);
    expect(response?.status()).toBe(200);
    await page.waitForSelector('.swagger-ui .opblock-summary-path');
    const paths = await page.locator('.opblock-summary-path').allTextContents();
    // The document's paths, with or without the /v1 its server URL may carry.
    const shown = new Set(paths.map((p) => p.replace(/\u200b/g, '').replace(/^\/v1/, '')));
    expect(['/trunks', '/calls', '/analytics/overview'].filter((path) => !shown.has(path))).toEqual([]);
    await page.screenshot({ path: join(screenshotDir(), '12-api-reference.png') });
    expect(watch).toEqual({ errors: [], cspViolations: [], dialogs: [] });
    await context.close();
  });
});
