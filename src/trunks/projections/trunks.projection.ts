import { createHash } from 'node:crypto';
import { StoredEvent } from '../../infrastructure/event-store/event-store.port';
import { WriteOp } from '../../infrastructure/read-model/read-model-store.port';
import { SecretDestroyedError, SecretUnavailableError } from '../../infrastructure/secrets/secret.errors';
import { EncryptedSecret } from '../../shared/encrypted-secret';
import { isTrunkEvent, TrunkEvent } from '../domain/trunk.events';
import type { TrunkStatus } from '../domain/trunk.types';
import { Prefetcher, Projection, ProjectionView } from '../../eventsourcing/projection';
import { RecordMemo } from '../../eventsourcing/memo-codec';
import {
  GatewayRecord,
  gatewayChangeCodec as gatewayChanges,
  gatewayRecordCodec as gatewayRecords,
  TrunkView,
  trunkKeys,
  trunkViewCodec as trunkViews,
} from './trunk-view';

// A view changed several times in a batch is parsed and printed once (memo-codec.ts); this file
// never mutates a record it read.
const trunkViewCodec = new RecordMemo(trunkViews);
const gatewayRecordCodec = new RecordMemo(gatewayRecords);
const gatewayChangeCodec = new RecordMemo(gatewayChanges);

export interface SecretReader {
  decrypt(ownerId: string, field: string, secret: EncryptedSecret): Promise<string>;
}

/**
 * Trunk list/get views and the gateway's per-username record. The gateway record carries the
 * SIP digest HA1, computed here from the decrypted password; once a trunk's data key is
 * destroyed the password cannot be decrypted any more and a replay leaves HA1 null.
 */
export function trunksProjection(secrets: SecretReader, sipDomain: string): Projection {
  // Per ciphertext (an event's own object): prefetch starts every decryption of a batch at once
  // and apply awaits its own. A failure is forgotten, so the retried batch decrypts afresh.
  const digests = new WeakMap<EncryptedSecret, Promise<string | null>>();
  function ha1(trunkId: string, username: string, password: EncryptedSecret): Promise<string | null> {
    let digest = digests.get(password);
    if (!digest) {
      digest = computeHa1(trunkId, username, password);
      digests.set(password, digest);
      digest.catch(() => digests.delete(password));
    }
    return digest;
  }

  async function computeHa1(trunkId: string, username: string, password: EncryptedSecret): Promise<string | null> {
    try {
      const plain = await secrets.decrypt(trunkId, 'sip_password', password);
      return createHash('md5').update(`${username}:${sipDomain}:${plain}`).digest('hex');
    } catch (error) {
      // Crypto-shredded (or never keyed) secrets have no HA1; anything else (a vault outage)
      // is rethrown so the runner retries the batch instead of recording a wrong null.
      if (error instanceof SecretDestroyedError || error instanceof SecretUnavailableError) return null;
      throw error;
    }
  }

  return {
    name: 'trunks',
    types: isTrunkEvent.types,
    async prefetch(events: readonly StoredEvent[], reader: Prefetcher): Promise<void> {
      const trunkEvents = events.filter(isTrunkEvent);
      for (const e of trunkEvents)
        if (e.type === 'TrunkCreated' || e.type === 'SipPasswordRotated')
          void ha1(e.data.trunk_id, e.data.sip_username, e.data.sip_password).catch(() => undefined);
      await prefetchViews(trunkEvents, reader);
    },
    // Not async: an update whose records the batch already holds (most) applies without a promise.
    apply(event: StoredEvent, view: ProjectionView): WriteOp[] | Promise<WriteOp[]> {
      if (!isTrunkEvent(event)) return [];
      switch (event.type) {
        case 'TrunkCreated': {
          const d = event.data;
          return ha1(d.trunk_id, d.sip_username, d.sip_password).then((digest) => created(d, digest));
        }
        case 'TrunkUpdated':
          return updated(event.data, view);
        case 'SipPasswordRotated': {
          const d = event.data;
          return rotated(d, view, () => ha1(d.trunk_id, d.sip_username, d.sip_password));
        }
        case 'TrunkDeleted':
          return deleted(event.data, view);
        case 'TrunkHealthChanged': {
          const d = event.data;
          const changes = { status: d.status };
          return updated({ trunk_id: d.trunk_id, account_id: d.account_id, changes, updated_at: d.changed_at }, view);
        }
        default:
          return [];
      }
    },
  };
}

