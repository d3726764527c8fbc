/** The `{data, pagination}` list shape (the schemas: `pageQuery` and `pagination` in schemas/common.ts). */

/** A page asked for: `page` from 1, `limit` records a page. */
export interface PageRequest {
  page: number;
  limit: number;
}

/** `{page, limit, totalCount, totalPages}`: where a page of `totalCount` records sits. */
export const paginationOf = ({ page, limit }: PageRequest, totalCount: number) => ({ page, limit, totalCount, totalPages: Math.ceil(totalCount / limit) });
