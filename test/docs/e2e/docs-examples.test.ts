/**
 * The documentation's examples are tests: every runnable `sh` block of README.md and of the docs (every `.md` under
 * `docs/`) is run with bash against this run's local stack, and each `curl` in it must get its documented status (a
 * 2xx when none is documented). A docs page runs as one script, in order, on a fresh merchant and organization account
 * (`BASE`, `KEY`, `MOR_API_KEY`, `MERCHANT_ID`, `ORG_ID`, `ORG_KEY`, as the pages say). README.md's world — README.md
 * and the reference pages its sections moved to (`README_WORLD`) — runs block by block, in that order, with the
 * variables the README's sections set (`MERCHANT_ID`, `ORG_ID`, …) and its placeholders (`plan_…`, `inst_…`) filled
 * from one fixture. Any literal `http://localhost:3000` (the default of `npm start`) is this run's stack.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { markdownDocuments, README_WORLD, shBlocks, shPrelude, type ShExample } from '../../support/sh-examples.ts';
import { solidPng } from '../../support/images.ts';
import { bundleOperatorCli } from '../../support/operator-cli-bundle.ts';
import { tinyPdf } from '../../support/pdfs.ts';
import {
  adminCli,
  call,
  cardToken,
  joinTeam,
  organizationAccount,
  orgCall,
  orgPath,
  orgPlan,
  orgProduct,
  payByCard,
  person,
  subMerchant,
} from '../../support/fixtures.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const origin = new URL(inject('baseUrl')).origin;
const portOf = (url: string) => new URL(url).port;
/**
 * The operator CLI, bundled once for this file (test/support/operator-cli-bundle.ts): the pages' `npm run -s admin`
 * commands run it (the same CLI, about half the CPU a command of its source on Node's type stripping takes).
 */
const cliDir = mkdtempSync(path.join(os.tmpdir(), 'mor-docs-cli-'));
const cliBundle = path.join(cliDir, 'cli.mjs');
beforeAll(async () => {
  expect(await bundleOperatorCli(cliBundle)).toEqual([]);
}, 60_000);
afterAll(() => rmSync(cliDir, { recursive: true, force: true }));

/** The prelude of every script, with package.json's scripts for `npm run -s <script>` (`admin`: the bundled CLI). */
const prelude = shPrelude({ ...JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).scripts, admin: `node ${cliBundle}` });

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  statuses: number[];
}

