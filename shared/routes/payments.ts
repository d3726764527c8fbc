/**
 * The payments part of the organization face (`Authorization: ApiKey …`): card tokens and the processor,
 * hosted fields, the production tokenization host, customers, transactions and the account's webhook destinations.
 * Each part keeps its routes under its own heading.
 */
import { createStageCardToken, listCardTokens, getCardToken, getPaymentMethods, attachPaymentInstrument, listPaymentInstruments, getPaymentInstrument, updatePaymentInstrument, tokenizeOnHost, tokenizationOrganizationPath, tokenizationPublicApiPath, tokenizationApiPath, createClientToken, hostedFieldsSdk, hostedFieldsFrame, hostedFieldsFrameScript, tokenizeHostedFields, listCustomers, createCustomer, getCustomer, updateCustomer } from '../customers/routes.ts';
import { createCustomerInvoice, getCustomerInvoice, issueCustomerInvoice, voidCustomerInvoice, markCustomerInvoiceUncollectible } from '../invoicing/routes.ts';
import { createTransaction, listTransactions, createRefund, listRefunds, simulateProcessorRefund, createDispute, getDispute, listDisputes } from '../payments/routes.ts';
import { createOrganizationWebhookDestination, listOrganizationWebhookDestinations, getOrganizationWebhookDestination, updateOrganizationWebhookDestination, deleteOrganizationWebhookDestination } from '../webhooks/routes.ts';

export {
  createStageCardToken, listCardTokens, getCardToken, getPaymentMethods, attachPaymentInstrument, listPaymentInstruments, getPaymentInstrument, updatePaymentInstrument, tokenizeOnHost, tokenizationOrganizationPath, tokenizationPublicApiPath, tokenizationApiPath, createClientToken, hostedFieldsSdk, hostedFieldsFrame, hostedFieldsFrameScript, tokenizeHostedFields, listCustomers, createCustomer, getCustomer, updateCustomer, createCustomerInvoice, getCustomerInvoice, issueCustomerInvoice, voidCustomerInvoice, markCustomerInvoiceUncollectible, createTransaction, listTransactions, createRefund, listRefunds, simulateProcessorRefund, createDispute, getDispute, listDisputes, createOrganizationWebhookDestination, listOrganizationWebhookDestinations, getOrganizationWebhookDestination, updateOrganizationWebhookDestination, deleteOrganizationWebhookDestination,
};

export const paymentRoutes = {
  createStageCardToken,
  listCardTokens,
  getCardToken,
  getPaymentMethods,
  attachPaymentInstrument,
  listPaymentInstruments,
  getPaymentInstrument,
  updatePaymentInstrument,
  tokenizeOnHost,
  tokenizationOrganizationPath,
  tokenizationPublicApiPath,
  tokenizationApiPath,
  createClientToken,
  hostedFieldsSdk,
  hostedFieldsFrame,
  hostedFieldsFrameScript,
  tokenizeHostedFields,
  listCustomers,
  createCustomer,
  getCustomer,
  updateCustomer,
  createCustomerInvoice,
  getCustomerInvoice,
  issueCustomerInvoice,
  voidCustomerInvoice,
  markCustomerInvoiceUncollectible,
  createTransaction,
  listTransactions,
  createRefund,
  listRefunds,
  simulateProcessorRefund,
  createDispute,
  getDispute,
  listDisputes,
  createOrganizationWebhookDestination,
  listOrganizationWebhookDestinations,
  getOrganizationWebhookDestination,
  updateOrganizationWebhookDestination,
  deleteOrganizationWebhookDestination,
};
