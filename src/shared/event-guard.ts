/** A type guard that also lists the type names it accepts (what a projection reads of the store). */
export interface EventGuard<E extends { type: string }> {
  <S extends { type: string }>(event: S): event is S & E;
  readonly types: readonly string[];
}

/**
 * A guard for the events of the union E, by type name. The names come as a record so that the
 * compiler checks the list against the union, both ways. Only the name is checked, never the
 * data: stored events are written by this code's deciders, so a name stands for its data's shape.
 * Generic over what carries the event (a stored event with its position, a bare domain event).
 */
export function eventGuard<E extends { type: string }>(names: { readonly [T in E['type']]: true }): EventGuard<E> {
  const types = Object.keys(names);
  const known = new Set<string>(types);
  const guard = <S extends { type: string }>(event: S): event is S & E => known.has(event.type);
  return Object.assign(guard, { types: Object.freeze(types) });
}
