import type { Logger } from 'pino';
import { parseNameAddr, parseVia, responseTo, SipMessage, SipRequest, SipResponse } from './message';
import { transactionKey } from './dialog';
import { Peer, SipTransport } from './transport';

/** What the SIP server needs of a call: it routes every request and response of the call's dialog to it. */
export interface SipCall {
  readonly callId: string;
  /** The INVITE transaction's key; CANCEL and a retransmitted INVITE find the call through it. */
  readonly inviteKey: string;
  /** Whether `message` is in this call's dialog (Call-ID and tags). */
  owns(message: SipMessage): boolean;
  onRequest(request: SipRequest, peer: Peer): void;
  onResponse(response: SipResponse): void;
  /** A retransmission of the initial INVITE: the last provisional or final response again (§17.2.1). */
  onInviteRetransmission(peer: Peer): void;
  onCancel(cancel: SipRequest, peer: Peer): void;
}

export interface SipServerHooks {
  /** A new INVITE (no To tag): the call takes it from here, or null when it was answered already (at capacity). */
  invite(request: SipRequest, peer: Peer, key: string): SipCall | null;
}

const ALLOW = 'INVITE, ACK, CANCEL, BYE, OPTIONS';
/** A BYE retransmitted after its call closed is answered 200 again for this long (64·T1, §17.2.2). */
const ENDED_MEMORY_MS = 32_000;

/**
 * Dispatches SIP: out-of-dialog requests (INVITE, OPTIONS, CANCEL) and in-dialog ones to their
 * call; everything else answered as RFC 3261 asks (481, 405, 400). Only trusted sources (Kamailio)
 * are served: anything else is 403, so no one reaches an agent without the gateway's authentication.
 */
export class SipServer {
  private readonly calls = new Map<string, SipCall[]>();
  private readonly byInviteKey = new Map<string, SipCall>();
  private readonly ended = new Map<string, number>();
  private garbage = 0;

  constructor(
    readonly transport: SipTransport,
    private readonly trusted: Set<string>,
    private readonly hooks: SipServerHooks,
    private readonly log: Logger,
  ) {}

  add(call: SipCall): void {
    const list = this.calls.get(call.callId);
    if (list) list.push(call);
    else this.calls.set(call.callId, [call]);
    this.byInviteKey.set(call.inviteKey, call);
  }

  remove(call: SipCall): void {
    const list = (this.calls.get(call.callId) ?? []).filter((c) => c !== call);
    if (list.length > 0) this.calls.set(call.callId, list);
    else this.calls.delete(call.callId);
    // The INVITE transaction lives on for 32 s (Timer H/I), so a late retransmission or ACK is absorbed.
    setTimeout(() => {
      if (this.byInviteKey.get(call.inviteKey) === call) this.byInviteKey.delete(call.inviteKey);
    }, ENDED_MEMORY_MS).unref();
    const now = Date.now();
    this.ended.set(call.callId, now);
    for (const [id, at] of this.ended) {
      if (now - at < ENDED_MEMORY_MS) break;
      this.ended.delete(id);
    }
  }

  countGarbage(peer: Peer, bytes: number): void {
    this.garbage++;
    if (this.garbage % 1000 === 1)
      this.log.warn({ source: peer.address, bytes, total: this.garbage }, 'unparseable SIP dropped');
  }

  handle(message: SipMessage, peer: Peer): void {
    if (message.kind === 'response') {
      const call = this.find(message);
      if (call) call.onResponse(message);
      return;
    }
    const request = message;
    if (!this.trusted.has(peer.address)) {
      if (request.method !== 'ACK') this.reply(request, peer, 403, 'Forbidden');
      return;
    }
    // §8.2.2.2 and §16.3: a request with a Via we cannot answer to is dropped.
    if (!parseVia(request.headers.all('via')[0])) return;
    const toTag = parseNameAddr(request.headers.get('to') ?? '')?.params.tag;
    if (request.method === 'OPTIONS' && !toTag) {
      this.reply(request, peer, 200, 'OK', [
        ['allow', ALLOW],
        ['accept', 'application/sdp'],
      ]);
      return;
    }
    const key = transactionKey(request);
    if (request.method === 'CANCEL') {
      const call = key ? this.byInviteKey.get(key) : undefined;
      if (call) call.onCancel(request, peer);
      else this.reply(request, peer, 481, 'Call/Transaction Does Not Exist');
      return;
    }
    if (request.method === 'INVITE' && !toTag) {
      if (!key) {
        this.reply(request, peer, 400, 'Missing branch');
        return;
      }
      const existing = this.byInviteKey.get(key);
      if (existing) {
        existing.onInviteRetransmission(peer);
        return;
      }
      const call = this.hooks.invite(request, peer, key);
      if (call) this.add(call);
      return;
    }
    if (request.method === 'ACK') {
      // The ACK of a non-2xx final response is in the INVITE's transaction (§17.2.1); of a 2xx, in the dialog.
      const call = this.find(request) ?? (key ? this.byInviteKey.get(key) : undefined);
      call?.onRequest(request, peer);
      return;
    }
    const call = this.find(request);
    if (call) {
      call.onRequest(request, peer);
      return;
    }
    if (request.method === 'BYE' && this.ended.has(request.headers.get('call-id') ?? '')) {
      this.reply(request, peer, 200, 'OK');
      return;
    }
    if (toTag) this.reply(request, peer, 481, 'Call/Transaction Does Not Exist');
    else this.reply(request, peer, 405, 'Method Not Allowed', [['allow', ALLOW]]);
  }

  reply(request: SipRequest, peer: Peer, status: number, reason: string, extra: [string, string][] = []): void {
    this.transport.send(
      responseTo(request, status, reason, status > 100 ? 'tl' + Date.now().toString(36) : null, extra),
      peer,
    );
  }

  active(): number {
    let n = 0;
    for (const list of this.calls.values()) n += list.length;
    return n;
  }

  private find(message: SipMessage): SipCall | undefined {
    return this.calls.get(message.headers.get('call-id') ?? '')?.find((call) => call.owns(message));
  }
}
