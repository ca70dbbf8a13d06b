import { connect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/** Sends bytes no HTTP client would, and returns whatever comes back until the socket ends. */
export function rawTls(port: number, ca: string, payload: string): Promise<string> {
  return collect(
    tlsConnect({ host: '127.0.0.1', port, ca, servername: 'localhost' }, function (this: import('node:tls').TLSSocket) {
      this.write(payload);
    }),
  );
}

export function rawPlain(port: number, payload: string): Promise<string> {
  const socket = connect({ host: '127.0.0.1', port }, () => socket.write(payload));
  return collect(socket);
}

function collect(socket: import('node:net').Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString()));
    socket.on('end', () => resolve(data));
    socket.on('close', () => resolve(data));
    socket.on('error', (error) => (data ? resolve(data) : reject(error)));
  });
}
