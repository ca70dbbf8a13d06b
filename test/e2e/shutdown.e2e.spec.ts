import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../support/http-client';
import { startServiceProcess } from '../support/service-process';

describe('graceful shutdown on SIGTERM', () => {
  it('finishes in-flight requests, refuses nothing it accepted, and exits 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-term-'));
    const service = await startServiceProcess({ DATA_DIR: dataDir });
    const client = new ApiClient(service.origin, service.ca, service.adminKey);
    try {
      const inFlight = Array.from({ length: 40 }, (_, i) =>
        client.post('/v1/accounts', { name: `term-${i}` }).then(
          (r) => r.status,
          () => 'refused',
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
      service.child.kill('SIGTERM');
      const outcomes = await Promise.all(inFlight);
      expect(await service.exited).toBe(0);
      // Every request either completed (201) or was never accepted (connection refused / 503);
      // none was cut off halfway with a 5xx from the service.
      for (const outcome of outcomes) expect([201, 503, 'refused']).toContain(outcome);
      expect(outcomes.filter((o) => o === 201).length).toBeGreaterThan(0);
      expect(service.output()).toContain('SIGTERM');
    } finally {
      await client.close();
      service.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