/** The trunk views and gateway records the batch's changes will read, in two MGETs. */
async function prefetchViews(events: TrunkEvent[], reader: Prefetcher): Promise<void> {
  // By trunk, not by event: a page holds several changes of most of its trunks.
  const [trunks, unnamed, usernames] = [new Set<string>(), new Set<string>(), new Set<string>()];
  for (const e of events) {
    if (e.type === 'TrunkCreated') continue;
    trunks.add(e.data.trunk_id);
    if ('sip_username' in e.data) usernames.add(e.data.sip_username);
    else unnamed.add(e.data.trunk_id);
  }
  const ids = [...trunks];
  const keys = ids.map(trunkKeys.trunk);
  const views = await reader.load(keys);
  ids.forEach((id, i) => {
    const username = unnamed.has(id) ? trunkViewCodec.decode(keys[i], views[i])?.sip_username : undefined;
    if (username !== undefined) usernames.add(username);
  });
  await reader.load([...usernames].map(trunkKeys.gateway));
}

function created(d: Extract<TrunkEvent, { type: 'TrunkCreated' }>['data'], digest: string | null): WriteOp[] {
  const trunk: TrunkView = {
    id: d.trunk_id,
    account_id: d.account_id,
    name: d.name,
    status: 'active',
    ai_provider: d.ai_provider,
    sip_username: d.sip_username,
    created_at: d.created_at,
    updated_at: d.created_at,
    ...d.settings,
    elevenlabs_agent_id: d.wiring.elevenlabs_agent_id ?? null,
    custom_endpoint: d.wiring.custom_endpoint ?? null,
    password_rotated_at: null,
  };
  const score = Date.parse(d.created_at);
  return [
    trunkViewCodec.set(trunkKeys.trunk(d.trunk_id), trunk),
    { op: 'zadd', key: trunkKeys.byAccount(d.account_id), score, member: d.trunk_id },
    { op: 'zadd', key: trunkKeys.byAccountAndStatus(d.account_id, 'active'), score, member: d.trunk_id },
    ...gatewayWrite(gatewayOf(trunk, digest), d.created_at),
  ];
}

type Change = Pick<Extract<TrunkEvent, { type: 'TrunkUpdated' }>['data'], 'trunk_id' | 'account_id' | 'updated_at'> & {
  changes: Omit<Extract<TrunkEvent, { type: 'TrunkUpdated' }>['data']['changes'], 'status'> & { status?: TrunkStatus };
};

/** A configuration change, or a status change of the trunk's health (the same writes). */
function updated(d: Change, view: ProjectionView): WriteOp[] | Promise<WriteOp[]> {
  return trunkViewCodec.with(view, trunkKeys.trunk(d.trunk_id), (before) => (before ? changed(d, before, view) : []));
}

function changed(d: Change, before: TrunkView, view: ProjectionView): WriteOp[] | Promise<WriteOp[]> {
  const { wiring, ...fields } = d.changes;
  const after: TrunkView = {
    ...before,
    ...fields,
    updated_at: d.updated_at,
    ...(wiring?.elevenlabs_agent_id !== undefined ? { elevenlabs_agent_id: wiring.elevenlabs_agent_id } : {}),
    ...(wiring?.custom_endpoint !== undefined ? { custom_endpoint: wiring.custom_endpoint } : {}),
  };
  const ops: WriteOp[] = [trunkViewCodec.set(trunkKeys.trunk(d.trunk_id), after)];
  if (after.status !== before.status) {
    const score = Date.parse(before.created_at);
    ops.push({ op: 'zrem', key: trunkKeys.byAccountAndStatus(d.account_id, before.status), member: d.trunk_id });
    ops.push({ op: 'zadd', key: trunkKeys.byAccountAndStatus(d.account_id, after.status), score, member: d.trunk_id });
  }
  return gatewayRecordCodec.with(view, trunkKeys.gateway(before.sip_username), (gateway) => {
    if (gateway && gateway.trunk_id === d.trunk_id)
      ops.push(...gatewayWrite(gatewayOf(after, gateway.ha1), d.updated_at));
    return ops;
  });
}

