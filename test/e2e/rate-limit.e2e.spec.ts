import { ApiResponse, expectError } from '../support/http-client';
import { provisionAccountDirect, startTestApp, TEST_REDIS_URL, TestApp } from '../support/test-app';

const LIMIT = 5;

/** Sends LIMIT+1 requests inside one window (retrying if a minute boundary splits them). */
async function burst(send: () => Promise<ApiResponse>): Promise<ApiResponse[]> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const responses: ApiResponse[] = [];
    for (let i = 0; i <= LIMIT; i++) responses.push(await send());
    const resets = new Set(responses.map((r) => r.headers['x-ratelimit-reset']));
    if (resets.size === 1) return responses;
  }
  throw new Error('could not fit a burst in one window');
}

describe('rate limits per key, shared through Redis', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ REDIS_URL: TEST_REDIS_URL, RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  });
  afterAll(() => app.stop());

  it('allows the limit, then answers 429 with retry_after and Retry-After', async () => {
    const { client } = await provisionAccountDirect(app, ['read']);
    const responses = await burst(() => client.get('/v1/nowhere'));
    expect(responses.slice(0, LIMIT).map((r) => r.status)).toEqual(Array(LIMIT).fill(404));
    expect(responses.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['4', '3', '2', '1', '0', '0']);
    const refused = responses[LIMIT];
    expectError(refused, 429, 'rate_limit_exceeded');
    const reset = Number(refused.headers['x-ratelimit-reset']);
    expect(refused.body.error.retry_after).toBe(reset);
    expect(refused.body.error.message).toContain(String(reset));
    expect(reset % 60).toBe(0);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('puts the rate headers on every response, errors included', async () => {
    const { client } = await provisionAccountDirect(app, ['read']);
    const response = await client.get('/v1/nowhere');
    expect(response.status).toBe(404);
    expect(response.headers['x-ratelimit-limit']).toBe(String(LIMIT));
    expect(Number(response.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
  });

  it('gives separate keys independent limits', async () => {
    const first = await provisionAccountDirect(app, ['read']);
    const second = await provisionAccountDirect(app, ['read']);
    await burst(() => first.client.get('/v1/nowhere'));
    expect((await second.client.get('/v1/nowhere')).status).toBe(404);
  });

  it('limits requests without a valid key per client address', async () => {
    const responses = await burst(() => app.anonymous.get('/v1/accounts', { key: `sk_live_${'B'.repeat(32)}` }));
    expect(responses.slice(0, LIMIT).every((r) => r.status === 401)).toBe(true);
    expect(responses[LIMIT].status).toBe(429);
  });
});
