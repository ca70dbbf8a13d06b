/**
 * A media worker thread (docs/media-gateway.md, "Media workers"): it owns the RTP sockets, agent
 * sockets and pacer tick of the calls the main thread gives it, on its own slice of the RTP port
 * range, and answers the main thread's requests (media-worker.protocol.ts). SIP, the trunk lookup
 * and the records stay on the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { gatewayLogger } from '../logger';
import type { Settings } from '../settings';
import { LocalMediaLegs } from './local-media';
import type { FromWorker, ToWorker } from './media-worker.protocol';
import { AgentConnectError, MediaLeg } from './ports';

const { settings, index } = workerData as { settings: Settings; index: number };
const log = gatewayLogger(settings, { worker: index });
const legs = new LocalMediaLegs(settings, log);
const open = new Map<number, MediaLeg>();
const opening = new Map<number, AbortController>();
const port = parentPort!;

function reply(message: FromWorker): void {
  port.postMessage(message);
}

async function openLeg(request: Extract<ToWorker, { t: 'open' }>): Promise<void> {
  const abort = new AbortController();
  opening.set(request.id, abort);
  try {
    const leg = await legs.open(
      request.port,
      request.options,
      { onEnd: (reason, failure) => reply({ t: 'end', id: request.id, reason, failure }) },
      request.timeoutMs,
      abort.signal,
    );
    open.set(request.id, leg);
    reply({ t: 'opened', id: request.id });
  } catch (error) {
    const e =
      error instanceof AgentConnectError
        ? error
        : new AgentConnectError('agent_unreachable', true, 503, 'Agent unreachable', (error as Error).message);
    const { failureClass, retryable, sipCode, phrase, message } = e;
    reply({ t: 'open-failed', id: request.id, failure: { failureClass, retryable, sipCode, phrase, message } });
  } finally {
    opening.delete(request.id);
  }
}

async function closeLeg(id: number, legId: number): Promise<void> {
  const leg = open.get(legId);
  open.delete(legId);
  const summary = leg ? await leg.close() : null;
  reply({ t: 'closed', id, summary });
}

port.on('message', (message: ToWorker) => {
  switch (message.t) {
    case 'take':
      void legs.takePort().then((taken) => reply({ t: 'took', id: message.id, port: taken }));
      return;
    case 'release':
      legs.release(message.port);
      return;
    case 'open':
      void openLeg(message);
      return;
    case 'abort':
      opening.get(message.id)?.abort();
      return;
    case 'update':
      open.get(message.id)?.update(message.remote);
      return;
    case 'close':
      void closeLeg(message.id, message.leg);
      return;
  }
});