/** A new SIP password: the view's times, and the gateway record's HA1 (`digest`: decrypts it). */
async function rotated(
  d: Extract<TrunkEvent, { type: 'SipPasswordRotated' }>['data'],
  view: ProjectionView,
  digest: () => Promise<string | null>,
): Promise<WriteOp[]> {
  const trunk = await trunkViewCodec.read(view, trunkKeys.trunk(d.trunk_id));
  const gateway = await gatewayRecordCodec.read(view, trunkKeys.gateway(d.sip_username));
  const ops: WriteOp[] = [];
  if (trunk)
    ops.push(
      trunkViewCodec.set(trunkKeys.trunk(trunk.id), {
        ...trunk,
        updated_at: d.rotated_at,
        password_rotated_at: d.rotated_at,
      }),
    );
  if (gateway && gateway.trunk_id === d.trunk_id)
    ops.push(...gatewayWrite({ ...gateway, ha1: await digest() }, d.rotated_at));
  return ops;
}

async function deleted(
  d: Extract<TrunkEvent, { type: 'TrunkDeleted' }>['data'],
  view: ProjectionView,
): Promise<WriteOp[]> {
  const before = await trunkViewCodec.read(view, trunkKeys.trunk(d.trunk_id));
  const ops: WriteOp[] = [
    { op: 'del', key: trunkKeys.trunk(d.trunk_id) },
    { op: 'zrem', key: trunkKeys.byAccount(d.account_id), member: d.trunk_id },
  ];
  if (before)
    ops.push({ op: 'zrem', key: trunkKeys.byAccountAndStatus(d.account_id, before.status), member: d.trunk_id });
  const gateway = await gatewayRecordCodec.read(view, trunkKeys.gateway(d.sip_username));
  // The username may already belong to a newer trunk; only this trunk's record says "deleted".
  if (gateway && gateway.trunk_id === d.trunk_id)
    ops.push(...gatewayWrite({ ...gateway, status: 'deleted', ha1: null }, d.deleted_at));
  return ops;
}

/**
 * A gateway record and its entry in the change feed (one member per user name, scored by the
 * time of its last change), which gateways poll to evict what they cached (docs/sip-gateway.md).
 */
function gatewayWrite(record: GatewayRecord, at: string): WriteOp[] {
  const member = record.sip_username.toLowerCase();
  return [
    gatewayRecordCodec.set(trunkKeys.gateway(record.sip_username), record),
    gatewayChangeCodec.set(trunkKeys.gatewayChangePrefix + member, {
      sip_username: member,
      account_id: record.account_id,
      changed_at: at,
    }),
    { op: 'zadd', key: trunkKeys.gatewayChanges, score: Date.parse(at), member },
  ];
}

function gatewayOf(trunk: TrunkView, ha1: string | null): GatewayRecord {
  return {
    trunk_id: trunk.id,
    account_id: trunk.account_id,
    sip_username: trunk.sip_username,
    // A trunk in `error` is still routed: its status is a diagnosis, and only answered calls can
    // bring it back (docs/analytics.md, "Trunk health"). `inactive` is the operator's switch.
    status: trunk.status === 'error' ? 'active' : trunk.status,
    ai_provider: trunk.ai_provider,
    provider_settings: trunk.provider_settings,
    system_prompt: trunk.system_prompt,
    allowed_addresses: trunk.allowed_addresses,
    elevenlabs_agent_id: trunk.elevenlabs_agent_id,
    custom_endpoint: trunk.custom_endpoint,
    ha1,
  };
}
