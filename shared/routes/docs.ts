/** The docs site (the `page` face, its own `docs` group): the Markdown pages, the API reference and their assets, under `/docs`. */
import * as docs from '../docs/routes.ts';

export const docsRoutes = {
  docsIndexPage: docs.docsIndexPage,
  docsReferencePage: docs.docsReferencePage,
  docsPage: docs.docsPage,
  docsStylesheet: docs.docsStylesheet,
  docsReferenceScript: docs.docsReferenceScript,
  scalarScript: docs.scalarScript,
};
