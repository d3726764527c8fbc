/**
 * The organizations module's front door (organization accounts, their keys and links, onboarding, websites, custom
 * fields and the checkout customization): all that other modules may use of it, besides its *.schemas.ts (the pure
 * door: schemas and the value lists they are written in).
 */
export type { AccountLink } from './account-link.entity.ts';
export { getAccountLink, listAccountLinksOfAccount, listAccountLinksOfOrganization, orgApiKeyStillLive } from './accounts.repository.ts';
export {
  type AccountSecretPrincipal,
  authenticateAccountSecret,
  authenticateOrgApiKey,
  createAccount,
  createOwnAccountKey,
  type OrgApiKeyPrincipal,
  ownAccountKeys,
  accountsMadeBy,
  revokeKeysOfAccounts,
  revokeOwnAccountKey,
} from './accounts.service.ts';
export { resolveCustomFields } from './custom-fields.service.ts';
export type { CheckoutCustomization } from './customization.entity.ts';
export {
  checkoutBranding,
  type CheckoutCustomizationView,
  checkoutDisplayName,
  currentDisplayName,
  customizationOf,
  getCheckoutCustomization,
  setCheckoutLogo,
  updateCheckoutCustomization,
} from './customization.service.ts';
export { getOnboarding, type OnboardingSubmission, submitOnboardingAsOwner } from './organizations.service.ts';
export { submitOnboarding } from './routes.ts';
