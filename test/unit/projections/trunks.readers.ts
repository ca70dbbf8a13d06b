import { createHash } from 'node:crypto';
import { ReadModelStore } from '../../../src/infrastructure/read-model/read-model-store.port';
import { loadConfig } from '../../../src/platform/config/app-config';
import { GatewayRecord } from '../../../src/trunks/projections/trunk-view';
import { allowedCidrsOf } from '../../../src/trunks/read/gateway-target';
import { GatewayTrunk, LookupGatewayTrunk, LookupGatewayTrunkHandler } from '../../../src/trunks/read/gateway.queries';
import { TrunkDetailDto } from '../../../src/trunks/read/trunk.dto';
import { GetTrunk, GetTrunkHandler, ListTrunks, ListTrunksHandler } from '../../../src/trunks/read/trunk.queries';
import { TrunkStatus } from '../../../src/trunks/domain/trunk.types';
import { found } from '../../support/projection-spec';
import { AT, LATER } from '../../support/trunk-builders';

/** The trunk read side as its readers see it (the routes, the SIP gateway), and what they see of conn_1. */
export const CONFIG = loadConfig({ SIP_DOMAIN: 'sip.example.test' });
const noCallsYet = { statsFor: async () => new Map() };
const clock = { now: () => LATER };

/** What the trunk routes of an account answer: GET /trunks/conn_1 and the list, whole and by status. */
export const trunkRoutes =
  (accountId = 'acct_1') =>
  async (store: ReadModelStore) => {
    const ids = async (status?: TrunkStatus) => {
      const list = new ListTrunksHandler(store, noCallsYet, clock);
      const { trunks } = await list.execute(new ListTrunks(accountId, 100, 0, status, 'asc'));
      return trunks.map((trunk) => trunk.id);
    };
    return {
      conn_1: await found(new GetTrunkHandler(store, CONFIG).execute(new GetTrunk(accountId, 'conn_1'))),
      listed: await ids(),
      active: await ids('active'),
      inactive: await ids('inactive'),
    };
  };

/** What the SIP gateway's lookup answers for acct_1. */
export const gatewayLookup =
  (sipUsername = 'main-line') =>
  (store: ReadModelStore) =>
    found(new LookupGatewayTrunkHandler(store, CONFIG).execute(new LookupGatewayTrunk('acct_1', sipUsername)));

export const MAIN_LINE: TrunkDetailDto = {
  id: 'conn_1',
  name: 'Main line',
  status: 'active',
  ai_provider: 'openai',
  sip_username: 'main-line',
  sip_endpoint: 'main-line@sip.example.test',
  created_at: AT.toISOString(),
  updated_at: AT.toISOString(),
  system_prompt: null,
  vad: null,
  provider_settings: null,
  allowed_addresses: null,
  elevenlabs_agent_id: null,
  custom_endpoint: null,
};
export const ha1 = (password: string, username = 'main-line') =>
  createHash('md5').update(`${username}:sip.example.test:${password}`).digest('hex');
/** The lookup's answer: the projected record, with no SIP route configured and the allow list as CIDRs. */
export const gatewayRecord = (overrides: Partial<GatewayRecord> = {}): GatewayTrunk => {
  const record = projectedRecord(overrides);
  return { ...record, sip_target: null, allowed_cidrs: allowedCidrsOf(record.allowed_addresses) };
};
/** The gateway record as the projection stores it. */
export const projectedRecord = (overrides: Partial<GatewayRecord> = {}): GatewayRecord => ({
  trunk_id: 'conn_1',
  account_id: 'acct_1',
  sip_username: 'main-line',
  status: 'active',
  ai_provider: 'openai',
  provider_settings: null,
  system_prompt: null,
  allowed_addresses: null,
  elevenlabs_agent_id: null,
  custom_endpoint: null,
  ha1: ha1('first-password'),
  ...overrides,
});
