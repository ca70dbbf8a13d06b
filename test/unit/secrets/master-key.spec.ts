import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMasterKey, MASTER_KEY_FILE } from '../../../src/infrastructure/secrets/master-key';

const root = mkdtempSync(join(tmpdir(), 'trunkline-master-key-'));
afterAll(() => rm(root, { recursive: true, force: true }));

let n = 0;
const freshDir = (): string => join(root, `data-${++n}`);
const embedded = (dataDir: string, masterKey: string | null = null) => ({ masterKey, dataDir, embedded: true });

describe('loadMasterKey', () => {
  it('decodes a configured base64 key of 32 bytes', async () => {
    const bytes = randomBytes(32);
    expect((await loadMasterKey(embedded(freshDir(), bytes.toString('base64')))).equals(bytes)).toBe(true);
    expect(
      (await loadMasterKey({ masterKey: bytes.toString('base64url'), dataDir: freshDir(), embedded: false })).equals(
        bytes,
      ),
    ).toBe(true);
  });

  it('prefers the configured key and writes no file', async () => {
    const dataDir = freshDir();
    await loadMasterKey(embedded(dataDir, randomBytes(32).toString('base64')));
    await expect(stat(join(dataDir, MASTER_KEY_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.each([
    ['31 bytes', randomBytes(31).toString('base64')],
    ['33 bytes', randomBytes(33).toString('base64')],
    ['64 bytes', randomBytes(64).toString('base64')],
    ['hex of 32 bytes', randomBytes(32).toString('hex')],
    ['text that is not base64', `${'x'.repeat(40)}!!!!`],
  ])('rejects %s with a message naming MASTER_KEY and not echoing the value', async (_label, value) => {
    const error = await loadMasterKey(embedded(freshDir(), value)).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^MASTER_KEY/);
    expect((error as Error).message).not.toContain(value);
  });

  it('generates a key into <dataDir>/master.key, readable only by its owner, and reuses it', async () => {
    const dataDir = freshDir();
    const first = await loadMasterKey(embedded(dataDir));
    expect(first).toHaveLength(32);
    const file = join(dataDir, MASTER_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const second = await loadMasterKey(embedded(dataDir));
    expect(second.equals(first)).toBe(true);
    expect(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64').equals(first)).toBe(true);
  });

  it('agrees on one key when several starts race to generate it', async () => {
    const dataDir = freshDir();
    const keys = await Promise.all(Array.from({ length: 8 }, () => loadMasterKey(embedded(dataDir))));
    expect(new Set(keys.map((k) => k.toString('hex'))).size).toBe(1);
  });

  it('generates different keys for different data directories', async () => {
    const [a, b] = await Promise.all([loadMasterKey(embedded(freshDir())), loadMasterKey(embedded(freshDir()))]);
    expect(a.equals(b)).toBe(false);
  });

  it('refuses a damaged master.key file rather than replacing it', async () => {
    const dataDir = freshDir();
    await loadMasterKey(embedded(dataDir));
    const file = join(dataDir, MASTER_KEY_FILE);
    await writeFile(file, randomBytes(16).toString('base64'));
    await expect(loadMasterKey(embedded(dataDir))).rejects.toThrow(/MASTER_KEY \(from .*master\.key\).*got 16/);
  });

  it('requires MASTER_KEY outside the embedded setup', async () => {
    const dataDir = freshDir();
    await expect(loadMasterKey({ masterKey: null, dataDir, embedded: false })).rejects.toThrow(/MASTER_KEY/);
    await expect(stat(join(dataDir, MASTER_KEY_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
