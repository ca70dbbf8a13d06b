import type { Browser, BrowserContext } from 'playwright-core';

/** One navigation to the overview until its charts are drawn, and what it transferred. */
export interface PageLoad {
  /** From navigation start to `tl:overview-drawn`: the figures, calls and average latency charts drawn. */
  drawnMs: number;
  /** To `tl:overview-complete`: every chart with its detail (the busiest trunks; per-bucket percentiles come with the first answer). */
  completeMs: number;
  /** Encoded bytes on the wire (headers included): the page and its assets, and the API answers. */
  assetBytes: number;
  apiBytes: number;
  apiRequests: number;
}

/**
 * Runs in the page (passed as a function, not a string: the console's CSP has no 'unsafe-eval').
 * Node's types cover `performance` and `URL`; resource timing's transferSize is read untyped.
 */
function measure(): PageLoad {
  const at = (name: string) => performance.getEntriesByName(name)[0]?.startTime ?? -1;
  // The navigation and every resource fetched: the entries that carry a transferSize.
  const entries = performance.getEntries().filter((e) => 'transferSize' in e);
  const api = entries.filter((e) => new URL(e.name).pathname.startsWith('/v1/'));
  const sum = (list: { name: string }[]) =>
    list.reduce((total, e) => total + (e as unknown as { transferSize: number }).transferSize, 0);
  return {
    drawnMs: at('tl:overview-drawn'),
    completeMs: at('tl:overview-complete'),
    assetBytes: sum(entries) - sum(api),
    apiBytes: sum(api),
    apiRequests: api.length,
  };
}

const complete = () => performance.getEntriesByName('tl:overview-complete').length > 0;

const SIGN_IN = (key: string) =>
  `sessionStorage.setItem('trunkline.console.key', ${JSON.stringify(JSON.stringify({ key, home: '/overview' }))})`;

/**
 * Loads `url` `count` times and measures each. Cold: a fresh browser context each time (empty
 * HTTP cache, new TLS connection). Warm: one context, so the hashed assets come from the cache
 * and index.html is revalidated (304). The key is put in sessionStorage before the page runs, as
 * a signed-in tab has it.
 */
export async function measureLoads(
  browser: Browser,
  url: string,
  key: string,
  count: number,
  cold: boolean,
): Promise<PageLoad[]> {
  const loads: PageLoad[] = [];
  const fresh = async (): Promise<BrowserContext> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(SIGN_IN(key));
    return context;
  };
  const shared = cold ? null : await fresh();
  for (let i = 0; i < count; i++) {
    const context = shared ?? (await fresh());
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(complete, undefined, { timeout: 60_000 });
    const load = await page.evaluate(measure);
    if (load.drawnMs < 0) throw new Error('the overview never marked its charts drawn');
    loads.push(load);
    await page.close();
    if (!shared) await context.close();
  }
  await shared?.close();
  return loads;
}
