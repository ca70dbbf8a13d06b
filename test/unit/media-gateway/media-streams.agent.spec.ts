import { AgentConnectError, MediaStreamsAgent, type AgentClosed } from '../../../media-gateway/src/agent';
import { mulawEncode } from '../../../media-gateway/src/media';
import { startMockAgent, toneReply, type MockAgent } from '../../media/support/mock-agent';
import { closedPort, startSilentServer, testCertificate } from '../../support/provider-stubs';

const CALL = { callId: 'call_test1', trunkId: 'conn_t1', accountId: 'acct_1', from: '+15550100', to: '+15550199' };

function speechFrame(): Uint8Array {
  const pcm = Int16Array.from({ length: 160 }, (_, i) => Math.round(6000 * Math.sin((2 * Math.PI * 300 * i) / 8000)));
  return mulawEncode(pcm, new Uint8Array(160));
}
const SILENCE = new Uint8Array(160).fill(0xff);

async function until(what: string, probe: () => boolean, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function connectError(agent: MediaStreamsAgent, signal?: AbortSignal): Promise<AgentConnectError> {
  const error = await agent.connect(CALL, signal).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AgentConnectError)) throw new Error(`expected an AgentConnectError, got ${String(error)}`);
  return error;
}

describe('Media Streams agent adapter', () => {
  let mock: MockAgent | null = null;
  afterEach(async () => {
    await mock?.close();
    mock = null;
  });

  it('given a wss agent, when a caller utterance ends, then the answer comes back as 160-byte frames and a mark', async () => {
    mock = await startMockAgent({ replyDelayMs: 50, silenceMs: 200, reply: toneReply(400) });
    const agent = new MediaStreamsAgent({ url: mock.url, ca: mock.ca ?? undefined });
    const frames: Uint8Array[] = [];
    const marks: string[] = [];
    agent.on('audio', (f) => frames.push(Uint8Array.from(f)));
    agent.on('mark', (name) => marks.push(name));
    await agent.connect({ ...CALL, customParameters: { campaign: 'x' } });
    for (let i = 0; i < 20; i++) agent.sendAudio(speechFrame());
    for (let i = 0; i < 15; i++) agent.sendAudio(SILENCE);
    await until('the reply', () => marks.length === 1);
    expect(frames).toHaveLength(20);
    expect(frames.every((f) => f.length === 160)).toBe(true);
    agent.markPlayed(marks[0]);
    agent.sendDtmf('#');
    const connection = mock.connections[0];
    await until('the mark and digit', () => connection.marksReturned.length === 1 && connection.dtmf.length === 1);
    expect(connection.start).toMatchObject({
      callSid: 'call_test1',
      accountSid: 'acct_1',
      tracks: ['inbound'],
      customParameters: { trunk_id: 'conn_t1', from: '+15550100', to: '+15550199', campaign: 'x' },
      mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
    });
    expect(connection.events.slice(0, 3)).toEqual(['connected', 'start', 'media']);
    expect([connection.mediaFrames, connection.mediaBytes, connection.invalid]).toEqual([35, 35 * 160, 0]);
    expect([connection.marksReturned, connection.dtmf]).toEqual([['reply-0'], ['#']]);
    expect(agent.stats).toMatchObject({ framesSent: 35, framesReceived: 20, messagesDroppedInvalid: 0 });
    await agent.close('caller_hangup');
    await until('stop', () => connection.stopped && connection.closed);
  });

  it.each([
    [401, 'agent_auth', false],
    [403, 'agent_auth', false],
    [429, 'agent_quota', true],
    [402, 'agent_quota', false],
    [503, 'agent_error', true],
    [404, 'agent_error', false],
  ] as const)('classifies an upgrade answered %i as %s (retryable %s)', async (status, failureClass, retryable) => {
    mock = await startMockAgent({ refuseStatus: status, tls: false });
    const error = await connectError(new MediaStreamsAgent({ url: mock.url }));
    expect(error.toJSON()).toMatchObject({ class: failureClass, retryable });
    expect(mock.upgradesRefused).toBe(1);
  });

  it('lets several mock agents share one certificate, so one CA reaches them all', async () => {
    const certificate = await testCertificate();
    const agents = [await startMockAgent({ certificate }), await startMockAgent({ certificate })];
    try {
      for (const mockAgent of agents) {
        expect(mockAgent.ca).toBe(certificate.cert);
        const client = new MediaStreamsAgent({ url: mockAgent.url, ca: certificate.cert });
        await client.connect(CALL);
        await client.close('done');
      }
    } finally {
      await Promise.all(agents.map((a) => a.close()));
    }
  });

  it('times out an agent that never answers the upgrade, and one that never finishes TLS', async () => {
    mock = await startMockAgent({ neverAnswerUpgrade: true, tls: false });
    expect((await connectError(new MediaStreamsAgent({ url: mock.url, connectTimeoutMs: 300 }))).failureClass).toBe(
      'agent_timeout',
    );
    const silent = await startSilentServer();
    try {
      const error = await connectError(
        new MediaStreamsAgent({ url: `wss://127.0.0.1:${silent.port}/`, connectTimeoutMs: 300 }),
      );
      expect(error.toJSON()).toMatchObject({ class: 'agent_timeout', retryable: true });
    } finally {
      await silent.close();
    }
  });

  it('fails as agent_error on a refused connection, an untrusted certificate and a bad URL', async () => {
    const port = await closedPort();
    expect((await connectError(new MediaStreamsAgent({ url: `ws://127.0.0.1:${port}/` }))).toJSON()).toMatchObject({
      class: 'agent_error',
      retryable: true,
    });
    mock = await startMockAgent();
    const untrusted = await connectError(new MediaStreamsAgent({ url: mock.url }));
    expect(untrusted.toJSON()).toMatchObject({ class: 'agent_error', retryable: false });
    expect(untrusted.reason).toMatch(/certificate/);
    expect((await connectError(new MediaStreamsAgent({ url: 'not a url' }))).failureClass).toBe('agent_error');
  });

  it('stops connecting when aborted (CANCEL while ringing)', async () => {
    mock = await startMockAgent({ neverAnswerUpgrade: true, tls: false });
    const controller = new AbortController();
    const pending = connectError(new MediaStreamsAgent({ url: mock.url, connectTimeoutMs: 60_000 }), controller.signal);
    setTimeout(() => controller.abort(), 50);
    expect((await pending).reason).toBe('connect aborted');
  });

  it('stops connecting when closed before the agent answered, and leaves nothing open', async () => {
    mock = await startMockAgent({ neverAnswerUpgrade: true, tls: false });
    const agent = new MediaStreamsAgent({ url: mock.url, connectTimeoutMs: 60_000 });
    const closes: AgentClosed[] = [];
    agent.on('closed', (c) => closes.push(c));
    const pending = connectError(agent);
    setTimeout(() => void agent.close('caller_cancel'), 50);
    expect((await pending).toJSON()).toMatchObject({ class: 'agent_timeout', reason: 'connect aborted' });
    expect(closes).toEqual([]);
    agent.sendAudio(SILENCE);
    expect(agent.stats.framesSent).toBe(0);
  });

  it('drops oversized, non-JSON and unknown agent messages with counters, logs each kind once, and keeps going', async () => {
    mock = await startMockAgent({ tls: false, silent: true });
    const warnings: string[] = [];
    const agent = new MediaStreamsAgent({
      url: `${mock.url}?token=secret-token`,
      maxMessageBytes: 1024,
      logger: { warn: (fields, message) => warnings.push(`${message} ${JSON.stringify(fields)}`) },
    });
    const frames: Uint8Array[] = [];
    let cleared = 0;
    agent.on('audio', (f) => frames.push(Uint8Array.from(f)));
    agent.on('clear', () => cleared++);
    await agent.connect(CALL);
    const connection = mock.connections[0];
    const payload = Buffer.alloc(320, 0x55).toString('base64');
    connection.socket.send('x'.repeat(5000));
    connection.socket.send('x'.repeat(5000));
    connection.socket.send('{not json');
    connection.socket.send('[1,2]');
    connection.socket.send(JSON.stringify({ event: 'media', media: {} }));
    connection.socket.send(JSON.stringify({ event: 'dance' }));
    connection.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    connection.send({ event: 'media', streamSid: 'x', media: { payload } });
    connection.send({ event: 'clear', streamSid: 'x' });
    await until('the clear', () => cleared === 1);
    expect(frames).toHaveLength(2);
    expect(agent.stats).toMatchObject({ messagesDroppedOversized: 2, messagesDroppedInvalid: 5, framesReceived: 2 });
    expect(warnings).toHaveLength(2);
    expect(warnings.join('\n')).not.toContain('secret-token');
    await agent.close('done');
  });

  it('reports the agent hanging up and the socket dropping as closed, once', async () => {
    mock = await startMockAgent({ tls: false, silent: true, dropAfterMs: 100 });
    const dropped = new MediaStreamsAgent({ url: mock.url });
    const closes: AgentClosed[] = [];
    dropped.on('closed', (c) => closes.push(c));
    await dropped.connect(CALL);
    await until('the drop', () => closes.length === 1);
    // No close frame (1006): the agent failed, it did not hang up (the call's record says agent_error).
    expect(closes[0]).toMatchObject({ by: 'error', code: 1006 });
    await mock.close();

    mock = await startMockAgent({ tls: false, endOfSpeech: 'trigger', replyDelayMs: 0, hangUpAfterReplies: 1 });
    const hangsUp = new MediaStreamsAgent({ url: mock.url });
    const closed: AgentClosed[] = [];
    hangsUp.on('closed', (c) => closed.push(c));
    await hangsUp.connect(CALL);
    mock.trigger();
    await until('the hang-up', () => closed.length === 1);
    expect(closed[0]).toMatchObject({ by: 'agent', code: 1000, reason: 'agent done' });
    await hangsUp.close('after');
    expect(closed).toHaveLength(1);
  });

  it('receives clear when the caller speaks over an answer whose mark has not come back (barge-in)', async () => {
    mock = await startMockAgent({ tls: false, endOfSpeech: 'trigger', replyDelayMs: 0, reply: toneReply(2000) });
    const agent = new MediaStreamsAgent({ url: mock.url });
    const marks: string[] = [];
    let cleared = 0;
    agent.on('mark', (name) => marks.push(name));
    agent.on('clear', () => cleared++);
    await agent.connect(CALL);
    agent.sendAudio(SILENCE);
    await until('the stream to start', () => mock?.connections[0]?.mediaFrames === 1);
    mock.trigger();
    await until('the answer', () => marks.length === 1);
    for (let i = 0; i < 3; i++) agent.sendAudio(speechFrame());
    await until('the clear', () => cleared === 1);
    expect(mock.connections[0].clearsSent).toBe(1);
    agent.markPlayed(marks[0]); // the gateway reports a flushed mark back
    await until('the mark back', () => mock?.connections[0].marksReturned.length === 1);
    await agent.close('done');
  });

  it('hears its own audio back from an echoing agent', async () => {
    mock = await startMockAgent({ tls: false, echo: true });
    const agent = new MediaStreamsAgent({ url: mock.url });
    const frames: Uint8Array[] = [];
    agent.on('audio', (f) => frames.push(Uint8Array.from(f)));
    await agent.connect(CALL);
    const speech = speechFrame();
    for (let i = 0; i < 10; i++) agent.sendAudio(speech);
    await until('the echo', () => frames.length === 10);
    expect(frames.every((f) => Buffer.from(f).equals(Buffer.from(speech)))).toBe(true);
    await agent.close('done');
  });

  it('drops caller frames while the socket is backed up, and sends nothing before connect or after close', async () => {
    mock = await startMockAgent({ tls: false, silent: true });
    const agent = new MediaStreamsAgent({ url: mock.url, maxBufferedBytes: -1 });
    agent.sendAudio(SILENCE);
    await agent.connect(CALL);
    for (let i = 0; i < 5; i++) agent.sendAudio(SILENCE);
    expect(agent.stats).toMatchObject({ framesSent: 0, framesDroppedBackpressure: 5 });
    const closed: AgentClosed[] = [];
    agent.on('closed', (c) => closed.push(c));
    await agent.close('caller_hangup');
    agent.sendAudio(SILENCE);
    agent.sendDtmf('1');
    await agent.close('again');
    expect(closed).toEqual([{ by: 'local', reason: 'caller_hangup' }]);
    expect(mock.connections[0].mediaFrames).toBe(0);
  });
});
