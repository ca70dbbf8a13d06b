import { ApiClient } from '../../support/http-client';
import type { Spawned } from '../../../bench/lib/sip/processes';
import { CallResult } from '../../../bench/lib/sip/sipp';

/**
 * SIPp exits 0 when every call went as its scenario expects; otherwise its errors say why, and,
 * given the gateway the calls went to, whether it still runs and its last log lines (a gateway
 * that stopped answering shows why there, not in SIPp's screen).
 */
export function succeeded(run: CallResult, gateway?: Spawned): void {
  if (run.exitCode === 0) return;
  const sipp = `SIPp exited ${run.exitCode}:\n${run.output.slice(-4000)}`;
  throw new Error(gateway ? `${sipp}\n${gatewayReport(gateway)}` : sipp);
}

/**
 * Whether a gateway still runs, and its last 60 log lines; for a gateway that exited, also the 60
 * lines before it began to stop (a Kamailio whose child process dies stops every other one: its
 * last lines are the shutdown, the lines before it say why).
 */
export function gatewayReport(gateway: Spawned): string {
  const { exitCode, signalCode } = gateway.child;
  const running = exitCode === null && signalCode === null;
  const state = running ? 'running' : `exited: code ${exitCode}, signal ${signalCode}`;
  const lines = gateway.output().split('\n');
  const stopping = lines.findIndex((line) => /signal 15 received/.test(line));
  const before =
    !running && stopping > 0
      ? `\nits log before it began to stop:\n${lines.slice(Math.max(0, stopping - 60), stopping).join('\n')}`
      : '';
  return `the gateway (${state})${before}\nits last log lines:\n${lines.slice(-60).join('\n')}`;
}

/** A trunk's calls as GET /v1/calls lists them (every page). */
export async function listedCalls(client: ApiClient, trunkId: string): Promise<any[]> {
  const all: any[] = [];
  let cursor: string | null = null;
  do {
    const page: any = await client.get(`/v1/calls?trunk_id=${trunkId}&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    all.push(...page.body.calls);
    cursor = page.body.pagination.next_cursor;
  } while (cursor);
  return all;
}

/** A trunk's rejections, newest first (up to 100). */
export async function trunkRejections(client: ApiClient, trunkId: string): Promise<any[]> {
  return (await client.get(`/v1/trunks/${trunkId}/rejections?limit=100`)).body.rejections;
}

/** What a carrier scenario logged: lines starting with `word`, split on spaces. */
export const logged = (run: CallResult, word: string): string[][] =>
  run.log
    .split('\n')
    .filter((line) => line.startsWith(`${word} `))
    .map((line) => line.trim().split(/\s+/));
