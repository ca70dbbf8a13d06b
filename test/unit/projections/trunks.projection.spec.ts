import { randomBytes } from 'node:crypto';
import { AesGcmSecretBox } from '../../../src/infrastructure/secrets/secret-box';
import { trunksProjection } from '../../../src/trunks/projections/trunks.projection';
import { TrunkDetailDto } from '../../../src/trunks/read/trunk.dto';
import { accountCreated } from '../../support/account-builders';
import { projectionSpec, SpecEvent } from '../../support/projection-spec';
import {
  deactivated,
  LATER,
  secret,
  sipPasswordRotated,
  trunkCreated,
  trunkDeleted,
  trunkUpdated,
} from '../../support/trunk-builders';
import { MemoryKeyVault } from '../secrets/memory.key-vault';
import { CONFIG, gatewayLookup, gatewayRecord, ha1, MAIN_LINE, trunkRoutes } from './trunks.readers';

/** A fresh vault per case, the projection decrypting through the real AES-GCM secret box. */
function setup() {
  const vault = new MemoryKeyVault();
  const box = new AesGcmSecretBox(randomBytes(32), vault);
  const projection = trunksProjection(box, CONFIG.sipDomain);
  const sealed = async (password: string, trunkId = 'conn_1') => {
    await box.createDataKey(trunkId);
    return box.encrypt(trunkId, 'sip_password', password);
  };
  return {
    box,
    vault,
    sealed,
    routes: projectionSpec(projection, trunkRoutes()),
    gateway: projectionSpec(projection, gatewayLookup()),
    /** For what must change nothing: every reader at once. */
    everything: projectionSpec(projection, async (store) => ({
      routes: await trunkRoutes()(store),
      gateway: await gatewayLookup()(store),
    })),
    created: async (overrides = {}) => trunkCreated({ sip_password: await sealed('first-password'), ...overrides }),
  };
}

