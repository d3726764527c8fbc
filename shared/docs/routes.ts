/**
 * The docs site: its Markdown pages (`/docs`, `/docs/{page}`), the API reference (`/docs/api`) and the assets they
 * load, all from this origin. No authentication, no cookies set or read; the pages and their stylesheet and script
 * are public documents with an `ETag`, Scalar's script is versioned and cached for a year.
 */
import { BASE_STYLESHEET_FILE } from '../platform/http/stylesheets.ts';
import { htmlPage, linkQuery, textAsset } from '../platform/http/schemas/common.ts';
import { DOCS_REFERENCE_SCRIPT } from '../platform/http/browser-scripts.ts';
import { docsPageNotFound } from '../domain/unknown-ids.ts';
import type { RouteDef } from '../platform/http/route-def.ts';
import {
  DOCS_REFERENCE_PATH,
  DOCS_REFERENCE_SCRIPT_PATH,
  DOCS_SITE_ASSET,
  DOCS_STYLESHEET_PATH,
  SCALAR_SCRIPT_ASSET,
  SCALAR_SCRIPT_PATH,
} from './docs-site.ts';

/** The stylesheet's file in the repository: the stylesheet route's asset. */
export const DOCS_STYLESHEET_FILE = 'shared/docs/docs.css';

export const docsIndexPage = {
  face: 'page',
  name: 'docs-index',
  method: 'GET',
  path: '/docs',
  handler: 'functions/docs/index-page.ts',
  auth: 'none',
  group: 'docs',
  table: 'none',
  query: linkQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  etag: true,
  // The pages, rendered ahead from docs/*.md (infra/docs-site-asset.ts) and read at run time.
  assets: [DOCS_SITE_ASSET],
  summary: "The docs site's front page: what the platform is and the list of its pages.",
} as const satisfies RouteDef;

export const docsPage = {
  face: 'page',
  name: 'docs-page',
  method: 'GET',
  path: '/docs/{page}',
  handler: 'functions/docs/page.ts',
  auth: 'none',
  group: 'docs',
  table: 'none',
  query: linkQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  etag: true,
  assets: [DOCS_SITE_ASSET],
  unknownId: docsPageNotFound,
  summary: 'A page of the docs site (`/docs/getting-started` is docs/getting-started.md); a page that does not exist is a 404 page.',
} as const satisfies RouteDef;

export const docsReferencePage = {
  face: 'page',
  name: 'docs-api-reference',
  method: 'GET',
  path: DOCS_REFERENCE_PATH,
  handler: 'functions/docs/reference-page.ts',
  auth: 'none',
  group: 'docs',
  table: 'none',
  query: linkQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  etag: true,
  assets: [DOCS_SITE_ASSET],
  summary: "The API reference over this deployment's OpenAPI document; on the sandbox its try-it sends requests here, with sandbox keys only.",
} as const satisfies RouteDef;

export const docsStylesheet = {
  face: 'page',
  name: 'docs-stylesheet',
  method: 'GET',
  path: DOCS_STYLESHEET_PATH,
  handler: 'functions/docs/stylesheet.ts',
  auth: 'none',
  group: 'docs',
  table: 'none',
  status: 200,
  contentType: 'text/css',
  response: textAsset,
  etag: true,
  assets: [BASE_STYLESHEET_FILE, DOCS_STYLESHEET_FILE],
  summary: "The docs site's stylesheet.",
} as const satisfies RouteDef;

export const docsReferenceScript = {
  face: 'page',
  name: 'docs-api-reference-script',
  method: 'GET',
  path: DOCS_REFERENCE_SCRIPT_PATH,
  handler: 'functions/docs/reference-script.ts',
  auth: 'none',
  group: 'docs',
  table: 'none',
  status: 200,
  contentType: 'text/javascript',
  response: textAsset,
  etag: true,
  // Bundled ahead from shared/docs/browser/api-reference.ts (infra/browser-scripts.ts) and read at run time.
  assets: [DOCS_REFERENCE_SCRIPT],
  summary: "The API reference page's script: Scalar's configuration, and the refusal of live keys before anything is sent.",
} as const satisfies RouteDef;

export const scalarScript = {
  face: 'page',
  name: 'docs-scalar-script',
  method: 'GET',
  path: SCALAR_SCRIPT_PATH,
  handler: 'functions/docs/scalar-script.ts',
  auth: 'none',
  group: 'docs',
  table: 'none',
  status: 200,
  contentType: 'text/javascript',
  response: textAsset,
  // Scalar's standalone script, compressed ahead (infra/docs-site-asset.ts) and sent compressed to browsers that take gzip.
  assets: [SCALAR_SCRIPT_ASSET],
  summary: "Scalar's API reference (its standalone script), served from this origin.",
} as const satisfies RouteDef;
