/** The checked-in types of the OpenAPI document are what `openapi-typescript` makes of the document now. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPENAPI_TYPES_FILE, openApiTypes } from '../../../infra/openapi-types.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');

describe('the OpenAPI types', () => {
  it('are generated from the sandbox document without error, and the checked-in file is not stale (npm run -s openapi:types)', async () => {
    const generated = await openApiTypes();
    expect(generated).toContain('export interface paths');
    // Not toBe: a stale file of 650 KB would print a diff no one can read.
    const fresh = readFileSync(path.join(repoRoot, OPENAPI_TYPES_FILE), 'utf8') === generated;
    expect(fresh, `${OPENAPI_TYPES_FILE} is stale: run npm run -s openapi:types`).toBe(true);
  }, 60_000);
});
