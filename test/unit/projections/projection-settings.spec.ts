import { projectionSettings } from '../../../src/app.settings';
import { ConfigError, loadConfig } from '../../../src/platform/config/app-config';

describe('projection settings', () => {
  it('pages catch-ups by 2000 events unless PROJECTION_BATCH_SIZE says otherwise', () => {
    expect(projectionSettings(loadConfig({})).batchSize).toBe(2000);
    expect(projectionSettings(loadConfig({ PROJECTION_BATCH_SIZE: '10' })).batchSize).toBe(10);
    expect(projectionSettings(loadConfig({ PROJECTION_BATCH_SIZE: '10000' })).batchSize).toBe(10_000);
  });

  it.each(['0', '10001', '2.5', 'many'])('refuses PROJECTION_BATCH_SIZE=%s, naming it', (value) => {
    let caught: unknown;
    try {
      loadConfig({ PROJECTION_BATCH_SIZE: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).message).toContain('PROJECTION_BATCH_SIZE');
  });
});
