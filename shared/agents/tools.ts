/**
 * The MCP endpoint's tools: the spec's thirteen, each with the scope a token needs to call it. An agent can onboard a
 * merchant, build its catalog and sell; there is no payout, refund, key-revoke or webhook-secret tool (a test holds
 * the exact set). Each tool calls the platform's services, so it keeps their rules: a refusal is the platform's code
 * and message, as a tool error.
 */
import * as v from 'valibot';
import { confirmProductImage, createProductImageUpload, createProduct, createProductWithPlan, listMerchantProducts } from '../catalog/index.ts';
import { createPlanRequest } from '../catalog/plans.schemas.ts';
import { getCheckoutCustomization, setCheckoutLogo, updateCheckoutCustomization } from '../organizations/index.ts';
import { createOrder, checkoutOrderPage } from '../checkout/index.ts';
import { ForbiddenError } from '../domain/errors.ts';
import type { Merchant, Role } from '../domain/merchants.ts';
import { activationOf, createSubMerchant, goLive, merchantView } from '../people/index.ts';
import { config } from '../platform/config.ts';
import { managers } from '../platform/http/route-def.ts';
import { nextActions } from './activation-guide.ts';
import { searchDocs } from './docs-search.ts';
import { readOnly, tool, type AgentTool, type ToolAnnotations, type ToolContext } from './tool.ts';
import {
  confirmProductImageArguments,
  createMerchantArguments,
  createOrderArguments,
  createProductArguments,
  createProductImageUploadArguments,
  listProductsArguments,
  noArguments,
  searchDocsArguments,
  setCheckoutLogoArguments,
  updateCheckoutCustomizationArguments,
} from './tools.schemas.ts';

/** A tool that adds something new each time it is called. */
const creates: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** A tool that replaces what was there (the host may confirm with the human first). */
const replaces: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

/** The merchant's activation steps, what is left and what to do next. */
function activationStatus(merchant: Merchant) {
  const { status, steps } = activationOf(merchant);
  const left = steps.filter((s) => !s.done);
  const next = left[0];
  return {
    merchantId: merchant.id,
    status,
    live: merchant.liveAt !== null,
    steps: steps.map((s) => (s.done ? s : { ...s, nextAction: nextActions[s.key] ?? null })),
    stepsLeft: left.map((s) => s.key),
    nextStep: next ? { key: next.key, title: next.title, nextAction: nextActions[next.key] ?? null } : null,
  };
}

/** The hosted checkout page of an order, on this deployment's origin. */
const checkoutUrlOf = (orderId: string) => `${config.publicOrigin}${checkoutOrderPage.path.replace('{orderId}', orderId)}`;

