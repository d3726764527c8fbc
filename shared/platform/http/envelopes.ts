/** The organization face's response envelopes. */

/** `{type:"object", data}`: a single record. */
export const objectReply = <T>(data: T) => ({ type: 'object' as const, data });

/** `{type:"list", totalCount, paginationMeta:{limit, offset}, data}`: one page of a list. */
export const listReply = <T>(page: { totalCount: number; data: T[] }, paging: { limit: number; offset: number }) => ({
  type: 'list' as const,
  totalCount: page.totalCount,
  paginationMeta: { limit: paging.limit, offset: paging.offset },
  data: page.data,
});
