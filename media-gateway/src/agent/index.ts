/** The agent side of the media gateway: the port every provider adapter implements, and the adapters. */
export {
  type AgentCallMetadata,
  type AgentFailureClass,
  type AgentClosed,
  type AgentEvents,
  type AgentStats,
  type AgentPort,
  type AgentLogger,
  AgentConnectError,
} from './agent.port';
export { type MediaStreamsAgentOptions, MediaStreamsAgent } from './media-streams.agent';
export { type OpenAiRealtimeSettings, OpenAiRealtimeAgent, OPENAI_REALTIME_URL } from './openai-realtime.agent';
export { type ElevenLabsSettings, ElevenLabsConvaiAgent, ELEVENLABS_CONVAI_URL } from './elevenlabs-convai.agent';
