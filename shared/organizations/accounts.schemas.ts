/** Accounts and their API keys (organization face). */
import * as v from 'valibot';
import { MAX_ACCOUNT_SECRET_LENGTH, MIN_ACCOUNT_SECRET_LENGTH } from './accounts.rules.ts';
import { isoTime, nullableIsoTime, uuid } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { objectEnvelope } from '../platform/http/schemas/organization.ts';

const secret = v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxCodePoints(MAX_ACCOUNT_SECRET_LENGTH));

/** `{secret}`: proves the caller holds the account's secret. */
export const accountSecretRequest = named('AccountSecretRequest', v.strictObject({ secret }));

export const changeAccountSecretRequest = named(
  'ChangeAccountSecretRequest',
  v.strictObject({
    secret,
    newSecret: v.pipe(
      v.string(),
      v.minLength(MIN_ACCOUNT_SECRET_LENGTH, `must be at least ${MIN_ACCOUNT_SECRET_LENGTH} characters`),
      v.maxCodePoints(MAX_ACCOUNT_SECRET_LENGTH),
    ),
  }),
);

export const account = named(
  'Account',
  v.strictObject({
    id: uuid,
    name: v.string(),
    userType: v.picklist(['service']),
    apiKey: v.nullable(uuid),
    activatedAt: nullableIsoTime,
    createdAt: isoTime,
    updatedAt: isoTime,
    deletedAt: nullableIsoTime,
  }),
);

export const accountResponse = objectEnvelope('AccountResponse', account);

const apiKeyRecordFields = {
  id: uuid,
  accountId: uuid,
  createdAt: isoTime,
  updatedAt: isoTime,
  deletedAt: nullableIsoTime,
  revokedAt: nullableIsoTime,
  rotatedAt: nullableIsoTime,
};

export const apiKeyRecord = named('ApiKeyRecord', v.strictObject(apiKeyRecordFields));

/** `{data: API key record}` */
export const apiKeyRecordResponse = named('ApiKeyRecordResponse', v.strictObject({ data: apiKeyRecord }));

/** `{data: API key record + apiKey}`: the full key `<accountId>_<apiKey>_<apiKeyId>`, in this response only. */
export const issuedApiKeyResponse = named(
  'IssuedApiKeyResponse',
  v.strictObject({
    data: v.strictObject({ ...apiKeyRecordFields, apiKey: v.pipe(v.string(), v.regex(/^[0-9a-f-]{36}_[0-9a-f]{64}_[0-9a-f-]{36}$/)) }),
  }),
);
