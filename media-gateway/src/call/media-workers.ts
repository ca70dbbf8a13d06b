import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { Settings } from '../settings';
import { LocalMediaLegs } from './local-media';
import { MediaWorkerEntry, resolveMediaWorkerEntry } from './media-worker.entry';
import type { FromWorker, ToWorker } from './media-worker.protocol';
import {
  AgentConnectError,
  MediaLeg,
  MediaLegEvents,
  MediaLegFactory,
  MediaLegOptions,
  MediaRemote,
  MediaSummary,
} from './ports';

/** MEDIA_WORKERS=0: every call's media on the main thread; otherwise that many media worker threads. */
export function mediaLegs(settings: Settings, log: Logger): MediaLegFactory {
  return settings.mediaWorkers === 0 ? new LocalMediaLegs(settings, log) : new WorkerMediaLegs(settings, log);
}

type Waiter = { resolve(value: unknown): void; reject(error: Error): void };

/**
 * Calls' media spread over worker threads (docs/media-gateway.md, "Media workers"): a call goes to
 * the worker with the fewest calls, which binds its RTP ports (each worker has its own slice of the
 * range), connects its agent and paces its audio on its own event loop. A worker that dies ends its
 * calls only (onEnd: agent_error → BYE and a record without media figures) and is started again.
 */
export class WorkerMediaLegs implements MediaLegFactory {
  private readonly workers: MediaWorker[];
  private readonly owner = new Map<number, MediaWorker>();

  constructor(settings: Settings, log: Logger, entry: MediaWorkerEntry = resolveMediaWorkerEntry()) {
    const count = settings.mediaWorkers;
    const span = Math.floor((settings.rtpPortMax - settings.rtpPortMin + 1) / count);
    this.workers = Array.from({ length: count }, (_, i) => {
      const rtpPortMin = settings.rtpPortMin + i * span;
      const rtpPortMax = i === count - 1 ? settings.rtpPortMax : rtpPortMin + span - 1;
      return new MediaWorker(i, { ...settings, rtpPortMin, rtpPortMax }, entry, log);
    });
  }

  async takePort(): Promise<number | null> {
    for (const worker of [...this.workers].sort((a, b) => a.load - b.load)) {
      const port = await worker.take().catch(() => null);
      if (port === null) continue;
      this.owner.set(port, worker);
      return port;
    }
    return null;
  }

  release(port: number): void {
    this.owner.get(port)?.post({ t: 'release', port });
    this.owner.delete(port);
  }

  open(port: number, options: MediaLegOptions, events: MediaLegEvents, timeoutMs: number, signal: AbortSignal) {
    const worker = this.owner.get(port);
    this.owner.delete(port);
    if (!worker) return Promise.reject(new AgentConnectError('agent_error', true, 503, 'No RTP port', 'not taken'));
    return worker.open(port, options, events, timeoutMs, signal);
  }

  /** Ends a worker as a crash would (tests): its calls end, a new worker takes its place. */
  terminateWorker(index: number): Promise<number> {
    return this.workers[index].terminate();
  }

  async stop(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.stop()));
  }
}

class MediaWorker {
  private thread!: Worker;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiter>();
  private readonly legs = new Map<number, MediaLegEvents>();
  private stopping = false;

  constructor(
    private readonly index: number,
    private readonly settings: Settings,
    private readonly entry: MediaWorkerEntry,
    private readonly log: Logger,
  ) {
    this.spawn();
  }

  /** Calls being set up or up on this worker. */
  get load(): number {
    return this.waiting.size + this.legs.size;
  }

  post(message: ToWorker): void {
    this.thread.postMessage(message);
  }

  take(): Promise<number | null> {
    return this.request<number | null>((id) => ({ t: 'take', id }));
  }

  async open(port: number, options: MediaLegOptions, events: MediaLegEvents, timeoutMs: number, signal: AbortSignal) {
    let id = 0;
    const abort = () => this.post({ t: 'abort', id });
    signal.addEventListener('abort', abort, { once: true });
    try {
      await this.request((n) => ((id = n), { t: 'open', id: n, port, options, timeoutMs }));
    } finally {
      signal.removeEventListener('abort', abort);
    }
    this.legs.set(id, events);
    return new WorkerLeg(this, id, this.thread);
  }

  update(id: number, remote: MediaRemote): void {
    if (this.legs.has(id)) this.post({ t: 'update', id, remote });
  }

  close(id: number, thread: Worker): Promise<MediaSummary | null> {
    // A leg of a worker that died has nothing left to close: its summary is lost.
    if (thread !== this.thread || !this.legs.delete(id)) return Promise.resolve(null);
    return this.request<MediaSummary | null>((n) => ({ t: 'close', id: n, leg: id })).catch(() => null);
  }

  terminate(): Promise<number> {
    return this.thread.terminate();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.thread.terminate();
  }

  private request<T>(make: (id: number) => ToWorker): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.post(make(id));
    });
  }

  private spawn(): void {
    const thread = new Worker(this.entry.file, {
      execArgv: this.entry.execArgv,
      // The worker needs no Trunkline key: records and lookups stay on the main thread.
      workerData: { settings: { ...this.settings, gatewayKey: '' }, index: this.index },
    });
    this.thread = thread;
    thread.on('message', (message: FromWorker) => this.receive(message));
    thread.on('error', (error) => this.log.error({ worker: this.index, err: error.message }, 'media worker failed'));
    thread.on('exit', (code) => this.exited(thread, code));
  }

  private receive(message: FromWorker): void {
    if (message.t === 'end') return this.legs.get(message.id)?.onEnd(message.reason, message.failure);
    const waiter = this.waiting.get(message.id);
    this.waiting.delete(message.id);
    if (!waiter) return;
    if (message.t === 'took') waiter.resolve(message.port);
    else if (message.t === 'closed') waiter.resolve(message.summary);
    else if (message.t === 'opened') waiter.resolve(undefined);
    else {
      const { failureClass, retryable, sipCode, phrase, message: reason } = message.failure;
      waiter.reject(new AgentConnectError(failureClass, retryable, sipCode, phrase, reason));
    }
  }

  /** The thread is gone (crash or stop): its requests fail, its calls end, and a new thread takes its slice. */
  private exited(thread: Worker, code: number): void {
    if (thread !== this.thread) return;
    const waiting = [...this.waiting.values()];
    const legs = [...this.legs.values()];
    this.waiting.clear();
    this.legs.clear();
    if (!this.stopping) {
      this.log.error({ worker: this.index, code, calls: legs.length }, 'media worker exited; its calls end');
      this.spawn();
    }
    const lost = new AgentConnectError(
      'agent_error',
      true,
      503,
      'Media worker failed',
      `media worker exited (${code})`,
    );
    for (const waiter of waiting) waiter.reject(lost);
    for (const events of legs) events.onEnd('agent_error', { failureClass: 'agent_error', retryable: true });
  }
}

class WorkerLeg implements MediaLeg {
  constructor(
    private readonly worker: MediaWorker,
    private readonly id: number,
    private readonly thread: Worker,
  ) {}

  update(remote: MediaRemote): void {
    this.worker.update(this.id, remote);
  }

  close(): Promise<MediaSummary | null> {
    return this.worker.close(this.id, this.thread);
  }
}
