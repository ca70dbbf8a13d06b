import { randomBytes } from 'node:crypto';
import { Headers, parseNameAddr, parseParams, parseVia, SipRequest, SipResponse } from './message';
import type { Peer } from './transport';

/** RFC 3261 §17.1.1.1 timer values. */
export const T1 = 500;
export const T2 = 4_000;

export const newTag = () => randomBytes(6).toString('hex');
/** §8.1.1.7: branches start with the magic cookie. */
export const newBranch = () => `z9hG4bK${randomBytes(8).toString('hex')}`;

/** The server INVITE transaction's key (§17.2.3): top Via branch and sent-by, and the method (ACK/CANCEL match the INVITE). */
export function transactionKey(request: SipRequest): string | null {
  const via = parseVia(request.headers.all('via')[0] ?? '');
  const branch = via?.params.branch;
  if (!via || !branch?.startsWith('z9hG4bK')) return null;
  return `${branch}|${via.host}:${via.port ?? ''}`;
}

/** Where a request inside the dialog goes (§12.2.1.1): the first Route if it is a loose router, else the remote target. */
export function nextHop(routeSet: string[], remoteTarget: string, fallback: Peer): Peer {
  const uri = routeSet.length > 0 ? (parseNameAddr(routeSet[0])?.uri ?? remoteTarget) : remoteTarget;
  const match = /^sips?:(?:[^@]*@)?(\[[^\]]+\]|[^:;>?]+)(?::(\d+))?(;[^?]*)?/i.exec(uri);
  if (!match) return fallback;
  const params = parseParams(match[3] ?? '');
  const transport = (params.transport ?? fallback.transport).toUpperCase() === 'TCP' ? 'TCP' : 'UDP';
  return {
    transport,
    address: match[1].replace(/^\[|\]$/g, ''),
    port: match[2] ? Number(match[2]) : 5060,
    ...(transport === 'TCP' && fallback.transport === 'TCP' && fallback.connection
      ? { connection: fallback.connection }
      : {}),
  };
}

/**
 * The UAS side of one dialog (§12.1.1): built from the INVITE, it makes the responses that create
 * the dialog (Record-Route copied, Contact ours) and the requests we send in it (BYE).
 */
export class Dialog {
  readonly localTag = newTag();
  readonly callId: string;
  /** The caller's From (with its tag) and our To: From/To are swapped on requests we send (§12.2.1.1). */
  private readonly remoteUri: string;
  private readonly localUri: string;
  readonly remoteTag: string;
  readonly routeSet: string[];
  remoteTarget: string;
  private localSeq = Math.floor(Math.random() * 10_000) + 1;
  remoteSeq: number;

  constructor(
    invite: SipRequest,
    private readonly contact: string,
    private readonly advertise: { address: string; port: number },
  ) {
    this.callId = invite.headers.get('call-id')!;
    this.remoteUri = invite.headers.get('from') ?? '';
    this.remoteTag = parseNameAddr(this.remoteUri)?.params.tag ?? '';
    this.localUri = `${invite.headers.get('to') ?? ''};tag=${this.localTag}`;
    // §12.1.1: the route set is the Record-Route list, in order, for the UAS.
    this.routeSet = invite.headers.all('record-route');
    this.remoteTarget = parseNameAddr(invite.headers.get('contact') ?? '')?.uri ?? invite.uri;
    this.remoteSeq = Number(/^\d+/.exec(invite.headers.get('cseq') ?? '0')?.[0] ?? 0);
  }

  /** Extra headers of a dialog-forming response (18x, 2xx): Record-Route echoed (§12.1.1) and our Contact. */
  responseHeaders(): [string, string][] {
    return [...this.routeSet.map((rr): [string, string] => ['record-route', rr]), ['contact', this.contact]];
  }

  /** A request of ours inside the dialog (§12.2.1.1), e.g. BYE. */
  request(method: string, transport: 'UDP' | 'TCP', extra: [string, string][] = []): SipRequest {
    const headers = new Headers();
    headers.add(
      'via',
      `SIP/2.0/${transport} ${this.advertise.address}:${this.advertise.port};branch=${newBranch()};rport`,
    );
    headers.set('max-forwards', '70');
    headers.set('from', this.localUri);
    headers.set('to', this.remoteUri);
    headers.set('call-id', this.callId);
    headers.set('cseq', `${++this.localSeq} ${method}`);
    for (const route of this.routeSet) headers.add('route', route);
    for (const [name, value] of extra) headers.add(name, value);
    return { kind: 'request', method, uri: this.remoteTarget, headers, body: Buffer.alloc(0) };
  }

  /** Whether `request` belongs to this dialog (§12.2.2): Call-ID, and the tags the other way round. */
  matches(request: SipRequest | SipResponse): boolean {
    if (request.headers.get('call-id') !== this.callId) return false;
    const from = parseNameAddr(request.headers.get('from') ?? '')?.params.tag;
    const to = parseNameAddr(request.headers.get('to') ?? '')?.params.tag;
    return request.kind === 'request' ? from === this.remoteTag && to === this.localTag : from === this.localTag;
  }
}
