import { route } from '../../shared/access/auth-none-page.ts';
import { docsReferenceReply } from '../../shared/docs/pages.tsx';
import * as docsRoutes from '../../shared/docs/routes.ts';

export const handler = route(docsRoutes.docsReferencePage, () => docsReferenceReply());
