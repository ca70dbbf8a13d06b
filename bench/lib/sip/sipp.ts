import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCENARIOS_DIR } from './paths';
import { freeUdpPort, ProcessGroup, Spawned } from './processes';

/** What SIPp saw of one good call, in Unix ms of this host's clock. */
export interface SippCall {
  callId: string;
  inviteSentMs: number;
  answeredMs: number;
  byeSentMs: number;
  /** When the 200 answering the BYE came back. */
  byeAnsweredMs: number;
}

export interface CallRun {
  scenario: 'carrier-call' | 'carrier-refused' | 'carrier-register' | 'carrier-register-refused' | 'scanner';
  gatewayPort: number;
  /** SIPp's transport: u1 (UDP, default) or t1 (one TCP connection; TLS goes through a tunnel). */
  transport?: 'u1' | 't1';
  /** The carrier's address: 127.0.0.1, or another loopback address to come from elsewhere. */
  localIp?: string;
  user: string;
  password: string;
  calls: number;
  /** Calls started per second (default 10), and at most this many at once (default: all). */
  rate?: number;
  concurrent?: number;
  pauseMs?: number;
  caller?: string;
  called?: string;
  /** SIPp gives up after this long (its -timeout). */
  timeoutS?: number;
  /** The request-URI user (-s), e.g. a REGISTER's address of record. */
  service?: string;
  /** Scenario variables (-set name value), e.g. a REGISTER's expires. */
  vars?: Record<string, string>;
  /** Injection lines after the first (the scanner's made-up names, one a call). */
  moreLines?: string[];
}

export interface CallResult {
  exitCode: number | null;
  calls: SippCall[];
  /** What the scenario logged (-trace_logs). */
  log: string;
  output: string;
}

/** The agent's stand-in (agent.xml, or agent-refuses.xml) on 127.0.0.1:port until stopped. */
export function startAgent(
  group: ProcessGroup,
  port: number,
  dir: string,
  scenario: 'agent' | 'agent-refuses' = 'agent',
): Spawned {
  return group.spawn(
    `sipp ${scenario}`,
    'sipp',
    [
      '-sf',
      join(SCENARIOS_DIR, `${scenario}.xml`),
      '-i',
      '127.0.0.1',
      '-p',
      String(port),
      '-nostdin',
      '-trace_err',
      '-error_file',
      join(dir, `agent-${port}-errors.log`),
    ],
    { urgent: true },
  );
}

/** The record id the reference gateway gives a call: call_ + MD5 of its SIP Call-ID. */
export const recordIdOf = (callId: string) => `call_${createHash('md5').update(callId).digest('hex')}`;

let runs = 0;

/** Runs a carrier scenario to its end: exit 0 when every call went as the scenario expects. */
export async function runCalls(group: ProcessGroup, dir: string, run: CallRun): Promise<CallResult> {
  const id = `${run.scenario}-${++runs}`;
  const injection = join(dir, `${id}.csv`);
  const lines = [`${run.caller ?? '+14155550100'};${run.called ?? '+442071838750'}`, ...(run.moreLines ?? [])];
  writeFileSync(injection, `SEQUENTIAL\n${lines.join('\n')}\n`);
  const logFile = join(dir, `${id}.log`);
  const localPort = await freeUdpPort();
  const sipp = group.spawn(
    id,
    'sipp',
    [
      `127.0.0.1:${run.gatewayPort}`,
      '-sf',
      join(SCENARIOS_DIR, `${run.scenario}.xml`),
      '-inf',
      injection,
      '-au',
      run.user,
      '-ap',
      run.password,
      '-i',
      run.localIp ?? '127.0.0.1',
      '-p',
      String(localPort),
      '-m',
      String(run.calls),
      '-r',
      String(run.rate ?? 10),
      '-l',
      String(run.calls),
      '-d',
      String(run.pauseMs ?? 1000),
      '-timeout',
      `${run.timeoutS ?? 60}s`,
      '-timeout_error',
      ...(run.transport ? ['-t', run.transport] : []),
      ...(run.service ? ['-s', run.service] : []),
      ...Object.entries(run.vars ?? {}).flatMap(([name, value]) => ['-set', name, value]),
      '-nostdin',
      '-trace_logs',
      '-log_file',
      logFile,
      '-trace_err',
      '-error_file',
      join(dir, `${id}-errors.log`),
    ],
    { urgent: true },
  );
  const exitCode = await sipp.exited;
  const errors = join(dir, `${id}-errors.log`);
  const output = sipp.output() + (existsSync(errors) ? readFileSync(errors, 'utf8') : '');
  const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
  return { exitCode, calls: parseCalls(log), log, output };
}

/** The CALL lines the scenario logs: call id, then seconds and microseconds of four moments. */
function parseCalls(log: string): SippCall[] {
  return log
    .split('\n')
    .filter((line) => line.startsWith('CALL '))
    .map((line) => {
      const [, callId, ...numbers] = line.trim().split(/\s+/);
      const [inviteS, inviteUs, okS, okUs, byeS, byeUs, byeOkS, byeOkUs] = numbers.map(Number);
      const ms = (s: number, us: number) => s * 1000 + us / 1000;
      return {
        callId,
        inviteSentMs: ms(inviteS, inviteUs),
        answeredMs: ms(okS, okUs),
        byeSentMs: ms(byeS, byeUs),
        byeAnsweredMs: ms(byeOkS, byeOkUs),
      };
    });
}
