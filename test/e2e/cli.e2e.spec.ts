import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminStatus, runToExit, stopService } from '../support/entry-process';
import { ApiClient } from '../support/http-client';
import { removeDataDir, startServiceProcess } from '../support/service-process';
import { customBody } from '../support/trunk-requests';

/** The CLIs open the embedded store themselves: never beside a server, and they speak the API's shapes. */
describe('command-line tools on the embedded store (real processes)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'trunkline-cli-'));
  });
  afterEach(() => removeDataDir(dataDir));

  it('trunks:history refuses while the server runs, then prints the history and state as the API does', async () => {
    const service = await startServiceProcess({ DATA_DIR: dataDir });
    const admin = new ApiClient(service.origin, service.ca, service.adminKey);
    const account = await admin.post('/v1/accounts', { name: 'Acme' });
    const key = await admin.post('/v1/api-keys', { account_id: account.body.id, name: 'k', scopes: ['full'] });
    const client = admin.withKey(key.body.key);
    const trunk = await client.post('/v1/trunks', customBody({ system_prompt: 'Be brief.' }));
    expect(trunk.status).toBe(201);
    const id = trunk.body.id as string;
    expect((await client.patch(`/v1/trunks/${id}`, { status: 'inactive' })).status).toBe(200);
    const apiEvents = (await client.get(`/v1/trunks/${id}/events`)).body.events;
    const apiDetail = (await client.get(`/v1/trunks/${id}`)).body;

    const refused = await runToExit('src/cli/trunks-history.ts', [id], { DATA_DIR: dataDir });
    await admin.close();
    expect(await stopService(service)).toBe(0);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^trunks:history: the data directory ${dataDir} is in use by a running Trunkline server .*GET /v1/trunks/${id}/events\\n$`,
      ),
    );

    const history = await runToExit('src/cli/trunks-history.ts', [id], { DATA_DIR: dataDir });
    expect(history.code).toBe(0);
    const [events, state] = history.stdout.split('\n\n');
    expect(
      events
        .split('\n')
        .slice(1)
        .map((line) => JSON.parse(line)),
    ).toEqual(apiEvents);
    expect(JSON.parse(state.slice(state.indexOf('\n') + 1))).toEqual(apiDetail);
  });

  it('admin:key --reset revokes the admin key and prints a new one that works; the next start prints none', async () => {
    const first = await startServiceProcess({ DATA_DIR: dataDir });
    const lost = first.adminKey!;
    const refused = await runToExit('src/cli/admin-key.ts', ['--reset'], { DATA_DIR: dataDir });
    expect(await stopService(first)).toBe(0);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^admin:key: the data directory .* in use by a running Trunkline server/);

    const reset = await runToExit('src/cli/admin-key.ts', ['--reset'], { DATA_DIR: dataDir });
    expect(reset.code).toBe(0);
    expect(reset.stdout).toMatch(
      /^Revoked the previous admin key key_admin\.\nNew admin API key key_admin_2 \(shown once/,
    );
    const renewed = /(sk_live_[A-Za-z0-9]{32})/.exec(reset.stdout)![1];

    const second = await startServiceProcess({ DATA_DIR: dataDir });
    try {
      expect(second.output()).not.toMatch(/sk_live_/);
      expect(await adminStatus(second, renewed)).toBe(200);
      expect(await adminStatus(second, lost)).toBe(401);
    } finally {
      await stopService(second);
    }
  });
});
