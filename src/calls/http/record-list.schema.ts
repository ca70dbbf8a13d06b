import { MAX_RECORDS_PER_REQUEST } from '../../platform/http/ndjson.parser';

/**
 * The JSON body of an ingestion route: an array of records or `{"<listKey>": [...]}` (an
 * application/x-ndjson body holds the same records a line each). Records are validated one by one,
 * not by this schema, so that one bad record is rejected on its own.
 */
export function recordListSchema(listKey: string, item: object, description: string): object {
  const list = { type: 'array', maxItems: MAX_RECORDS_PER_REQUEST, items: item };
  return {
    description,
    oneOf: [list, { type: 'object', required: [listKey], properties: { [listKey]: list } }],
  };
}
