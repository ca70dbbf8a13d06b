/**
 * SIP messages: parsing and serialising (RFC 3261 §7). Written here rather than taken from a
 * library: the Node SIP stacks either need an external server (drachtio-srf) or are unmaintained
 * (sip.js 0.0.x), and a UAS needs only this much (docs/dependencies.md). Fuzzed in
 * test/media/unit/sip-message.spec.ts.
 *
 * Bounded by construction: at most MAX_HEADERS header lines and MAX_MESSAGE bytes; anything that
 * does not parse is `null` (the transport drops it, or answers 400 when it can, §21.4.1).
 */

export const MAX_MESSAGE = 64 * 1024;
const MAX_HEADERS = 128;

/** §7.3.3 compact forms → full names (lower case). */
const COMPACT: Record<string, string> = {
  i: 'call-id',
  m: 'contact',
  e: 'content-encoding',
  l: 'content-length',
  c: 'content-type',
  f: 'from',
  s: 'subject',
  k: 'supported',
  t: 'to',
  v: 'via',
};

export interface SipRequest {
  kind: 'request';
  method: string;
  uri: string;
  headers: Headers;
  body: Buffer;
}

export interface SipResponse {
  kind: 'response';
  status: number;
  reason: string;
  headers: Headers;
  body: Buffer;
}

export type SipMessage = SipRequest | SipResponse;

/** Header fields by lower-case full name, each with its values in order (§7.3.1: one value per comma for list headers). */
export class Headers {
  private readonly fields = new Map<string, string[]>();

  get(name: string): string | undefined {
    return this.fields.get(name.toLowerCase())?.[0];
  }

  all(name: string): string[] {
    return this.fields.get(name.toLowerCase()) ?? [];
  }

  add(name: string, value: string): this {
    const key = name.toLowerCase();
    const list = this.fields.get(key);
    if (list) list.push(value);
    else this.fields.set(key, [value]);
    return this;
  }

  set(name: string, value: string): this {
    this.fields.set(name.toLowerCase(), [value]);
    return this;
  }

  delete(name: string): void {
    this.fields.delete(name.toLowerCase());
  }

  entries(): [string, string[]][] {
    return [...this.fields.entries()];
  }
}

// §25.1 token characters; method names are tokens (§7.1).
const TOKEN = /^[A-Za-z0-9\-.!%*_+`'~]+$/;
const REQUEST_LINE = /^([A-Za-z0-9\-.!%*_+`'~]+) (\S+) SIP\/2\.0$/;
const STATUS_LINE = /^SIP\/2\.0 ([1-6]\d\d) ?(.*)$/;
/** Headers whose values are comma-separated lists that may be split (§7.3.1); never Date-like ones. */
const LIST_HEADERS = new Set(['via', 'route', 'record-route', 'contact', 'allow', 'supported', 'require']);

/**
 * Splits the head of a message from its body at the first empty line (§7: CRLF CRLF; bare LF
 * tolerated as §7.5 asks implementations to be liberal). Returns the head and the body's offset.
 */
export function splitHead(data: Buffer): { head: string; bodyAt: number } | null {
  const crlf = data.indexOf('\r\n\r\n');
  const lf = data.indexOf('\n\n');
  if (crlf < 0 && lf < 0) return null;
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return { head: data.subarray(0, crlf).toString('latin1'), bodyAt: crlf + 4 };
  return { head: data.subarray(0, lf).toString('latin1'), bodyAt: lf + 2 };
}

/** Parses one whole message (a UDP datagram, or a frame cut by `frameLength` on a stream). */
export function parseMessage(data: Buffer): SipMessage | null {
  if (data.length === 0 || data.length > MAX_MESSAGE) return null;
  const split = splitHead(data);
  if (!split) return null;
  // §7.3.1: a line starting with whitespace continues the previous one (header folding).
  const lines = split.head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/);
  const start = lines.shift() ?? '';
  if (lines.length > MAX_HEADERS) return null;
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) return null;
    let name = line.slice(0, colon).trim().toLowerCase();
    if (!TOKEN.test(name)) return null;
    name = COMPACT[name] ?? name;
    const value = line.slice(colon + 1).trim();
    if (LIST_HEADERS.has(name)) for (const part of splitList(value)) headers.add(name, part);
    else headers.add(name, value);
  }
  // §20.14: Content-Length bounds the body; on UDP a longer datagram is cut to it (§18.3), a shorter one is refused.
  let body = data.subarray(split.bodyAt);
  const declared = headers.get('content-length');
  if (declared !== undefined) {
    if (!/^\d{1,6}$/.test(declared)) return null;
    const length = Number(declared);
    if (length > body.length) return null;
    body = body.subarray(0, length);
  }
  const request = REQUEST_LINE.exec(start);
  if (request) {
    if (!headers.get('call-id') || !headers.get('cseq') || headers.all('via').length === 0) return null;
    if (!parseCSeq(headers.get('cseq')!)) return null;
    return { kind: 'request', method: request[1].toUpperCase(), uri: request[2], headers, body };
  }
  const status = STATUS_LINE.exec(start);
  if (status) {
    if (!headers.get('call-id') || !headers.get('cseq') || !parseCSeq(headers.get('cseq')!)) return null;
    return { kind: 'response', status: Number(status[1]), reason: status[2], headers, body };
  }
  return null;
}

