/** A builder of one event type: its defaults, overridden field by field. */
export const eventBuilder =
  <E extends { type: string; data: object }>(type: E['type'], defaults: E['data']) =>
  (overrides: Partial<E['data']> = {}): E =>
    ({ type, data: { ...defaults, ...overrides } }) as E;
