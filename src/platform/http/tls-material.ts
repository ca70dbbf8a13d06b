import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface TlsMaterial {
  cert: string;
  key: string;
  /** True when generated here: clients must trust this certificate explicitly (or use -k). */
  selfSigned: boolean;
  certPath: string;
}

/** Certificate files from configuration, else a self-signed pair kept in the data directory. */
export async function loadTlsMaterial(opts: {
  certFile: string | null;
  keyFile: string | null;
  dataDir: string;
}): Promise<TlsMaterial> {
  if (opts.certFile && opts.keyFile) {
    const [cert, key] = await Promise.all([readFile(opts.certFile, 'utf8'), readFile(opts.keyFile, 'utf8')]);
    return { cert, key, selfSigned: false, certPath: opts.certFile };
  }
  const dir = join(opts.dataDir, 'tls');
  const certPath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  try {
    const [cert, key] = await Promise.all([readFile(certPath, 'utf8'), readFile(keyPath, 'utf8')]);
    return { cert, key, selfSigned: true, certPath };
  } catch {
    const generated = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notAfterDate: new Date(Date.now() + 825 * 24 * 3600 * 1000),
      extensions: [
        { name: 'basicConstraints', cA: false },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
            { type: 7, ip: '::1' },
          ],
        },
      ],
    } as Parameters<typeof generate>[1]);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(keyPath, generated.private, { mode: 0o600 });
    await writeFile(certPath, generated.cert, { mode: 0o644 });
    return { cert: generated.cert, key: generated.private, selfSigned: true, certPath };
  }
}
