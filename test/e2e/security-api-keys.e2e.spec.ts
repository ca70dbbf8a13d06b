import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RATE_LIMITER } from '../../src/rate-limiting/rate-limiter.port';
import { READ_MODEL_STORE } from '../../src/infrastructure/read-model/read-model-store.port';
import { provisionAccountDirect, startTestApp, TEST_REDIS_URL, TestApp } from '../support/test-app';

const SRC = join(__dirname, '..', '..', 'src');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every call to every method of a DI instance, arguments serialised. */
function recordCalls(instance: object, calls: string[]): void {
  let proto = Object.getPrototypeOf(instance);
  const names = new Set<string>();
  while (proto && proto !== Object.prototype) {
    for (const name of Object.getOwnPropertyNames(proto))
      if (name !== 'constructor' && typeof (instance as Record<string, unknown>)[name] === 'function') names.add(name);
    proto = Object.getPrototypeOf(proto);
  }
  for (const name of names) {
    const original = (instance as Record<string, (...args: unknown[]) => unknown>)[name].bind(instance);
    jest
      .spyOn(instance as Record<string, (...args: unknown[]) => unknown>, name)
      .mockImplementation((...args: unknown[]) => {
        calls.push(`${name}(${JSON.stringify(args)})`);
        return original(...args);
      });
  }
}

describe('API key comparison is constant-time', () => {
  it('compares secrets nowhere in src with ==/!= or string methods (only crypto.timingSafeEqual)', () => {
    const secretName = /(secret|hash|password|passwd|signature|token|ha1|digest|api_?key|keyHash|masterKey)\w*/i;
    // `x === y` where either side names a secret, not counting comparisons with a literal or typeof.
    const comparison = /([\w.$\][)]+)\s*(===|!==|==|!=)\s*([\w.$\][(]+)/g;
    // Literals, constants and lengths are public; comparing with them leaks nothing.
    const literal = /^(undefined|null|true|false|\d[\w.]*|['"`].*|[A-Z][A-Z0-9_]*|.*\.(length|size))$/;
    const offences: string[] = [];
    for (const file of sourceFiles(SRC)) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/^\s*(\/\/|\*)/.test(line)) return;
          for (const [, left, , right] of line.matchAll(comparison)) {
            if (
              literal.test(right) ||
              literal.test(left) ||
              /typeof/.test(line.slice(0, line.indexOf(left) + left.length))
            )
              continue;
            if (secretName.test(left) || secretName.test(right))
              offences.push(`${file.slice(SRC.length + 1)}:${i + 1}: ${line.trim()}`);
          }
          if (
            /(secret|hash|signature|password|ha1|digest)\w*\.(localeCompare|equals|(startsWith|endsWith)\((?![A-Z][A-Z0-9_]*\)|['"`]))\(?/i.test(
              line,
            )
          )
            offences.push(`${file.slice(SRC.length + 1)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offences).toEqual([]);
    // The one comparison of a key with a known value (ADMIN_API_KEY) goes through timingSafeEqual of hashes.
    expect(readFileSync(join(SRC, 'access/authenticator.ts'), 'utf8')).toMatch(
      /timingSafeEqual\(this\.adminHash, Buffer\.from\(hash, 'hex'\)\)/,
    );
  });

  for (const [label, env] of [
    ['Redis', { REDIS_URL: TEST_REDIS_URL }],
    ['in-process memory', {}],
  ] as const) {
    describe(`key lookup (${label} stores)`, () => {
      let app: TestApp;
      beforeAll(async () => {
        app = await startTestApp({ ...env, LOG_LEVEL: 'warn' });
      });
      afterAll(() => app.stop());

      it('hands the stores only the SHA-256 of a presented key, never the key', async () => {
        const { key } = await provisionAccountDirect(app, ['read']);
        const unknown = `sk_live_${'Q'.repeat(32)}`;
        const calls: string[] = [];
        recordCalls(app.running.app.get(READ_MODEL_STORE), calls);
        recordCalls(app.running.app.get(RATE_LIMITER), calls);
        expect((await app.anonymous.get('/v1/trunks', { key })).status).toBe(200);
        expect((await app.anonymous.get('/v1/trunks', { key: unknown })).status).toBe(401);
        const seen = calls.join('\n');
        expect(seen).toContain(sha256(key));
        expect(seen).toContain(sha256(unknown));
        expect(seen.includes(key)).toBe(false);
        expect(seen.includes(unknown)).toBe(false);
        jest.restoreAllMocks();
      });
    });
  }
});
