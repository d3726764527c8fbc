/** Seller policies: the four kinds a document or a URL can be given for, and the limits of a policy PDF (pure). */

export const policyTypes = ['terms', 'privacy', 'return-policy', 'eula'] as const;
export type PolicyType = (typeof policyTypes)[number];
export const isPolicyType = (s: string): s is PolicyType => (policyTypes as readonly string[]).includes(s);

/** Largest policy PDF accepted: 10 MiB. */
export const POLICY_MAX_BYTES = 10 * 1024 * 1024;
/** How long an upload URL works. */
export const POLICY_UPLOAD_URL_SECONDS = 15 * 60;
/** How long a buyer's download URL works. */
export const POLICY_DOWNLOAD_URL_SECONDS = 5 * 60;
export const POLICY_CONTENT_TYPE = 'application/pdf';
