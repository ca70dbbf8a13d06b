import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { AddressInfo, createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminStatus, runToExit, stopService } from '../support/entry-process';
import { freePort } from '../support/free-port';
import { removeDataDir, startServiceProcess } from '../support/service-process';

const NO_STORE_OPENED = /event store ready|ClickHouse ready/;

async function occupiedPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('start-up refusals (real processes)', () => {
  it('refuses a second server on the same data directory in one line, before opening any store', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-start-'));
    const first = await startServiceProcess({ DATA_DIR: dataDir });
    try {
      const second = await runToExit('src/main.ts', [], {
        DATA_DIR: dataDir,
        PORT: String(await freePort()),
        LOG_LEVEL: 'info',
      });
      expect(second.code).toBe(1);
      expect(second.stdout).not.toMatch(NO_STORE_OPENED);
      expect(second.stderr).toMatch(
        new RegExp(
          `^trunkline: the data directory ${dataDir} is in use by a running Trunkline server \\(pid ${first.child.pid}, since [^)]+\\): stop it first, or give this instance its own DATA_DIR\\n$`,
        ),
      );
      expect(await adminStatus(first)).toBe(200);
    } finally {
      await stopService(first);
      await removeDataDir(dataDir);
    }
  });

  it('refuses a busy port in one line touching nothing; the next start that listens shows the admin key', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-start-'));
    const busy = await occupiedPort();
    try {
      const refused = await runToExit('src/main.ts', [], {
        DATA_DIR: dataDir,
        PORT: String(busy.port),
        LOG_LEVEL: 'info',
      });
      expect(refused.code).toBe(1);
      expect(refused.stdout).not.toMatch(NO_STORE_OPENED);
      expect(refused.stderr).toBe(
        `trunkline: port ${busy.port} on 127.0.0.1 is already in use (another Trunkline, or another program): stop it, or choose another port with PORT=<port>\n`,
      );
      expect(readdirSync(dataDir)).toEqual([]);

      const service = await startServiceProcess({ DATA_DIR: dataDir });
      try {
        expect(service.output()).toMatch(/Admin API key \(shown once[^\n]*\n\s+sk_live_[A-Za-z0-9]{32}\n/);
        expect(await adminStatus(service)).toBe(200);
      } finally {
        await stopService(service);
      }
    } finally {
      busy.server.close();
      await removeDataDir(dataDir);
    }
  });

  it('takes over a lock whose process is gone, or whose pid now names another process', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-start-'));
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    const stale = [
      { pid: gone, role: 'server', since: new Date().toISOString(), procStart: null },
      // A live pid (this test's), but not the process that wrote the lock: its start time differs.
      { pid: process.pid, role: 'server', since: new Date().toISOString(), procStart: '1' },
    ];
    try {
      for (const holder of stale) {
        writeFileSync(join(dataDir, 'trunkline.lock'), JSON.stringify(holder));
        const reset = await runToExit('src/cli/admin-key.ts', ['--reset'], { DATA_DIR: dataDir });
        expect({ code: reset.code, stderr: reset.stderr }).toEqual({ code: 0, stderr: '' });
        expect(readdirSync(dataDir)).not.toContain('trunkline.lock');
      }
    } finally {
      await removeDataDir(dataDir);
    }
  });
});
