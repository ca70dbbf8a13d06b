import type { BrowserContext, Page } from 'playwright-core';

export { launchChromium } from '../../../bench/lib/chromium';

/** What a page did that a test must see: script errors, CSP violations, dialogs, failed loads. */
export interface PageWatch {
  errors: string[];
  cspViolations: string[];
  dialogs: string[];
}

export async function newWatchedPage(context: BrowserContext): Promise<{ page: Page; watch: PageWatch }> {
  const page = await context.newPage();
  const watch: PageWatch = { errors: [], cspViolations: [], dialogs: [] };
  page.on('pageerror', (error) => watch.errors.push(error.message));
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy/i.test(text)) watch.cspViolations.push(text);
    else if (message.type() === 'error' && !/status of 4\d\d/.test(text)) watch.errors.push(text);
  });
  page.on('dialog', (dialog) => {
    watch.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { page, watch };
}
