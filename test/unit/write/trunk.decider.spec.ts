import { trunkDecider, TrunkCommand } from '../../../src/trunks/domain/trunk.decider';
import { deciderSpec } from '../../support/decider-spec';
import {
  AT,
  createTrunk,
  deactivated,
  LATER,
  secret,
  sipPasswordRotated,
  trunkCreated,
  trunkDeleted,
  trunkUpdated,
} from '../../support/trunk-builders';

const spec = deciderSpec(trunkDecider);
const update = (
  changes: Extract<TrunkCommand, { type: 'UpdateTrunk' }>['data']['changes'],
  accountId = 'acct_1',
): TrunkCommand => ({ type: 'UpdateTrunk', data: { accountId, changes, at: LATER } });
const rotate = (accountId = 'acct_1'): TrunkCommand => ({
  type: 'RotateSipPassword',
  data: { accountId, sipPassword: secret('pw2'), at: LATER },
});
const remove = (accountId = 'acct_1'): TrunkCommand => ({ type: 'DeleteTrunk', data: { accountId, at: LATER } });

const STATES = {
  active: [trunkCreated()],
  inactive: [trunkCreated(), deactivated()],
};

describe('trunk decider', () => {
  describe('CreateTrunk', () => {
    it('creates an openai trunk with its encrypted key', () => {
      spec.given([]).when(createTrunk()).then([trunkCreated()]);
    });

    it('creates elevenlabs and custom trunks with their own wiring', () => {
      const wiring = { elevenlabs_api_key: secret('el'), elevenlabs_agent_id: 'agent_1' };
      spec
        .given([])
        .when(createTrunk({ provider: 'elevenlabs', wiring }))
        .then([trunkCreated({ ai_provider: 'elevenlabs', wiring })]);
      const custom = { custom_endpoint: 'wss://agent.example.com/ws' };
      spec
        .given([])
        .when(createTrunk({ provider: 'custom', wiring: custom }))
        .then([trunkCreated({ ai_provider: 'custom', wiring: custom })]);
    });

    it('keeps the optional settings it is given', () => {
      const settings = { system_prompt: 'Be brief', vad: { threshold: 0.5 }, allowed_addresses: ['203.0.113.0/24'] };
      spec
        .given([])
        .when(createTrunk({ settings }))
        .then([trunkCreated({ settings: { provider_settings: null, ...settings } })]);
    });

    it('requires the provider key of its provider, naming it', () => {
      spec
        .given([])
        .when(createTrunk({ wiring: {} }))
        .thenThrows('missing_required_field', 'openai_api_key');
      spec
        .given([])
        .when(createTrunk({ provider: 'elevenlabs', wiring: { elevenlabs_api_key: secret('el') } }))
        .thenThrows('missing_required_field', 'elevenlabs_agent_id');
      spec
        .given([])
        .when(createTrunk({ provider: 'custom', wiring: {} }))
        .thenThrows('missing_required_field', 'custom_endpoint');
    });

    it('refuses a field of another provider, naming it', () => {
      spec
        .given([])
        .when(createTrunk({ wiring: { openai_api_key: secret('oa'), custom_endpoint: 'wss://x.example' } }))
        .thenThrows('missing_required_field', 'custom_endpoint');
    });

    it.each(Object.entries({ ...STATES, deleted: [trunkCreated(), trunkDeleted()] }))(
      'refuses to create over an existing trunk (%s)',
      (_name, history) => {
        spec.given(history).when(createTrunk()).thenThrows('conflict');
      },
    );
  });

  describe('UpdateTrunk', () => {
    it.each(Object.entries(STATES))('renames a %s trunk, recording the previous name', (_name, history) => {
      spec
        .given(history)
        .when(update({ name: 'Support line' }))
        .then([trunkUpdated({ name: 'Support line' }, { previous_name: 'Main line' })]);
    });

    it('deactivates and reactivates', () => {
      spec
        .given(STATES.active)
        .when(update({ status: 'inactive' }))
        .then([trunkUpdated({ status: 'inactive' })]);
      spec
        .given(STATES.inactive)
        .when(update({ status: 'active' }))
        .then([trunkUpdated({ status: 'active' })]);
    });

    it('replaces the provider key of its provider', () => {
      spec
        .given(STATES.active)
        .when(update({ wiring: { openai_api_key: secret('oa2') } }))
        .then([trunkUpdated({ wiring: { openai_api_key: secret('oa2') } })]);
    });

    it('refuses a field that does not apply to the provider, naming it', () => {
      spec
        .given(STATES.active)
        .when(update({ wiring: { elevenlabs_agent_id: 'agent_9' } }))
        .thenThrows('missing_required_field', 'elevenlabs_agent_id');
      spec
        .given(STATES.active)
        .when(update({ wiring: { custom_endpoint: 'wss://x.example' } }))
        .thenThrows('missing_required_field', 'custom_endpoint');
    });

    it('records only the fields that change, and nothing for a no-op', () => {
      spec
        .given(STATES.active)
        .when(update({ name: 'Main line', system_prompt: 'Hello' }))
        .then([trunkUpdated({ system_prompt: 'Hello' })]);
      spec
        .given(STATES.active)
        .when(update({ name: 'Main line', status: 'active' }))
        .then([]);
    });

    it('clears a setting with null', () => {
      const history = [trunkCreated(), trunkUpdated({ system_prompt: 'Hello' })];
      spec
        .given(history)
        .when(update({ system_prompt: null }))
        .then([trunkUpdated({ system_prompt: null })]);
    });

    it("treats another account's trunk as not found", () => {
      spec
        .given(STATES.active)
        .when(update({ name: 'X' }, 'acct_2'))
        .thenThrows('not_found');
    });
  });

  describe('RotateSipPassword', () => {
    it.each(Object.entries(STATES))('rotates the password of a %s trunk', (_name, history) => {
      spec.given(history).when(rotate()).then([sipPasswordRotated()]);
    });

    it("treats another account's trunk as not found", () => {
      spec.given(STATES.active).when(rotate('acct_2')).thenThrows('not_found');
    });
  });

  describe('DeleteTrunk', () => {
    it.each(Object.entries(STATES))('deletes a %s trunk, carrying the names to release', (_name, history) => {
      spec.given(history).when(remove()).then([trunkDeleted()]);
    });

    it("treats another account's trunk as not found", () => {
      spec.given(STATES.active).when(remove('acct_2')).thenThrows('not_found');
    });
  });

  describe('a trunk that does not exist, or is deleted, rejects everything', () => {
    const commands: [string, TrunkCommand][] = [
      ['UpdateTrunk', update({ name: 'X' })],
      ['RotateSipPassword', rotate()],
      ['DeleteTrunk', remove()],
    ];
    it.each(commands)('%s on no trunk is not_found', (_name, command) => {
      spec.given([]).when(command).thenThrows('not_found');
    });
    it.each(commands)('%s on a deleted trunk is not_found', (_name, command) => {
      spec.given([trunkCreated(), trunkDeleted()]).when(command).thenThrows('not_found');
    });
  });

  describe('evolve', () => {
    it('folds a history into the current state', () => {
      const history = [
        trunkCreated(),
        trunkUpdated({ name: 'Renamed', status: 'inactive', system_prompt: 'Hi' }, { previous_name: 'Main line' }),
      ];
      const state = history.reduce(trunkDecider.evolve, trunkDecider.initialState());
      expect(state).toMatchObject({
        status: 'inactive',
        name: 'Renamed',
        settings: { system_prompt: 'Hi' },
        createdAt: AT.toISOString(),
        updatedAt: LATER.toISOString(),
      });
    });

    it('folds a deletion into a deleted state', () => {
      const state = [trunkCreated(), trunkDeleted()].reduce(trunkDecider.evolve, trunkDecider.initialState());
      expect(state.status).toBe('deleted');
    });
  });
});
