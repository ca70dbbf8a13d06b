import WebSocket from 'ws';
import { classifyHandshakeError, classifyHttpStatus } from './agent-failure';
import { AgentConnectError } from './agent.port';

export interface OpenSocketOptions {
  url: string;
  timeoutMs: number;
  ca?: string | Buffer | Array<string | Buffer>;
  /** ws maxPayload: a larger message closes the socket (the hard memory bound). */
  maxPayloadBytes: number;
  /** Upgrade request headers (a provider's key: never logged). */
  headers?: Record<string, string>;
}

/**
 * Opens the agent's WebSocket, or rejects with the failure class of why not: timeout or abort
 * (agent_timeout), a refused upgrade (by HTTP status), a socket, DNS or TLS error. Whatever fails,
 * the socket is destroyed before the promise settles, so a failed connect leaves nothing open.
 */
export function openAgentSocket(options: OpenSocketOptions, signal: AbortSignal): Promise<WebSocket> {
  return new Promise<WebSocket>((resolve, reject) => {
    let ws: WebSocket | null = null;
    const fail = (error: AgentConnectError): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (ws) {
        ws.removeAllListeners();
        ws.on('error', () => undefined);
        ws.terminate();
      }
      reject(error);
    };
    const onAbort = (): void => fail(new AgentConnectError('agent_timeout', false, 'connect aborted'));
    const timer = setTimeout(
      () => fail(new AgentConnectError('agent_timeout', true, `no connection within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      ws = new WebSocket(options.url, {
        ca: options.ca,
        perMessageDeflate: false,
        maxPayload: options.maxPayloadBytes,
        handshakeTimeout: options.timeoutMs,
        followRedirects: false,
        ...(options.headers ? { headers: options.headers } : {}),
      });
    } catch (error) {
      return fail(new AgentConnectError('agent_error', false, `bad agent URL: ${(error as Error).message}`));
    }
    const socket = ws;
    socket.on('unexpected-response', (_req, res) => {
      res.resume();
      fail(classifyHttpStatus(res.statusCode ?? 0));
    });
    socket.on('error', (error) => fail(classifyHandshakeError(error)));
    socket.on('open', () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      socket.removeAllListeners();
      resolve(socket);
    });
  });
}
