import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Agent, request } from 'undici';
import { expectError } from '../support/http-client';
import { startTestApp, TestApp } from '../support/test-app';

/** A built console as Vite lays it out: the entry page and content-hashed assets. */
function fakeBuiltConsole(): string {
  const dir = mkdtempSync(join(tmpdir(), 'trunkline-console-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!DOCTYPE html><html><head><script type="module" src="/console/assets/index-Ab12Cd34.js"></script></head><body></body></html>',
  );
  writeFileSync(join(dir, 'assets', 'index-Ab12Cd34.js'), `console.log(${JSON.stringify('x'.repeat(4000))});\n`);
  return dir;
}

const header = (headers: Record<string, unknown>, name: string) => String(headers[name] ?? '');

describe('console and API reference pages', () => {
  let app: TestApp;
  let consoleDir: string;

  beforeAll(async () => {
    consoleDir = fakeBuiltConsole();
    app = await startTestApp({ CONSOLE_DIR: consoleDir });
  });
  afterAll(async () => {
    await app.stop();
    rmSync(consoleDir, { recursive: true, force: true });
  });

  it('serves /console without a key, with a strict CSP and revalidation for the entry page', async () => {
    const response = await app.anonymous.get('/console');
    expect(response.status).toBe(200);
    expect(header(response.headers, 'content-type')).toMatch(/^text\/html/);
    const csp = header(response.headers, 'content-security-policy');
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
    expect(header(response.headers, 'cache-control')).toBe('no-cache');
    expect(header(response.headers, 'x-content-type-options')).toBe('nosniff');
    expect(header(response.headers, 'x-frame-options')).toBe('DENY');
    expect(header(response.headers, 'referrer-policy')).toBe('no-referrer');
    expect(response.text).toContain('/console/assets/index-Ab12Cd34.js');
  });

  it('caches hashed assets for a year and compresses them when the client accepts it', async () => {
    const plain = await app.anonymous.get('/console/assets/index-Ab12Cd34.js');
    expect(plain.status).toBe(200);
    expect(header(plain.headers, 'cache-control')).toBe('public, max-age=31536000, immutable');
    expect(header(plain.headers, 'content-type')).toMatch(/^text\/javascript/);
    expect(header(plain.headers, 'content-security-policy')).toContain("script-src 'self'");
    const br = await app.anonymous.call('GET', '/console/assets/index-Ab12Cd34.js', {
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(header(br.headers, 'content-encoding')).toBe('br');
    expect(header(br.headers, 'vary')).toContain('Accept-Encoding');
    const gz = await app.anonymous.call('GET', '/console/assets/index-Ab12Cd34.js', {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(header(gz.headers, 'content-encoding')).toBe('gzip');
    // undici hands the body over as received; decoded, both are the file.
    const raw = async (encoding: string) => {
      const agent = new Agent({ connect: { ca: app.running.tls!.cert } });
      const res = await request(`${app.anonymous.origin}/console/assets/index-Ab12Cd34.js`, {
        headers: { 'accept-encoding': encoding },
        dispatcher: agent,
      });
      const body = Buffer.from(await res.body.arrayBuffer());
      await agent.close();
      return body;
    };
    expect(brotliDecompressSync(await raw('br')).toString()).toBe(plain.text);
    expect(gunzipSync(await raw('gzip')).toString()).toBe(plain.text);
  });

  it('answers a matching If-None-Match with 304', async () => {
    const first = await app.anonymous.get('/console');
    const etag = header(first.headers, 'etag');
    expect(etag).toMatch(/^".+"$/);
    const again = await app.anonymous.call('GET', '/console', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it('answers unknown or malformed asset names with 404, never a file outside the assets', async () => {
    expectError(await app.anonymous.get('/console/assets/missing-Zz99.js'), 404, 'not_found');
    expectError(await app.anonymous.get('/console/assets/..%2Findex.html'), 404, 'not_found');
    expectError(await app.anonymous.get('/console/assets/..%2F..%2Fpackage.json'), 404, 'not_found');
  });

  it('serves /docs without a key: Swagger UI loading /v1/openapi.json, scripts from this origin only', async () => {
    const page = await app.anonymous.get('/docs');
    expect(page.status).toBe(200);
    expect(header(page.headers, 'content-type')).toMatch(/^text\/html/);
    const csp = header(page.headers, 'content-security-policy');
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*(unsafe|https?:|\*)/);
    expect(csp).not.toContain('unsafe-eval');
    expect(page.text).not.toMatch(/<script>|<style>|\son[a-z]+=/i);
    const sources = [...page.text.matchAll(/(?:src|href)="(\/docs\/[^"]+)"/g)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThanOrEqual(4);
    for (const source of sources) {
      const file = await app.anonymous.get(source);
      expect({ source, status: file.status }).toEqual({ source, status: 200 });
      if (source.startsWith('/docs/assets/'))
        expect(header(file.headers, 'cache-control')).toBe('public, max-age=31536000, immutable');
    }
    expect((await app.anonymous.get('/docs/docs.js')).text).toContain("url: '/v1/openapi.json'");
    expectError(await app.anonymous.get(sources[0].replace(/[^/]+$/, 'package.json')), 404, 'not_found');
  });

  it('keeps the pages out of the OpenAPI description', async () => {
    const paths = Object.keys((await app.anonymous.get('/v1/openapi.json')).body.paths);
    expect(paths.filter((path) => /^\/(console|docs)/.test(path))).toEqual([]);
  });

  it('limits the pages per client address like the other public routes', async () => {
    const response = await app.anonymous.get('/console');
    expect(Number(header(response.headers, 'x-ratelimit-limit'))).toBeGreaterThan(0);
    expect(header(response.headers, 'x-ratelimit-remaining')).not.toBe('');
  });
});
