import { ChildProcess, spawn, SpawnOptions, spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';

/** A child process of the suite, with the tail of what it printed. */
export interface Spawned {
  name: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it is gone. */
  stop(graceMs?: number): Promise<void>;
}

const KEEP_OUTPUT = 256 * 1024;

/**
 * Every process the suite starts, so that each is stopped when the suite ends, whatever failed.
 * (run.mjs also kills the whole process group at the end, in case this process itself dies.)
 */
export class ProcessGroup {
  private readonly running = new Set<Spawned>();

  /**
   * `urgent`: the process stamps times the suite compares within 50 ms (Kamailio, SIPp); as root
   * it runs at a higher priority, so a busy machine delays its stamps less.
   */
  spawn(name: string, command: string, args: string[], options: SpawnOptions & { urgent?: boolean } = {}): Spawned {
    const { urgent, ...spawnOptions } = options;
    const [file, argv] =
      urgent && process.getuid?.() === 0 ? ['nice', ['-n', '-10', command, ...args]] : [command, args];
    const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'], ...spawnOptions });
    let output = '';
    const keep = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.length > KEEP_OUTPUT) output = output.slice(-KEEP_OUTPUT);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const spawned: Spawned = {
      name,
      child,
      output: () => output,
      exited,
      stop: async (graceMs = 20_000) => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          // Past the grace, its own children first: a Kamailio main process killed alone leaves its
          // children orphaned, and they can hang on a lock it held (the suite would never end).
          const timer = setTimeout(() => {
            spawnSync('pkill', ['-KILL', '-P', String(child.pid)]);
            child.kill('SIGKILL');
          }, graceMs);
          await exited;
          clearTimeout(timer);
        }
        this.running.delete(spawned);
      },
    };
    this.running.add(spawned);
    void exited.then(() => this.running.delete(spawned));
    return spawned;
  }

  adopt(spawned: Spawned): Spawned {
    this.running.add(spawned);
    void spawned.exited.then(() => this.running.delete(spawned));
    return spawned;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.running].map((p) => p.stop()));
  }
}

/** A loopback UDP port nobody uses right now. */
export function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