/**
 * On a stream (TCP, §18.3) the length of the first whole message in `data`: its head and the
 * Content-Length it declares (mandatory on streams). `0` while incomplete, `-1` for garbage.
 */
export function frameLength(data: Buffer): number {
  // Keep-alive CRLFs between messages (RFC 5626 §3.5.1) are skipped by the caller.
  const split = splitHead(data);
  if (!split) return data.length > MAX_MESSAGE ? -1 : 0;
  const match = /(?:^|\n)(?:content-length|l)[ \t]*:[ \t]*(\d{1,6})[ \t]*(?:\r?\n|$)/i.exec(split.head);
  if (!match) return -1;
  const total = split.bodyAt + Number(match[1]);
  if (total > MAX_MESSAGE) return -1;
  return data.length >= total ? total : 0;
}

/** Splits a header value at commas outside quotes and angle brackets (§7.3.1). */
export function splitList(value: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let from = 0;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (quoted) {
      if (ch === '\\') i++;
      else if (ch === '"') quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === '<') depth++;
    else if (ch === '>') depth = Math.max(0, depth - 1);
    else if (ch === ',' && depth === 0) {
      parts.push(value.slice(from, i).trim());
      from = i + 1;
    }
  }
  parts.push(value.slice(from).trim());
  return parts.filter((p) => p.length > 0);
}

