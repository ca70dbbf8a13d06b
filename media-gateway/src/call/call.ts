import { createHash, randomInt } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { Dialog, nextHop, T1, T2 } from '../sip/dialog';
import { parseCSeq, parseNameAddr, responseTo, SipMessage, SipRequest, SipResponse, uriUser } from '../sip/message';
import { buildAnswer, negotiate, Negotiated, parseOffer } from '../sip/sdp';
import type { SipCall, SipServer } from '../sip/server';
import type { Peer } from '../sip/transport';
import type { Settings } from '../settings';
import type { CallRecord, RecordSpool } from '../trunkline/records';
import type { TrunkAgent, TrunkDirectory } from '../trunkline/trunks';
import { AgentConnectError, MediaLeg, MediaLegFactory, MediaRemote, MediaSummary } from './ports';

export interface CallDeps {
  settings: Settings;
  log: Logger;
  server: SipServer;
  directory: TrunkDirectory;
  spool: RecordSpool;
  media: MediaLegFactory;
  /** Calls up now (the capacity check), and the registry's goodbye when a call ends. */
  active(): number;
  ended(call: Call): void;
}

type State = 'setup' | 'answered' | 'confirmed' | 'ended';

/** What the record says ended the call (docs/sip-gateway.md's taxonomy reads it). */
export type EndReason =
  | 'caller_hangup'
  | 'agent_hangup'
  | 'agent_error'
  | 'caller_cancel'
  | 'media_timeout'
  | 'network_error'
  | 'gateway_shutdown'
  | null;

