/** A keyset page as the service answers it with `after`: the records, and the cursor for the next ones. */
interface KeysetPage<T> {
  readonly data: readonly T[];
  readonly pagination: { readonly next_after?: string | null; readonly page?: number; readonly total_pages?: number };
}

/**
 * Every record of a listing, page after page, by keyset (`after`): as fast at any depth, and no record
 * skipped or repeated when new ones arrive meanwhile (they come first, before the cursor). The first
 * page is asked by page number, since there is no cursor yet.
 */
export async function* everyRecord<T>(fetchPage: (cursor: { after?: string }) => Promise<KeysetPage<T>>, idOf: (record: T) => string): AsyncGenerator<T> {
  let page = await fetchPage({});
  for (;;) {
    yield* page.data;
    const last = page.data[page.data.length - 1];
    const next = page.pagination.next_after !== undefined ? page.pagination.next_after : last && (page.pagination.page ?? 1) < (page.pagination.total_pages ?? 1) ? idOf(last) : null;
    if (!next) return;
    page = await fetchPage({ after: next });
  }
}
