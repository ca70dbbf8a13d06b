/**
 * SDP offer/answer for one audio stream (RFC 4566 for the syntax, RFC 3264 for the model).
 * The gateway speaks G.711 (PCMU, PCMA) and RFC 4733 telephone-event at 8 kHz, nothing else.
 */

export type Codec = 'PCMU' | 'PCMA';
export type Direction = 'sendrecv' | 'sendonly' | 'recvonly' | 'inactive';

export interface Offer {
  /** Connection address of the audio stream (media-level c= over session-level, RFC 4566 §5.7). */
  address: string;
  port: number;
  /** Payload types offered, in the offerer's order of preference (RFC 3264 §5.1). */
  formats: number[];
  rtpmap: Map<number, { name: string; rate: number }>;
  direction: Direction;
  /** Index of the audio m= line among all m= lines (an answer keeps every line, §6). */
  audioIndex: number;
  mediaLines: string[];
  ptime: number | null;
}

export interface Negotiated {
  codec: Codec;
  payloadType: number;
  /** telephone-event's payload type in the offer, or null when not offered (RFC 4733 §7.1). */
  dtmfPayloadType: number | null;
  remoteAddress: string;
  remotePort: number;
  /** What the remote side asked for: sendonly/inactive (or c=0.0.0.0, RFC 3264 §8.4) is hold. */
  direction: Direction;
}

/** RFC 3551 §6 static payload types for the codecs spoken here. */
const STATIC: Record<number, { name: string; rate: number }> = {
  0: { name: 'PCMU', rate: 8000 },
  8: { name: 'PCMA', rate: 8000 },
};
const MAX_SDP = 16 * 1024;

/** Parses an offer; null when it is malformed or has no audio stream (the call answers 488 or 400). */
export function parseOffer(text: string): Offer | null {
  if (text.length === 0 || text.length > MAX_SDP) return null;
  const lines = text.split(/\r?\n/).filter((l) => l.length > 0);
  if (lines[0] !== 'v=0') return null;
  let sessionAddress: string | null = null;
  let sessionDirection: Direction = 'sendrecv';
  const mediaLines: string[] = [];
  let audio: Offer | null = null;
  let inAudio = false;
  let mediaAddress: string | null = null;
  for (const line of lines) {
    if (!/^[a-z]=/.test(line)) return null;
    const type = line[0];
    const value = line.slice(2);
    if (type === 'm') {
      inAudio = false;
      mediaLines.push(line);
      const match = /^(\w+) (\d{1,5})(?:\/\d+)? (\S+)((?: \S+)*)$/.exec(value);
      if (!match) return null;
      if (match[1] === 'audio' && audio === null && /^RTP\/AVP$/i.test(match[3])) {
        const formats = match[4].trim().split(/\s+/).filter(Boolean);
        if (formats.some((f) => !/^\d{1,3}$/.test(f) || Number(f) > 127)) return null;
        const port = Number(match[2]);
        if (port > 65535) return null;
        inAudio = true;
        mediaAddress = null;
        audio = {
          address: '',
          port,
          formats: formats.map(Number),
          rtpmap: new Map(),
          direction: sessionDirection,
          audioIndex: mediaLines.length - 1,
          mediaLines,
          ptime: null,
        };
      }
      continue;
    }
    if (type === 'c') {
      const match = /^IN IP[46] ([0-9A-Fa-f.:]+)(?:\/\d+)*$/.exec(value);
      if (!match) return null;
      if (inAudio) mediaAddress = match[1];
      else if (mediaLines.length === 0) sessionAddress = match[1];
      if (audio && inAudio) audio.address = match[1];
      continue;
    }
    if (type === 'a') {
      const direction = /^(sendrecv|sendonly|recvonly|inactive)$/.exec(value)?.[1] as Direction | undefined;
      if (direction) {
        if (mediaLines.length === 0) sessionDirection = direction;
        else if (inAudio && audio) audio.direction = direction;
        continue;
      }
      if (!inAudio || !audio) continue;
      const rtpmap = /^rtpmap:(\d{1,3}) ([\w.-]+)\/(\d+)(?:\/\d+)?$/.exec(value);
      if (rtpmap) audio.rtpmap.set(Number(rtpmap[1]), { name: rtpmap[2], rate: Number(rtpmap[3]) });
      const ptime = /^ptime:(\d{1,4})$/.exec(value);
      if (ptime) audio.ptime = Number(ptime[1]);
    }
  }
  if (!audio) return null;
  if (!audio.address) audio.address = mediaAddress ?? sessionAddress ?? '';
  if (!audio.address) return null;
  return audio;
}

/** The first of the offerer's formats the gateway speaks (RFC 3264 §6.1), with telephone-event if offered. */
export function negotiate(offer: Offer): Negotiated | null {
  let chosen: { codec: Codec; pt: number } | null = null;
  let dtmf: number | null = null;
  for (const pt of offer.formats) {
    const map = offer.rtpmap.get(pt) ?? STATIC[pt];
    if (!map) continue;
    const name = map.name.toUpperCase();
    if (!chosen && map.rate === 8000 && (name === 'PCMU' || name === 'PCMA')) chosen = { codec: name, pt };
    if (dtmf === null && name === 'TELEPHONE-EVENT' && map.rate === 8000) dtmf = pt;
  }
  if (!chosen) return null;
  // RFC 3264 §8.4: c=0.0.0.0 is the old way to put a stream on hold.
  const held = offer.address === '0.0.0.0' ? 'inactive' : offer.direction;
  return {
    codec: chosen.codec,
    payloadType: chosen.pt,
    dtmfPayloadType: dtmf,
    remoteAddress: offer.address,
    remotePort: offer.port,
    direction: held,
  };
}

/** RFC 3264 §6.1: the answer's direction mirrors the offer's. */
function answerDirection(offered: Direction): Direction {
  if (offered === 'sendonly') return 'recvonly';
  if (offered === 'recvonly') return 'sendonly';
  return offered;
}

/**
 * The answer: the same number of m= lines as the offer (§6), every stream but the audio one
 * refused with port 0, the audio one with the chosen codec and telephone-event.
 */
export function buildAnswer(
  offer: Offer,
  chosen: Negotiated,
  local: { address: string; port: number; sessionId: number; version: number },
): string {
  const lines = [
    'v=0',
    `o=trunkline ${local.sessionId} ${local.version} IN IP4 ${local.address}`,
    's=trunkline',
    `c=IN IP4 ${local.address}`,
    't=0 0',
  ];
  offer.mediaLines.forEach((line, index) => {
    if (index !== offer.audioIndex) {
      const [media, , proto, ...formats] = line.slice(2).split(' ');
      lines.push(`m=${media} 0 ${proto} ${formats[0] ?? '0'}`);
      return;
    }
    const formats = [chosen.payloadType, ...(chosen.dtmfPayloadType !== null ? [chosen.dtmfPayloadType] : [])];
    lines.push(`m=audio ${local.port} RTP/AVP ${formats.join(' ')}`);
    lines.push(`a=rtpmap:${chosen.payloadType} ${chosen.codec}/8000`);
    if (chosen.dtmfPayloadType !== null) {
      lines.push(`a=rtpmap:${chosen.dtmfPayloadType} telephone-event/8000`, `a=fmtp:${chosen.dtmfPayloadType} 0-16`);
    }
    lines.push('a=ptime:20', `a=${answerDirection(chosen.direction)}`);
  });
  return lines.join('\r\n') + '\r\n';
}
