/**
 * Links into the platform's documentation, served by the platform itself on its public origin: one page whose
 * sections are README.md's, each at the anchor its heading gets (`## Agent endpoint (MCP)` → `#agent-endpoint-mcp`,
 * as GitHub names it). The MCP error bodies' `docUrl` and the docs search tool's links are built here.
 */
import { config } from '../config.ts';

/** The documentation's path on the deployment's origin. */
export const DOCS_PATH = '/docs';

/** The absolute URL of the docs section whose anchor is `section`. */
export const docsUrl = (section: string): string => `${config.publicOrigin}${DOCS_PATH}#${section}`;
