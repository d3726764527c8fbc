/**
 * Onboarding submissions (organization API): one item per organization, in its partition, written once in the
 * same transaction that moves the organization's hosted onboarding form to `submitted`.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { onboarding, OnboardingEntity, type OnboardingSubmission } from './onboarding.entity.ts';
import { db, tableName } from '../platform/db/client.ts';
import type { TransactItem } from '../platform/db/types.ts';

/** The submission; refused (ConditionalCheckFailed) when the organization has one already. */
export const putNewOnboarding = (s: OnboardingSubmission): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: OnboardingEntity.item(s),
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

export async function getOnboarding(organizationId: string): Promise<OnboardingSubmission | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: onboarding(organizationId), ConsistentRead: true }));
  return OnboardingEntity.parseOrNull(Item);
}
