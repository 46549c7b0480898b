export interface PageRequest {
  readonly page: number;
  readonly limit: number;
}

export interface PageInfo extends PageRequest {
  readonly total: number;
  readonly total_pages: number;
}

export const DEFAULT_PAGE: PageRequest = Object.freeze({ page: 1, limit: 20 });
export const MAX_PAGE_LIMIT = 100;
export const MAX_PAGE = 10_000_000;

export function pageOffset({ page, limit }: PageRequest): number {
  return (page - 1) * limit;
}

export function pageInfo(request: PageRequest, total: number): PageInfo {
  return { page: request.page, limit: request.limit, total, total_pages: Math.ceil(total / request.limit) };
}

/** Keyset paging: the `limit` records after the one named `after`, whatever its depth. */
export interface CursorRequest {
  readonly after: string;
  readonly limit: number;
}

export interface CursorInfo {
  readonly after: string;
  readonly limit: number;
  readonly total: number;
  readonly total_pages: number;
  /** The id to pass as `after` for the next records; null once a page comes back short. */
  readonly next_after: string | null;
}

export const isCursor = (request: PageRequest | CursorRequest): request is CursorRequest => 'after' in request;

export function cursorInfo(request: CursorRequest, total: number, ids: readonly string[]): CursorInfo {
  return {
    after: request.after,
    limit: request.limit,
    total,
    total_pages: Math.ceil(total / request.limit),
    next_after: ids.length === request.limit ? ids.at(-1)! : null,
  };
}
