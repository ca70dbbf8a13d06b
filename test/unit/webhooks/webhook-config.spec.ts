import { ConfigError, loadConfig } from '../../../src/platform/config/app-config';

describe('webhook configuration', () => {
  it('defaults to the Standard Webhooks schedule: 12 attempts over about 3 days', () => {
    const config = loadConfig({});
    const total = config.webhookRetryScheduleMs.reduce((a, b) => a + b, 0);
    expect(config.webhookRetryScheduleMs.slice(0, 7)).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(config.webhookRetryScheduleMs).toHaveLength(11);
    expect(total).toBe(((2 * 24 + 19) * 3600 + 35 * 60 + 5) * 1000);
    expect({
      allowPrivate: config.webhookAllowPrivate,
      timeout: config.webhookTimeoutMs,
      ca: config.webhookCaFile,
    }).toEqual({ allowPrivate: false, timeout: 15_000, ca: null });
  });

  it('takes a schedule in milliseconds for tests', () => {
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE_MS: '100,200' }).webhookRetryScheduleMs).toEqual([100, 200]);
  });

  it.each([
    ['WEBHOOK_RETRY_SCHEDULE_MS', '5s,5m'],
    ['WEBHOOK_TIMEOUT_MS', '10'],
    ['WEBHOOK_CONCURRENCY', '0'],
    ['WEBHOOK_ALLOW_PRIVATE', 'yes'],
    ['ALERT_EVALUATION_INTERVAL_MS', 'soon'],
    ['WEBHOOK_CA_FILE', '/nonexistent/ca.pem'],
  ])('refuses a bad %s, naming it', (name, value) => {
    let caught: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).message).toContain(name);
  });
});
