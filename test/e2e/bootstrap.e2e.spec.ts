import { mkdtempSync, rmSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from '../support/test-app';

describe('admin key bootstrap', () => {
  it('generates an admin key on the first start only, and keeps it working across restarts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-boot-'));
    try {
      const first = await startTestApp({}, { dataDir });
      const key = first.running.generatedAdminKey;
      expect(key).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
      expect(first.logs.join('\n')).not.toContain(key);
      await first.stop();

      const second = await startTestApp({}, { dataDir, adminKey: key! });
      expect(second.running.generatedAdminKey).toBeNull();
      expect((await second.admin.get('/v1/accounts')).status).toBe(200);
      await second.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('issues no admin key when the start cannot listen: the next start issues and shows one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-boot-'));
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((busy.address() as AddressInfo).port);
      await expect(startTestApp({ PORT: port }, { dataDir })).rejects.toMatchObject({ code: 'EADDRINUSE' });

      const second = await startTestApp({}, { dataDir });
      expect(second.running.generatedAdminKey).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
      expect((await second.admin.get('/v1/accounts')).status).toBe(200);
      await second.stop();
    } finally {
      busy.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('accepts ADMIN_API_KEY from the environment', async () => {
    const adminKey = `sk_live_${'C'.repeat(32)}`;
    const app = await startTestApp({ ADMIN_API_KEY: adminKey });
    try {
      expect(app.running.generatedAdminKey).toBeNull();
      expect((await app.admin.get('/v1/accounts')).status).toBe(200);
    } finally {
      await app.stop();
    }
  });
});
