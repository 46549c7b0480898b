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
