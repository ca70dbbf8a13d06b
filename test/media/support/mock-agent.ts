/**
 * A Media Streams agent for tests, written from the protocol's documentation (Twilio bidirectional
 * Media Streams: it receives connected, start, media, dtmf, mark, stop; it sends media, mark, clear).
 * It detects the end of each caller utterance itself, by energy (or on `trigger()`), and answers
 * after `replyDelayMs` with `reply` audio followed by a mark. It can echo, refuse the upgrade, never
 * answer it, drop the socket, hang up, and send `clear` when the caller barges in over its answer.
 */
import { laterTracked } from './timer-lateness';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { mulawLevelDbfs, mulawEncode } from '../../../media-gateway/src/media';
import { testCertificate } from '../../support/provider-stubs';

export interface MockAgentOptions {
  /** Serve wss:// with a fresh self-signed certificate (default), or ws:// when false. */
  tls?: boolean;
  /**
   * The certificate to serve instead of a fresh one (implies tls): several mock agents behind one
   * gateway must share one, since a gateway trusts one CA file and OpenSSL picks a CA by subject name.
   */
  certificate?: { key: string; cert: string };
  /** D: from the detected end of an utterance to the first reply audio sent. Default 300 ms. */
  replyDelayMs?: number;
  /** The reply audio (mu-law 8 kHz), or one per utterance (0-based). Default: 600 ms of a 440 Hz tone. */
  reply?: Uint8Array | ((utterance: number) => Uint8Array);
  /** Bytes per media message of a reply; all are sent at once, the gateway paces them. Default 3200 (400 ms). */
  replyChunkBytes?: number;
  /** Send every caller frame straight back (and answer nothing else). */
  echo?: boolean;
  /** 'energy' (default): an utterance ends after `silenceMs` of frames under `thresholdDbfs`; 'trigger': on trigger(). */
  endOfSpeech?: 'energy' | 'trigger';
  thresholdDbfs?: number;
  silenceMs?: number;
  /** Answer the WebSocket upgrade with this HTTP status instead of accepting it. */
  refuseStatus?: number;
  /** Accept the TCP connection and never answer the upgrade. */
  neverAnswerUpgrade?: boolean;
  /** Connect, then never send anything (a stuck agent). */
  silent?: boolean;
  /** Destroy the socket this long after connecting (no close frame). */
  dropAfterMs?: number;
  /** Close the WebSocket normally (agent hangs up) after this many replies have been sent. */
  hangUpAfterReplies?: number;
  /** Send `clear` when the caller speaks while a reply's mark has not come back. Default true. */
  clearOnBargeIn?: boolean;
  /** Send this many extra marks before each reply (protocol exercise). Default 0. */
  leadingMarks?: number;
}

export interface MockReply {
  utterance: number;
  /** Wall clock (ms) when the end of the utterance was detected, and when the reply was sent. */
  detectedAt: number;
  sentAt: number;
}

export interface MockConnection {
  path: string;
  start: Record<string, unknown> | null;
  /** Every event name received, in order. */
  events: string[];
  mediaFrames: number;
  mediaBytes: number;
  dtmf: string[];
  marksReturned: string[];
  replies: MockReply[];
  clearsSent: number;
  stopped: boolean;
  closed: boolean;
  /** Messages the mock could not parse (the gateway must never send one). */
  invalid: number;
  send(message: unknown): void;
  socket: WebSocket;
}

export interface MockAgent {
  url: string;
  port: number;
  /** PEM of the self-signed certificate (pass as the adapter's `ca`); null without TLS. */
  ca: string | null;
  connections: MockConnection[];
  upgradesRefused: number;
  /** Ends the current utterance of every open connection now (endOfSpeech 'trigger'). */
  trigger(): void;
  waitFor(what: string, probe: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** 600 ms of a 440 Hz tone at about −12 dBFS, mu-law. */
export function toneReply(ms = 600, hz = 440): Uint8Array {
  const samples = new Int16Array((ms * 8000) / 1000);
  for (let i = 0; i < samples.length; i++) samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / 8000));
  return mulawEncode(samples, new Uint8Array(samples.length));
}

