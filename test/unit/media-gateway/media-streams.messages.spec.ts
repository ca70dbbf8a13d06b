import fc from 'fast-check';
import { parseAgentMessage } from '../../../media-gateway/src/agent/media-streams.messages';

const LIMIT = 64 * 1024;

describe('agent messages (Media Streams, agent → gateway)', () => {
  it('reads media, mark and clear as the protocol documents them', () => {
    const payload = Buffer.from([0xff, 0x7f, 0x00]).toString('base64');
    expect(
      parseAgentMessage(JSON.stringify({ event: 'media', streamSid: 'MZ1', media: { payload } }), false, LIMIT),
    ).toEqual({
      event: 'media',
      audio: Buffer.from([0xff, 0x7f, 0x00]),
    });
    expect(parseAgentMessage('{"event":"mark","streamSid":"MZ1","mark":{"name":"greeting"}}', false, LIMIT)).toEqual({
      event: 'mark',
      name: 'greeting',
    });
    expect(parseAgentMessage(Buffer.from('{"event":"clear","streamSid":"MZ1"}'), false, LIMIT)).toEqual({
      event: 'clear',
    });
  });

  it.each([
    ['binary frame', Buffer.from('{"event":"clear"}'), true],
    ['not JSON', '{"event":', false],
    ['JSON array', '[{"event":"clear"}]', false],
    ['JSON null', 'null', false],
    ['unknown event', '{"event":"start"}', false],
    ['media without payload', '{"event":"media","media":{}}', false],
    ['media with a non-base64 payload', '{"event":"media","media":{"payload":"@@@@"}}', false],
    ['mark without a name', '{"event":"mark","mark":null}', false],
    ['mark with a huge name', JSON.stringify({ event: 'mark', mark: { name: 'n'.repeat(300) } }), false],
  ])('drops a %s as invalid', (_what, data, isBinary) => {
    expect(parseAgentMessage(data, isBinary, LIMIT)).toEqual({ drop: 'invalid' });
  });

  it('drops a message over the size bound before parsing it', () => {
    expect(parseAgentMessage(`{"event":"clear","pad":"${'x'.repeat(100)}"}`, false, 64)).toEqual({ drop: 'oversized' });
  });

  it('never throws, whatever the agent sends (fuzz)', () => {
    const jsonish = fc.oneof(
      fc.string(),
      fc.json(),
      fc
        .record({
          event: fc.constantFrom('media', 'mark', 'clear', 'stop', 'x'),
          media: fc.anything(),
          mark: fc.anything(),
        })
        .map((v) => JSON.stringify(v)),
    );
    fc.assert(
      fc.property(jsonish, fc.boolean(), (text, isBinary) => {
        const result = parseAgentMessage(text, isBinary, 4096);
        expect(
          ['media', 'mark', 'clear'].includes((result as { event?: string }).event ?? '') || 'drop' in result,
        ).toBe(true);
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 500 }), (bytes) => {
        expect(() => parseAgentMessage(Buffer.from(bytes), false, 4096)).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });
});
