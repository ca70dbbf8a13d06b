/**
 * A JSON string exactly as it arrived: the bytes of the token, quotes and escapes included. The
 * writer passes it to ClickHouse as it is (JSONEachRow reads the same escapes), so a large text
 * such as a SIP trace is neither decoded nor escaped again on its way from the request to the row.
 * Only a token the line reader has checked is ever wrapped: valid UTF-8, no raw control
 * characters, no `\u` escapes (call-line.reader.ts).
 */
export class JsonStringToken {
  constructor(readonly bytes: Buffer) {}

  /** The decoded text (only where something other than the row needs it). */
  get text(): string {
    return JSON.parse(this.bytes.toString('utf8')) as string;
  }
}

/** A text that may still be its JSON token; null stays null. */
export type MaybeToken = string | JsonStringToken | null;

export const textOf = (value: MaybeToken): string | null => (value instanceof JsonStringToken ? value.text : value);
