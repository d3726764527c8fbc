/** The `{data, pagination}` list shape (the schemas: `pageQuery` and `pagination` in schemas/common.ts). */

/** A page asked for: `page` from 1, `limit` records a page. */
export interface PageRequest {
  page: number;
  limit: number;
}

/** `{page, limit, totalCount, totalPages}`: where a page of `totalCount` records sits. */
export const paginationOf = ({ page, limit }: PageRequest, totalCount: number) => ({ page, limit, totalCount, totalPages: Math.ceil(totalCount / limit) });

/** Page `page` of a whole list read at once (a small one), in its order, as `{data, pagination}`. */
export const pageOf = <T>(items: readonly T[], request: PageRequest) => ({
  data: items.slice((request.page - 1) * request.limit, request.page * request.limit),
  pagination: paginationOf(request, items.length),
});
