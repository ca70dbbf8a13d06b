import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DestinationStream } from 'pino';
import type { Params } from 'nestjs-pino';
import { requestIdOf } from '../http/request-id';

/**
 * Fields that may hold a secret, wherever they appear in a logged object: censored by pino
 * before serialisation, so no code path can log them by accident.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  '*.authorization',
  '*.password',
  '*.sip_password',
  '*.openai_api_key',
  '*.elevenlabs_api_key',
  '*.api_key',
  '*.key',
  '*.secret',
  '*.master_key',
  'body',
  'req.body',
];

export function loggingParams(level: string, stream?: DestinationStream): Params {
  return {
    pinoHttp: [
      {
        level,
        genReqId: (req: IncomingMessage) => requestIdOf(req),
        redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
        customLogLevel: (_req: IncomingMessage, res: ServerResponse, err?: Error) =>
          err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'info',
        serializers: {
          // Paths only: query strings can carry user data; ids are in the path anyway.
          req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url?.split('?')[0] }),
          res: (res: { statusCode: number }) => ({ status: res.statusCode }),
        },
        customAttributeKeys: { reqId: 'request_id' },
      },
      stream as DestinationStream,
    ].filter((x) => x !== undefined) as Params['pinoHttp'],
  };
}
