import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const MASTER_KEY_BYTES = 32;
export const MASTER_KEY_FILE = 'master.key';

export interface LoadMasterKeyOptions {
  /** MASTER_KEY from configuration: base64 (or base64url) of 32 bytes. */
  masterKey: string | null;
  dataDir: string;
  /** No EVENT_STORE_URL: the key may be generated into `<dataDir>/master.key`. */
  embedded: boolean;
}

/**
 * The master key that wraps every data key. Configured keys win; in the embedded setup without
 * one, a key is generated once into `<dataDir>/master.key` (mode 0600) and reused on later starts.
 * A shared store needs the same key on every instance, so there it must be configured.
 */
export async function loadMasterKey(opts: LoadMasterKeyOptions): Promise<Buffer> {
  if (opts.masterKey !== null) return decodeMasterKey(opts.masterKey, 'MASTER_KEY');
  if (!opts.embedded) throw new Error('MASTER_KEY: required when EVENT_STORE_URL is set');
  await mkdir(opts.dataDir, { recursive: true, mode: 0o700 });
  return readOrCreateKeyFile(join(opts.dataDir, MASTER_KEY_FILE));
}

const BASE64 = /^(?:[A-Za-z0-9+/]+={0,2}|[A-Za-z0-9_-]+)$/;

/** Strict: Buffer.from(…, 'base64') skips invalid characters, which would hide a truncated key. */
export function decodeMasterKey(text: string, source: string): Buffer {
  const trimmed = text.trim();
  if (!BASE64.test(trimmed))
    throw new Error(`${source}: must be base64 of exactly ${MASTER_KEY_BYTES} bytes (found characters outside base64)`);
  const key = Buffer.from(trimmed, trimmed.includes('-') || trimmed.includes('_') ? 'base64url' : 'base64');
  if (key.length !== MASTER_KEY_BYTES) {
    // The length only: never the value.
    throw new Error(
      `${source}: must be base64 of exactly ${MASTER_KEY_BYTES} bytes, got ${key.length} (generate one with: openssl rand -base64 32)`,
    );
  }
  return key;
}

async function readOrCreateKeyFile(path: string): Promise<Buffer> {
  const existing = await readKeyFile(path);
  if (existing) return existing;
  // Written to a private temporary file, then linked into place: link() fails if the name exists,
  // so two processes starting at once agree on one key and nobody reads a half-written file.
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, `${randomBytes(MASTER_KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  const key = await readKeyFile(path);
  if (!key) throw new Error(`MASTER_KEY: could not create ${path}`);
  return key;
}

async function readKeyFile(path: string): Promise<Buffer | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return decodeMasterKey(text, `MASTER_KEY (from ${path})`);
}
