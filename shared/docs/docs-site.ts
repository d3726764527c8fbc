/**
 * The docs site (`/docs`): the pages of `docs/*.md`, rendered to HTML ahead of time like the OpenAPI document
 * (`infra/docs-site-asset.ts`, run by the CDK app at synth, by the local stack at start and by `npm run invoke`) into
 * one gzip JSON file under the build directory, which the docs functions carry as their routes' asset and read once
 * per container. The API reference (`/docs/api`) is Scalar's standalone script, served from this origin, over the
 * deployment's OpenAPI document. This module renders nothing and reads no Markdown.
 */
import { gunzipSync } from 'node:zlib';
import { readBuildAsset } from '../platform/build-assets.ts';

/** Where the rendered pages are built, repository-relative (git-ignored): the docs pages' asset. */
export const DOCS_SITE_ASSET = '.build/docs/docs-site.json.gz';

/** The version of Scalar's API reference the reference page loads (the vendored `@scalar/api-reference`'s, `npm run vendor:scalar`; a test holds them equal). */
export const SCALAR_VERSION = '1.76.0';

/** Scalar's standalone script, gzip-compressed at build time (repository-relative, git-ignored): the script route's asset. */
export const SCALAR_SCRIPT_ASSET = '.build/docs/scalar-standalone.js.gz';

/** The paths of the docs site's assets (under `/docs/assets/`, which no page can be: a page path has one segment). */
export const DOCS_STYLESHEET_PATH = '/docs/assets/docs.css';
export const DOCS_REFERENCE_SCRIPT_PATH = '/docs/assets/api-reference.js';
/** Versioned, so it may be cached for a year: a new Scalar is a new path. */
export const SCALAR_SCRIPT_PATH = `/docs/assets/scalar-${SCALAR_VERSION}.js`;
/** The API reference's page. */
export const DOCS_REFERENCE_PATH = '/docs/api';

/** The longest page name (a `docs/` file's name without `.md`). */
export const DOCS_PAGE_MAX_LENGTH = 64;

/** The names a page may not have: the reference's and the assets' paths. */
const reservedPageNames: readonly string[] = ['api', 'assets'];

/** Whether `name` may name a docs page: lowercase letters and digits in words joined by `-`, at most 64 characters. */
export const isDocsPageName = (name: string): boolean =>
  name.length <= DOCS_PAGE_MAX_LENGTH && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(name) && !reservedPageNames.includes(name);

/** A rendered page. */
export interface DocsPage {
  /** Its name: the file's without `.md` (`index` is the front page, at `/docs`). */
  readonly page: string;
  /** Its `# Title`, as text. */
  readonly title: string;
  /** Its content as an HTML fragment (no scripts, no styles: the Markdown's own HTML is not let through). */
  readonly html: string;
}

/** The whole site: its pages in the navigation's order, the front page first. */
export interface DocsSite {
  readonly pages: readonly DocsPage[];
}

/** Whether an `Accept-Encoding` takes gzip (`gzip`, `gzip;q=0.5`, `*`; not `gzip;q=0`). */
export const acceptsGzip = (acceptEncoding: string | undefined): boolean =>
  (acceptEncoding ?? '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    return (coding === 'gzip' || coding === '*') && (q === undefined || Number(q) > 0);
  });

let site: DocsSite | undefined;

/** The rendered site, read once per container: beside the bundle when bundled, else from the build directory. */
export const docsSite = (): DocsSite =>
  (site ??= JSON.parse(
    gunzipSync(readBuildAsset(DOCS_SITE_ASSET, 'docs site', 'the CDK app and the local stack write it, or run `npx tsx infra/docs-site-asset.ts`')).toString(
      'utf8',
    ),
  ) as DocsSite);

/** The page named `page`, if the site has it (the front page only as `index`). */
export const docsPageOf = (page: string): DocsPage | undefined => docsSite().pages.find((p) => p.page === page);