/** `script` (after the prelude, with `env` exported) run by bash in a scratch folder. */
async function runScript(script: string, env: Record<string, string>): Promise<Run> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mor-docs-example-'));
  const log = path.join(dir, '.curl-statuses');
  writeFileSync(log, '');
  // The files the examples upload: a product photo, a logo, a policy PDF.
  writeFileSync(path.join(dir, 'photo.png'), solidPng(64, 64, '#1a56db'));
  writeFileSync(path.join(dir, 'logo.png'), solidPng(32, 32, '#f59e0b'));
  writeFileSync(path.join(dir, 'terms.pdf'), tinyPdf());
  const exports = Object.entries(env)
    .map(([k, v]) => `export ${k}=${JSON.stringify(v)}`)
    .join('\n');
  writeFileSync(path.join(dir, '.script.sh'), `${prelude}${exports}\n${script.replaceAll('http://localhost:3000', origin)}\n`);
  try {
    return await new Promise<Run>((resolve) => {
      execFile(
        'bash',
        ['.script.sh'],
        {
          cwd: dir,
          timeout: 120_000,
          env: {
            ...process.env,
            MOR_CURL_LOG: log,
            MOR_REPO: repoRoot,
            PORT: portOf(inject('baseUrl')),
            DYNAMODB_PORT: portOf(inject('dynamoEndpoint')),
            SQS_PORT: portOf(inject('sqsEndpoint')),
          },
        },
        (error, stdout, stderr) => {
          const statuses = readFileSync(log, 'utf8').split('\n').filter(Boolean).map(Number);
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr, statuses });
        },
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What went wrong between the documented statuses and the run, or null when it matches. */
function mismatch(expected: ReadonlyArray<number | null>, run: Run): string | null {
  if (run.code !== 0) return `the script failed (exit ${run.code}): ${run.stderr.slice(-2000)}`;
  if (run.statuses.length !== expected.length) return `${expected.length} curl calls documented, ${run.statuses.length} made`;
  const bad = expected.flatMap((want, i) => {
    const got = run.statuses[i]!;
    return (want === null ? got >= 200 && got < 300 : got === want) ? [] : [`call ${i + 1}: expected ${want ?? '2xx'}, got ${got}`];
  });
  return bad.length ? bad.join('; ') : null;
}

const describeBlocks = (blocks: ShExample[]) => blocks.map((b) => `line ${b.line} (${b.section})`).join(', ');

/** The fresh merchant and organization account a docs page runs against. */
async function pageEnv(): Promise<Record<string, string>> {
  const org = await organizationAccount('Docs reader');
  return {
    BASE: `${origin}/api`,
    KEY: org.merchantApiKey,
    MOR_API_KEY: org.merchantApiKey,
    MERCHANT_ID: org.organizationId,
    ORG_ID: org.organizationId,
    ORG_KEY: org.fullKey,
  };
}

/** The docs pages that run on their own: every document of `docs/` outside README.md's world. */
const pages = markdownDocuments(repoRoot).filter((doc) => doc !== 'README.md' && !README_WORLD.includes(doc));

describe('docs pages: every runnable sh example gets its documented status', () => {
  for (const page of pages) {
    const { run } = shBlocks(readFileSync(path.join(repoRoot, page), 'utf8'));
    if (!run.length) continue;
    it(`${page} (${run.length} blocks)`, { timeout: 180_000 }, async () => {
      const script = run.map((b) => `# --- ${page} line ${b.line}\n${b.source}`).join('\n');
      const result = await runScript(script, await pageEnv());
      expect(
        mismatch(
          run.flatMap((b) => b.statuses),
          result,
        ),
        `${page}: blocks at ${describeBlocks(run)}\n${result.stdout.slice(-1500)}`,
      ).toBeNull();
    });
  }
});

/**
 * README.md's world (README.md and the pages of `README_WORLD`): the partner `owner@acme.example` (password `a long
 * secret passphrase`, as the examples sign in with) whose merchant is also the organization of an organization-API
 * account, an ownerless sub-merchant, a product, a plan, a customer with a card, a paid transaction, EUR funds
 * released and a payout method; the variables the README's sections set, and its placeholders (`plan_…`, `inst_…`)
 * with the ids they stand for.
 */
async function readmeFixture(): Promise<{ env: Record<string, string>; placeholders: Array<[string, string]> }> {
  const org = await organizationAccount('Acme Partners', { ownerEmail: 'owner@acme.example', ownerPassword: 'a long secret passphrase' });
  const BASE = `${origin}/api`;
  const M = `${BASE}/v1/public-api/merchants`;
  const ORG = `${BASE}/v1/public-api/organizations/${org.organizationId}`;
  const sub = await subMerchant(org.merchantApiKey, { name: 'Corner Shop' });
  const product = await orgProduct(org, { name: 'Pro seat', type: 'recurring' });
  const plan = await orgPlan(org, { name: 'Gold', recurringInterval: { unit: 'month', length: 1 } }, { productId: product.id });
  const customer = await orgCall('POST', `${orgPath(org.organizationId)}/customers`, {
    fullKey: org.fullKey,
    body: { email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper', primaryAddress: { customerAddress: { country: 'US', region: 'OR' } } },
  });
  const instrument = await orgCall('POST', `${orgPath(org.organizationId)}/customers/${customer.json.data.id}/payment-instruments`, {
    fullKey: org.fullKey,
    body: { token: await cardToken(org) },
  });
  const paid = await payByCard(org, 100, 'USD');
  const disputable = await payByCard(org, 40, 'USD');
  const funds = await payByCard(org, 100, 'EUR');
  await adminCli({}, 'release-funds', '--as-of', '2099-01-01T00:00:00Z', '--merchant', org.organizationId);
  const payoutMethod = await orgCall('POST', `${orgPath(org.organizationId)}/payout-methods`, {
    fullKey: org.fullKey,
    body: { type: 'bank-account', holderName: 'Jane Seller', country: 'DE', currency: 'EUR', accountNumber: 'DE89 3704 0044 0532 0130 00' },
  });
  const payout = await call('POST', `/v1/public-api/merchants/${org.organizationId}/payouts`, {
    key: org.merchantApiKey,
    headers: { 'idempotency-key': 'readme-fixture' },
    body: { payoutMethodId: payoutMethod.json.data.id, amount: 10, currency: 'EUR' },
  });
  const session = await call('POST', '/v1/dashboard/sessions', { body: { email: 'owner@acme.example', password: 'a long secret passphrase' } });
  const teammate = await person();
  await joinTeam(org.organizationId, session.json.token, teammate);
  const mcp = await call('POST', `/v1/dashboard/merchants/${org.organizationId}/mcp-tokens`, {
    key: session.json.token,
    body: { name: 'README', scopes: ['merchant:read'], expiresInDays: 1 },
  });
  const responses = { customer, instrument, paid, disputable, funds, payoutMethod, payout, session, mcp };
  for (const [what, r] of Object.entries(responses)) if (r.status >= 300) throw new Error(`README fixture, ${what}: ${r.status} ${r.text}`);
  return {
    env: {
      BASE,
      M,
      ORG,
      D: `${BASE}/v1/dashboard`,
      KEY: org.merchantApiKey,
      MOR_API_KEY: org.merchantApiKey,
      MERCHANT_ID: org.organizationId,
      MERCHANT: org.organizationId,
      PARTNER_ID: org.organizationId,
      ORG_ID: org.organizationId,
      ORGANIZATION_ID: org.organizationId,
      ORG_KEY: org.fullKey,
      SUB_MERCHANT_ID: sub.id,
      PRODUCT_ID: product.id,
      PLAN_ID: plan.id,
      CUSTOMER_ID: customer.json.data.id,
      TXN: paid.json.data.id,
      PAYMENT_ID: disputable.json.data.id,
      TOKEN: session.json.token,
      OWNER_TOKEN: session.json.token,
      USER_ID: teammate.userId,
      MCP_TOKEN: mcp.json.token,
    },
    placeholders: [
      ['plan_…', plan.id],
      ['prod_…', product.id],
      ['inst_…', instrument.json.data.id],
      ['pom_…', payoutMethod.json.data.id],
      ['po_…', payout.json.withdrawalId],
      ['tok_…', await cardToken(org)],
    ],
  };
}

describe("README.md's world: every runnable sh example gets its documented status", async () => {
  const blocks = README_WORLD.flatMap((doc) => shBlocks(readFileSync(path.join(repoRoot, doc), 'utf8')).run.map((block) => ({ doc, block })));
  const fixture = readmeFixture();
  for (const { doc, block } of blocks) {
    it(`${doc} line ${block.line} (${block.section})`, { timeout: 120_000 }, async () => {
      const { env, placeholders } = await fixture;
      const script = placeholders.reduce((s, [from, to]) => s.replaceAll(from, to), block.source);
      const result = await runScript(script, env);
      expect(mismatch(block.statuses, result), `${doc} line ${block.line}\n${result.stdout.slice(-1500)}`).toBeNull();
    });
  }
});
