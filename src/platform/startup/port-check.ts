import { createServer } from 'node:net';
import { StartupError } from './startup-error';

/**
 * Binds the port the way the service will and lets it go: a busy port is reported before any
 * store is opened. The real listen can still lose a race; it reports through listenProblem too.
 */
export async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => reject(listenProblem(error, host, port) ?? error));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** What a failed listen means for the operator; null for errors that are not about the address. */
export function listenProblem(error: unknown, host: string, port: number): StartupError | null {
  switch ((error as NodeJS.ErrnoException | null)?.code) {
    case 'EADDRINUSE':
      return new StartupError(
        `port ${port} on ${host} is already in use (another Trunkline, or another program): stop it, or choose another port with PORT=<port>`,
      );
    case 'EACCES':
      return new StartupError(
        `port ${port} needs privileges this process lacks: choose a port above 1023 with PORT=<port>`,
      );
    case 'EADDRNOTAVAIL':
      return new StartupError(
        `HOST=${host} is not an address of this machine: use 0.0.0.0, 127.0.0.1 or one of its addresses`,
      );
    default:
      return null;
  }
}
