import { Agent, request as httpsRequest } from 'node:https';
import { createSecureContext, rootCertificates, SecureContext } from 'node:tls';
import { AttemptResult } from '../domain/webhook-delivery.decider';
import { checkLiteralHost, ForbiddenAddressError, guardedLookup } from './ssrf.guard';

export interface SenderOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Extra CAs to trust besides the system's (a test receiver's self-signed certificate). */
  ca: string | null;
}

export interface OutgoingWebhook {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export const WEBHOOK_SENDER = Symbol('WebhookSender');

export interface WebhookSender {
  send(webhook: OutgoingWebhook): Promise<AttemptResult>;
}

const USER_AGENT = 'Trunkline-Webhooks/1';
/** Below the usual 5 s keep-alive of servers, so a reused socket is rarely one the receiver is closing. */
const IDLE_SOCKET_MS = 4000;

/**
 * One POST over HTTPS with node:https: each new socket's DNS lookup goes through the SSRF guard, no
 * redirect is followed (a 3xx is a failed attempt), and the whole exchange, up to the end of the
 * response body (which is discarded), is bounded by the timeout.
 */
export class HttpsWebhookSender implements WebhookSender {
  private readonly lookup: ReturnType<typeof guardedLookup>;
  /** Built once: parsing the CA bundle per request costs milliseconds of CPU. */
  private readonly secureContext: SecureContext | undefined;
  /** Keep-alive per host: most attempts go to a few receivers, and a TLS handshake is the dearest part of one. */
  private readonly agent: Agent;

  constructor(private readonly options: SenderOptions) {
    this.lookup = guardedLookup(options.allowPrivate);
    this.secureContext = options.ca ? createSecureContext({ ca: [...rootCertificates, options.ca] }) : undefined;
    this.agent = new Agent({ keepAlive: true, maxFreeSockets: 8, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' });
  }

  /** Nest calls this at shutdown: idle keep-alive sockets must not hold the process open. */
  onApplicationShutdown(): void {
    this.agent.destroy();
  }

  send(webhook: OutgoingWebhook): Promise<AttemptResult> {
    let url: URL;
    try {
      url = new URL(webhook.url);
      if (url.protocol !== 'https:') return Promise.resolve({ status: null, error: 'the URL is not https' });
      checkLiteralHost(url.hostname, this.options.allowPrivate);
    } catch (error) {
      return Promise.resolve({ status: null, error: describe(error) });
    }
    return new Promise((resolve) => {
      const req = httpsRequest(url, {
        method: 'POST',
        headers: {
          ...webhook.headers,
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'content-length': Buffer.byteLength(webhook.body),
        },
        lookup: this.lookup as never,
        agent: this.agent,
        signal: AbortSignal.timeout(this.options.timeoutMs),
        // tls.connect option, passed through by the agent (not in https.RequestOptions' type).
        ...({ secureContext: this.secureContext } as object),
      });
      req.once('response', (res) => {
        res.resume();
        res.once('end', () => resolve({ status: res.statusCode ?? null, error: null }));
        res.once('error', (error) => resolve({ status: res.statusCode ?? null, error: describe(error) }));
        // The body was cut short (timeout): the status still counts.
        res.once('close', () => resolve({ status: res.statusCode ?? null, error: null }));
      });
      req.once('error', (error) => resolve({ status: null, error: describe(error, this.options.timeoutMs) }));
      req.end(webhook.body);
    });
  }
}

/** A short reason for the delivery log; never the request (its headers carry signatures). */
function describe(error: unknown, timeoutMs?: number): string {
  if (error instanceof ForbiddenAddressError) return error.message;
  const e = error as NodeJS.ErrnoException;
  if (e?.name === 'AbortError' || e?.name === 'TimeoutError' || e?.code === 'ABORT_ERR')
    return `timed out after ${timeoutMs} ms`;
  if (e?.cause instanceof ForbiddenAddressError) return e.cause.message;
  return e?.code ? `${e.code}: ${e.message}` : String(e?.message ?? error).slice(0, 300);
}
