/** The API reference's entries of the dashboard routes (`shared/dashboard/routes.ts`), read only by the OpenAPI document's builder. */
import { teamRace, lastOwnerMember, ownerOnly } from '../platform/http/reference-examples.ts';
import { exampleIds as ids } from '../platform/http/example-ids.ts';
import type { ModuleDocs } from '../platform/http/route-docs.ts';
import type * as routes from './routes.ts';

export const dashboardDocs = {
  removeMember: {
    description:
      "Removes a member from the team (owners, admins for admins and members) or, with their own user id, lets any member leave. Access ends with the next request, and the OAuth grants the person gave agents on this merchant are revoked: their refresh tokens are refused. When the owner of record leaves, the longest-standing other owner takes over; removal from a partner's team leaves the sub-merchants they were assigned to alone.",
    example: { params: { merchantId: ids.merchantId, userId: ids.teamMemberUserIdToDelete } },
    errors: [ownerOnly, lastOwnerMember, teamRace],
  },
  createDashboardPolicyUpload: {
    description:
      "A presigned PUT URL, valid 15 minutes, for the merchant's PDF of `policyType` (`terms`, `privacy`, `return-policy` or `eula`) of exactly `size` bytes (at most 10 MiB), as the checkout settings page asks for it before its script sends the file straight to storage (owners and admins). `contentType` must be `application/pdf`. PUT the file to `uploadUrl` with exactly the `headers` answered: the content type and length are signed, so storage refuses anything else. A new upload replaces the previous PDF of that type; the organization API's `POST …/checkout-policies/{policyType}/upload` makes the same URL.",
    example: { params: { merchantId: ids.merchantId, policyType: 'terms' }, body: { contentType: 'application/pdf', size: 48213 } },
    // Written: the local stack's answer points at its own storage server.
    response: {
      policyType: 'terms',
      uploadUrl: `https://mor-sandbox-data-policybucket5f3a9c1e-1k2l3m4n5o6p.s3.us-east-1.amazonaws.com/policies/${ids.merchantId}/terms.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Content-Sha256=UNSIGNED-PAYLOAD&X-Amz-Credential=ASIAQ3EGV7ZK5EXAMPLE%2F20261126%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261126T210236Z&X-Amz-Expires=900&X-Amz-Security-Token=IQoJb3JpZ2luX2VjEXAMPLE&X-Amz-Signature=758bc5723be8b3bf691ccde86b6e42cc17e34ab398ac239de8a5fd87e9bc4811&X-Amz-SignedHeaders=content-length%3Bcontent-type%3Bhost`,
      method: 'PUT',
      headers: { 'content-type': 'application/pdf', 'content-length': '48213' },
      maxBytes: 10485760,
      expiresAt: '2026-11-26T21:17:36.000Z',
    },
    errors: [
      {
        status: 422,
        code: 'checkout_policies.unsupported_document_type',
        when: '`contentType` is not `application/pdf`: a policy document is a PDF.',
      },
      { status: 400, code: 'checkout_policies.unknown_policy_type', when: '`policyType` is not `terms`, `privacy`, `return-policy` or `eula`.' },
    ],
  },
} satisfies ModuleDocs<typeof routes>;