/** Marks every response of a call the media gateway records itself (Kamailio then posts no record of its own). */
const RECORDED: [string, string] = ['x-trunkline-recorded', 'media-gateway'];
const MAX_TRACE = 60 * 1024;
/** `from` / `to` as ingestion accepts them (docs/sip-gateway.md, "Callers that are not E.164"). */
const CALLER = /^[!#-;=?-[\]-~]{1,128}$/;

/**
 * One call, from its INVITE to its record. It owns everything the call uses (dialog, RTP sockets,
 * timers, the agent through its media leg) and every way out (BYE either side, CANCEL, a refused
 * INVITE, media timeout, agent failure, process stop) goes through `end()`, which releases all of
 * it and spools the record once. A failure inside one call ends that call only.
 */
export class Call implements SipCall {
  readonly callId: string;
  readonly recordId: string;
  private readonly dialog: Dialog;
  private state: State = 'setup';
  private lastResponse: SipResponse | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();
  private rtpPort: number | null = null;
  private media: MediaLeg | null = null;
  private negotiated: Negotiated | null = null;
  private trunk: TrunkAgent | null = null;
  private readonly trace: string[] = [];
  private traceBytes = 0;
  private readonly inviteAt = new Date();
  private readonly startedAt = performance.now();
  private ringingAt: Date | null = null;
  private answeredAt: Date | null = null;
  /** The agent is being connected on rtpPort: the open call owns the port until it settles. */
  private opening = false;
  private sdpVersion = 1;
  private readonly sdpSession = randomInt(1, 2 ** 31);
  /** Pending 2xx awaiting its ACK (§13.3.1.4), or final non-2xx awaiting its ACK (§17.2.1). */
  private awaitingAck: { cseq: number; stop: () => void } | null = null;
  private pendingBye: (() => void) | null = null;
  private finalCode = 0;
  private finalReason = '';
  private recorded = false;
  private failureClass: string | null = null;
  private retryable: boolean | null = null;
  /** Settled once the record is spooled (the media summary may come from a worker thread). */
  finished: Promise<void> = Promise.resolve();
  /** Abandons the agent connection when the call ends before it is up (CANCEL while ringing). */
  private readonly connecting = new AbortController();

  constructor(
    private readonly invite: SipRequest,
    private peer: Peer,
    readonly inviteKey: string,
    private readonly deps: CallDeps,
  ) {
    this.callId = invite.headers.get('call-id')!;
    this.recordId = `call_${createHash('md5').update(this.callId).digest('hex')}`;
    const { settings } = deps;
    this.dialog = new Dialog(invite, `<sip:media@${settings.advertiseAddress}:${deps.server.transport.udpPort()}>`, {
      address: settings.advertiseAddress,
      port: deps.server.transport.udpPort(),
    });
    this.traceIn(invite);
  }

  owns(message: SipMessage): boolean {
    return this.dialog.matches(message);
  }

  /** The INVITE's way: 100 → offer checked → trunk → RTP ports → 180 → agent connected → 200 OK. */
  async start(): Promise<void> {
    this.respond(100, 'Trying');
    try {
      await this.setUp();
    } catch (error) {
      this.deps.log.error({ call: this.recordId, err: (error as Error).message }, 'call set-up failed');
      if (this.state === 'setup') this.refuse(500, 'Server Internal Error', 'agent_error');
      else this.hangUp('network_error');
    }
  }

  private async setUp(): Promise<void> {
    const type = (this.invite.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/sdp' || this.invite.body.length === 0) return this.refuse(488, 'SDP offer required');
    const offer = parseOffer(this.invite.body.toString('latin1'));
    if (!offer) return this.refuse(400, 'Malformed SDP');
    const negotiated = negotiate(offer);
    // RFC 3264 §6: no common format → 488, and no call is set up.
    if (!negotiated)
      return this.refuse(488, 'Not Acceptable Here', null, [
        ['warning', '304 trunkline "no common codec: PCMU, PCMA"'],
      ]);
    this.negotiated = negotiated;
    const lookup = await this.deps.directory.lookup(uriUser(this.invite.uri));
    if (this.state !== 'setup') return;
    if (!lookup.found) {
      return lookup.reason === 'unknown' ? this.refuse(404, 'Not Found') : this.refuse(503, 'Trunkline unavailable');
    }
    const trunk = lookup.trunk;
    const claimed = this.invite.headers.get('x-trunkline-trunk');
    if (claimed && claimed !== trunk.trunkId) return this.refuse(404, 'Not Found');
    if (trunk.status !== 'active') return this.refuse(403, 'Trunk inactive');
    this.trunk = trunk;
    if (this.deps.active() > this.deps.settings.maxCalls) return this.refuse(503, 'Over capacity', 'capacity');
    const port = await this.deps.media.takePort();
    if (this.state !== 'setup') {
      if (port !== null) this.deps.media.release(port);
      return;
    }
    if (port === null) return this.refuse(503, 'No RTP port', 'capacity');
    this.rtpPort = port;
    this.ringingAt = new Date();
    this.respond(180, 'Ringing');
    let media: MediaLeg;
    this.opening = true;
    try {
      media = await this.deps.media.open(
        port,
        {
          callId: this.callId,
          recordId: this.recordId,
          from: this.caller('from'),
          to: this.caller('to'),
          trunk,
          codec: negotiated.codec,
          payloadType: negotiated.payloadType,
          dtmfPayloadType: negotiated.dtmfPayloadType,
          remote: remoteOf(negotiated),
          startedAtEpochMs: performance.timeOrigin + this.startedAt,
        },
        {
          onEnd: (reason, failure) => {
            if (this.state === 'ended') return;
            if (failure) {
              this.failureClass = failure.failureClass;
              this.retryable = failure.retryable;
            }
            this.hangUp(reason);
          },
        },
        this.deps.settings.agentConnectTimeoutMs,
        this.connecting.signal,
      );
    } catch (error) {
      this.opening = false;
      this.rtpPort = null;
      if (this.state !== 'setup') return;
      const failure =
        error instanceof AgentConnectError
          ? error
          : new AgentConnectError('agent_unreachable', true, 503, 'Agent unreachable', (error as Error).message);
      this.deps.log.warn(
        { call: this.recordId, class: failure.failureClass, retryable: failure.retryable, err: failure.message },
        'agent not connected',
      );
      // The agent never took the call: 480 when it did not answer in time, 503 with why otherwise;
      // X-Trunkline-Failure tells Kamailio's rejection record the class (deploy/kamailio/trunkline-media-gateway.cfg).
      this.retryable = failure.retryable;
      return this.refuse(failure.sipCode, failure.phrase, failure.failureClass, [
        ['x-trunkline-failure', failure.failureClass],
        ...(failure.retryable && failure.sipCode === 503 ? ([['retry-after', '30']] as [string, string][]) : []),
      ]);
    }
    this.opening = false;
    if (this.state !== 'setup') {
      // Cancelled while the agent was connecting.
      void media.close();
      return;
    }
    this.media = media;
    this.answeredAt = new Date();
    this.state = 'answered';
    this.finalCode = 200;
    this.finalReason = 'OK';
    this.sendWithRetransmission(200, 'OK', this.answer(offer, negotiated), this.dialog.remoteSeq);
  }

  onInviteRetransmission(peer: Peer): void {
    this.peer = peer;
    if (this.lastResponse) this.deps.server.transport.send(this.lastResponse, peer);
  }

  onCancel(cancel: SipRequest, peer: Peer): void {
    this.deps.server.transport.send(responseTo(cancel, 200, 'OK', this.dialog.localTag), peer);
    this.traceOut('200 OK (CANCEL)');
    // §9.2: a CANCEL after the final response changes nothing.
    if (this.state !== 'setup') return;
    this.refuse(487, 'Request Terminated', null, [], 'caller_cancel');
  }

  onRequest(request: SipRequest, peer: Peer): void {
    this.traceIn(request);
    const cseq = parseCSeq(request.headers.get('cseq') ?? '');
    if (request.method === 'ACK') {
      if (this.awaitingAck && cseq && cseq.seq === this.awaitingAck.cseq) {
        this.awaitingAck.stop();
        this.awaitingAck = null;
        if (this.state === 'answered') this.state = 'confirmed';
      }
      return;
    }
    if (this.state === 'ended') {
      this.reply(
        request,
        peer,
        request.method === 'BYE' ? 200 : 481,
        request.method === 'BYE' ? 'OK' : 'Call/Transaction Does Not Exist',
      );
      return;
    }
    // §12.2.2: a request with a lower CSeq than the last one is out of order.
    if (cseq && request.method !== 'ACK' && cseq.seq < this.dialog.remoteSeq) {
      this.reply(request, peer, 500, 'Out of order');
      return;
    }
    if (cseq) this.dialog.remoteSeq = Math.max(this.dialog.remoteSeq, cseq.seq);
    switch (request.method) {
      case 'BYE':
        this.reply(request, peer, 200, 'OK');
        this.end(this.state === 'setup' ? 'caller_cancel' : 'caller_hangup');
        return;
      case 'INVITE':
        this.reinvite(request, peer);
        return;
      case 'OPTIONS':
      case 'INFO':
        this.reply(request, peer, 200, 'OK');
        return;
      default:
        this.reply(request, peer, 405, 'Method Not Allowed', [['allow', 'INVITE, ACK, CANCEL, BYE, OPTIONS']]);
    }
  }

  onResponse(response: SipResponse): void {
    this.traceLine('<', `SIP/2.0 ${response.status} ${response.reason}`);
    const cseq = parseCSeq(response.headers.get('cseq') ?? '');
    if (cseq?.method === 'BYE' && response.status >= 200 && this.pendingBye) {
      this.pendingBye();
      this.pendingBye = null;
    }
  }

  /** The process stops: every call still up says goodbye. */
  shutdown(): void {
    if (this.state === 'setup') this.refuse(503, 'Shutting down', 'capacity', [], 'gateway_shutdown');
    else this.hangUp('gateway_shutdown');
  }

  /** A re-INVITE (§14.2): a new offer on the same call; hold/resume is its direction. A bad one leaves the call as it was. */
  private reinvite(request: SipRequest, peer: Peer): void {
    if (this.state === 'setup' || this.awaitingAck) {
      // §14.2: an INVITE while another is pending.
      this.reply(request, peer, 491, 'Request Pending');
      return;
    }
    const offer = request.body.length > 0 ? parseOffer(request.body.toString('latin1')) : null;
    const negotiated = offer ? negotiate(offer) : null;
    if (!offer || !negotiated || !this.negotiated || negotiated.codec !== this.negotiated.codec) {
      this.reply(request, peer, 488, 'Not Acceptable Here');
      return;
    }
    this.peer = peer;
    this.negotiated = negotiated;
    this.media?.update(remoteOf(negotiated));
    this.sdpVersion++;
    const cseq = parseCSeq(request.headers.get('cseq')!)!.seq;
    this.sendWithRetransmission(200, 'OK', this.answer(offer, negotiated), cseq, request);
  }

  private answer(offer: NonNullable<ReturnType<typeof parseOffer>>, negotiated: Negotiated): Buffer {
    const { settings } = this.deps;
    return Buffer.from(
      buildAnswer(offer, negotiated, {
        address: settings.rtpAdvertiseAddress,
        port: this.rtpPort!,
        sessionId: this.sdpSession,
        version: this.sdpVersion,
      }),
    );
  }

  /** The gateway ends an answered call: BYE to the caller (§15.1.1), then the one close path. */
  private hangUp(reason: Exclude<EndReason, null>): void {
    if (this.state === 'ended') return;
    if (this.state === 'setup') {
      this.refuse(503, 'Agent ended the call', 'agent_error', [], reason);
      return;
    }
    this.sendBye();
    this.end(reason);
  }

  private sendBye(): void {
    const transport = this.peer.transport;
    const bye = this.dialog.request('BYE', transport, [['reason', 'Q.850;cause=16']]);
    const hop = nextHop(this.dialog.routeSet, this.dialog.remoteTarget, this.peer);
    this.traceLine('>', `BYE ${bye.uri}`);
    const send = () => this.deps.server.transport.send(bye, hop);
    send();
    // Timer E (§17.1.2.2): UDP retransmissions until a response or 64·T1; they outlive the call's close.
    if (transport === 'UDP') {
      let interval = T1;
      let elapsed = 0;
      let timer: NodeJS.Timeout;
      const again = () => {
        elapsed += interval;
        if (elapsed >= 64 * T1) return;
        send();
        interval = Math.min(interval * 2, T2);
        timer = setTimeout(again, interval);
      };
      timer = setTimeout(again, interval);
      timer.unref();
      this.pendingBye = () => clearTimeout(timer);
    }
  }

  /** A final failure before the answer, then the close path. `failureClass` overrides the taxonomy's. */
  private refuse(
    code: number,
    reason: string,
    failureClass: string | null = null,
    extra: [string, string][] = [],
    ended: EndReason = null,
  ): void {
    if (this.state !== 'setup') return;
    this.finalCode = code;
    this.finalReason = reason;
    this.failureClass = failureClass;
    this.sendWithRetransmission(code, reason, Buffer.alloc(0), this.dialog.remoteSeq, this.invite, extra);
    this.end(ended);
  }

  /**
   * A final response to `request` (the INVITE, or a re-INVITE). Over UDP it is re-sent (T1
   * doubling to T2) until its ACK or 64·T1 (§13.3.1.4 for 2xx, §17.2.1 for the rest); an answer
   * whose ACK never comes ends the call.
   */
  private sendWithRetransmission(
    code: number,
    reason: string,
    sdp: Buffer,
    cseq: number,
    request: SipRequest = this.invite,
    extra: [string, string][] = [],
  ): void {
    this.awaitingAck?.stop();
    const headers: [string, string][] = [...extra];
    if (code < 300) headers.push(...this.dialog.responseHeaders());
    if (this.trunk && (code < 300 || code >= 400)) headers.push(RECORDED);
    if (sdp.length > 0) headers.push(['content-type', 'application/sdp']);
    headers.push(['server', 'trunkline-media-gateway']);
    const response = responseTo(request, code, reason, this.dialog.localTag, headers, sdp);
    if (request === this.invite) this.lastResponse = response;
    this.deps.server.transport.send(response, this.peer);
    this.traceLine('>', `SIP/2.0 ${code} ${reason}`);
    if (this.peer.transport !== 'UDP') {
      this.awaitingAck = { cseq, stop: () => undefined };
      return;
    }
    let interval = T1;
    let elapsed = 0;
    let timer: NodeJS.Timeout;
    const again = () => {
      elapsed += interval;
      if (elapsed >= 64 * T1) {
        this.awaitingAck = null;
        if (code < 300 && this.state !== 'ended') this.hangUp('network_error');
        return;
      }
      this.deps.server.transport.send(response, this.peer);
      interval = Math.min(interval * 2, T2);
      timer = setTimeout(again, interval);
    };
    timer = setTimeout(again, interval);
    timer.unref();
    this.awaitingAck = { cseq, stop: () => clearTimeout(timer) };
  }

  /** A provisional response to the INVITE (100 without a To tag, §8.2.6.1; 18x with one and the dialog's headers). */
  private respond(code: number, reason: string): void {
    const extra: [string, string][] = code > 100 ? this.dialog.responseHeaders() : [];
    const response = responseTo(this.invite, code, reason, code > 100 ? this.dialog.localTag : null, extra);
    this.lastResponse = response;
    this.deps.server.transport.send(response, this.peer);
    this.traceLine('>', `SIP/2.0 ${code} ${reason}`);
  }

  private reply(request: SipRequest, peer: Peer, code: number, reason: string, extra: [string, string][] = []): void {
    this.deps.server.transport.send(responseTo(request, code, reason, this.dialog.localTag, extra), peer);
    this.traceLine('>', `SIP/2.0 ${code} ${reason} (${request.method})`);
  }

  private timer(fn: () => void, ms: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  /**
   * The one close path: timers, media leg (agent `stop`), RTP sockets, registry; then the record,
   * spooled once. Transaction retransmissions (a final response awaiting its ACK, our BYE) run on
   * for their RFC 3261 lifetimes; they hold nothing else.
   */
  private end(reason: EndReason): void {
    if (this.state === 'ended') return;
    const answered = this.state !== 'setup';
    this.state = 'ended';
    this.connecting.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const media = this.media;
    this.media = null;
    // A port taken but never opened (the call ended before its agent was asked): given back here.
    if (!media && this.rtpPort !== null && !this.opening) this.deps.media.release(this.rtpPort);
    this.rtpPort = null;
    this.finished = (media ? media.close() : Promise.resolve(null))
      .catch(() => null)
      .then((summary) => this.recordEnd(answered, reason, summary));
    this.deps.ended(this);
    this.deps.server.remove(this);
  }

  /** The record, spooled once, and the `call ended` log line. */
  private recordEnd(answered: boolean, reason: EndReason, summary: MediaSummary | null): void {
    if (this.trunk && !this.recorded) {
      this.recorded = true;
      this.deps.spool.add(this.record(answered, reason, summary));
    }
    this.deps.log.info(
      {
        call: this.recordId,
        code: this.finalCode,
        ended: reason,
        frames: summary?.frames_sent ?? 0,
        processing_p99_ms: summary?.processing_p99_ms ?? null,
        max_lateness_ms: summary?.max_lateness_ms ?? 0,
        late_frames: summary?.late_frames ?? 0,
      },
      'call ended',
    );
  }

  private record(answered: boolean, reason: EndReason, summary: MediaSummary | null): CallRecord {
    const end = new Date();
    const record: CallRecord = {
      id: this.recordId,
      trunk_id: this.trunk!.trunkId,
      from: this.caller('from'),
      to: this.caller('to'),
      start_time: this.inviteAt.toISOString(),
      invite_at: this.inviteAt.toISOString(),
      ringing_at: this.ringingAt?.toISOString() ?? null,
      answered_at: answered ? this.answeredAt?.toISOString() : null,
      end_time: end.toISOString(),
      sip_code: this.finalCode,
      sip_reason: this.finalReason,
      source_address: this.sourceAddress(),
      codec_used: this.negotiated ? (this.negotiated.codec === 'PCMU' ? 'G711u' : 'G711a') : null,
      sip_trace: this.trace.join('\n'),
    };
    if (reason) record.disconnect_reason = reason;
    if (this.failureClass) record.failure_class = this.failureClass;
    if (this.failureClass && this.retryable !== null) record.retryable = this.retryable;
    if (summary) {
      record.turns = summary.turns;
      record.ai_latency_ms = summary.ai_latency_ms;
      record.gateway_processing_ms = summary.gateway_processing_ms;
      record.jitter_ms = summary.jitter_ms;
      record.packet_loss_percent = summary.packet_loss_percent;
      record.carrier_lag_ms = summary.carrier_lag_ms;
      record.mos = summary.mos;
    }
    return record;
  }

  /** The From user (caller) or To user (called) as ingestion takes them, else anonymous / unknown. */
  private caller(which: 'from' | 'to'): string {
    const uri = parseNameAddr(this.invite.headers.get(which) ?? '')?.uri ?? '';
    const user = uriUser(uri);
    if (CALLER.test(user)) return user;
    return which === 'from' ? 'anonymous' : 'unknown';
  }

  private sourceAddress(): string {
    const told = this.invite.headers.get('x-trunkline-source')?.trim() ?? '';
    return /^[0-9a-fA-F.:]{2,45}$/.test(told) ? told : this.peer.address;
  }

  private traceIn(message: SipMessage): void {
    if (message.kind === 'request') this.traceLine('<', `${message.method} ${message.uri}`);
  }

  /** sip_trace: each message's first line as this gateway saw it, with its instant and direction. */
  private traceLine(direction: '<' | '>', line: string): void {
    const entry = `${new Date().toISOString()} ${direction} ${line.replace(/[^\x20-\x7e]/g, '?').slice(0, 200)}`;
    if (this.traceBytes + entry.length + 1 > MAX_TRACE) return;
    this.trace.push(entry);
    this.traceBytes += entry.length + 1;
  }

  private traceOut(line: string): void {
    this.traceLine('>', line);
  }
}

function remoteOf(negotiated: Negotiated): MediaRemote {
  return {
    address: negotiated.remoteAddress,
    port: negotiated.remotePort,
    held: negotiated.direction === 'inactive' || negotiated.direction === 'sendonly',
  };
}