/** §20.16: `CSeq: 4711 INVITE`. */
export function parseCSeq(value: string): { seq: number; method: string } | null {
  const match = /^(\d{1,10})\s+([A-Za-z0-9\-.!%*_+`'~]+)$/.exec(value.trim());
  if (!match) return null;
  const seq = Number(match[1]);
  if (seq > 2 ** 31 - 1) return null;
  return { seq, method: match[2].toUpperCase() };
}

/** A name-addr or addr-spec with its parameters (§20.10, §20.20, §20.39: From, To, Contact, Route). */
export interface NameAddr {
  uri: string;
  params: Record<string, string>;
}

export function parseNameAddr(value: string): NameAddr | null {
  const open = value.indexOf('<');
  let uri: string;
  let rest: string;
  if (open >= 0) {
    const close = value.indexOf('>', open);
    if (close < 0) return null;
    uri = value.slice(open + 1, close).trim();
    rest = value.slice(close + 1);
  } else {
    // addr-spec form: parameters after the URI belong to the header, not the URI (§20.10).
    const semi = value.indexOf(';');
    uri = (semi >= 0 ? value.slice(0, semi) : value).trim();
    rest = semi >= 0 ? value.slice(semi) : '';
  }
  if (!uri) return null;
  return { uri, params: parseParams(rest) };
}

/** `;a=b;c` → {a: 'b', c: ''} (names lower-cased). */
export function parseParams(text: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const part of text.split(';')) {
    const item = part.trim();
    if (!item) continue;
    const eq = item.indexOf('=');
    const name = (eq >= 0 ? item.slice(0, eq) : item).trim().toLowerCase();
    if (!name) continue;
    params[name] = eq >= 0 ? item.slice(eq + 1).trim() : '';
  }
  return params;
}

/** The user part of a sip:/sips:/tel: URI (`sip:alice@host` → `alice`), '' when there is none. */
export function uriUser(uri: string): string {
  const match = /^(?:sips?:([^@;?]*)@|tel:([^;?]*))/i.exec(uri.trim());
  if (!match) return '';
  try {
    return decodeURIComponent(match[1] ?? match[2] ?? '');
  } catch {
    return match[1] ?? match[2] ?? '';
  }
}

/** §20.42 Via: `SIP/2.0/UDP host:port;branch=…;rport`. */
export interface Via {
  transport: string;
  host: string;
  port: number | null;
  params: Record<string, string>;
}

export function parseVia(value: string): Via | null {
  const match =
    /^SIP\s*\/\s*2\.0\s*\/\s*([A-Za-z]+)\s+(\[[0-9a-fA-F:.]+\]|[^\s:;]+)(?:\s*:\s*(\d{1,5}))?\s*(;.*)?$/.exec(
      value.trim(),
    );
  if (!match) return null;
  return {
    transport: match[1].toUpperCase(),
    host: match[2],
    port: match[3] ? Number(match[3]) : null,
    params: parseParams(match[4] ?? ''),
  };
}

/** Serialises a message: start line, headers in the given order, Content-Length set from the body (§20.14). */
export function serialize(message: SipMessage): Buffer {
  const start =
    message.kind === 'request'
      ? `${message.method} ${message.uri} SIP/2.0`
      : `SIP/2.0 ${message.status} ${message.reason}`;
  const lines = [start];
  for (const [name, values] of message.headers.entries()) {
    if (name === 'content-length') continue;
    const display = displayName(name);
    for (const value of values) lines.push(`${display}: ${value}`);
  }
  lines.push(`Content-Length: ${message.body.length}`);
  return Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1'), message.body]);
}

const DISPLAY: Record<string, string> = {
  'call-id': 'Call-ID',
  cseq: 'CSeq',
  www: 'WWW',
  'www-authenticate': 'WWW-Authenticate',
};

function displayName(name: string): string {
  return DISPLAY[name] ?? name.replace(/(^|-)([a-z])/g, (_m, dash: string, ch: string) => dash + ch.toUpperCase());
}

/**
 * A response to `request` (§8.2.6.2): Via, From, Call-ID and CSeq copied, To copied with `toTag`
 * added when it has none, and `extra` headers after them.
 */
export function responseTo(
  request: SipRequest,
  status: number,
  reason: string,
  toTag: string | null,
  extra: [string, string][] = [],
  body: Buffer = Buffer.alloc(0),
): SipResponse {
  const headers = new Headers();
  for (const via of request.headers.all('via')) headers.add('via', via);
  headers.set('from', request.headers.get('from') ?? '');
  let to = request.headers.get('to') ?? '';
  if (toTag && status > 100 && !/;\s*tag=/i.test(to)) to = `${to};tag=${toTag}`;
  headers.set('to', to);
  headers.set('call-id', request.headers.get('call-id') ?? '');
  headers.set('cseq', request.headers.get('cseq') ?? '');
  for (const [name, value] of extra) headers.add(name, value);
  return { kind: 'response', status, reason, headers, body };
}
