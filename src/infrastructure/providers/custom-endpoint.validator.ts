import { createHash, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { connect, rootCertificates, type ConnectionOptions } from 'node:tls';
import { checkCustomEndpoint } from './format.provider-validator';
import { rejected, unreachable, VALID, type ValidationResult } from './provider-validator.port';

export interface CustomEndpointValidatorOptions {
  /** Open a TLS connection and perform the WebSocket upgrade. Off by default: the probe connects
   * to whatever host the API client names. */
  probe: boolean;
  timeoutMs: number;
  /** A CA (PEM) trusted in addition to the public roots, e.g. a test CA. */
  ca?: string;
}

/** The format check, then (when enabled) a WebSocket handshake with the endpoint. */
export class CustomEndpointValidator {
  constructor(private readonly options: CustomEndpointValidatorOptions) {}

  async validate(endpoint: string): Promise<ValidationResult> {
    const format = checkCustomEndpoint(endpoint);
    if (!format.ok || !this.options.probe) return format;
    return probeWebSocketHandshake(new URL(endpoint), this.options);
  }
}

const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const MAX_HEAD_BYTES = 16 * 1024;
const refuse = (message: string) => rejected('custom_endpoint', `the custom endpoint ${message}`);
const unavailable = (message: string) => unreachable(`the custom endpoint ${message}`);

/**
 * RFC 6455 §4.1 over a raw TLS socket: no WebSocket library is needed to send one upgrade and
 * check the 101 and its Sec-WebSocket-Accept. Resolves exactly once; never rejects.
 */
export function probeWebSocketHandshake(
  url: URL,
  options: Pick<CustomEndpointValidatorOptions, 'timeoutMs' | 'ca'>,
): Promise<ValidationResult> {
  return new Promise((resolve) => {
    const key = randomBytes(16).toString('base64');
    const socket = connect(tlsOptions(url, options.ca));
    let head = Buffer.alloc(0);
    let settled = false;
    const finish = (result: ValidationResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (result.ok) {
        // Say goodbye properly so the agent logs a normal closure, not a dropped connection.
        socket.end(closeFrame());
        socket.setTimeout(options.timeoutMs, () => socket.destroy());
      } else {
        socket.destroy();
      }
      resolve(result);
    };
    const timer = setTimeout(
      () => finish(unavailable(`did not complete a WebSocket handshake within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    socket.once('secureConnect', () => {
      // Verification is done here rather than by rejectUnauthorized, so that an untrusted
      // certificate (a lasting misconfiguration, not worth retrying) is told apart from an outage.
      if (!socket.authorized)
        return finish(refuse(`presented a TLS certificate that is not trusted (${String(socket.authorizationError)})`));
      socket.write(upgradeRequest(url, key));
    });
    socket.on('data', (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end >= 0) finish(judgeHandshake(head.subarray(0, end).toString('latin1'), key));
      else if (head.length > MAX_HEAD_BYTES) finish(refuse('answered with an oversized HTTP header'));
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish(unavailable(`could not be reached (${error.code ?? 'network error'})`)),
    );
    socket.on('close', () => finish(unavailable('closed the connection before answering the WebSocket upgrade')));
  });
}

function tlsOptions(url: URL, ca: string | undefined): ConnectionOptions {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return {
    host,
    port: url.port === '' ? 443 : Number(url.port),
    // SNI must not carry an IP address (RFC 6066 §3); the certificate is still checked against it.
    ...(isIP(host) === 0 ? { servername: host } : {}),
    ...(ca === undefined ? {} : { ca: [...rootCertificates, ca] }),
    ALPNProtocols: ['http/1.1'],
    rejectUnauthorized: false,
  };
}

function upgradeRequest(url: URL, key: string): string {
  // The URL parser has percent-encoded the path and query, so neither can break the request line.
  return [
    `GET ${url.pathname}${url.search} HTTP/1.1`,
    `Host: ${url.host}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    `Sec-WebSocket-Key: ${key}`,
    'Sec-WebSocket-Version: 13',
    'User-Agent: trunkline-endpoint-probe',
    '',
    '',
  ].join('\r\n');
}

function judgeHandshake(head: string, key: string): ValidationResult {
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})\b/.exec(statusLine)?.[1];
  if (status === undefined) return refuse('did not answer as an HTTP server');
  // A rate limit or a server error says the URL is right and the agent busy or down: retryable.
  if (status === '429' || status.startsWith('5')) return unavailable(`answered HTTP ${status}`);
  if (status !== '101') return refuse(`answered HTTP ${status} instead of accepting a WebSocket connection`);
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  if (headers.get('upgrade')?.toLowerCase() !== 'websocket') return refuse('switched protocols, but not to WebSocket');
  const expected = createHash('sha1')
    .update(key + WEBSOCKET_GUID)
    .digest('base64');
  if (headers.get('sec-websocket-accept') !== expected)
    return refuse('answered the upgrade with a wrong Sec-WebSocket-Accept');
  return VALID;
}

/** A masked close frame, status 1000 (normal closure); clients must mask every frame. */
function closeFrame(): Buffer {
  const mask = randomBytes(4);
  const payload = [0x03, 0xe8].map((byte, i) => byte ^ mask[i]);
  return Buffer.concat([Buffer.from([0x88, 0x80 | payload.length]), mask, Buffer.from(payload)]);
}
