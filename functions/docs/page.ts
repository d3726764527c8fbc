import { route } from '../../shared/access/auth-none-page.ts';
import { docsPageNotFound } from '../../shared/domain/unknown-ids.ts';
import { docsPageOf } from '../../shared/docs/docs-site.ts';
import { docsPageReply } from '../../shared/docs/pages.tsx';
import * as docsRoutes from '../../shared/docs/routes.ts';
import { DOCS_INDEX_PAGE } from '../../shared/platform/http/docs-links.ts';

/** A page by its name; the front page only at `/docs`, so each page has one address. */
export const handler = route(docsRoutes.docsPage, ({ params }) => {
  const page = params.page === DOCS_INDEX_PAGE ? undefined : docsPageOf(params.page ?? '');
  if (!page) throw docsPageNotFound();
  return docsPageReply(page);
});
