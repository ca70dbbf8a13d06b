/** What bufferedPages needs of an object-mode Readable (an EventStoreDB subscription is one). */
export interface BufferedSource<I> extends AsyncIterable<I> {
  readonly readableLength: number;
  read(): unknown;
}

/**
 * Pages of what an object-mode stream already holds: waits for one item, then takes every item
 * buffered behind it without waiting, up to `size`. While the consumer works on a page the stream
 * keeps buffering (up to its highWaterMark), so a consumer slower than the source gets full pages
 * (catch-up) and a faster one gets each item as it arrives (live). Order is the stream's; the next
 * page is read only when the consumer asks for it. `accept` maps an item, or drops it (undefined).
 */
export async function* bufferedPages<I, T>(
  source: BufferedSource<I>,
  size: number,
  accept: (item: I) => T | undefined,
): AsyncGenerator<T[]> {
  let page: T[] = [];
  for await (const first of source) {
    const firstAccepted = accept(first);
    if (firstAccepted !== undefined) page.push(firstAccepted);
    while (page.length < size && source.readableLength > 0) {
      // read() after for-await's own read: the iterator calls read() again only on its next turn.
      const item = source.read() as I | null;
      if (item === null) break;
      const accepted = accept(item);
      if (accepted !== undefined) page.push(accepted);
    }
    if (page.length === 0) continue;
    yield page;
    page = [];
  }
}
