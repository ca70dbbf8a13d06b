/**
 * What an API key may do and which environment it belongs to: the vocabulary the write side
 * decides with, the gate authorizes with and the read side answers with.
 */
export const SCOPES = ['full', 'read', 'ingest', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];
export type Environment = 'live' | 'test';
