import { connect, Socket } from 'node:net';

/** One command the server ran, as MONITOR reports it. */
export interface MonitoredCommand {
  /** The client's address (`127.0.0.1:48448`), or `lua` for a command a script ran. */
  source: string;
  args: string[];
}

/**
 * Redis's MONITOR on a socket of its own. ioredis's `monitor()` cannot be trusted on a busy
 * server: it sets its "monitoring" status a microtask after MONITOR's `+OK`, so a command line that
 * arrives in the same read as the `+OK` is taken for a reply to no command ("Command queue state
 * error", ioredis 6.0.0) and rejects the monitor. Here every line after the `+OK` is a command.
 * Resolves once the server has answered `+OK`: every command from then on is reported.
 */
export function monitorRedis(url: string, onCommand: (command: MonitoredCommand) => void): Promise<{ close(): void }> {
  const { hostname, port, password, username } = new URL(url);
  const socket: Socket = connect({ host: hostname || '127.0.0.1', port: Number(port || 6379) });
  socket.setNoDelay(true);
  return new Promise((resolve, reject) => {
    let pending = '';
    let monitoring = false;
    let replies = password ? 2 : 1; // AUTH's +OK, then MONITOR's
    socket.once('error', reject);
    socket.on('connect', () => {
      if (password)
        socket.write(
          command('AUTH', ...(username ? [decodeURIComponent(username)] : []), decodeURIComponent(password)),
        );
      socket.write(command('MONITOR'));
    });
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      for (let end = pending.indexOf('\r\n'); end >= 0; end = pending.indexOf('\r\n')) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 2);
        if (!monitoring) {
          if (!line.startsWith('+OK')) {
            socket.destroy();
            reject(new Error(`MONITOR refused: ${line}`));
            return;
          }
          if (--replies === 0) {
            monitoring = true;
            socket.off('error', reject);
            socket.on('error', () => undefined);
            resolve({ close: () => socket.destroy() });
          }
          continue;
        }
        const parsed = parseMonitorLine(line);
        if (parsed) onCommand(parsed);
      }
    });
  });
}

function command(...args: string[]): string {
  return `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`;
}

/**
 * `+1795870120.990655 [0 127.0.0.1:48448] "zcard" "t:rm:key"`: the source inside the brackets,
 * then each argument quoted with C escapes (sdscatrepr: `\\`, `\"`, `\n`, `\r`, `\t`, `\a`, `\b`,
 * `\xHH`). The line arrives as latin1 text, so `\xHH` bytes and raw bytes come back as they were.
 */
export function parseMonitorLine(line: string): MonitoredCommand | null {
  const open = line.indexOf('[');
  const close = line.indexOf(']', open);
  if (!line.startsWith('+') || open < 0 || close < 0) return null;
  const source = line.slice(open + 1, close).split(' ')[1] ?? '';
  const args: string[] = [];
  let i = close + 1;
  for (;;) {
    i = line.indexOf('"', i);
    if (i < 0) break;
    let arg = '';
    for (i++; i < line.length && line[i] !== '"'; i++) {
      if (line[i] !== '\\') {
        arg += line[i];
        continue;
      }
      const next = line[++i];
      if (next === 'x') {
        arg += String.fromCharCode(parseInt(line.slice(i + 1, i + 3), 16));
        i += 2;
      } else arg += ESCAPES[next] ?? next;
    }
    i++;
    args.push(Buffer.from(arg, 'latin1').toString('utf8'));
  }
  return { source, args };
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b' };
