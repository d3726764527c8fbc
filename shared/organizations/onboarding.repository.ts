/**
 * Onboarding submissions (organization API): one item per organization, in its partition, written once in the
 * same transaction that moves the organization's hosted onboarding form to `submitted`.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { OrganizationMember, Phone } from '../domain/merchants.ts';
import { db, tableName } from '../platform/db/client.ts';
import * as keys from '../platform/db/keys.ts';
import type { TransactItem } from '../platform/db/types.ts';

/** Who submitted an onboarding: an organization API account (its key), or an owner on the dashboard. */
export type OnboardingSubmitter = { submittedByAccountId: string } | { submittedByUserId: string };

export type OnboardingSubmission = OnboardingSubmitter & {
  organizationId: string;
  business: {
    name: string;
    doingBusinessAs: string;
    type: string;
    public: boolean | null;
    category: string;
    isStartup: boolean;
    taxId: string;
    registrationNumber: string;
    paymentReference: string;
    productAndServiceDescription: string;
    website: string;
    address: string;
    city: string;
    state: string;
    zip: string;
    country: string;
    phone: Phone;
    /** Expected sales volume in minor units of `account.reportCurrency`. */
    salesVolume: number;
    sellsItemsIllegalInDefaultGateway: boolean;
  };
  member: OrganizationMember;
  account: { reportCurrency: string; payoutCurrency: string };
  submittedAt: string;
};

const fromItem = (i: Record<string, unknown>): OnboardingSubmission => ({
  organizationId: i.organizationId as string,
  ...(typeof i.submittedByUserId === 'string' ? { submittedByUserId: i.submittedByUserId } : { submittedByAccountId: i.submittedByAccountId as string }),
  business: i.business as OnboardingSubmission['business'],
  member: i.member as OnboardingSubmission['member'],
  account: i.account as OnboardingSubmission['account'],
  submittedAt: i.submittedAt as string,
});

/** The submission; refused (ConditionalCheckFailed) when the organization has one already. */
export const putNewOnboarding = (s: OnboardingSubmission): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...keys.onboarding(s.organizationId), entity: 'onboarding', ...s },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

export async function getOnboarding(organizationId: string): Promise<OnboardingSubmission | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.onboarding(organizationId), ConsistentRead: true }));
  return Item ? fromItem(Item) : null;
}
