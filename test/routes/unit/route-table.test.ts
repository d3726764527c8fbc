/**
 * The route table is read by every function, the CDK app and the local stack alike, so it must stay pure data:
 * importing it may not load an AWS SDK client or the observability module (whose Powertools instances read the
 * environment once, when first imported).
 */
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { esbuildSettings } from '../../../infra/constructs/bundling.ts';
import { pageRouteOfKind } from '../../../shared/access/page-route.ts';
import { wire } from '../../../shared/access/route.ts';
import { type RouteDef, routeList, routesOfFace } from '../../../shared/routes/index.ts';

describe('the route table', () => {
  it('imports no AWS SDK and no observability module', async () => {
    const result = await build({
      entryPoints: ['shared/routes/index.ts'],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.length).toBeGreaterThan(20);
    expect(inputs.filter((i) => /node_modules\/@(aws-sdk|smithy|aws-lambda-powertools)\//.test(i) || i.endsWith('shared/platform/observability.ts'))).toEqual(
      [],
    );
  });
});

/**
 * Each route is its own export, a plain object, and the package declares no module side effects: a handler's
 * bundle carries its own route's definition and schemas, not the rest of its face's (nor what only those need,
 * such as the card validator, the tax tables or the IP address parser).
 */
describe('a handler bundle', () => {
  const bundled = async (entry: string) => {
    const result = await build({
      ...esbuildSettings({ xraySdk: false }),
      entryPoints: [entry],
      write: false,
      outfile: 'out.mjs',
      metafile: true,
      logLevel: 'silent',
    });
    const [output] = Object.values(result.metafile.outputs).filter((o) => o.entryPoint);
    const included = Object.entries(output!.inputs)
      .filter(([, i]) => i.bytesInOutput > 0)
      .map(([file]) => file);
    return { included, code: result.outputFiles.find((f) => f.path.endsWith('.mjs'))!.text };
  };

  it('carries its own route and none of the other routes of its face', async () => {
    const { code } = await bundled('functions/people/merchants/get-merchant.ts');
    expect(code).toContain('"merchants-get"');
    const others = routesOfFace('merchant').filter((r) => r.handler !== 'functions/people/merchants/get-merchant.ts');
    expect(others.length).toBeGreaterThan(20);
    expect(others.filter((r) => code.includes(`"${r.name}"`)).map((r) => r.name)).toEqual([]);
  });

  it('carries no schema module, validator or table that only other routes use', async () => {
    const { included } = await bundled('functions/people/merchants/get-merchant.ts');
    expect(included.some((f) => f === 'shared/people/merchants.schemas.ts')).toBe(true);
    expect(included.filter((f) => /^shared\/(?!people\/)[a-z-]+\/.*\.schemas\.ts$/.test(f))).toEqual([]);
    expect(
      included.filter((f) => /node_modules\/(card-validator|credit-card-type|ipaddr\.js|sales-tax)\//.test(f) || f.endsWith('shared/domain/tax-rates.ts')),
    ).toEqual([]);
  });

  it('carries the page rendering only on a page (the page kit of shared/access/page-route.ts)', async () => {
    const pageKit = ['shared/access/page-route.ts', 'shared/platform/http/page-errors.ts'];
    const api = await bundled('functions/people/merchants/get-merchant.ts');
    expect(api.included.filter((f) => pageKit.includes(f))).toEqual([]);
    const page = await bundled('functions/dashboard/catalog/catalog-form.ts');
    expect(page.included.filter((f) => pageKit.includes(f)).sort()).toEqual(pageKit);
    const [aPage, notAPage] = [routeList.find((r) => r.face === 'page')!, routeList.find((r) => r.face !== 'page')!];
    expect(() => wire(aPage, () => ({ status: 200 }), null, null)).toThrow(/page kit/);
    expect(() => pageRouteOfKind(null)(notAPage as RouteDef & { auth: 'none'; face: 'page' }, () => ({ status: 200 }))).toThrow(/page kit/);
  });

  /**
   * Every module alike: a function of one handler folder carries no other route object of that folder. A route
   * object that holds a call (an inline schema) or spreads another object is kept whether used or not, so this
   * fails for one written that way. One function a folder, built together.
   */
  it("carries no other route of its module, for one function of every module's folder", async () => {
    const folderOf = (r: RouteDef) => path.dirname(r.handler);
    const byFolder = new Map<string, RouteDef[]>();
    for (const r of routeList) byFolder.set(folderOf(r), [...(byFolder.get(folderOf(r)) ?? []), r]);
    const picked = [...byFolder.values()].map((routes) => routes.find((r) => routes.filter((o) => o.handler === r.handler).length === 1) ?? routes[0]!);
    expect(picked.length).toBeGreaterThan(12);
    const result = await build({
      ...esbuildSettings({ xraySdk: false }),
      sourcemap: false,
      entryPoints: Object.fromEntries(picked.map((r) => [r.name, r.handler])),
      outdir: 'out',
      write: false,
      logLevel: 'silent',
    });
    const routeObject = (r: RouteDef) => `name:"${r.name}"`;
    const carried = picked.flatMap((r) => {
      const code = result.outputFiles.find((f) => path.basename(f.path) === `${r.name}.js`)!.text;
      expect(code, r.name).toContain(routeObject(r));
      return byFolder
        .get(folderOf(r))!
        .filter((o) => o.handler !== r.handler && code.includes(routeObject(o)))
        .map((o) => `${r.name} carries ${o.name}`);
    });
    expect(carried).toEqual([]);
  });

  it('still carries what its own route needs (a card route keeps the validator)', async () => {
    const { included } = await bundled('functions/customers/card-tokens/create-token.ts');
    expect(included.some((f) => f.includes('node_modules/card-validator/'))).toBe(true);
  });
});

describe('the Idempotency-Key a route declares', () => {
  it('is checked by the wiring and handed to the handler: no handler reads the header itself, each declaring route takes it', async () => {
    const { readFileSync } = await import('node:fs');
    const sources = routeList.map((r) => ({ r, source: readFileSync(r.handler, 'utf8') }));
    expect(sources.filter(({ source }) => /idempotency-key/i.test(source)).map(({ r }) => r.name)).toEqual([]);
    const declaring = routeList.filter((r: RouteDef) => r.idempotencyKey);
    expect(declaring.length).toBeGreaterThan(0);
    for (const { r, source } of sources.filter(({ r }) => r.idempotencyKey)) expect(source, r.name).toMatch(/\bidempotencyKey\b/);
  });

  it('is refused 400 before the handler when malformed, or missing where required', async () => {
    const { requestPayout } = await import('../../../shared/money/routes.ts');
    const { buildHttpApiEvent } = await import('../../../infra/local/apigw-event.ts');
    const { lambdaContext } = await import('../../../infra/local/lambda.ts');
    const { exampleIds } = await import('../../../shared/platform/http/example-ids.ts');
    let reached = 0;
    const handler = wire(
      requestPayout as RouteDef,
      () => {
        reached++;
        return { status: 201, body: {} };
      },
      null,
      null,
    );
    const send = async (key?: string) => {
      const event = buildHttpApiEvent({
        method: 'POST',
        rawPath: '/api/v1/public-api/merchants/m-1/payouts',
        routeKey: `POST ${requestPayout.path}`,
        sourceIp: '127.0.0.1',
        headers: [['host', 'localhost'], ['content-type', 'application/json'], ...(key === undefined ? [] : [['idempotency-key', key] as [string, string]])],
        body: JSON.stringify({ payoutMethodId: exampleIds.eurPayoutMethodId, amount: 50, currency: 'EUR' }),
      });
      const result = (await handler(event, lambdaContext({ name: requestPayout.name, timeoutMs: 10_000, region: 'us-east-1' }))) as {
        statusCode: number;
        body: string;
      };
      return { status: result.statusCode, code: JSON.parse(result.body).code as string };
    };
    expect(await send()).toEqual({ status: 400, code: 'request.idempotency_key_required' });
    expect(await send('k'.repeat(256))).toEqual({ status: 400, code: 'request.invalid_idempotency_key' });
    expect(reached).toBe(0);
    expect((await send('payout-1')).status).toBe(201);
    expect(reached).toBe(1);
  });
});
