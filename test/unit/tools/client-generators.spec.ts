import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDocumentOffline } from '../../../scripts/openapi/offline-document';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * A client must be able to clear `vad` and `provider_settings` with a generated type. Two
 * generators read the document the server serves: openapi-typescript (clients/typescript, kept
 * current by `npm run lint:openapi`) and @hey-api/openapi-ts, generated here; a program that
 * sends `vad: null` in an update through each and reads `VadDto | null` back compiles with
 * `tsc --strict`. Issue 29: hey-api dropped the null branch from request bodies.
 */
describe('generated clients', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'trunkline-clients-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('type an update that clears vad and provider_settings with null, in both generators', async () => {
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(await buildDocumentOffline()));
    const hey = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/@hey-api/openapi-ts/bin/run.js'),
        '-i',
        join(dir, 'openapi.json'),
        '-o',
        join(dir, 'hey'),
      ],
      { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
    );
    expect({ status: hey.status, stderr: hey.stderr }).toEqual({ status: 0, stderr: '' });
    writeFileSync(
      join(dir, 'usage.ts'),
      `import { createTrunklineClient, type components } from '${join(ROOT, 'clients/typescript/index')}';
import { updateTrunk, getTrunk } from './hey/sdk.gen';
import type { UpdateTrunkRequestDto, TrunkDetailDto, VadDto } from './hey/types.gen';

type Schemas = components['schemas'];
export const typed: Schemas['UpdateTrunkRequestDto'] = { vad: null, provider_settings: null };
export const hey: UpdateTrunkRequestDto = { vad: null, provider_settings: null };

export async function clear(id: string): Promise<[Schemas['VadDto'] | null, VadDto | null]> {
  const client = createTrunklineClient({ baseUrl: 'https://localhost/v1', apiKey: 'sk_test_x' });
  await client.PATCH('/trunks/{id}', { params: { path: { id } }, body: { vad: null, provider_settings: null } });
  const got = await client.GET('/trunks/{id}', { params: { path: { id } } });
  await updateTrunk({ path: { id }, body: { vad: null, provider_settings: null } });
  const read = await getTrunk({ path: { id } });
  const detail: TrunkDetailDto | undefined = read.data;
  return [got.data ? got.data.vad : null, detail ? detail.vad : null];
}
`,
    );
    const tsc = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/typescript/bin/tsc'),
        '--strict',
        '--noEmit',
        '--skipLibCheck',
        '--target',
        'es2022',
        '--module',
        'esnext',
        '--moduleResolution',
        'bundler',
        '--lib',
        'es2022,dom',
        join(dir, 'usage.ts'),
      ],
      { encoding: 'utf8', cwd: ROOT },
    );
    expect({ status: tsc.status, errors: tsc.stdout }).toEqual({ status: 0, errors: '' });
  });
});
