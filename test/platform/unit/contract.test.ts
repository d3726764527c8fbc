import { describe, expect, it } from 'vitest';
import { checkContract, ContractViolation } from '../../support/contract.ts';

const merchant = {
  id: '0d4f7a52-6a0e-4c3e-9b7a-1f2e3d4c5b6a',
  name: 'Shop',
  parentId: null,
  mode: 'test',
  websiteUrl: null,
  ownerAttached: true,
  activation: { status: 'incomplete', steps: [{ key: 'owner_attached', title: 'An owner', done: true }] },
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};
const path = `/v1/public-api/merchants/${merchant.id}`;

describe('the response contract check of the e2e tests', () => {
  it("accepts a body that matches the route's declared response", () => {
    expect(() => checkContract('GET', path, 200, merchant, JSON.stringify(merchant))).not.toThrow();
  });

  it('fails on an undeclared field', () => {
    const body = { ...merchant, secret: 'leak' };
    expect(() => checkContract('GET', path, 200, body, JSON.stringify(body))).toThrow(ContractViolation);
  });

  it('fails on a missing field or a wrong type', () => {
    const { name: _, ...missing } = merchant;
    expect(() => checkContract('GET', path, 200, missing, '')).toThrow(/name/);
    expect(() => checkContract('GET', path, 200, { ...merchant, ownerAttached: 'yes' }, '')).toThrow(ContractViolation);
  });

  it('fails on an undeclared success status', () => {
    expect(() => checkContract('GET', path, 201, merchant, '')).toThrow(/declared success status is 200/);
  });

  it('fails on a body where the route declares none', () => {
    expect(() => checkContract('DELETE', `${path}/api-keys/ak_x`, 204, null, 'x')).toThrow(/no body/);
  });

  it("checks errors against the face's error shape", () => {
    const merchantError = { statusCode: 403, code: 'forbidden', message: 'No.', details: {} };
    expect(() => checkContract('GET', path, 403, merchantError, '')).not.toThrow();
    const orgError = { errorCode: 'forbidden', statusCode: 403, message: 'No.', details: '' };
    expect(() => checkContract('GET', path, 403, orgError, '')).toThrow(ContractViolation);
    expect(() => checkContract('GET', '/v1/public-api/accounts/x/api-keys/y', 403, orgError, '')).not.toThrow();
    expect(() => checkContract('GET', path, 404, { ...merchantError, statusCode: 403 }, '')).toThrow(/statusCode/);
  });

  it('requires a redirect route to answer an absolute location and no body', () => {
    const policy = '/v1/checkout/plans/plan_0123456789abcdef0123456789abcdef/policies/terms';
    const headers = (location: string | null) => ({ get: (name: string) => (name === 'location' ? location : null) });
    expect(() => checkContract('GET', policy, 302, null, '', null, headers('https://bucket.example/policies/x.pdf?X-Amz-Signature=1'))).not.toThrow();
    expect(() => checkContract('GET', policy, 302, null, '', null, headers(null))).toThrow(/location/);
    expect(() => checkContract('GET', policy, 302, null, '', null, headers('/relative/path'))).toThrow(/location/);
    expect(() => checkContract('GET', policy, 302, null, 'body', null, headers('https://bucket.example/x.pdf'))).toThrow(/no body/);
  });
});
