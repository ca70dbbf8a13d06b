import { START_DEADLINE_MS } from './deadlines';
import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort, until } from './free-port';

const exec = promisify(execFile);

/**
 * PostgreSQL refuses to run as root; as root (a CI container), its binaries run as the
 * distribution's `postgres` user, which then owns the cluster directory.
 */
const SERVER_USER = process.getuid?.() === 0 ? 'postgres' : null;
const run = (binary: string, args: string[]) =>
  SERVER_USER ? exec('runuser', ['-u', SERVER_USER, '--', binary, ...args]) : exec(binary, args);

function serverUserIds(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${SERVER_USER}:`));
  if (!line) throw new Error(`running as root, and there is no ${SERVER_USER} user to run PostgreSQL as`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** The newest server binaries installed by the distribution (/usr/lib/postgresql/<major>/bin). */
export function postgresBinDir(): string | null {
  try {
    const majors = readdirSync('/usr/lib/postgresql')
      .filter((d) => /^\d+$/.test(d))
      .sort((a, b) => Number(b) - Number(a));
    return majors.length > 0 ? join('/usr/lib/postgresql', majors[0], 'bin') : null;
  } catch {
    return null;
  }
}

/**
 * A PostgreSQL cluster of the test's own (initdb in a temp dir, trust auth, a free port), which the
 * test may stop and start: the shared server on 5432 must never be restarted.
 */
export class PrivatePostgres {
  private constructor(
    private readonly bin: string,
    private readonly dir: string,
    readonly port: number,
  ) {}

  static async start(): Promise<PrivatePostgres> {
    const bin = postgresBinDir();
    if (!bin) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
    const dir = mkdtempSync(join(tmpdir(), 'trunkline-pg-'));
    if (SERVER_USER) {
      const { uid, gid } = serverUserIds();
      chownSync(dir, uid, gid);
    }
    const pg = new PrivatePostgres(bin, dir, await freePort());
    try {
      await run(join(bin, 'initdb'), [
        '-D',
        join(dir, 'data'),
        '-U',
        'postgres',
        '--auth=trust',
        '--no-sync',
        '-E',
        'UTF8',
      ]);
      await pg.up();
    } catch (error) {
      await pg.destroy();
      throw error;
    }
    return pg;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  async up(): Promise<void> {
    // fsync stays on: durability of acknowledged writes is what the fault suite checks.
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c max_connections=100`;
    await run(join(this.bin, 'pg_ctl'), [
      '-D',
      join(this.dir, 'data'),
      '-o',
      options,
      '-l',
      join(this.dir, 'log'),
      '-w',
      '-t',
      '30',
      'start',
    ]);
    await until(`PostgreSQL on ${this.port}`, () => this.answers(), START_DEADLINE_MS);
  }

  /** `immediate`: no clean shutdown, as a crashed server; WAL replay on the next start. */
  async down(mode: 'immediate' | 'fast' = 'immediate'): Promise<void> {
    await run(join(this.bin, 'pg_ctl'), ['-D', join(this.dir, 'data'), '-m', mode, '-w', 'stop']).catch(
      () => undefined,
    );
  }

  async query<T>(text: string, params: unknown[] = []): Promise<T[]> {
    const client = new Client({ connectionString: this.url });
    await client.connect();
    try {
      return (await client.query(text, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  async destroy(): Promise<void> {
    await this.down('immediate');
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async answers(): Promise<boolean> {
    await this.query('SELECT 1');
    return true;
  }
}