export async function startMockAgent(options: MockAgentOptions = {}): Promise<MockAgent> {
  const tls = options.certificate !== undefined || (options.tls ?? true);
  const cert = options.certificate ?? (tls ? await testCertificate() : null);
  const server: HttpServer = cert ? createHttpsServer({ key: cert.key, cert: cert.cert }) : createHttpServer();
  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Set<Socket>();
  const connections: MockConnection[] = [];
  const triggers: Array<() => void> = [];
  const timers = new Set<NodeJS.Timeout>();
  const later = (fn: () => void, ms: number): void => laterTracked(timers, fn, ms);
  const agent = { upgradesRefused: 0 };

  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (req, socket, head) => {
    if (options.neverAnswerUpgrade) return;
    if (options.refuseStatus) {
      agent.upgradesRefused++;
      socket.end(`HTTP/1.1 ${options.refuseStatus} Refused\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = serve(ws, req.url ?? '/', options, later);
      connections.push(connection.state);
      triggers.push(connection.trigger);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `${tls ? 'wss' : 'ws'}://127.0.0.1:${port}/agent`,
    port,
    ca: cert?.cert ?? null,
    connections,
    get upgradesRefused() {
      return agent.upgradesRefused;
    },
    trigger: () => triggers.forEach((t) => t()),
    async waitFor(what, probe, timeoutMs = 30_000) {
      const started = Date.now();
      while (!probe()) {
        if (Date.now() - started > timeoutMs) throw new Error(`mock agent: ${what} not within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async close() {
      timers.forEach((t) => clearTimeout(t));
      for (const ws of wss.clients) ws.terminate();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function serve(
  ws: WebSocket,
  path: string,
  options: MockAgentOptions,
  later: (fn: () => void, ms: number) => void,
): { state: MockConnection; trigger: () => void } {
  const state: MockConnection = {
    path,
    start: null,
    events: [],
    mediaFrames: 0,
    mediaBytes: 0,
    dtmf: [],
    marksReturned: [],
    replies: [],
    clearsSent: 0,
    stopped: false,
    closed: false,
    invalid: 0,
    socket: ws,
    send: (message) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    },
  };
  const thresholdDbfs = options.thresholdDbfs ?? -40;
  const silenceFrames = Math.max(1, Math.round((options.silenceMs ?? 500) / 20));
  let streamSid = '';
  let voicedRun = 0;
  let inSpeech = false;
  let quietFrames = 0;
  let utterances = 0;
  const pendingMarks = new Set<string>();

  const endUtterance = (): void => {
    if (options.echo || options.silent) return;
    const utterance = utterances++;
    const detectedAt = Date.now();
    later(() => reply(utterance, detectedAt), options.replyDelayMs ?? 300);
  };

  const reply = (utterance: number, detectedAt: number): void => {
    if (ws.readyState !== ws.OPEN) return;
    const audio = typeof options.reply === 'function' ? options.reply(utterance) : (options.reply ?? toneReply());
    for (let i = 0; i < (options.leadingMarks ?? 0); i++)
      state.send({ event: 'mark', streamSid, mark: { name: `lead-${utterance}-${i}` } });
    const chunk = options.replyChunkBytes ?? 3200;
    for (let o = 0; o < audio.length; o += chunk) {
      const payload = Buffer.from(audio.subarray(o, o + chunk)).toString('base64');
      state.send({ event: 'media', streamSid, media: { payload } });
    }
    const name = `reply-${utterance}`;
    pendingMarks.add(name);
    state.send({ event: 'mark', streamSid, mark: { name } });
    state.replies.push({ utterance, detectedAt, sentAt: Date.now() });
    if (options.hangUpAfterReplies !== undefined && state.replies.length >= options.hangUpAfterReplies) {
      later(() => ws.close(1000, 'agent done'), 50);
    }
  };

  const onCallerFrame = (frame: Buffer): void => {
    if (options.echo) {
      state.send({ event: 'media', streamSid, media: { payload: frame.toString('base64') } });
      return;
    }
    const voiced = mulawLevelDbfs(frame) >= thresholdDbfs;
    voicedRun = voiced ? voicedRun + 1 : 0;
    if (!inSpeech && voicedRun >= 2) {
      inSpeech = true;
      quietFrames = 0;
      if (pendingMarks.size > 0 && (options.clearOnBargeIn ?? true)) {
        state.clearsSent++;
        state.send({ event: 'clear', streamSid });
      }
    } else if (inSpeech) {
      quietFrames = voiced ? 0 : quietFrames + 1;
      if (quietFrames >= silenceFrames && (options.endOfSpeech ?? 'energy') === 'energy') {
        inSpeech = false;
        endUtterance();
      }
    }
  };

  ws.on('message', (data, isBinary) => {
    let message: Record<string, unknown>;
    try {
      if (isBinary) throw new Error('binary');
      message = JSON.parse(String(data)) as Record<string, unknown>;
    } catch {
      state.invalid++;
      return;
    }
    const event = String(message.event);
    state.events.push(event);
    if (event === 'start') {
      state.start = message.start as Record<string, unknown>;
      streamSid = String(message.streamSid ?? '');
    } else if (event === 'media') {
      const payload = Buffer.from(String((message.media as { payload?: string })?.payload ?? ''), 'base64');
      state.mediaFrames++;
      state.mediaBytes += payload.length;
      if (!options.silent) onCallerFrame(payload);
    } else if (event === 'dtmf') {
      state.dtmf.push(String((message.dtmf as { digit?: string })?.digit));
    } else if (event === 'mark') {
      const name = String((message.mark as { name?: string })?.name);
      state.marksReturned.push(name);
      pendingMarks.delete(name);
    } else if (event === 'stop') {
      state.stopped = true;
    }
  });
  ws.on('close', () => {
    state.closed = true;
  });
  if (options.dropAfterMs !== undefined) later(() => ws.terminate(), options.dropAfterMs);
  const trigger = (): void => {
    if (ws.readyState !== ws.OPEN) return;
    inSpeech = false;
    voicedRun = 0;
    endUtterance();
  };
  return { state, trigger };
}
