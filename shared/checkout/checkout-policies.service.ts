/**
 * Seller policies: the organization's checkout policy settings (four URL policies, organization face), its policy
 * PDFs (uploaded by the merchant through a presigned PUT, listed from storage), and the buyer's redirect to a fresh
 * presigned GET of a PDF at checkout.
 */
import type { CheckoutPolicies, PolicyUrls } from './checkout-policies.entity.ts';
import { getCheckoutPolicies, updateCheckoutPolicies } from './checkout-policies.repository.ts';
import { NotFoundError } from '../domain/errors.ts';
import { isPolicyType, POLICY_CONTENT_TYPE, POLICY_MAX_BYTES, type PolicyType } from '../domain/policies.ts';
import { checkoutPolicyNotFound, unknownPolicyType } from '../domain/unknown-ids.ts';
import {
  deletePolicyDocument,
  policyDocument,
  policyDocuments,
  policyDownloadUrl,
  policyStorageOrigin,
  policyUploadUrl,
  type PolicyDocument,
} from '../platform/storage/policies.ts';
import { checkoutOrderOf, purchasablePlan } from './checkout.service.ts';

/** The policy type of an organization-face path: 400 `checkout_policies.unknown_policy_type` for anything else. */
function organizationPolicyType(s: string): PolicyType {
  if (isPolicyType(s)) return s;
  throw unknownPolicyType();
}

const view = (p: CheckoutPolicies, documents: PolicyDocument[]) => ({
  organizationId: p.organizationId,
  termsUrl: p.termsUrl,
  privacyUrl: p.privacyUrl,
  returnPolicyUrl: p.returnPolicyUrl,
  eulaUrl: p.eulaUrl,
  documents,
  updatedAt: p.updatedAt,
});

/** The organization's URL policies and uploaded PDFs: one item read and one storage listing, at once. */
export async function getPolicies(organizationId: string) {
  const [settings, documents] = await Promise.all([getCheckoutPolicies(organizationId), policyDocuments(organizationId)]);
  return view(settings, documents);
}

/** Sets the given URL policies (null clears one) and answers the settings as they are then. */
export async function updatePolicies(organizationId: string, changes: Partial<PolicyUrls>, now = new Date()) {
  const [settings, documents] = await Promise.all([updateCheckoutPolicies(organizationId, changes, now.toISOString()), policyDocuments(organizationId)]);
  return view(settings, documents);
}

/**
 * A presigned PUT for the organization's `policyType` PDF of exactly `size` bytes (≤ 10 MiB): the content type
 * and length are signed, so storage refuses anything else. A new upload replaces the previous PDF of that type.
 */
export async function createPolicyUpload(organizationId: string, type: string, size: number, now = new Date()) {
  const policyType = organizationPolicyType(type);
  const { url, expiresAt } = await policyUploadUrl(organizationId, policyType, size, now);
  return {
    policyType,
    uploadUrl: url,
    method: 'PUT' as const,
    headers: { 'content-type': POLICY_CONTENT_TYPE as 'application/pdf', 'content-length': String(size) },
    maxBytes: POLICY_MAX_BYTES as typeof POLICY_MAX_BYTES,
    expiresAt,
  };
}

const documentNotFound = (policyType: string) =>
  new NotFoundError('checkout_policies.document_not_found', `This organization has no ${policyType} policy document.`);

/** Removes the organization's `policyType` PDF; 404 `checkout_policies.document_not_found` when there is none. */
export async function deletePolicy(organizationId: string, type: string): Promise<void> {
  const policyType = organizationPolicyType(type);
  if (!(await policyDocument(organizationId, policyType))) throw documentNotFound(policyType);
  await deletePolicyDocument(organizationId, policyType);
}

/**
 * Where the organization itself reads its `policyType` PDF (the dashboard's link): a fresh presigned GET (five
 * minutes); 404 `checkout_policies.document_not_found` for an unknown type or when there is no such PDF.
 */
export async function ownPolicyLocation(organizationId: string, type: string): Promise<string> {
  if (!isPolicyType(type)) throw documentNotFound(type.slice(0, 40));
  if (!(await policyDocument(organizationId, type))) throw documentNotFound(type);
  return policyDownloadUrl(organizationId, type);
}

/** The origin upload URLs point at: the page whose script PUTs the PDF there lets its CSP connect to it. */
export const policyUploadOrigin = (): string => policyStorageOrigin();

/** The buyer's redirect target: a fresh presigned GET (five minutes) of the merchant's PDF, or the 404. */
async function redirectTo(
  type: string,
  seller: (alongside: (merchantId: string) => Promise<PolicyDocument | null>) => Promise<{ merchant: { id: string }; alongside: PolicyDocument | null }>,
) {
  if (!isPolicyType(type)) throw checkoutPolicyNotFound();
  const { merchant, alongside: document } = await seller((merchantId) => policyDocument(merchantId, type));
  if (!document) throw checkoutPolicyNotFound();
  return policyDownloadUrl(merchant.id, type);
}

/**
 * `GET /checkout/plans/{planId}/policies/{policyType}`: where the plan's seller PDF of this type can be read. 404
 * `checkout.plan_not_found` for a plan that cannot be bought, `checkout.policy_not_found` for an unknown type or
 * no PDF. Two round trips (the plan, then its merchant, product and the PDF's metadata at once).
 */
export const planPolicyLocation = (planId: string, type: string) => redirectTo(type, (alongside) => purchasablePlan(planId, undefined, alongside));

/** `GET /checkout/orders/{orderId}/policies/{policyType}`: the same for the order's merchant. */
export const orderPolicyLocation = (orderId: string, type: string) => redirectTo(type, (alongside) => checkoutOrderOf(orderId, alongside));
