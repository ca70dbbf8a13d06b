import { ClickHouseQueryError, ClickHouseUnavailableError } from './clickhouse.port';

/**
 * ClickHouse error codes that mean "not now" rather than "this statement is wrong": the caller
 * answers 503 and may retry. Both adapters classify by code, never by message text.
 */
const UNAVAILABLE_CODES = new Set([
  159, // TIMEOUT_EXCEEDED (our max_execution_time)
  160, // TOO_SLOW
  202, // TOO_MANY_SIMULTANEOUS_QUERIES
  209, // SOCKET_TIMEOUT
  210, // NETWORK_ERROR
  236, // ABORTED
  241, // MEMORY_LIMIT_EXCEEDED
  242, // TABLE_IS_READ_ONLY
  243, // NOT_ENOUGH_SPACE
  252, // TOO_MANY_PARTS
  319, // UNKNOWN_STATUS_OF_INSERT
  394, // QUERY_WAS_CANCELLED
  425, // SYSTEM_ERROR
  516, // AUTHENTICATION_FAILED: a deployment problem, not a bad statement
  999, // KEEPER_EXCEPTION
]);

export function isUnavailableCode(code: number | undefined): boolean {
  return code !== undefined && UNAVAILABLE_CODES.has(code);
}

/** Maps an error that carries a ClickHouse code (server or engine) to one of the port's errors. */
export function fromClickHouseCode(message: string, code: number | undefined, cause: unknown): Error {
  return isUnavailableCode(code)
    ? new ClickHouseUnavailableError(message, cause, code)
    : new ClickHouseQueryError(message, cause, code);
}

export function isPortError(error: unknown): error is ClickHouseQueryError | ClickHouseUnavailableError {
  return error instanceof ClickHouseQueryError || error instanceof ClickHouseUnavailableError;
}
