import type { WriteOp } from '../infrastructure/read-model/read-model-store.port';
import type { ReadModelCodec } from '../infrastructure/read-model/read-model.codec';
import type { ProjectionView } from './projection';

/** Records remembered by key; past this many the memo starts afresh (a batch rarely holds more). */
const CAPACITY = 4096;

/**
 * A JSON record codec for projections that change one record several times in a batch (a trunk's
 * view, its gateway record), where parsing and printing JSON was most of a rebuild's CPU:
 * - set() returns an op whose JSON is printed only when the op is written, so a record the batch
 *   overwrites again (compactOps drops the earlier op) is never printed;
 * - read() of a record this batch wrote is given the object it came from, without JSON;
 * - a record read from the store is parsed once while its text stays the same, and a record this
 *   memo printed is known by its text already: the next batch reading it back parses nothing.
 * Only for projections that never mutate a record they read (they spread it into a new one).
 */
export class RecordMemo<T> {
  private parsed = new Map<string, { raw: string; value: T }>();

  constructor(private readonly codec: ReadModelCodec<T>) {}

  async read(view: ProjectionView, key: string): Promise<T | null> {
    const known = this.known(view, key);
    return known !== undefined ? known : this.decode(key, await view.get(key));
  }

  /** The record as read() would give it, when the batch has it without a read; undefined otherwise. */
  known(view: ProjectionView, key: string): T | null | undefined {
    const op = view.written?.(key);
    if (op === null) return null;
    if (op instanceof LazySet && op.codec === this.codec) return op.view as T;
    const raw = view.known?.(key);
    return raw === undefined ? undefined : this.decode(key, raw);
  }

  /** `then` of the record at `key`: at once when the batch has it, after its read otherwise. */
  with<R>(view: ProjectionView, key: string, then: (record: T | null) => R | Promise<R>): R | Promise<R> {
    const known = this.known(view, key);
    return known !== undefined ? then(known) : this.read(view, key).then(then);
  }

  /** The record whose text `raw` is stored at `key` (read ahead by a prefetch). */
  decode(key: string, raw: string | null): T | null {
    if (raw === null) return null;
    const known = this.parsed.get(key);
    if (known && known.raw === raw) return known.value;
    const value = this.codec.decode(raw)!;
    this.remember(key, raw, value);
    return value;
  }

  set(key: string, view: T): WriteOp {
    return new LazySet(key, view, this.codec, this);
  }

  /** `raw` is the text of `value` (parsed from it, or printed from it for a write). */
  remember(key: string, raw: string, value: T): void {
    if (this.parsed.size >= CAPACITY) this.parsed = new Map();
    this.parsed.set(key, { raw, value });
  }
}

/** A set whose JSON is printed when first read (a class: V8 builds object literals with getters slowly). */
class LazySet<T> {
  readonly op = 'set' as const;
  private json: string | undefined;

  constructor(
    readonly key: string,
    /** The record itself, handed back to a later read of the same batch. */
    readonly view: T,
    readonly codec: ReadModelCodec<T>,
    private readonly memo: RecordMemo<T>,
  ) {}

  get value(): string {
    if (this.json === undefined) {
      this.json = this.codec.encode(this.view);
      this.memo.remember(this.key, this.json, this.view);
    }
    return this.json;
  }

  /** What JSON.stringify(ops) (the fenced writer's script argument) sees: the plain op. */
  toJSON(): { op: 'set'; key: string; value: string } {
    return { op: 'set', key: this.key, value: this.value };
  }
}
