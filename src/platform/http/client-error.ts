import type { Socket } from 'node:net';
import { envelope } from './error-envelope';

/**
 * Errors Node's HTTP parser raises before any route runs (oversized headers, malformed request
 * lines, header timeouts). Node would answer them with an empty body; we answer in the envelope.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, reason, body] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'Request Header Fields Too Large',
          envelope('header_fields_too_large', 'Request headers are too large (limit 16 KiB)'),
        ]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [
            408,
            'Request Timeout',
            { error: { code: 'request_timeout', message: 'The request was not received in time', status: 408 } },
          ]
        : [
            400,
            'Bad Request',
            envelope('missing_required_field', 'Malformed HTTP request', { reason: 'malformed_http' }),
          ];
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}