describe('trunks projection', () => {
  it('serves a created trunk by id and lists it as active', async () => {
    const { routes, created } = setup();
    await routes
      .given()
      .when(await created())
      .then({ conn_1: MAIN_LINE, listed: ['conn_1'], active: ['conn_1'], inactive: [] });
  });

  it('gives the gateway a created trunk with the HA1 of its password', async () => {
    const { gateway, created } = setup();
    await gateway
      .given()
      .when(await created())
      .then(gatewayRecord());
  });

  it('lets the gateway find a username whatever its case', async () => {
    const { box, created } = setup();
    const mixedCase = projectionSpec(trunksProjection(box, CONFIG.sipDomain), gatewayLookup('MAIN-Line'));
    await mixedCase
      .given()
      .when(await created())
      .then(gatewayRecord());
  });

  it('serves an updated trunk with its changes, and the gateway keeps the HA1', async () => {
    const { routes, gateway, created } = setup();
    const update = trunkUpdated({ name: 'Support', system_prompt: 'Be brief' });
    const changed = { name: 'Support', system_prompt: 'Be brief', updated_at: LATER.toISOString() };
    await routes
      .given(await created())
      .when(update)
      .then({ conn_1: { ...MAIN_LINE, ...changed }, listed: ['conn_1'], active: ['conn_1'], inactive: [] });
    await gateway
      .given(await created())
      .when(update)
      .then(gatewayRecord({ system_prompt: 'Be brief' }));
  });

  it('moves a deactivated trunk from the active list to the inactive one, and tells the gateway', async () => {
    const { routes, gateway, created } = setup();
    const inactive: TrunkDetailDto = { ...MAIN_LINE, status: 'inactive', updated_at: LATER.toISOString() };
    await routes
      .given(await created())
      .when(deactivated())
      .then({ conn_1: inactive, listed: ['conn_1'], active: [], inactive: ['conn_1'] });
    await gateway
      .given(await created())
      .when(deactivated())
      .then(gatewayRecord({ status: 'inactive' }));
  });

  it('gives the gateway a new agent id and keeps the wiring fields not changed', async () => {
    const { gateway, created } = setup();
    const wiring = { elevenlabs_api_key: secret('el'), elevenlabs_agent_id: 'agent_1' };
    await gateway
      .given(await created({ ai_provider: 'elevenlabs', wiring }))
      .when(trunkUpdated({ wiring: { elevenlabs_agent_id: 'agent_2' } }))
      .then(gatewayRecord({ ai_provider: 'elevenlabs', elevenlabs_agent_id: 'agent_2' }));
  });

  it('replaces the HA1 in the gateway lookup when the password is rotated', async () => {
    const { gateway, created, sealed } = setup();
    await gateway
      .given(await created())
      .when(sipPasswordRotated({ sip_password: await sealed('second-password') }))
      .then(gatewayRecord({ ha1: ha1('second-password') }));
  });

  it('serves a trunk whose password was rotated as updated then', async () => {
    const { routes, created, sealed } = setup();
    await routes
      .given(await created())
      .when(sipPasswordRotated({ sip_password: await sealed('second-password') }))
      .then({
        conn_1: { ...MAIN_LINE, updated_at: LATER.toISOString() },
        listed: ['conn_1'],
        active: ['conn_1'],
        inactive: [],
      });
  });

  it("removes a deleted trunk from the account's list and from get", async () => {
    const { routes, created } = setup();
    await routes
      .given(await created(), deactivated())
      .when(trunkDeleted())
      .then({ conn_1: null, listed: [], active: [], inactive: [] });
  });

  it('keeps a deleted trunk known to the gateway as deleted, without HA1', async () => {
    const { gateway, created } = setup();
    await gateway
      .given(await created())
      .when(trunkDeleted())
      .then(gatewayRecord({ status: 'deleted', ha1: null }));
  });

  it('leaves the username to the newer trunk that took it when an old deletion is replayed', async () => {
    const { gateway, created, sealed } = setup();
    const successor = trunkCreated({ trunk_id: 'conn_2', sip_password: await sealed('successor', 'conn_2') });
    await gateway
      .given(await created(), trunkDeleted(), successor)
      .when(trunkDeleted())
      .thenNothingChanged();
  });

  it('has no HA1 for a trunk whose data key was destroyed when the projection is rebuilt', async () => {
    const { gateway, created, box } = setup();
    const creation = await created();
    await box.destroy('conn_1');
    await gateway
      .given()
      .when(creation)
      .then(gatewayRecord({ ha1: null }));
  });

  it('refuses the batch while the key vault is unreachable, rather than record a trunk without HA1', async () => {
    const { gateway, created, box, vault } = setup();
    const creation = await created();
    box.forgetAll();
    jest.spyOn(vault, 'get').mockRejectedValue(new Error('vault unreachable'));
    await gateway.given().when(creation).thenFails('vault unreachable');
  });

  it('writes nothing for an update, rotation or deletion of a trunk it never saw', async () => {
    const { everything, created } = setup();
    const ghost = { trunk_id: 'conn_9' };
    await everything
      .given(await created())
      .when(trunkUpdated({ name: 'Ghost' }, ghost), sipPasswordRotated(ghost), trunkDeleted(ghost))
      .thenNothingChanged();
  });

  it('leaves this account alone when another account creates, changes and deletes its trunks', async () => {
    const { everything, created, sealed } = setup();
    const other = { trunk_id: 'conn_2', account_id: 'acct_2' };
    const theirs: SpecEvent[] = [
      trunkCreated({ ...other, sip_username: 'their-line', sip_password: await sealed('theirs', 'conn_2') }),
      trunkUpdated({ status: 'inactive' }, other),
      trunkDeleted({ ...other, sip_username: 'their-line' }),
    ];
    await everything
      .given(await created())
      .when(...theirs)
      .thenNothingChanged();
  });

  it('ignores events that are not about trunks', async () => {
    const { everything, created } = setup();
    await everything
      .given(await created())
      .when(accountCreated())
      .thenNothingChanged();
  });

  describe('replaying the last event changes nothing', () => {
    const cases: [string, (s: ReturnType<typeof setup>) => Promise<SpecEvent[]>][] = [
      ['a creation', async ({ created }) => [await created()]],
      ['an update', async ({ created }) => [await created(), deactivated()]],
      [
        'a rotation',
        async ({ created, sealed }) => [
          await created(),
          sipPasswordRotated({ sip_password: await sealed('second-password') }),
        ],
      ],
      ['a deletion', async ({ created }) => [await created(), trunkDeleted()]],
    ];
    it.each(cases)('%s', async (_name, history) => {
      const world = setup();
      const events = await history(world);
      await world.everything
        .given(...events)
        .when(events[events.length - 1])
        .thenNothingChanged();
    });
  });
});
