/**
 * The docs module's front door (the docs site's pages): all that other modules may use of it, besides its
 * *.schemas.ts (the pure door: schemas and the value lists they are written in).
 */
export { DOCS_SITE_ASSET, type DocsPage, type DocsSite, isDocsPageName, SCALAR_SCRIPT_ASSET } from './docs-site.ts';
