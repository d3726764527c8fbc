/** The docs module's front door: what other modules may use (the docs site's pages). */
export { DOCS_SITE_ASSET, type DocsPage, type DocsSite, isDocsPageName, SCALAR_SCRIPT_ASSET } from './docs-site.ts';
