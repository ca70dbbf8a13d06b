import fc from 'fast-check';
import {
  frameLength,
  Headers,
  parseMessage,
  parseNameAddr,
  parseVia,
  responseTo,
  serialize,
  SipRequest,
  splitList,
  uriUser,
} from '../../../media-gateway/src/sip/message';
import { buildAnswer, negotiate, parseOffer } from '../../../media-gateway/src/sip/sdp';

const token = fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,15}$/);
const INVITE = [
  'INVITE sip:alice-1@127.0.0.1:5070 SIP/2.0',
  'Via: SIP/2.0/UDP 127.0.0.1:5060;branch=z9hG4bKabc;rport, SIP/2.0/UDP 10.0.0.1:5062;branch=z9hG4bKdef',
  'Record-Route: <sip:127.0.0.1:5060;lr;ftag=x1>',
  'f: "Bob, Jr." <sip:+14155550100@carrier.example>;tag=x1',
  't: <sip:+442071838750@127.0.0.1>',
  'i: abc@host',
  'CSeq: 2 INVITE',
  'Subject: folded',
  '  across lines',
  'Content-Type: application/sdp',
  'l: 10',
  '',
  'v=0\r\ns=-\r\nEXTRA',
].join('\r\n');

describe('SIP messages (RFC 3261 §7)', () => {
  it('parses compact forms, folded lines and comma lists, and cuts the body at Content-Length', () => {
    const message = parseMessage(Buffer.from(INVITE)) as SipRequest;
    expect(message).toMatchObject({ kind: 'request', method: 'INVITE', uri: 'sip:alice-1@127.0.0.1:5070' });
    expect(message.headers.all('via')).toHaveLength(2);
    expect(message.headers.get('subject')).toBe('folded across lines');
    expect(message.headers.get('call-id')).toBe('abc@host');
    expect(message.body.toString()).toBe('v=0\r\ns=-\r\n');
    expect(parseNameAddr(message.headers.get('from')!)).toEqual({
      uri: 'sip:+14155550100@carrier.example',
      params: { tag: 'x1' },
    });
    expect(uriUser(parseNameAddr(message.headers.get('to')!)!.uri)).toBe('+442071838750');
    expect(parseVia(message.headers.all('via')[0])).toEqual({
      transport: 'UDP',
      host: '127.0.0.1',
      port: 5060,
      params: { branch: 'z9hG4bKabc', rport: '' },
    });
  });

  it('refuses a body shorter than its Content-Length, and requests without Call-ID, CSeq or Via', () => {
    expect(parseMessage(Buffer.from(INVITE.replace('l: 10', 'l: 99')))).toBeNull();
    expect(parseMessage(Buffer.from(INVITE.replace('i: abc@host\r\n', '')))).toBeNull();
    expect(parseMessage(Buffer.from(INVITE.replace('CSeq: 2 INVITE', 'CSeq: two INVITE')))).toBeNull();
  });

  it('answers with Via, From, To (tag added), Call-ID and CSeq copied (§8.2.6.2)', () => {
    const request = parseMessage(Buffer.from(INVITE)) as SipRequest;
    const response = parseMessage(serialize(responseTo(request, 180, 'Ringing', 'mytag')));
    expect(response).toMatchObject({ kind: 'response', status: 180, reason: 'Ringing' });
    expect(response!.headers.all('via')).toEqual(request.headers.all('via'));
    expect(response!.headers.get('to')).toBe('<sip:+442071838750@127.0.0.1>;tag=mytag');
  });

  it('splits lists only outside quotes and angle brackets', () => {
    expect(splitList('"a, b" <sip:x@y;p=1,2>, <sip:z@w>')).toEqual(['"a, b" <sip:x@y;p=1,2>', '<sip:z@w>']);
  });

  it('never throws on arbitrary bytes (fuzz)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (bytes) => {
        const data = Buffer.from(bytes);
        const parsed = parseMessage(data);
        expect(parsed === null || typeof parsed === 'object').toBe(true);
        expect(Number.isInteger(frameLength(data))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('never throws on mutations of a valid INVITE (fuzz)', () => {
    fc.assert(
      fc.property(fc.nat(INVITE.length), fc.nat(INVITE.length), fc.string({ maxLength: 40 }), (at, cut, insert) => {
        const text = INVITE.slice(0, at) + insert + INVITE.slice(Math.min(INVITE.length, at + (cut % 20)));
        const parsed = parseMessage(Buffer.from(text, 'latin1'));
        if (parsed?.kind === 'request') expect(parsed.headers.get('call-id')).toBeTruthy();
      }),
      { numRuns: 3000 },
    );
  });

  it('round-trips generated requests, and cuts a TCP stream of them at each message (§18.3)', () => {
    const request = fc.record({
      method: fc.constantFrom('INVITE', 'BYE', 'OPTIONS', 'ACK', 'CANCEL', 'INFO'),
      user: token,
      callId: token,
      seq: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
      branch: token,
      body: fc.string({ maxLength: 300 }),
      extra: fc.array(fc.tuple(fc.constantFrom('X-One', 'Subject', 'Allow'), fc.stringMatching(/^[!-+\--~]{1,30}$/)), {
        maxLength: 4,
      }),
    });
    fc.assert(
      fc.property(fc.array(request, { minLength: 1, maxLength: 4 }), (requests) => {
        const messages: SipRequest[] = requests.map((r) => {
          const headers = new Headers()
            .add('via', `SIP/2.0/TCP 127.0.0.1:5060;branch=z9hG4bK${r.branch}`)
            .set('call-id', r.callId)
            .set('cseq', `${r.seq} ${r.method}`)
            .set('from', `<sip:a@b>;tag=1`)
            .set('to', `<sip:${r.user}@c>`);
          for (const [name, value] of r.extra) headers.add(name, value);
          return {
            kind: 'request',
            method: r.method,
            uri: `sip:${r.user}@h`,
            headers,
            body: Buffer.from(r.body, 'latin1'),
          };
        });
        let stream: Buffer = Buffer.concat(messages.map(serialize));
        for (const original of messages) {
          const length = frameLength(stream);
          expect(length).toBeGreaterThan(0);
          const parsed = parseMessage(stream.subarray(0, length)) as SipRequest;
          stream = stream.subarray(length);
          expect(parsed.method).toBe(original.method);
          expect(parsed.uri).toBe(original.uri);
          expect(parsed.body.equals(original.body)).toBe(true);
          expect(parsed.headers.get('cseq')).toBe(original.headers.get('cseq'));
          expect(serialize(parsed).equals(serialize(original))).toBe(true);
        }
        expect(stream.length).toBe(0);
      }),
      { numRuns: 500 },
    );
  });
});

const OFFER = (formats: string, extra = '') =>
  `v=0\r\no=c 1 1 IN IP4 10.0.0.9\r\ns=-\r\nc=IN IP4 10.0.0.9\r\nt=0 0\r\nm=audio 4000 RTP/AVP ${formats}\r\n${extra}`;

describe('SDP offer/answer (RFC 3264)', () => {
  it('takes the first G.711 format the offerer lists, with telephone-event, and mirrors the direction', () => {
    const offer = parseOffer(
      OFFER('18 8 0 101', 'a=rtpmap:18 G729/8000\r\na=rtpmap:101 telephone-event/8000\r\na=sendonly\r\n'),
    )!;
    const chosen = negotiate(offer)!;
    expect(chosen).toMatchObject({ codec: 'PCMA', payloadType: 8, dtmfPayloadType: 101, remotePort: 4000 });
    const answer = buildAnswer(offer, chosen, { address: '127.0.0.1', port: 30000, sessionId: 7, version: 1 });
    expect(answer).toContain('m=audio 30000 RTP/AVP 8 101');
    expect(answer).toContain('a=recvonly');
  });

  it('finds no common codec in a G.729-only offer (the call answers 488)', () => {
    expect(negotiate(parseOffer(OFFER('18', 'a=rtpmap:18 G729/8000\r\n'))!)).toBeNull();
  });

  it('refuses every m= line but the audio one with port 0 (§6)', () => {
    const offer = parseOffer(OFFER('0') + 'm=video 5000 RTP/AVP 96\r\n')!;
    const answer = buildAnswer(offer, negotiate(offer)!, {
      address: '127.0.0.1',
      port: 30000,
      sessionId: 7,
      version: 1,
    });
    expect(answer).toContain('m=video 0 RTP/AVP 96');
  });

  it('treats c=0.0.0.0 as hold (§8.4)', () => {
    expect(negotiate(parseOffer(OFFER('0').replace('c=IN IP4 10.0.0.9', 'c=IN IP4 0.0.0.0'))!)!.direction).toBe(
      'inactive',
    );
  });

  it('never throws on arbitrary text (fuzz)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 1000 }), fc.nat(200), (noise, at) => {
        const text = OFFER('0 8 101').slice(0, at) + noise;
        const offer = parseOffer(text);
        if (offer) negotiate(offer);
      }),
      { numRuns: 3000 },
    );
  });
});
