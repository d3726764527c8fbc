/**
 * The architecture rules `npm test` runs (`npm run deps`, .dependency-cruiser.cjs) fail on a broken rule: a small
 * tree that breaks each rule on purpose is cruised with the same rule set.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { cruise } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

const rules = createRequire(import.meta.url)('../../../.dependency-cruiser.cjs') as { forbidden: unknown[] };
const root = mkdtempSync(path.join(os.tmpdir(), 'mor-architecture-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Writes `files` (path → source) under a fresh folder and answers the rules each import broke. */
async function violationsOf(files: Record<string, string>, handlers: Record<string, string> = {}): Promise<string[]> {
  const dir = mkdtempSync(path.join(root, 'tree-'));
  for (const [file, source] of Object.entries({ ...files, ...handlers })) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), source);
  }
  // The top folders the tree has (shared/, and functions/ or infra/ where a case writes them), cruised from the tree's
  // folder (its paths, as the rules see them, relative to it).
  const roots = [...new Set(Object.keys({ ...files, ...handlers }).map((file) => file.split('/')[0]!))];
  const result = await cruise(roots, {
    baseDir: dir,
    ruleSet: { forbidden: rules.forbidden } as never,
    validate: true,
    tsPreCompilationDeps: true,
  });
  const output = result.output as { summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> } };
  return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
}

