/** The SIP trace of a synthetic call, as the gateway would have logged it. */
import { hex8, type Rng } from './random';

export interface Ending {
  reason: string;
  failure: string | null;
  byCarrier: boolean;
  q850: number;
}

const GATEWAY_IP = '203.0.113.10';
const GATEWAY_HOST = 'sip.trunkline.example';
const PAYLOAD_TYPE: Record<string, string> = {
  G711u: '0',
  PCMU: '0',
  G711a: '8',
  G722: '9',
  'G.722': '9',
  opus: '111',
};
// Static payload types (0, 8, 9) need no rtpmap line; dynamic ones (opus, DTMF) do.
const DTMF_MAP = 'a=rtpmap:101 telephone-event/8000\n';
const OPUS_MAP = 'a=rtpmap:111 opus/48000/2\n';
const Q850_TEXT: Record<number, string> = {
  16: 'Normal call clearing',
  38: 'Network out of order',
  41: 'Temporary failure',
  102: 'Recovery on timer expiry',
};
const RINGS_FIRST = new Set(['no_answer', 'request_timeout', 'call_rejected']);
const NO_BODY = 'Content-Length: 0\n';

export interface TraceInput {
  inbound: boolean;
  from: string;
  to: string;
  carrierIp: string;
  ending: Ending;
  codec: string | undefined;
}

/** Content-Length counts the body as sent, with CRLF line ends; the trace shows LF only. */
function withSdp(
  contact: string,
  ip: string,
  session: number,
  port: number,
  formats: string,
  maps: string,
  mapLines: number,
): string {
  const body = `v=0\no=- ${session} ${session} IN IP4 ${ip}\ns=-\nc=IN IP4 ${ip}\nt=0 0\nm=audio ${port} RTP/AVP ${formats}\n${maps}`;
  return `Contact: ${contact}\nContent-Type: application/sdp\nContent-Length: ${body.length + 6 + mapLines}\n\n${body}`;
}

/**
 * INVITE → 100 → (180) → 200 → ACK → BYE → 200, or INVITE → 100 → (180) → 4xx-6xx → ACK.
 * Built by plain concatenation of shared header blocks: V8 keeps these as ropes, and the one
 * copy happens when the record is serialised.
 */
export function sipTrace(rng: Rng, c: TraceInput): string {
  const uacIp = c.inbound ? c.carrierIp : GATEWAY_IP;
  const uasIp = c.inbound ? GATEWAY_IP : c.carrierIp;
  const ruri = `sip:${c.to}@${c.inbound ? GATEWAY_HOST : uasIp}`;
  const callId = `Call-ID: ${hex8(rng.u32())}${hex8(rng.u32())}@${uacIp}\n`;
  const fromValue = `<sip:${c.from}@${uacIp}>;tag=${hex8(rng.u32())}`;
  const toValue = `<${ruri}>;tag=${hex8(rng.u32())}`;
  const head = `\nVia: SIP/2.0/TLS ${uacIp}:5061;branch=z9hG4bK${hex8(rng.u32())}\nFrom: ${fromValue}\n`;
  const dialog = `To: ${toValue}\n${callId}`;
  const early = `${head}To: <${ruri}>\n${callId}CSeq: 1 INVITE\n`;
  const opus = c.codec === 'opus';
  const maps = opus ? OPUS_MAP + DTMF_MAP : DTMF_MAP;
  const offer = withSdp(
    `<sip:${c.from}@${uacIp}:5061;transport=tls>`,
    uacIp,
    rng.u32() >>> 2,
    10_000 + 2 * ((rng.u32() >>> 2) % 10_000),
    opus ? '111 9 0 8 101' : '9 0 8 101',
    maps,
    opus ? 2 : 1,
  );
  let trace = `INVITE ${ruri} SIP/2.0${early}Max-Forwards: 70\n${offer}\nSIP/2.0 100 Trying${early}${NO_BODY}`;
  const { ending } = c;
  if (ending.failure === null || RINGS_FIRST.has(ending.reason))
    trace += `\nSIP/2.0 180 Ringing${head}${dialog}CSeq: 1 INVITE\n${NO_BODY}`;
  if (ending.failure !== null) {
    return `${trace}\nSIP/2.0 ${ending.failure}${head}${dialog}CSeq: 1 INVITE\n${NO_BODY}\nACK ${ruri} SIP/2.0${head}${dialog}CSeq: 1 ACK\n${NO_BODY}`;
  }
  const uasContact = `sip:${c.to}@${uasIp}:5061;transport=tls`;
  const answer = withSdp(
    `<${uasContact}>`,
    uasIp,
    rng.u32() >>> 2,
    20_000 + 2 * ((rng.u32() >>> 2) % 10_000),
    `${PAYLOAD_TYPE[c.codec ?? 'G711u'] ?? '0'} 101`,
    maps,
    opus ? 2 : 1,
  );
  trace += `\nSIP/2.0 200 OK${head}${dialog}CSeq: 1 INVITE\n${answer}`;
  trace += `\nACK ${uasContact} SIP/2.0\nVia: SIP/2.0/TLS ${uacIp}:5061;branch=z9hG4bK${hex8(rng.u32())}\nFrom: ${fromValue}\n${dialog}CSeq: 1 ACK\n${NO_BODY}`;
  const reason = `Reason: Q.850;cause=${ending.q850};text="${Q850_TEXT[ending.q850]}"\n`;
  // The carrier side is the UAC of an inbound call and the UAS of an outbound one.
  const byUac = c.inbound === ending.byCarrier;
  const byeHead = byUac
    ? `\nVia: SIP/2.0/TLS ${uacIp}:5061;branch=z9hG4bK${hex8(rng.u32())}\nFrom: ${fromValue}\nTo: ${toValue}\n${callId}CSeq: 2 BYE\n`
    : `\nVia: SIP/2.0/TLS ${uasIp}:5061;branch=z9hG4bK${hex8(rng.u32())}\nFrom: ${toValue}\nTo: ${fromValue}\n${callId}CSeq: 1 BYE\n`;
  const byeTarget = byUac ? uasContact : `sip:${c.from}@${uacIp}:5061;transport=tls`;
  return `${trace}\nBYE ${byeTarget} SIP/2.0${byeHead}${reason}${NO_BODY}\nSIP/2.0 200 OK${byeHead}${NO_BODY}`;
}
