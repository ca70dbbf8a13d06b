import { availableParallelism } from 'node:os';
import { loadSettings } from '../../../media-gateway/src/settings';

const base = { TRUNKLINE_URL: 'https://t.example.com/v1', TRUNKLINE_GATEWAY_KEY: `sk_live_${'a'.repeat(32)}` };

describe('MEDIA_WORKERS', () => {
  it('defaults to one media worker per CPU, and 0 keeps the media on the main thread', () => {
    expect(loadSettings(base).mediaWorkers).toBe(availableParallelism());
    expect(loadSettings({ ...base, MEDIA_WORKERS: '0' }).mediaWorkers).toBe(0);
  });

  it('refuses more workers than the RTP port range gives 4 ports each', () => {
    const range = { RTP_PORT_MIN: '30000', RTP_PORT_MAX: '30011' };
    expect(loadSettings({ ...base, ...range, MEDIA_WORKERS: '3' }).mediaWorkers).toBe(3);
    expect(() => loadSettings({ ...base, ...range, MEDIA_WORKERS: '4' })).toThrow(/4 ports per media worker/);
  });
});
