/**
 * Links into the platform's documentation, served by the platform itself on its public origin: the docs site at
 * `/docs`, one page per Markdown file of `docs/` (`docs/mcp.md` → `/docs/mcp`, `docs/index.md` → `/docs`), each
 * heading at the anchor its text gives (`## MCP errors` → `#mcp-errors`, as GitHub names it: `headingSlug` in
 * `shared/platform/docs-index.ts`). The MCP error bodies' `docUrl`, the server cards and the docs search tool's links
 * are built here.
 */
import { config } from '../config.ts';

/** The documentation's path on the deployment's origin. */
export const DOCS_PATH = '/docs';

/** The page of the docs site that is its front page (`docs/index.md`, served at `/docs`). */
export const DOCS_INDEX_PAGE = 'index';

/** The path of a docs page: `/docs` for the index, `/docs/<page>` for the others. */
export const docsPagePath = (page: string): string => (page === DOCS_INDEX_PAGE ? DOCS_PATH : `${DOCS_PATH}/${page}`);

/** The absolute URL of a docs page (`page`: the Markdown file's name without `.md`), at the heading `anchor` when given. */
export const docsUrl = (page: string, anchor?: string): string => `${config.publicOrigin}${docsPagePath(page)}${anchor ? `#${anchor}` : ''}`;
