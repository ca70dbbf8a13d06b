import { Inject, Injectable } from '@nestjs/common';
import {
  ReadAhead,
  ReadAheadResult,
  ReadAheadValue,
  readHash,
  readString,
} from '../infrastructure/read-model/read-ahead';
import { decodedRecord } from '../infrastructure/read-model/caching.read-model-store';
import { GATE_READ_MODEL_STORE, ReadModelStore } from '../infrastructure/read-model/read-model-store.port';
import type { Principal } from '../shared/principal';
import { accountOf, gatewayScopeOf } from '../platform/http/request-context';
import { accountKeys } from '../accounts/projections/accounts.projection';
import { trunkKeys } from '../trunks/projections/trunk-view';
import { accountFromRecord } from '../accounts/read/accounts.queries';
import { gatewayTrunkFrom, gatewayTrunkInScope } from '../trunks/read/gateway.queries';
import { READ_SETTINGS, ReadSettings } from '../trunks/read/read.settings';
import { ownedDetail, trunkDetailFrom } from '../trunks/read/trunk.queries';

type Params = Record<string, string>;

interface ReadAheadRoute<D = unknown> {
  /** The one record the request reads, or null when it reads something else (e.g. with as_of). */
  read(params: Params, query: Record<string, unknown>): ReadAhead | null;
  /**
   * What the answer is built from, the same for every caller: the record decoded and its body
   * built, by the functions the route's query handler uses. Kept with this instance's copy of the
   * record (RecordCache.decoded()), so one function per route for the life of the instance.
   */
  decode(record: ReadAheadValue): D;
  /** The 200 body for this caller; null (or a refusal thrown) leaves the answer to the handler. */
  answer(decoded: D, principal: Principal): object | null;
}

/** The record a request reads, and how to answer from it (null: the handler answers). */
export interface PlannedRead {
  spec: ReadAhead;
  route: ReadAheadRoute | null;
}

const serialized = new WeakMap<object, string>();

/**
 * The JSON of a body the gate answers with, as Fastify would write it (JSON.stringify). A frozen
 * body is the object decoded once per copy of a record (the same object for every caller): it is
 * serialized once and the text kept for as long as the object lives. Any other body was decoded
 * for this request alone and is serialized without being kept.
 */
export function serializedBody(body: object): string {
  if (!Object.isFrozen(body)) return JSON.stringify(body);
  let json = serialized.get(body);
  if (json === undefined) {
    json = JSON.stringify(body);
    serialized.set(body, json);
  }
  return json;
}

/** One route's functions, typed together (decode's result is what answer takes). */
const readAheadRoute = <D>(entry: ReadAheadRoute<D>): ReadAheadRoute => entry as ReadAheadRoute;

/**
 * The GET routes whose handler reads exactly one read-model record named by the path: the
 * request gate reads it in its own round trip (credential, rate limit, this record), so these
 * routes cost one Redis round trip (none when the credential and the record are copies this
 * instance holds); and when the record is there and the request is the plain
 * case (no query string), the gate answers from it at once, without the framework's handler
 * pipeline: the gateway's per-call lookup is the hottest path of the API. Every other case (a
 * missing record, another account's, a query string) goes on to the route's handler, which
 * answers it, errors included, exactly as before. Keyed by the registered route pattern.
 */
@Injectable()
export class ReadAheadRoutes {
  private readonly routes: Record<string, ReadAheadRoute>;

  constructor(
    @Inject(READ_SETTINGS) settings: ReadSettings,
    // With Redis, this instance's copies of these records (docs/scaling.md, "Per-instance caches").
    @Inject(GATE_READ_MODEL_STORE) private readonly store: ReadModelStore,
  ) {
    this.routes = {
      '/v1/accounts/:id': readAheadRoute({
        read: (params) => ({ kind: 'hash', key: accountKeys.account(params.id) }),
        decode: (record) => accountFromRecord(typeof record === 'object' && record !== null ? record : {}),
        answer: (account) => account,
      }),
      // With as_of the trunk comes from its history in the event store instead.
      '/v1/trunks/:id': readAheadRoute({
        read: (params, query) =>
          query.as_of === undefined ? { kind: 'string', key: trunkKeys.trunk(params.id) } : null,
        decode: (record) => trunkDetailFrom(typeof record === 'string' ? record : null, settings.sipDomain),
        answer: (trunk, principal) => ownedDetail(trunk, accountOf({ principal })),
      }),
      '/v1/gateway/trunks/:sip_username': readAheadRoute({
        read: (params) => ({ kind: 'string', key: trunkKeys.gateway(params.sip_username) }),
        decode: (record) => gatewayTrunkFrom(typeof record === 'string' ? record : null, settings),
        answer: (trunk, principal) => gatewayTrunkInScope(trunk, gatewayScopeOf({ principal })),
      }),
    };
  }

  /**
   * What the gate reads ahead for this request, if anything, and whether it may answer from it:
   * only a request without a query string, since the handler validates query parameters and a
   * request that carries any is left to it.
   */
  readAheadFor(
    method: string,
    route: string | undefined,
    url: string,
    params: unknown,
    query: unknown,
  ): PlannedRead | undefined {
    if (method !== 'GET' || route === undefined) return undefined;
    const entry = this.routes[route];
    const spec = entry?.read((params ?? {}) as Params, (query ?? {}) as Record<string, unknown>);
    if (!spec) return undefined;
    return { spec, route: url.includes('?') ? null : entry };
  }

  /**
   * The body to answer with straight away (null: the handler answers), and the record it came
   * from: the one read ahead, or read here when the gate made no round trip (a cached
   * credential), which the handler then reuses.
   */
  async answer(
    planned: PlannedRead,
    ahead: ReadAheadResult | undefined,
    principal: Principal,
  ): Promise<{ body: object | null; read: ReadAheadResult | undefined }> {
    const { spec, route: entry } = planned;
    if (!entry) return { body: null, read: ahead };
    const record =
      spec.kind === 'hash'
        ? await readHash(this.store, spec.key, ahead)
        : await readString(this.store, spec.key, ahead);
    const read = ahead ?? new ReadAheadResult(spec, record);
    try {
      // Decoded once per copy of the record this instance holds; the caller's checks every time.
      const decoded = decodedRecord(this.store, spec.kind, spec.key, record, entry.decode);
      return { body: entry.answer(decoded, principal), read };
    } catch {
      // A refusal (e.g. a key without an account): the handler raises it in the error envelope.
      return { body: null, read };
    }
  }
}