describe('architecture rules', () => {
  it('refuse a domain rule that imports outside shared/domain', async () => {
    expect(
      await violationsOf({
        'shared/domain/money.ts': "import { config } from '../platform/config.ts';\nexport const m = config;\n",
        'shared/platform/config.ts': 'export const config = 1;\n',
      }),
    ).toContain('domain-is-pure: shared/domain/money.ts → shared/platform/config.ts');
  });

  it('refuse an import circle', async () => {
    const found = await violationsOf({
      'shared/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
      'shared/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
    });
    expect(found.filter((v) => v.startsWith('no-circular'))).not.toEqual([]);
  });

  it('refuse a platform file that imports a module', async () => {
    expect(
      await violationsOf({
        'shared/platform/http/route.ts': "import { authenticate } from '../../people/people.service.ts';\nexport const r = authenticate;\n",
        'shared/people/people.service.ts': 'export const authenticate = 1;\n',
      }),
    ).toContain('platform-knows-no-module: shared/platform/http/route.ts → shared/people/people.service.ts');
  });

  it('refuse a platform file that reaches above the platform, even for the route table', async () => {
    expect(
      await violationsOf({
        'shared/platform/http/cors.ts': "import { routeList } from '../../routes/index.ts';\nexport const c = routeList;\n",
        'shared/routes/index.ts': 'export const routeList = [];\n',
      }),
    ).toContain('platform-knows-no-module: shared/platform/http/cors.ts → shared/routes/index.ts');
  });

  it("refuse a module's API reference entries anywhere but in the OpenAPI document's builder", async () => {
    const found = await violationsOf({
      'shared/checkout/routes.docs.ts': "import { shared } from '../platform/http/reference-examples.ts';\nexport const checkoutDocs = { shared };\n",
      'shared/platform/http/reference-examples.ts': 'export const shared = 1;\n',
      'shared/checkout/checkout.service.ts': "import { checkoutDocs } from './routes.docs.ts';\nexport const s = checkoutDocs;\n",
      'shared/routes/docs/index.ts': "import { checkoutDocs } from '../../checkout/routes.docs.ts';\nexport const apiDocs = checkoutDocs;\n",
    });
    expect(found.filter((v) => v.startsWith('route-docs-only-in-the-document'))).toEqual([
      'route-docs-only-in-the-document: shared/checkout/checkout.service.ts → shared/checkout/routes.docs.ts',
    ]);
  });

  it('refuse a module that imports a module of a higher layer', async () => {
    expect(
      await violationsOf({
        'shared/invoicing/invoices.service.ts': "import { displayName } from '../checkout/customization.service.ts';\nexport const i = displayName;\n",
        'shared/checkout/customization.service.ts': 'export const displayName = 1;\n',
      }),
    ).toContain('modules-import-downward: shared/invoicing/invoices.service.ts → shared/checkout/customization.service.ts');
  });

  it('refuse two modules that import each other, even through a sub-folder and a third file', async () => {
    const found = await violationsOf({
      'shared/customers/cards.service.ts': "import { registry } from '../payments/processor/registry.ts';\nexport const cards = registry;\n",
      'shared/payments/processor/registry.ts': "import { fingerprint } from '../fingerprint.ts';\nexport const registry = fingerprint;\n",
      'shared/payments/fingerprint.ts': "import { cards } from '../customers/cards.service.ts';\nexport const fingerprint = () => cards;\n",
    });
    expect(found.filter((v) => v.startsWith('no-module-cycle:'))).not.toEqual([]);
  });

  it('refuse the table client (or the document client package) anywhere but in repositories, entities and the table kit', async () => {
    const found = await violationsOf({
      'shared/platform/db/client.ts': 'export const db = 1;\n',
      'shared/payments/refunds.service.ts': "import { db } from '../platform/db/client.ts';\nexport const r = db;\n",
      'shared/payments/refunds.repository.ts': "import { db } from '../platform/db/client.ts';\nexport const getRefund = db;\n",
      'shared/platform/db/transactions.ts': "import { db } from './client.ts';\nexport const transactWrite = db;\n",
    });
    expect(found.filter((v) => v.startsWith('db-client-only-in-repositories'))).toEqual([
      'db-client-only-in-repositories: shared/payments/refunds.service.ts → shared/platform/db/client.ts',
    ]);
  });

  it('refuse a handler that imports another module', async () => {
    const dir = await violationsOf(
      {
        'shared/money/payouts.service.ts': 'export const pay = 1;\n',
      },
      {
        'functions/people/members/add-member.ts': "import { pay } from '../../../shared/money/payouts.service.ts';\nexport const handler = pay;\n",
      },
    );
    expect(dir).toContain('handler-uses-its-module: functions/people/members/add-member.ts → shared/money/payouts.service.ts');
  });

  it("refuse a module that imports another module's service, rules or repository instead of its front door", async () => {
    const found = await violationsOf({
      'shared/checkout/orders.service.ts': [
        "import { getPlan } from '../catalog/plans.repository.ts';",
        "import { planOf } from '../catalog/plans.service.ts';",
        "import { findPlan } from '../catalog/index.ts';",
        "import { planSchema } from '../catalog/plans.schemas.ts';",
        'export const o = [getPlan, planOf, findPlan, planSchema];',
      ].join('\n'),
      'shared/catalog/plans.repository.ts': 'export const getPlan = 1;\n',
      'shared/catalog/plans.service.ts': "export const planOf = 1;\nexport { getPlan as findPlan } from './plans.repository.ts';\n",
      'shared/catalog/plans.schemas.ts': 'export const planSchema = 1;\n',
      'shared/catalog/index.ts': "export { findPlan } from './plans.service.ts';\n",
    });
    expect(found.filter((v) => v.startsWith('modules-enter-by-front-door')).sort()).toEqual([
      'modules-enter-by-front-door: shared/checkout/orders.service.ts → shared/catalog/plans.repository.ts',
      'modules-enter-by-front-door: shared/checkout/orders.service.ts → shared/catalog/plans.service.ts',
    ]);
  });

  it("refuse the stacks or the operator's tools reaching past a module's front door", async () => {
    const found = await violationsOf({
      'shared/payments/refunds.service.ts': 'export const processorRefund = 1;\n',
      'shared/payments/index.ts': "export { processorRefund } from './refunds.service.ts';\n",
      'shared/payments/disputes.schemas.ts': 'export const disputeCategories = [];\n',
      'infra/admin/cli.ts': [
        "import { disputeCategories } from '../../shared/payments/disputes.schemas.ts';",
        "const { processorRefund } = await import('../../shared/payments/index.ts');",
        "const direct = await import('../../shared/payments/refunds.service.ts');",
        'export const cli = [disputeCategories, processorRefund, direct];',
      ].join('\n'),
    });
    expect(found.filter((v) => v.startsWith('infra-enters-by-front-door'))).toEqual([
      'infra-enters-by-front-door: infra/admin/cli.ts → shared/payments/refunds.service.ts',
    ]);
  });

  it("refuse a schemas, rules or item file that uses another module's front door instead of its schemas", async () => {
    const found = await violationsOf({
      'shared/catalog/index.ts': "export { createPlan } from './plans.service.ts';\n",
      'shared/catalog/plans.service.ts': 'export const createPlan = 1;\n',
      'shared/catalog/plans.schemas.ts': 'export const intervalUnits = [];\n',
      'shared/checkout/checkout.schemas.ts': "import { createPlan } from '../catalog/index.ts';\nexport const s = createPlan;\n",
      'shared/checkout/checkout.rules.ts': "import { intervalUnits } from '../catalog/plans.schemas.ts';\nexport const r = intervalUnits;\n",
      'shared/checkout/checkout.service.ts': "import { createPlan } from '../catalog/index.ts';\nexport const c = createPlan;\n",
    });
    expect(found.filter((v) => v.startsWith('pure-files-use-pure-doors'))).toEqual([
      'pure-files-use-pure-doors: shared/checkout/checkout.schemas.ts → shared/catalog/index.ts',
    ]);
  });

  it('refuse browser code that imports server code', async () => {
    expect(
      await violationsOf({
        'shared/checkout/browser/page.ts': "import { countries } from '../../domain/countries.ts';\nexport const c = countries;\n",
        'shared/domain/countries.ts': 'export const countries = [];\n',
      }),
    ).toContain('browser-imports-browser-only: shared/checkout/browser/page.ts → shared/domain/countries.ts');
  });

  it('pass a tree that keeps them', async () => {
    expect(
      await violationsOf({
        'shared/domain/money.ts': 'export const m = 1;\n',
        'shared/platform/config.ts': "import { m } from '../domain/money.ts';\nexport const config = m;\n",
        'shared/catalog/plans.service.ts': "import { getPlan } from './plans.repository.ts';\nexport { getPlan as findPlan };\n",
        'shared/catalog/index.ts': "export { findPlan } from './plans.service.ts';\n",
        'shared/checkout/orders.service.ts': "import { findPlan } from '../catalog/index.ts';\nexport const o = findPlan;\n",
        'shared/platform/db/client.ts': 'export const db = 1;\n',
        'shared/catalog/plans.repository.ts': "import { db } from '../platform/db/client.ts';\nexport const getPlan = db;\n",
      }),
    ).toEqual([]);
  });
});
