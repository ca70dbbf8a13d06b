import {
  agentAccessDecider,
  AgentCredentialsRead,
  agentAccessStream,
} from '../../../src/domain/trunks/agent-access.decider';
import { trunkDecider } from '../../../src/domain/trunks/trunk.decider';
import { TrunkEvent } from '../../../src/domain/trunks/trunk.events';
import { fold } from '../../../src/shared/decider';
import { DomainError } from '../../../src/shared/domain-error';
import { deactivated, LATER, secret, trunkCreated, trunkDeleted, trunkUpdated } from '../../support/trunk-builders';

/** Given the trunk's history (its own stream), when a gateway reads its agent. */
function read(history: TrunkEvent[]): AgentCredentialsRead[] {
  return agentAccessDecider.decide({ type: 'ReadAgentCredentials', data: { at: LATER } }, fold(trunkDecider, history));
}

function refusal(history: TrunkEvent[]): string {
  try {
    read(history);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).code;
  }
  throw new Error('the read was not refused');
}

const readEvent = (overrides: Partial<AgentCredentialsRead['data']> = {}): AgentCredentialsRead => ({
  type: 'AgentCredentialsRead',
  data: {
    trunk_id: 'conn_1',
    account_id: 'acct_1',
    sip_username: 'main-line',
    ai_provider: 'openai',
    disclosed: ['openai_api_key'],
    read_at: LATER.toISOString(),
    ...overrides,
  },
});

describe('agent access decider (the audited agent lookup)', () => {
  it('records a read of an openai trunk naming the key it discloses, never its value', () => {
    const events = read([trunkCreated()]);
    expect(events).toEqual([readEvent()]);
    expect(JSON.stringify(events)).not.toContain('ct-oa');
  });

  it('names the elevenlabs key for an elevenlabs trunk and nothing for a custom one', () => {
    const eleven = { elevenlabs_api_key: secret('el'), elevenlabs_agent_id: 'agent_1' };
    expect(read([trunkCreated({ ai_provider: 'elevenlabs', wiring: eleven })])).toEqual([
      readEvent({ ai_provider: 'elevenlabs', disclosed: ['elevenlabs_api_key'] }),
    ]);
    const custom = { custom_endpoint: 'wss://agent.example.com/ws' };
    expect(read([trunkCreated({ ai_provider: 'custom', wiring: custom })])).toEqual([
      readEvent({ ai_provider: 'custom', disclosed: [] }),
    ]);
  });

  it('reads the trunk as its latest events left it (a renamed, reactivated trunk)', () => {
    const history = [trunkCreated(), deactivated(), trunkUpdated({ status: 'active', name: 'Renamed' })];
    expect(read(history)).toEqual([readEvent()]);
  });

  it('refuses a trunk that does not exist or was deleted (404) and an inactive one (409)', () => {
    expect(refusal([])).toBe('not_found');
    expect(refusal([trunkCreated(), trunkDeleted()])).toBe('not_found');
    expect(refusal([trunkCreated(), deactivated()])).toBe('conflict');
  });

  it('changes nothing of the trunk, and records in a stream of its own', () => {
    const state = fold(trunkDecider, [trunkCreated()]);
    expect(agentAccessDecider.evolve(state, readEvent())).toBe(state);
    expect(agentAccessStream('conn_1')).toBe('agent-access-conn_1');
  });
});
