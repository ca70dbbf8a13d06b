import {
  CallMeasurements,
  FramePacer,
  ManualClock,
  ReceiveStats,
  RtcpSession,
  RtpSender,
  mulawEncode,
  ntpFromUnixMs,
  ntpMiddle32,
  parseRtcp,
  serializeReceiverReport,
} from '../../../media-gateway/src/media';

const SPEECH = mulawEncode(
  Int16Array.from({ length: 160 }, (_, i) => Math.round(6000 * Math.sin((2 * Math.PI * 300 * i) / 8000))),
  new Uint8Array(160),
);
const SILENCE = new Uint8Array(160).fill(0xff);

/**
 * A synthesized call on a hand-moved clock: the caller says two things (1 s and 0.6 s of tone), the
 * agent answers each D ms after the caller's VAD closes its silence window; every 20th caller packet is lost.
 */
describe('call measurements (the stages together)', () => {
  it('given two questions answered after D = 300 ms and 5 % loss, then the record has 4 turns, AI latency and loss', () => {
    const clock = new ManualClock(10_000);
    const m = new CallMeasurements('PCMU', { silence_duration_ms: 400 }, clock);
    const pacer = new FramePacer({
      clock,
      onFrame: (_f, info) => m.agentFrameSent(info),
      onIdle: (_slot, skipped) => m.agentIdle(skipped),
      timers: { setTimeout: () => 0, clearTimeout: () => undefined },
    });
    pacer.start();
    const script: Array<Uint8Array> = [
      ...Array<Uint8Array>(50).fill(SPEECH), // 0-1000 ms
      ...Array<Uint8Array>(60).fill(SILENCE), // agent answers in here
      ...Array<Uint8Array>(30).fill(SPEECH), // 2200-2800
      ...Array<Uint8Array>(80).fill(SILENCE),
    ];
    const answerAt: number[] = [];
    script.forEach((payload, i) => {
      clock.set(10_000 + (i + 1) * 20);
      if (i % 20 !== 7) {
        const { vad } = m.callerFrame(i, i * 160, payload, clock.nowMs());
        m.callerFrameForwarded(clock.nowMs());
        if (vad?.type === 'speech_end') answerAt.push(vad.detectedAtMs + 300);
      }
      if (answerAt.length > 0 && clock.nowMs() >= answerAt[0]) {
        answerAt.shift();
        for (let k = 0; k < 25; k++) pacer.push(SPEECH, clock.nowMs());
      }
      pacer.tick();
    });
    const record = m.finish(null);
    expect(record.turns.map((t) => [t.speaker, t.duration_ms, t.processing_time_ms])).toEqual([
      ['caller', 1000, 0],
      ['agent', 500, 700], // end of speech + 400 ms window + D 300 ms
      ['caller', 600, 0],
      ['agent', 500, 700],
    ]);
    expect(record).toMatchObject({
      ai_latency_ms: 700,
      gateway_processing_ms: 0,
      jitter_ms: 0,
      codec_used: 'G711u',
      carrier_lag_ms: null,
    });
    // Packets 7, 27, ... of 220: 11 lost; the last sent is 219, so 220 expected.
    expect(record.packet_loss_percent).toBe(5);
    expect(record.mos).toBeGreaterThan(1);
    expect(record.mos).toBeLessThan(4);
  });

  it('has no media figures for a call that carried no audio', () => {
    const record = new CallMeasurements('PCMA', null, new ManualClock()).finish(null);
    expect(record).toEqual({
      turns: [],
      ai_latency_ms: null,
      gateway_processing_ms: null,
      jitter_ms: null,
      packet_loss_percent: null,
      codec_used: 'G711a',
      carrier_lag_ms: null,
      mos: null,
    });
  });

  it('reports barge-in when the caller speaks over agent audio', () => {
    const clock = new ManualClock(0);
    const m = new CallMeasurements('PCMU', null, clock);
    for (let i = 0; i < 10; i++) m.agentFrameSent({ slot: i, dueMs: i * 20, sentMs: i * 20, latenessMs: 0, heldMs: 0 });
    const first = m.callerFrame(0, 0, SPEECH, 100);
    const second = m.callerFrame(1, 160, SPEECH, 120);
    expect([first.bargeIn, second.bargeIn, second.vad?.type]).toEqual([false, true, 'speech_start']);
  });
});

describe('RTCP session', () => {
  it('measures the carrier round trip from its report block about our SR (A − LSR − DLSR)', () => {
    const clock = new ManualClock(500);
    const sender = new RtpSender({ payloadType: 0, ssrc: 0xabc });
    sender.audio(SILENCE);
    const stats = new ReceiveStats();
    const session = new RtcpSession(clock, sender, stats, 1_700_000_000_000);
    session.setRemoteSsrc(0x99);
    stats.onPacket(1, 160, 500);
    const sr = parseRtcp(session.report());
    if (typeof sr === 'string' || sr[0].type !== 'sr') throw new Error('expected an SR');
    expect(sr[0]).toMatchObject({ ssrc: 0xabc, packetCount: 1, octetCount: 160, reports: [{ ssrc: 0x99 }] });
    // The carrier holds our SR 100 ms and its report reaches us 180 ms after we sent: RTT 80 ms.
    clock.advance(180);
    const lsr = ntpMiddle32(sr[0].ntpSeconds, sr[0].ntpFraction);
    const rr = serializeReceiverReport({
      ssrc: 0x99,
      reports: [
        {
          ssrc: 0xabc,
          fractionLost: 0,
          cumulativeLost: 0,
          extendedHighestSequence: 1,
          jitter: 0,
          lastSenderReport: lsr,
          delaySinceLastSenderReport: Math.round(0.1 * 65536),
        },
      ],
    });
    expect(session.receive(rr)[0]).toBeCloseTo(80, 0);
    expect(session.meanRoundTripMs()).toBeCloseTo(80, 0);
    expect(session.receive(Buffer.from('garbage'))).toEqual([]);
    expect(session.malformed).toBe(1);
  });

  it('answers the carrier SR with its LSR and the delay since, and sends an RR before we have sent audio', () => {
    const clock = new ManualClock(0);
    const session = new RtcpSession(clock, new RtpSender({ payloadType: 0 }), new ReceiveStats(), 1_700_000_000_000);
    session.setRemoteSsrc(7);
    const theirs = ntpFromUnixMs(1_600_000_000_000);
    const sr = Buffer.alloc(28);
    sr.writeUInt8(0x80, 0);
    sr.writeUInt8(200, 1);
    sr.writeUInt16BE(6, 2);
    sr.writeUInt32BE(7, 4);
    sr.writeUInt32BE(theirs.seconds, 8);
    sr.writeUInt32BE(theirs.fraction, 12);
    session.receive(sr);
    clock.advance(250);
    const ours = parseRtcp(session.report());
    if (typeof ours === 'string' || ours[0].type !== 'rr') throw new Error('expected an RR');
    expect(ours[0].reports[0]).toMatchObject({
      ssrc: 7,
      lastSenderReport: ntpMiddle32(theirs.seconds, theirs.fraction),
      delaySinceLastSenderReport: Math.round(0.25 * 65536),
    });
  });
});
