/** @jsxImportSource hono/jsx */
/** The lists' paging: `?page=<n>` (from 1) read strictly, and the previous/next links that keep the list's filters. */
import { BadRequestError } from '../../domain/errors.ts';
import { Empty, Pager } from '../kit/layout.tsx';

/** Rows a list page shows. */
export const PAGE_SIZE = 25;

/** The page asked for: absent or empty is 1; anything but a whole number from 1 to 10,000 is a 400. */
export function pageNumber(text: string | undefined): number {
  if (text === undefined || text === '') return 1;
  const n = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(n >= 1 && n <= 10_000)) throw new BadRequestError('request.page', 'page: must be a whole number from 1 to 10000.', { field: 'page' });
  return n;
}

/** `path` with `params` (empty ones left out) and `page`. */
export function pageHref(path: string, params: Readonly<Record<string, string | undefined>>, page: number): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) query.set(k, v);
  if (page > 1) query.set('page', String(page));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** A list's "Previous" and "Next" links that keep its filters, and where the list is. */
export function ListPager(p: { path: string; params: Readonly<Record<string, string | undefined>>; page: number; totalCount: number; label: string }) {
  const pages = Math.max(1, Math.ceil(p.totalCount / PAGE_SIZE));
  return <Pager label={`${p.label} pages`} page={Math.min(p.page, pages)} pages={pages} href={(n) => pageHref(p.path, p.params, n)} />;
}

/**
 * A list paged past its end (it has rows, none this far, as an old link or a list that shrank leaves it): says so and
 * links to its first page (`first`, the list's own filters kept), where "No … yet" would say the list is empty.
 */
export function PastTheEnd(p: { page: number; what: string; first: string }) {
  return (
    <Empty>
      There is no page {p.page} of the {p.what}. <a href={p.first}>Show the first page</a>.
    </Empty>
  );
}
