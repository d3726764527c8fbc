/**
 * The organization-scoped public API (`Authorization: ApiKey <accountId>_<apiKey>_<apiKeyId>`), under
 * `/api/v1/public-api`: accounts and keys, organizations and onboarding, websites, custom fields, products,
 * plans and promo codes. Single records answer `{type:"object", data}`, lists
 * `{type:"list", totalCount, paginationMeta:{limit, offset}, data}`.
 */
import { activateAccount, changeAccountSecret, createOrgApiKey, rotateOrgApiKey, getOrgApiKey, revokeOrgApiKey, registerOrganization, linkOrganizationAccount, setOwnOwnerFlag, setAccountOwnerFlag, getOrganization, submitOnboarding, listWebsites, createWebsite, getWebsite, updateWebsite, deleteWebsite, createCustomField, getCustomField } from '../organizations/routes.ts';
import { listProducts, createProduct, getProduct, updateProduct, deleteProduct, listPlans, createPlan, getPlan, updatePlan, listPromoCodes, createPromoCode, getPromoCode, updatePromoCode } from '../catalog/routes.ts';
import { listPayoutMethods, createPayoutMethod, deletePayoutMethod } from '../money/routes.ts';
import { getCheckoutPolicies, updateCheckoutPolicies, createCheckoutPolicyUpload, deleteCheckoutPolicyDocument } from '../checkout/routes.ts';

export {
  activateAccount, changeAccountSecret, createOrgApiKey, rotateOrgApiKey, getOrgApiKey, revokeOrgApiKey, registerOrganization, linkOrganizationAccount, setOwnOwnerFlag, setAccountOwnerFlag, getOrganization, submitOnboarding, listWebsites, createWebsite, getWebsite, updateWebsite, deleteWebsite, createCustomField, getCustomField, listProducts, createProduct, getProduct, updateProduct, deleteProduct, listPlans, createPlan, getPlan, updatePlan, listPromoCodes, createPromoCode, getPromoCode, updatePromoCode, listPayoutMethods, createPayoutMethod, deletePayoutMethod, getCheckoutPolicies, updateCheckoutPolicies, createCheckoutPolicyUpload, deleteCheckoutPolicyDocument,
};

export const organizationRoutes = {
  activateAccount,
  changeAccountSecret,
  createOrgApiKey,
  rotateOrgApiKey,
  getOrgApiKey,
  revokeOrgApiKey,
  registerOrganization,
  linkOrganizationAccount,
  setOwnOwnerFlag,
  setAccountOwnerFlag,
  getOrganization,
  submitOnboarding,
  listWebsites,
  createWebsite,
  getWebsite,
  updateWebsite,
  deleteWebsite,
  createCustomField,
  getCustomField,
  listProducts,
  createProduct,
  getProduct,
  updateProduct,
  deleteProduct,
  listPlans,
  createPlan,
  getPlan,
  updatePlan,
  listPromoCodes,
  createPromoCode,
  getPromoCode,
  updatePromoCode,
  listPayoutMethods,
  createPayoutMethod,
  deletePayoutMethod,
  getCheckoutPolicies,
  updateCheckoutPolicies,
  createCheckoutPolicyUpload,
  deleteCheckoutPolicyDocument,
};
