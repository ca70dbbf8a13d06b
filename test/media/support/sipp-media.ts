import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freeUdpPort, ProcessGroup } from '../../../bench/lib/sip/processes';

/** How a SIPp carrier's call goes after its authenticated INVITE (test/media/sipp/media-call.xml). */
export type CallShape =
  | { kind: 'answered'; wav: string | null; hold?: boolean; end: 'caller' | 'gateway' }
  | { kind: 'refused' }
  | { kind: 'cancelled' };

const OK_ACK = `
  <send>
    <![CDATA[
      ACK [next_url] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      [routes]
      From: <sip:[field0]@carrier.example>;tag=[pid]T[call_number]
      To: <sip:[field1]@[remote_ip]:[remote_port]>[peer_tag_param]
      Call-ID: [call_id]
      CSeq: [cseq] ACK
      Max-Forwards: 70
      Content-Length: 0
    ]]>
  </send>`;

const reinvite = (cseq: number, direction: string) => `
  <send retrans="500">
    <![CDATA[
      INVITE [next_url] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      [routes]
      From: <sip:[field0]@carrier.example>;tag=[pid]T[call_number]
      To: <sip:[field1]@[remote_ip]:[remote_port]>[peer_tag_param]
      Call-ID: [call_id]
      CSeq: ${cseq} INVITE
      Contact: <sip:carrier@[local_ip]:[local_port]>
      Max-Forwards: 70
      Content-Type: application/sdp
      Content-Length: [len]

      v=0
      o=carrier 1 ${cseq} IN IP4 [local_ip]
      s=-
      c=IN IP4 [local_ip]
      t=0 0
      m=audio [field2] RTP/AVP 0 101
      a=rtpmap:0 PCMU/8000
      a=rtpmap:101 telephone-event/8000
      a=${direction}
    ]]>
  </send>
  <recv response="100" optional="true"/>
  <recv response="200">
    <action><ereg regexp="a=(sendrecv|recvonly|sendonly|inactive)" search_in="body" check_it="true" assign_to="dir,answered_${direction}"/></action>
  </recv>
  ${OK_ACK.replace('[cseq]', String(cseq))}
  <nop><action><log message="REINVITE [call_id] ${direction} [$answered_${direction}]"/></action></nop>`;

/** The ACK of a non-2xx final response: the INVITE's branch, `back` scenario messages earlier (§17.1.1.3). */
const failureAck = (back: number) => `
  <send>
    <![CDATA[
      ACK sip:[field1]@[remote_ip]:[remote_port] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch-${back}]
      From: <sip:[field0]@carrier.example>;tag=[pid]T[call_number]
      To: <sip:[field1]@[remote_ip]:[remote_port]>[peer_tag_param]
      Call-ID: [call_id]
      CSeq: 2 ACK
      Max-Forwards: 70
      Content-Length: 0
    ]]>
  </send>`;

function tail(shape: CallShape): string {
  if (shape.kind === 'refused') {
    return `
  <recv response="100" optional="true"/>
  <recv response="180" optional="true"/>
  <recv response="480" optional="true" next="refused">
    <action><ereg regexp="SIP/2\\.0 480 ([A-Za-z ]*)" search_in="msg" check_it="true" assign_to="all480,phrase480"/><log message="STATUS [call_id] [$all480]"/><log message="REFUSED [call_id] 480 [$phrase480]"/></action>
  </recv>
  <recv response="500" optional="true" next="refused">
    <action><ereg regexp="SIP/2\\.0 500 ([A-Za-z ]*)" search_in="msg" check_it="true" assign_to="all500,phrase500"/><log message="STATUS [call_id] [$all500]"/><log message="REFUSED [call_id] 500 [$phrase500]"/></action>
  </recv>
  <recv response="503" next="refused">
    <action><ereg regexp="SIP/2\\.0 503 ([A-Za-z ]*)" search_in="msg" check_it="true" assign_to="all503,phrase503"/><log message="STATUS [call_id] [$all503]"/><log message="REFUSED [call_id] 503 [$phrase503]"/></action>
  </recv>
  <label id="refused"/>
${failureAck(6)}`;
  }
  if (shape.kind === 'cancelled') {
    // CANCEL and the ACK of the 487 carry the INVITE's branch (RFC 3261 §9.1, §17.1.1.3): [branch-N]
    // names the branch of the message N places earlier in the scenario.
    return `
  <recv response="100" optional="true"/>
  <recv response="180"/>
  <pause milliseconds="500"/>
  <send>
    <![CDATA[
      CANCEL sip:[field1]@[remote_ip]:[remote_port] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch-4]
      From: <sip:[field0]@carrier.example>;tag=[pid]T[call_number]
      To: <sip:[field1]@[remote_ip]:[remote_port]>
      Call-ID: [call_id]
      CSeq: 2 CANCEL
      Max-Forwards: 70
      Content-Length: 0
    ]]>
  </send>
  <recv response="200"/>
  <recv response="487">
    <action><log message="CANCELLED [call_id] 487"/></action>
  </recv>
${failureAck(7)}`;
  }
  const rtp = shape.wav ? `<nop><action><exec rtp_stream="${shape.wav},1,0"/></action></nop>` : '';
  const hold = shape.hold
    ? `<pause milliseconds="1500"/>${reinvite(3, 'sendonly')}<pause milliseconds="1500"/>${reinvite(4, 'sendrecv')}`
    : '';
  const end =
    shape.end === 'caller'
      ? `
  <pause/>
  <send retrans="500">
    <![CDATA[
      BYE [next_url] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      [routes]
      From: <sip:[field0]@carrier.example>;tag=[pid]T[call_number]
      To: <sip:[field1]@[remote_ip]:[remote_port]>[peer_tag_param]
      Call-ID: [call_id]
      CSeq: 10 BYE
      Max-Forwards: 70
      Content-Length: 0
    ]]>
  </send>
  <recv response="200"/>
  <nop><action><log message="ENDED [call_id] caller"/></action></nop>`
      : `
  <recv request="BYE"/>
  <send>
    <![CDATA[
      SIP/2.0 200 OK
      [last_Via:]
      [last_From:]
      [last_To:]
      [last_Call-ID:]
      [last_CSeq:]
      Content-Length: 0
    ]]>
  </send>
  <nop><action><log message="ENDED [call_id] gateway"/></action></nop>`;
  return `
  <recv response="100" optional="true"/>
  <recv response="180" optional="true"/>
  <recv response="200" rrs="true">
    <action><log message="ANSWERED [call_id]"/></action>
  </recv>
  ${OK_ACK.replace('[cseq]', '2')}
  ${rtp}
  ${hold}
  ${end}`;
}

