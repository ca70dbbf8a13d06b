import { useState } from 'preact/hooks';

interface SipMessage {
  /** The start line: "INVITE sip:… SIP/2.0" or "SIP/2.0 200 OK". */
  first: string;
  text: string;
  /** true: from the left party (the INVITE's sender) to the right one. */
  rightward: boolean;
}

const START = /^([A-Z]+ \S+ SIP\/2\.0|SIP\/2\.0 \d{3}\b.*)$/;
const VIA_HOST = /^Via:\s*SIP\/2\.0\/\w+\s+([^:;\s]+)/im;

/**
 * Splits a raw trace into messages and places each on the ladder. A request travels from its top
 * Via's host; a response travels back to it. The left party is whoever sent the first request.
 */
export function parseTrace(trace: string): { left: string; right: string; messages: SipMessage[] } {
  const blocks: string[][] = [];
  for (const line of trace.split(/\r?\n/)) {
    if (START.test(line) || blocks.length === 0) blocks.push([line]);
    else blocks[blocks.length - 1].push(line);
  }
  let left = '';
  const hosts = new Set<string>();
  const messages = blocks.map((lines) => {
    const text = lines.join('\n');
    const host = VIA_HOST.exec(text)?.[1] ?? '';
    const request = !lines[0].startsWith('SIP/2.0');
    if (request && !left) left = host;
    if (host) hosts.add(host);
    const fromLeft = host === left;
    return { first: lines[0], text, rightward: request ? fromLeft : !fromLeft };
  });
  const right = [...hosts].find((h) => h !== left) ?? 'peer';
  return { left: left || 'caller side', right, messages };
}

const W = 640;
const ROW = 34;

/** The SIP trace as a ladder diagram (SVG text nodes only); a message's full text opens below. */
export function SipLadder({ trace }: { trace: string }) {
  const [open, setOpen] = useState<number | null>(null);
  const { left, right, messages } = parseTrace(trace);
  const height = 50 + messages.length * ROW;
  const [x1, x2] = [110, W - 110];
  return (
    <div class="ladder" data-testid="sip-ladder">
      <svg
        viewBox={`0 0 ${W} ${height}`}
        width="100%"
        role="img"
        aria-label={`SIP ladder: ${messages.map((m) => (m.first.split(' ')[0] === 'SIP/2.0' ? m.first.slice(8) : m.first.split(' ')[0])).join(', ')}`}
      >
        <text x={x1} y={18} text-anchor="middle" class="ladder-party">
          {left}
        </text>
        <text x={x2} y={18} text-anchor="middle" class="ladder-party">
          {right}
        </text>
        <line x1={x1} y1={26} x2={x1} y2={height} class="ladder-life" />
        <line x1={x2} y1={26} x2={x2} y2={height} class="ladder-life" />
        {messages.map((m, i) => {
          const y = 50 + i * ROW;
          const [from, to] = m.rightward ? [x1, x2] : [x2, x1];
          const head = m.rightward ? -8 : 8;
          return (
            <g class={`ladder-msg${open === i ? ' open' : ''}`} onClick={() => setOpen(open === i ? null : i)}>
              <line x1={from} y1={y} x2={to} y2={y} />
              <polyline points={`${to + head},${y - 5} ${to},${y} ${to + head},${y + 5}`} />
              <text x={W / 2} y={y - 6} text-anchor="middle">
                {label(m.first)}
              </text>
            </g>
          );
        })}
      </svg>
      <ol class="ladder-list">
        {messages.map((m, i) => (
          <li>
            <button
              type="button"
              class="link"
              aria-expanded={open === i}
              onClick={() => setOpen(open === i ? null : i)}
            >
              {m.rightward ? '→' : '←'} {label(m.first)}
            </button>
            {open === i && <pre class="sip-text">{m.text}</pre>}
          </li>
        ))}
      </ol>
    </div>
  );
}

function label(first: string): string {
  return first.startsWith('SIP/2.0') ? first.slice(8) : first.split(' ')[0];
}
