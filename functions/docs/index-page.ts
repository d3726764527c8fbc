import { route } from '../../shared/access/auth-none-page.ts';
import { docsPageOf } from '../../shared/docs/docs-site.ts';
import { docsPageReply } from '../../shared/docs/pages.tsx';
import * as docsRoutes from '../../shared/docs/routes.ts';
import { DOCS_INDEX_PAGE } from '../../shared/platform/http/docs-links.ts';

export const handler = route(docsRoutes.docsIndexPage, () => docsPageReply(docsPageOf(DOCS_INDEX_PAGE)!));