export interface MediaRun {
  gatewayPort: number;
  user: string;
  password: string;
  shape: CallShape;
  /** One counter port per call (the SDP's media port). */
  mediaPorts: number[];
  /** Calls at once (default: all), and pause before a caller's BYE (-d). */
  concurrent?: number;
  pauseMs?: number;
  rate?: number;
  timeoutS?: number;
}

export interface MediaResult {
  exitCode: number | null;
  /** SIP Call-IDs in the order SIPp logged them, with what happened (ANSWERED, ENDED caller, REINVITE ...). */
  events: { what: string; callId: string; detail: string }[];
  output: string;
}

let runs = 0;

/** Runs SIPp carriers with the scenario for `shape` to their end. */
export async function runMediaCalls(group: ProcessGroup, dir: string, run: MediaRun): Promise<MediaResult> {
  const id = `media-${++runs}`;
  const template = readFileSync(join(__dirname, '..', 'sipp', 'media-call.xml'), 'utf8');
  const scenario = join(dir, `${id}.xml`);
  writeFileSync(scenario, template.replace('@TAIL@', tail(run.shape)));
  const injection = join(dir, `${id}.csv`);
  writeFileSync(
    injection,
    `SEQUENTIAL\n${run.mediaPorts.map((port, i) => `+1415555${String(1000 + i)};+442071838750;${port}`).join('\n')}\n`,
  );
  const logFile = join(dir, `${id}.log`);
  const errors = join(dir, `${id}-errors.log`);
  const calls = run.mediaPorts.length;
  const sipp = group.spawn(
    id,
    'sipp',
    [
      `127.0.0.1:${run.gatewayPort}`,
      '-sf',
      scenario,
      '-inf',
      injection,
      '-au',
      run.user,
      '-ap',
      run.password,
      '-i',
      '127.0.0.1',
      '-mi',
      '127.0.0.1',
      '-p',
      String(await freeUdpPort()),
      '-m',
      String(calls),
      '-r',
      String(run.rate ?? 25),
      '-l',
      String(run.concurrent ?? calls),
      '-d',
      String(run.pauseMs ?? 1000),
      '-timeout',
      `${run.timeoutS ?? 90}s`,
      '-timeout_error',
      '-nostdin',
      '-trace_logs',
      '-log_file',
      logFile,
      '-trace_err',
      '-error_file',
      errors,
    ],
    { urgent: true },
  );
  const exitCode = await sipp.exited;
  const output = sipp.output() + (existsSync(errors) ? readFileSync(errors, 'utf8').slice(-4000) : '');
  const events = existsSync(logFile)
    ? readFileSync(logFile, 'utf8')
        .split('\n')
        .map((line) => /^(ANSWERED|ENDED|REINVITE|REFUSED|CANCELLED) (\S+) ?(.*)$/.exec(line.trim()))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => ({ what: m[1], callId: m[2], detail: m[3] }))
    : [];
  return { exitCode, events, output };
}
