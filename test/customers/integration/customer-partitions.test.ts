/**
 * An organization's customers in 16 partitions (shared/customers/customer.entity.ts): each in the partition of its
 * id's first hex digit, listed from all of them; and the operator's move of the customers written to the former
 * single partition (`npm run -s admin -- move-customers`), once, keeping every attribute.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { CustomerEntity, customerKey, formerCustomersPartition } from '../../../shared/customers/customer.entity.ts';
import { getCustomer, listCustomerSummaries, putCustomers, recordCustomerPayment } from '../../../shared/customers/customers.repository.ts';
import { newCustomerId, type Customer } from '../../../shared/customers/customers.rules.ts';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import { transactWrite } from '../../../shared/platform/db/transactions.ts';
import { adminCli, organizationAccount, uniqueEmail } from '../../support/fixtures.ts';

const customerOf = (organizationId: string, id = newCustomerId()): Customer => ({
  ...CustomerEntity.parse({
    id,
    organizationId,
    email: uniqueEmail('partitioned'),
    revenue: {},
    isTestData: true,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    entity: 'customer',
  }),
});

describe('customer partitions', () => {
  it("keeps each customer in its id's partition and lists them from all 16", async () => {
    const org = await organizationAccount('Partitioned shop');
    const customers = [...'0123456789abcdef'].map((d) => customerOf(org.organizationId, `cus_${d}${newCustomerId().slice(5)}`));
    await putCustomers(customers);
    for (const c of customers) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: customerKey(org.organizationId, c.id), ConsistentRead: true }));
      expect(Item?.pk).toBe(`CUSTOMERS#${org.organizationId}#${c.id.charAt(4)}`);
    }
    expect((await listCustomerSummaries(org.organizationId)).map((c) => c.id).sort()).toEqual(customers.map((c) => c.id).sort());
  });

  it('moves the customers of the former single partition, with every attribute, once', async () => {
    const org = await organizationAccount('Former partition shop');
    const former = customerOf(org.organizationId);
    // As the version before the split wrote it: in CUSTOMERS#<orgId>, with a payment booked.
    const item = {
      ...CustomerEntity.item(former),
      pk: formerCustomersPartition(org.organizationId),
      revenue: { EUR: 1_250 },
      lastPaymentTime: former.updatedAt,
    };
    await db.send(new PutCommand({ TableName: tableName(), Item: item }));
    expect(await getCustomer(org.organizationId, former.id)).toBeNull();
    // And 48 more, of as many other organizations: their former partitions fall in every part of the move's parallel
    // Scan, each of which must be read whole.
    const others = Array.from({ length: 48 }, () => customerOf(randomUUID()));
    await Promise.all(
      others.map((c) =>
        db.send(new PutCommand({ TableName: tableName(), Item: { ...CustomerEntity.item(c), pk: formerCustomersPartition(c.organizationId) } })),
      ),
    );

    const { stdout } = await adminCli({}, 'move-customers', '--json');
    expect(JSON.parse(stdout)).toMatchObject({ moved: expect.any(Number), changedMeanwhile: 0 });
    expect(JSON.parse(stdout).moved).toBeGreaterThanOrEqual(1 + others.length);
    const moved = await getCustomer(org.organizationId, former.id);
    expect(moved).toMatchObject({ id: former.id, email: former.email, revenue: { EUR: 1_250 } });
    for (const c of others) {
      expect(await getCustomer(c.organizationId, c.id), c.organizationId).toMatchObject({ id: c.id, email: c.email });
      const { Item: formerItem } = await db.send(
        new GetCommand({ TableName: tableName(), Key: { pk: formerCustomersPartition(c.organizationId), sk: `CUSTOMER#${c.id}` }, ConsistentRead: true }),
      );
      expect(formerItem, c.organizationId).toBeUndefined();
    }
    const { Item: left } = await db.send(
      new GetCommand({ TableName: tableName(), Key: { pk: formerCustomersPartition(org.organizationId), sk: `CUSTOMER#${former.id}` }, ConsistentRead: true }),
    );
    expect(left).toBeUndefined();
    // A payment now books on the moved customer; a second run moves nothing of this organization.
    await transactWrite([['payment', [recordCustomerPayment(org.organizationId, former.id, 500, 'EUR', new Date().toISOString())]]]);
    expect((await getCustomer(org.organizationId, former.id))!.revenue).toEqual({ EUR: 1_750 });
    const again = JSON.parse((await adminCli({}, 'move-customers', '--json')).stdout);
    expect(again).toEqual({ moved: 0, changedMeanwhile: 0 });
    // Each run reads the whole table (a parallel Scan: an operator's one-off command), which the run's other tests fill.
  }, 120_000);
});
