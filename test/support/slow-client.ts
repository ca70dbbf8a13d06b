import { connect, TLSSocket } from 'node:tls';

export interface SlowOutcome {
  /** Whatever the server answered before closing. */
  response: string;
  /** Bytes the client managed to write before the server closed the connection. */
  bytesSent: number;
  /** The server closed the connection before the client ran out of bytes to trickle. */
  closedByServer: boolean;
}

/**
 * A slowloris: opens a TLS connection, writes `head` at once, then one byte of `trickle` every
 * `everyMs`, and reports whether the server hung up before the trickle ended.
 */
export function trickle(
  port: number,
  ca: string,
  head: string,
  trickleText: string,
  everyMs: number,
): Promise<SlowOutcome> {
  return new Promise((resolve) => {
    let response = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const socket: TLSSocket = connect({ host: '127.0.0.1', port, ca, servername: 'localhost' }, () => {
      socket.write(head);
      sent += head.length;
      timer = setInterval(() => {
        if (sent - head.length >= trickleText.length) return finish(false);
        socket.write(trickleText[sent - head.length]);
        sent++;
      }, everyMs);
    });
    const finish = (closedByServer: boolean) => {
      if (done) return;
      done = true;
      clearInterval(timer);
      socket.destroy();
      resolve({ response, bytesSent: sent, closedByServer });
    };
    socket.on('data', (chunk) => (response += chunk.toString()));
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
  });
}
