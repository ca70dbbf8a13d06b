import { isIP } from 'node:net';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { ELEVENLABS_CONVAI_URL } from './agent/elevenlabs-convai.agent';
import { OPENAI_REALTIME_URL } from './agent/openai-realtime.agent';

/** Everything the media gateway is configured with, read and checked once at start (docs/media-gateway.md). */
export interface Settings {
  /** Trunkline's base URL ending in /v1, and a key of scope `gateway`. */
  trunklineUrl: string;
  gatewayKey: string;
  /** PEM of the CA that signed Trunkline's certificate (its self-signed cert in a test setup), or null for the system's. */
  trunklineCa: string | null;
  /** PEM trusted for agents' wss:// certificates besides the system's (a test's mock agent), or null. */
  agentCa: string | null;
  sipHost: string;
  sipPort: number;
  /** The address put in Via and Contact: where Kamailio reaches this host. */
  advertiseAddress: string;
  /** The address put in the SDP answer (c=): where carriers send RTP (a NAT's public address, say). */
  rtpAdvertiseAddress: string;
  rtpHost: string;
  /** RTP ports are taken from [rtpPortMin, rtpPortMax] (even ports; RTCP on the next one, RFC 3550 §11). */
  rtpPortMin: number;
  rtpPortMax: number;
  /** Source addresses whose SIP is taken (Kamailio's): anything else is answered 403. */
  trustedSources: string[];
  /** No RTP from the caller for this long after the answer: BYE, disconnect_reason media_timeout. */
  mediaTimeoutMs: number;
  /** The agent must be connected (WebSocket open and `start` sent) within this long, or the caller gets 480. */
  agentConnectTimeoutMs: number;
  maxCalls: number;
  /**
   * Worker threads that carry calls' media (RTP, agent sockets, pacing), each on its own slice of
   * the RTP port range; 0 keeps every call's media on the main thread. Default: one per CPU.
   */
  mediaWorkers: number;
  /** Every this many ms each media thread logs its calls and event-loop delay (`media loop`); 0: never. */
  loopReportMs: number;
  /** The providers' WebSocket endpoints (MEDIA_GATEWAY_OPENAI_URL, MEDIA_GATEWAY_ELEVENLABS_URL): the real ones by default, a test's mocks otherwise. */
  openaiUrl: string;
  elevenlabsUrl: string;
  /** Where records wait until Trunkline takes them. */
  spoolDir: string;
  logLevel: string;
}

export class SettingsError extends Error {}

type Env = Record<string, string | undefined>;

function required(env: Env, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new SettingsError(`${name} is required`);
  return value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new SettingsError(`${name} must be an integer`);
  const value = Number(raw);
  if (value < min || value > max) throw new SettingsError(`${name} must be between ${min} and ${max}`);
  return value;
}

function pem(env: Env, name: string): string | null {
  const path = env[name]?.trim();
  if (!path) return null;
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new SettingsError(`${name}: cannot read ${path} (${(error as Error).message})`);
  }
}

function websocketUrl(env: Env, name: string, fallback: string): string {
  const value = env[name]?.trim() || fallback;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SettingsError(`${name} must be a ws:// or wss:// URL`);
  }
  if ((url.protocol !== 'wss:' && url.protocol !== 'ws:') || url.username || url.password || url.hash)
    throw new SettingsError(`${name} must be a ws:// or wss:// URL without credentials`);
  return value;
}

/** Reads the environment once; any bad value stops the process with a message naming the setting. */
export function loadSettings(env: Env = process.env): Settings {
  const trunklineUrl = required(env, 'TRUNKLINE_URL').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+\/v1$/.test(trunklineUrl))
    throw new SettingsError('TRUNKLINE_URL must look like https://host:port/v1');
  const gatewayKey = required(env, 'TRUNKLINE_GATEWAY_KEY');
  if (!/^sk_(live|test)_[A-Za-z0-9]{32}$/.test(gatewayKey))
    throw new SettingsError('TRUNKLINE_GATEWAY_KEY must be an sk_live_/sk_test_ key');
  const sipHost = env.SIP_HOST?.trim() || '0.0.0.0';
  const advertiseAddress = env.ADVERTISE_ADDRESS?.trim() || (sipHost === '0.0.0.0' ? '127.0.0.1' : sipHost);
  for (const [name, value] of [
    ['SIP_HOST', sipHost],
    ['ADVERTISE_ADDRESS', advertiseAddress],
  ]) {
    if (isIP(value) !== 4) throw new SettingsError(`${name} must be an IPv4 address`);
  }
  const rtpHost = env.RTP_HOST?.trim() || sipHost;
  if (isIP(rtpHost) !== 4) throw new SettingsError('RTP_HOST must be an IPv4 address');
  const rtpAdvertiseAddress = env.ADVERTISE_RTP_ADDRESS?.trim() || (rtpHost === '0.0.0.0' ? advertiseAddress : rtpHost);
  if (isIP(rtpAdvertiseAddress) !== 4) throw new SettingsError('ADVERTISE_RTP_ADDRESS must be an IPv4 address');
  const rtpPortMin = integer(env, 'RTP_PORT_MIN', 20000, 1024, 65534);
  const rtpPortMax = integer(env, 'RTP_PORT_MAX', 29999, 1025, 65535);
  if (rtpPortMax - rtpPortMin < 3) throw new SettingsError('RTP_PORT_MAX must be at least RTP_PORT_MIN + 3');
  const mediaWorkers = integer(env, 'MEDIA_WORKERS', availableParallelism(), 0, 64);
  if (mediaWorkers > 0 && (rtpPortMax - rtpPortMin + 1) / mediaWorkers < 4)
    throw new SettingsError('RTP_PORT_MIN..RTP_PORT_MAX must hold at least 4 ports per media worker');
  const trustedSources = (env.TRUSTED_SOURCES ?? '127.0.0.1')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const source of trustedSources) {
    if (!isIP(source)) throw new SettingsError(`TRUSTED_SOURCES: ${source} is not an IP address`);
  }
  return {
    trunklineUrl,
    gatewayKey,
    trunklineCa: pem(env, 'TRUNKLINE_CA_FILE'),
    agentCa: pem(env, 'AGENT_CA_FILE'),
    sipHost,
    sipPort: integer(env, 'SIP_PORT', 5070, 0, 65535),
    advertiseAddress,
    rtpAdvertiseAddress,
    rtpHost,
    rtpPortMin,
    rtpPortMax,
    trustedSources,
    mediaTimeoutMs: integer(env, 'MEDIA_TIMEOUT_MS', 10_000, 500, 3_600_000),
    agentConnectTimeoutMs: integer(env, 'AGENT_CONNECT_TIMEOUT_MS', 5_000, 100, 60_000),
    maxCalls: integer(env, 'MAX_CALLS', 500, 1, 100_000),
    mediaWorkers,
    loopReportMs: integer(env, 'MEDIA_LOOP_REPORT_MS', 60_000, 0, 3_600_000),
    openaiUrl: websocketUrl(env, 'MEDIA_GATEWAY_OPENAI_URL', OPENAI_REALTIME_URL),
    elevenlabsUrl: websocketUrl(env, 'MEDIA_GATEWAY_ELEVENLABS_URL', ELEVENLABS_CONVAI_URL),
    spoolDir: env.SPOOL_DIR?.trim() || './.data/media-gateway/spool',
    logLevel: env.LOG_LEVEL?.trim() || 'info',
  };
}