export const agentTools: readonly AgentTool[] = [
  tool({
    name: 'search_payments_ai_docs',
    title: 'Search the platform documentation',
    description:
      "Searches the payments platform's own documentation (merchant REST API, organization API, checkout, webhooks, " +
      'subscriptions, this MCP endpoint) and answers the best passages for a query: title, excerpt and link.',
    scope: 'docs:read',
    arguments: searchDocsArguments,
    annotations: readOnly,
    call: async ({ query, limit }) => ({ results: searchDocs(query, limit) }),
  }),
  tool({
    name: 'create_merchant_account',
    title: 'Create a sub-merchant',
    description:
      "Creates a sub-merchant beneath this token's merchant (a partner merchant; a sub-merchant cannot create merchants). " +
      'With ownerEmail, the existing user who signs in with it, once they have confirmed that address, becomes the owner at ' +
      'once; otherwise the answer holds the owner join link to send the future owner.',
    scope: 'merchant:create',
    arguments: createMerchantArguments,
    annotations: creates,
    call: (args, { merchant }) => createSubMerchant(merchant.id, args),
  }),
  tool({
    name: 'get_my_merchant',
    title: "Read this token's merchant",
    description: 'Answers the merchant this token acts on: its name, parent, mode (test or live), website, owner and activation progress.',
    scope: 'merchant:read',
    arguments: noArguments,
    annotations: readOnly,
    call: async (_, { merchant }) => merchantView(merchant),
  }),
  tool({
    name: 'get_merchant_activation_status',
    title: 'Activation status and next step',
    description: "Answers the merchant's activation steps (done or not), the steps left before it can take live payments, and what to do next for each.",
    scope: 'merchant:read',
    arguments: noArguments,
    annotations: readOnly,
    call: async (_, { merchant }) => activationStatus(merchant),
  }),
  tool({
    name: 'go_live',
    title: 'Take the merchant live',
    description:
      'Records that the merchant goes live, once every other activation step is done (calling it again changes nothing). ' +
      'Otherwise refuses, naming the steps left. Going live cannot be undone here: confirm with the human first.',
    scope: 'merchant:go_live',
    arguments: noArguments,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    call: (_, { merchant }) => goLive(merchant),
  }),
  tool({
    name: 'create_product',
    title: 'Create a product',
    description:
      "Creates an active product in the merchant's catalog and, given a price, its plan (what buyers pay: one-time, or every interval for a recurring product), " +
      'both at once: a refusal creates neither. Answers the product and the plan (null without a price).',
    scope: 'product:create',
    arguments: createProductArguments,
    annotations: creates,
    call: async ({ price, ...fields }, { merchant }) =>
      price
        ? createProductWithPlan(merchant.id, fields, (product) =>
            v.parse(createPlanRequest, {
              name: product.name,
              currency: price.currency,
              productId: product.id,
              pricing: { price: price.amount, formula: 'fixed-fee' },
              recurringInterval: price.interval ?? null,
            }),
          )
        : { product: await createProduct(merchant.id, fields), plan: null },
  }),
  tool({
    name: 'list_products',
    title: 'List products',
    description: "Lists the merchant's products, newest first, filtered by words in the name or description, status and type; one page at a time.",
    scope: 'product:read',
    arguments: listProductsArguments,
    annotations: readOnly,
    call: (args, { merchant }) => listMerchantProducts(merchant.id, args),
  }),
  tool({
    name: 'create_order',
    title: 'Create an order',
    description:
      "Creates an immutable order — lines of the merchant's plans or custom lines, in one currency — and answers it with its hosted checkout URL, " +
      'the page where the buyer pays. With idempotencyKey, calling again with the same key answers the same order.',
    scope: 'checkout:write',
    arguments: createOrderArguments,
    annotations: creates,
    call: async ({ idempotencyKey, ...order }, { merchant }) => {
      const created = await createOrder(merchant, order, idempotencyKey);
      return { order: created.order, checkoutUrl: checkoutUrlOf(created.order.id), replayed: created.replayed };
    },
  }),
  tool({
    name: 'create_product_image_upload',
    title: 'Start a product image upload',
    description: 'Answers a presigned URL to PUT a PNG, JPEG or WebP image of at most 5 MB for a product; confirm_product_image then attaches it.',
    scope: 'product:create',
    arguments: createProductImageUploadArguments,
    annotations: creates,
    call: ({ productId, contentType, contentLength }, { merchant }) =>
      createProductImageUpload(merchant.id, productId, { contentType, sizeBytes: contentLength }),
  }),
  tool({
    name: 'confirm_product_image',
    title: 'Attach an uploaded product image',
    description: "Checks an uploaded image (its size and real image signature) and attaches it to the product's images, shown at checkout.",
    scope: 'product:create',
    arguments: confirmProductImageArguments,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    call: ({ productId, uploadId }, { merchant }) => confirmProductImage(merchant.id, productId, uploadId),
  }),
  tool({
    name: 'get_checkout_customization',
    title: 'Read the checkout customization',
    description: "Answers how the merchant's hosted checkout looks: display name, brand and accent colours, logo.",
    scope: 'checkout:read',
    arguments: noArguments,
    annotations: readOnly,
    call: async (_, { merchant }) => ({ ...(await getCheckoutCustomization(merchant.id)) }),
  }),
  tool({
    name: 'update_checkout_customization',
    title: 'Change the checkout customization',
    description:
      "Changes the hosted checkout's display name and colours (#RRGGBB). The pay button's text is white on the brand colour, " +
      'so a brand colour under 4.5:1 contrast against white is refused (WCAG AA).',
    scope: 'checkout:write',
    arguments: updateCheckoutCustomizationArguments,
    annotations: replaces,
    call: async (args, { merchant }) => ({ ...(await updateCheckoutCustomization(merchant.id, args)) }),
  }),
  tool({
    name: 'set_checkout_logo',
    title: 'Set the checkout logo',
    description: "Replaces the hosted checkout's logo with a PNG, JPEG or WebP image of at most 512 KB, sent as base64 (no SVG).",
    scope: 'checkout:write',
    arguments: setCheckoutLogoArguments,
    annotations: replaces,
    call: async ({ contentType, dataBase64 }, { merchant }) => ({ ...(await setCheckoutLogo(merchant.id, { contentType, data: dataBase64 })) }),
  }),
];

/** The tools by name. */
export const toolsByName: ReadonlyMap<string, AgentTool> = new Map(agentTools.map((t) => [t.name, t]));

/**
 * The roles a person needs on the merchant to call `t`: any member for a tool that only reads; owner or admin for one
 * that changes the merchant, as in the dashboard, where a member changes nothing but their own tokens.
 */
export const rolesFor = (t: AgentTool): readonly Role[] | null => (t.annotations.readOnlyHint ? null : managers);

/** Throws the refusal of a person whose role on the merchant may not call `t`. */
export function assertRole(t: AgentTool, context: ToolContext): void {
  const roles = rolesFor(t);
  if (roles && !roles.includes(context.role)) throw new ForbiddenError(`This needs the role ${roles.join(' or ')} on this merchant.`);
}
