import { Decider } from '../../shared/decider';
import { DomainError } from '../../shared/domain-error';
import { trunkDecider, TrunkState } from './trunk.decider';
import { Provider, ProviderWiring } from './trunk.types';

/** The provider secrets a trunk's agent needs, by provider: what an agent lookup discloses. */
export const AGENT_SECRETS_OF: Record<Provider, ('openai_api_key' | 'elevenlabs_api_key')[]> = {
  openai: ['openai_api_key'],
  elevenlabs: ['elevenlabs_api_key'],
  custom: [],
};

export type AgentAccessCommand = { type: 'ReadAgentCredentials'; data: { at: Date } };

/**
 * A gateway read the trunk's agent settings with its provider secrets in clear: recorded in the
 * trunk's account's audit log (who, from where, which fields; never the values).
 */
export type AgentCredentialsRead = {
  type: 'AgentCredentialsRead';
  data: {
    trunk_id: string;
    account_id: string;
    sip_username: string;
    ai_provider: Provider;
    /** Names of the secret fields the answer carried in clear. */
    disclosed: (keyof ProviderWiring)[];
    read_at: string;
  };
};

/**
 * Decides an agent lookup on the trunk's own state (folded from the trunk's stream), and records
 * it in the trunk's access stream (agentAccessStream): a read changes nothing of the trunk, and
 * the trunk's stream, which every trunk command reads, does not grow with every call.
 */
export const agentAccessDecider: Decider<AgentAccessCommand, AgentCredentialsRead, TrunkState> = {
  initialState: trunkDecider.initialState,

  decide(command, state) {
    if (state.status === 'none' || state.status === 'deleted') throw new DomainError('not_found', 'Trunk not found');
    if (state.status !== 'active')
      throw new DomainError('conflict', `Trunk ${state.trunkId} is ${state.status}: its agent may not be reached`);
    return [
      {
        type: 'AgentCredentialsRead',
        data: {
          trunk_id: state.trunkId,
          account_id: state.accountId,
          sip_username: state.sipUsername,
          ai_provider: state.provider,
          disclosed: AGENT_SECRETS_OF[state.provider].filter((field) => state.wiring[field] !== undefined),
          read_at: command.data.at.toISOString(),
        },
      },
    ];
  },

  /** A read changes nothing. */
  evolve: (state) => state,
};

/** Where a trunk's agent lookups are recorded (the audit log's resource `agent_access`). */
export const agentAccessStream = (trunkId: string): string => `agent-access-${trunkId}`;
