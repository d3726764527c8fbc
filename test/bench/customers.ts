/**
 * Benchmark of the customer list: one organization with 10,000 customers in the local stack (written with
 * BatchWriteItem through the repository, not through HTTP), then filtered, sorted pages through the local
 * gateway. Run: `npm run bench:customers [-- --customers 10000 --rounds 20]`.
 *
 * Prints, as JSON, the p50/p95/max latency of each list request kind and of all of them together, measured from
 * the client (HTTP through the gateway, authentication, the partition read, filter and sort, the page's
 * BatchGetItem, the response), after three warm-up rounds; the measured rounds take every kind in turn. Also
 * prints the machine's CPU count and load average, since the numbers depend on what else runs.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startLocalStack } from '../../infra/local/stack.ts';

const { values } = parseArgs({
  options: { customers: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '20' } },
});
const total = Number(values.customers);
const rounds = Number(values.rounds);

const stack = await startLocalStack({
  port: 0,
  dynamoPort: 0,
  sqsPort: 0,
  handleSignals: true,
  env: { POWERTOOLS_LOG_LEVEL: 'ERROR' },
});
try {
  // Loaded after the stack has set this process's environment.
  const { createRootMerchant } = await import('../../shared/people/merchants.service.ts');
  const { createAccount } = await import('../../shared/organizations/accounts.service.ts');
  const { putCustomers } = await import('../../shared/customers/customers.repository.ts');
  const { newCustomerId } = await import('../../shared/customers/customers.rules.ts');
  type Customer = import('../../shared/customers/customers.rules.ts').Customer;

  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${stack.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { data: Record<string, string> };
  };

  const root = await createRootMerchant({ name: 'Bench', ownerEmail: `bench-${Date.now()}@example.com`, ownerPassword: 'benchmark password', mode: 'test' });
  const account = await createAccount({ name: 'Bench backend', mode: 'test', organizationId: root.merchantId });
  await post(`/v1/public-api/accounts/${account.accountId}/activate`, { secret: account.secret });
  const fullKey = (await post(`/v1/public-api/accounts/${account.accountId}/api-keys`, { secret: account.secret })).data.apiKey!;
  const organizationId = root.merchantId;

  // A deterministic, varied population: names, companies, 12 countries (some without), revenue in USD (some
  // also in EUR), three in four have paid, one in ten is VIP, a few payment methods.
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const firstNames = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Margaret', 'Linus', 'Radia', 'Tim', 'Émile', 'Zoë'];
  const lastNames = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson', 'Hamilton', 'Torvalds', 'Perlman', 'Berners-Lee'];
  const countries = ['US', 'DE', 'FR', 'GB', 'NL', 'ES', 'IT', 'CA', 'AU', 'JP', 'BR', 'IN'];
  const methods = ['payment-card', 'ach', 'paypal', 'SEPA'];
  const start = Date.parse('2024-01-01T00:00:00Z');
  const customers: Customer[] = Array.from({ length: total }, (_, i) => {
    const createdAt = new Date(start + Math.floor(random() * 500 * 86_400_000)).toISOString();
    const paid = random() < 0.75;
    const firstName = pick(firstNames);
    const lastName = pick(lastNames);
    return {
      id: newCustomerId(),
      organizationId,
      firstName,
      lastName,
      organization: random() < 0.3 ? `${pick(lastNames)} Industries` : null,
      email: `${firstName.toLowerCase()}.${lastName.toLowerCase()}.${i}@example.com`,
      phoneNumber: '5550100',
      isEnhancedDueDiligenceRequired: false,
      address:
        random() < 0.9 ? { address1: `${i} Main Street`, address2: null, country: pick(countries), city: 'Springfield', region: null, zip: '12345' } : null,
      dateOfBirth: null,
      jobTitle: null,
      tags: random() < 0.1 ? ['vip'] : random() < 0.1 ? ['discounted'] : [],
      primaryPaymentInstrument: random() < 0.8 ? { method: pick(methods), id: `pi_${i}` } : null,
      revenue: paid ? { USD: Math.floor(random() * 500_000), ...(random() < 0.1 ? { EUR: Math.floor(random() * 100_000) } : {}) } : {},
      lastPaymentTime: paid ? new Date(Date.parse(createdAt) + Math.floor(random() * 60 * 86_400_000)).toISOString() : null,
      isTestData: true,
      createdAt,
      updatedAt: createdAt,
    };
  });
  const seedStart = performance.now();
  const chunk = Math.ceil(customers.length / 8);
  await Promise.all(Array.from({ length: 8 }, (_, w) => putCustomers(customers.slice(w * chunk, (w + 1) * chunk))));
  const seedSeconds = (performance.now() - seedStart) / 1000;

  const path = `/v1/public-api/organizations/${organizationId}/customers`;
  const kinds: Record<string, string> = {
    'newest first (default)': '',
    'name asc, search "love"': '?sortBy=name&sortDirection=asc&search=love',
    'lifetimeRevenue desc, countries US,DE': '?sortBy=lifetimeRevenue&sortDirection=desc&countries=US,DE',
    'lastPaymentTime desc, revenue 100..2000, lastPayment range':
      '?sortBy=lastPaymentTime&revenueMin=100&revenueMax=2000&lastPaymentFrom=2024-03-01T00:00:00Z&lastPaymentTo=2025-03-01T00:00:00Z',
    'email asc, isVip, methods payment-card,SEPA': '?sortBy=email&sortDirection=asc&isVip=true&primaryPaymentInstrumentMethods=payment-card,SEPA',
    'country asc, created range, limit 100': '?sortBy=country&sortDirection=asc&createdFrom=2024-02-01T00:00:00Z&createdTo=2024-12-31T23:59:59Z&limit=100',
    'createdAt asc, offset 9000': '?sortDirection=asc&offset=9000&limit=20',
  };
  const get = async (url: string, headers: Record<string, string>) => {
    const t = performance.now();
    const res = await fetch(url, { headers });
    const body = (await res.json()) as { totalCount?: number; pagination?: { totalCount: number } };
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
    return { ms: performance.now() - t, totalCount: body.totalCount ?? body.pagination?.totalCount };
  };
  const orgHeaders = { authorization: `ApiKey ${fullKey}` };
  const merchantHeaders = { authorization: `Bearer ${root.apiKey}` };
  const requests: Array<[string, string, Record<string, string>]> = [
    ...Object.entries(kinds).map(([label, query]) => [label, `${stack.baseUrl}${path}${query}`, orgHeaders] as [string, string, Record<string, string>]),
    [
      'merchant API, page 5, search "hopper"',
      `${stack.baseUrl}/v1/public-api/merchants/${organizationId}/customers?page=5&limit=20&search=hopper`,
      merchantHeaders,
    ],
  ];

  // Warm-up rounds (module loading, connections, DynamoDB Local's JIT), not counted.
  for (let i = 0; i < 3; i++) for (const [, url, headers] of requests) await get(url, headers);

  const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
  const summary = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return { p50: Math.round(pct(sorted, 50)), p95: Math.round(pct(sorted, 95)), max: Math.round(sorted.at(-1)!) };
  };
  // Rounds go through every request kind in turn, so a slow moment of the machine touches all kinds alike.
  const times = new Map<string, number[]>(requests.map(([label]) => [label, []]));
  const matches = new Map<string, number | undefined>();
  for (let round = 0; round < rounds; round++) {
    for (const [label, url, headers] of requests) {
      const r = await get(url, headers);
      times.get(label)!.push(r.ms);
      matches.set(label, r.totalCount);
    }
  }
  const all = [...times.values()].flat();
  const results = Object.fromEntries([...times].map(([label, xs]) => [label, { ...summary(xs), matches: matches.get(label) }]));

  console.log(
    JSON.stringify(
      {
        customers: total,
        seedSeconds: Number(seedSeconds.toFixed(1)),
        requestsPerKind: rounds,
        machine: { cpus: cpus().length, loadAverage1m: Number(loadavg()[0]!.toFixed(1)) },
        latencyMs: { all: summary(all), ...results },
      },
      null,
      2,
    ),
  );
} finally {
  await stack.stop();
}
