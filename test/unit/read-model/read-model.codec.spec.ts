import {
  arrayOf,
  CorruptReadModelError,
  isNumber,
  isString,
  jsonCodec,
  nullable,
  objectOf,
  oneOf,
  optional,
} from '../../../src/infrastructure/read-model/read-model.codec';

interface Attempt {
  attempt: number;
  error: string | null;
}

interface SampleView {
  id: string;
  status: 'pending' | 'done';
  note?: string;
  attempts: Attempt[];
}

const codec = jsonCodec(
  'sample view',
  objectOf<SampleView>({
    id: isString,
    status: oneOf(['pending', 'done']),
    note: optional(isString),
    attempts: arrayOf(objectOf<Attempt>({ attempt: isNumber, error: nullable(isString) })),
  }),
);

const aView = (overrides: Partial<SampleView> = {}): SampleView => ({
  id: 'v_1',
  status: 'pending',
  attempts: [
    { attempt: 1, error: 'timeout' },
    { attempt: 2, error: null },
  ],
  ...overrides,
});

/** The view's JSON with one part replaced, as a writer bug or a hand edit would leave it. */
const stored = (change: (json: Record<string, unknown>) => void): string => {
  const json = JSON.parse(codec.encode(aView())) as Record<string, unknown>;
  change(json);
  return JSON.stringify(json);
};

describe('read-model JSON codec', () => {
  it('keeps a view through a round trip', () => {
    const view = aView({ note: 'first', status: 'done' });
    expect(codec.decode(codec.encode(view))).toEqual(view);
  });

  it('writes the view as a set of its JSON', () => {
    const view = aView();
    expect(codec.set('sample:v_1', view)).toEqual({ op: 'set', key: 'sample:v_1', value: codec.encode(view) });
  });

  it('reads a missing record as null', () => {
    expect(codec.decode(null)).toBeNull();
  });

  it('leaves the missing records of a page out', () => {
    const [a, b] = [aView({ id: 'a' }), aView({ id: 'b' })];
    expect(codec.decodeAll([codec.encode(a), null, codec.encode(b)])).toEqual([a, b]);
  });

  it('reads a record without an optional field, or with a field it does not know', () => {
    expect(codec.decode(stored((json) => (json.added_later = true)))).toMatchObject({ id: 'v_1' });
    expect(codec.decode(stored((json) => delete json.note))).toEqual(aView());
  });

  it('refuses a record whose field has the wrong type, naming the record and the field', () => {
    const raw = stored((json) => (json.id = 42));
    expect(() => codec.decode(raw)).toThrow(CorruptReadModelError);
    expect(() => codec.decode(raw)).toThrow('corrupt sample view in the read model: field id is invalid');
  });

  it('refuses a missing required field and a value outside its set', () => {
    expect(() => codec.decode(stored((json) => delete json.status))).toThrow('field status is invalid');
    expect(() => codec.decode(stored((json) => (json.status = 'lost')))).toThrow('field status is invalid');
  });

  it('names the refused part of a nested list', () => {
    const raw = stored(
      (json) =>
        (json.attempts = [
          { attempt: 1, error: null },
          { attempt: '2', error: null },
        ]),
    );
    expect(() => codec.decode(raw)).toThrow('field attempts[1].attempt is invalid');
  });

  it('refuses text that is not JSON, and JSON that is not an object', () => {
    expect(() => codec.decode('{"id": "v_1"')).toThrow(/corrupt sample view in the read model: not JSON/);
    expect(() => codec.decode('[]')).toThrow('corrupt sample view in the read model: not of its shape');
    expect(() => codec.decode('')).toThrow(CorruptReadModelError);
  });

  it('never puts the refused value in the message', () => {
    const raw = stored((json) => (json.id = { digest: 'secret-ha1' }));
    const refusal = (() => {
      try {
        return codec.decode(raw);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(CorruptReadModelError);
    expect((refusal as Error).message).not.toContain('secret');
  });
});
