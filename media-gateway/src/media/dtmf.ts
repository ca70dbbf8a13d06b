/**
 * RFC 4733 telephone-event payload (§2.3): event (8 bits), E (end), R, volume (6 bits), duration (16 bits,
 * timestamp units). DTMF events 0-15 are 0-9, *, #, A-D (§3.2, table 3).
 */
export const TELEPHONE_EVENT_BYTES = 4;
const DIGITS = '0123456789*#ABCD';

export interface TelephoneEvent {
  event: number;
  end: boolean;
  /** Power level in −dBm0, 0-63 (§2.3.4). */
  volume: number;
  /** Duration so far in timestamp units (§2.3.5). */
  duration: number;
}

/** Null for a payload shorter than 4 bytes (§2.3); extra bytes are ignored (redundant events, §2.5.2). */
export function parseTelephoneEvent(payload: Uint8Array): TelephoneEvent | null {
  if (payload.length < TELEPHONE_EVENT_BYTES) return null;
  return {
    event: payload[0],
    end: (payload[1] & 0x80) !== 0,
    volume: payload[1] & 0x3f,
    duration: (payload[2] << 8) | payload[3],
  };
}

export function writeTelephoneEvent(ev: TelephoneEvent, out: Uint8Array = new Uint8Array(4)): Uint8Array {
  out[0] = ev.event & 0xff;
  out[1] = (ev.end ? 0x80 : 0) | (ev.volume & 0x3f);
  out[2] = (ev.duration >> 8) & 0xff;
  out[3] = ev.duration & 0xff;
  return out;
}

/** The DTMF digit of an event code, null for non-DTMF events. */
export function dtmfDigit(event: number): string | null {
  return event >= 0 && event < DIGITS.length ? DIGITS[event] : null;
}

/** The event code of a DTMF digit (`0-9 * # A-D`, case-insensitive), null otherwise. */
export function dtmfEvent(digit: string): number | null {
  if (digit.length !== 1) return null;
  const i = DIGITS.indexOf(digit.toUpperCase());
  return i < 0 ? null : i;
}

/**
 * Turns a stream of telephone-event packets into digits, each reported once: the first packet of an
 * event (new RTP timestamp, §2.5.1.2) reports it; retransmitted end packets (§2.5.1.4, sent three
 * times) and continuation packets of the same timestamp are ignored.
 */
export class DtmfReceiver {
  private lastTimestamp: number | null = null;

  /** Returns the digit when this packet starts a new DTMF event, null otherwise. */
  onPacket(rtpTimestamp: number, payload: Uint8Array): string | null {
    const ev = parseTelephoneEvent(payload);
    if (!ev) return null;
    const ts = rtpTimestamp >>> 0;
    if (ts === this.lastTimestamp) return null;
    this.lastTimestamp = ts;
    return dtmfDigit(ev.event);
  }
}

/**
 * The packets of one DTMF digit to send (§2.5.1): the first with the marker bit, one each `packetMs`
 * with growing duration, then the end packet three times (§2.5.1.4). All carry the event's start timestamp.
 */
export function dtmfPackets(
  digit: string,
  options: { durationMs?: number; packetMs?: number; volume?: number; clockRate?: number } = {},
): Array<{ payload: Uint8Array; marker: boolean }> {
  const event = dtmfEvent(digit);
  if (event === null) throw new RangeError(`not a DTMF digit: ${JSON.stringify(digit)}`);
  const { durationMs = 100, packetMs = 20, volume = 10, clockRate = 8000 } = options;
  const step = (packetMs * clockRate) / 1000;
  const total = Math.min(0xffff, Math.round((durationMs * clockRate) / 1000));
  const packets: Array<{ payload: Uint8Array; marker: boolean }> = [];
  for (let d = step; d < total; d += step) {
    packets.push({ payload: writeTelephoneEvent({ event, end: false, volume, duration: d }), marker: d === step });
  }
  for (let i = 0; i < 3; i++) {
    packets.push({
      payload: writeTelephoneEvent({ event, end: true, volume, duration: total }),
      marker: packets.length === 0,
    });
  }
  return packets;
}
