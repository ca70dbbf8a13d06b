import { START_DEADLINE_MS } from './deadlines';
import { ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { freePort, until } from './free-port';

/**
 * A Redis of the test's own, on a free port, that the test may kill and restart (the shared
 * Redis on 6379 must never be restarted). No persistence: a restart loses every key, the worst
 * case the service must survive (read models are rebuilt from the event store).
 */
export class PrivateRedis {
  private process: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.up();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    if (this.process) return;
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--protected-mode',
        'no',
      ],
      { stdio: 'ignore' },
    );
    this.process = child;
    child.once('exit', () => {
      if (this.process === child) this.process = null;
    });
    await until(`redis-server on ${this.port}`, () => this.answersPing(), START_DEADLINE_MS);
  }

  /** SIGKILL: the server goes away at once, as a crashed or OOM-killed Redis does. */
  async kill(): Promise<void> {
    const child = this.process;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
  }

  /** One inline command over a raw socket (no client library state to reset between restarts). */
  command(...args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(this.port, '127.0.0.1');
      let reply = '';
      socket.setTimeout(2000, () => socket.destroy(new Error('redis command timed out')));
      socket.on('data', (chunk) => {
        reply += chunk.toString();
        if (reply.endsWith('\r\n')) socket.end();
      });
      socket.on('end', () => resolve(reply.trim()));
      socket.on('error', reject);
      socket.write(
        `${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).reduce((all, part) => all + part, `*${args.length}\r\n`)}`,
      );
    });
  }

  private async answersPing(): Promise<boolean> {
    return (await this.command('PING')) === '+PONG';
  }
}
