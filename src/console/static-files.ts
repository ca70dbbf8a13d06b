import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json']);

export type Encoding = 'br' | 'gzip' | 'identity';

/** One file as it is served: its bytes in each encoding it is worth sending in, and a strong ETag. */
export interface StaticFile {
  type: string;
  etag: string;
  bodies: Partial<Record<Encoding, Buffer>> & { identity: Buffer };
}

/**
 * Reads and compresses a file once: brotli at quality 9 (quality 11 costs seconds on the 1.4 MB
 * Swagger UI bundle for a few percent), gzip for clients without brotli. An encoding that does
 * not shrink the file is not kept.
 */
export async function loadStaticFile(path: string, content?: string | Buffer): Promise<StaticFile> {
  const identity = content === undefined ? await readFile(path) : Buffer.from(content);
  const extension = extname(path);
  const bodies: StaticFile['bodies'] = { identity };
  if (COMPRESSIBLE.has(extension) && identity.length > 512) {
    const [br, gz] = await Promise.all([
      brotli(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } }),
      gzipAsync(identity, { level: 9 }),
    ]);
    if (br.length < identity.length) bodies.br = br;
    if (gz.length < identity.length) bodies.gzip = gz;
  }
  const etag = `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;
  return { type: TYPES[extension] ?? 'application/octet-stream', etag, bodies };
}

/** The smallest encoding the client accepts (brotli before gzip); identity when it names none. */
export function chooseEncoding(file: StaticFile, acceptEncoding: string | undefined): Encoding {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => q === undefined || !/^\s*q=0(\.0*)?\s*$/.test(q))
      .map(([name]) => name.toLowerCase()),
  );
  if (file.bodies.br && accepted.has('br')) return 'br';
  if (file.bodies.gzip && accepted.has('gzip')) return 'gzip';
  return 'identity';
}

/** Loads each file at most once, on first use, so that a start that serves no page pays nothing. */
export class LazyFiles {
  private readonly files = new Map<string, Promise<StaticFile | null>>();

  get(key: string, load: () => Promise<StaticFile | null>): Promise<StaticFile | null> {
    let file = this.files.get(key);
    if (!file) {
      file = load().catch((error: unknown) => {
        this.files.delete(key);
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      });
      this.files.set(key, file);
    }
    return file;
  }
}
