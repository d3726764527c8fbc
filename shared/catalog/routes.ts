import { planNotFound, productImageUploadNotFound, productNotFound, promoCodeNotFound } from '../domain/unknown-ids.ts';
import type { RouteDef } from '../platform/http/route-def.ts';
import { createPlanRequest, listPlansQuery, planListResponse, planResponse, updatePlanRequest } from './plans.schemas.ts';
import {
  createProductRequest,
  deleteProductResponse,
  listProductsQuery,
  merchantProductListQuery,
  productListResponse,
  productResponse,
  publicApiProduct,
  publicApiProductListResponse,
  updateProductRequest,
} from './products.schemas.ts';
import { createProductImageUploadRequest, productImageUploadResponse } from './product-images.schemas.ts';
import { createPromoCodeRequest, listPromoCodesQuery, promoCodeListResponse, promoCodeResponse, updatePromoCodeRequest } from './promo-codes.schemas.ts';

export const listMerchantProducts = {
  face: 'merchant',
  name: 'merchant-products-list',
  method: 'GET',
  path: '/api/v1/public-api/merchants/{merchantId}/products',
  handler: 'functions/catalog/products/list-merchant-products.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  query: merchantProductListQuery,
  status: 200,
  response: publicApiProductListResponse,
  summary: "List the merchant's products, newest first (filters q, status, type, dateRangeStart/End; page ≥ 1, limit 1..100).",
} as const satisfies RouteDef;

export const listProducts = {
  face: 'organization',
  name: 'products-list',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/products',
  handler: 'functions/catalog/products/list-products.ts',
  auth: 'orgApiKey',
  group: 'catalog',
  table: 'read',
  query: listProductsQuery,
  status: 200,
  response: productListResponse,
  summary: "List the organization's products (paged, sorted by createdAt or updatedAt, searchable).",
} as const satisfies RouteDef;

export const createProduct = {
  face: 'organization',
  name: 'products-create',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/products',
  handler: 'functions/catalog/products/create-product.ts',
  auth: 'orgApiKey',
  group: 'catalog',
  table: 'readWrite',
  body: createProductRequest,
  status: 201,
  response: productResponse,
  summary: 'Create an active product.',
} as const satisfies RouteDef;

export const getProduct = {
  face: 'organization',
  name: 'products-get',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/products/{productId}',
  handler: 'functions/catalog/products/get-product.ts',
  auth: 'orgApiKey',
  group: 'catalog',
  table: 'read',
  status: 200,
  response: productResponse,
  unknownId: productNotFound,
  summary: "Read one of the organization's products.",
} as const satisfies RouteDef;

export const updateProduct = {
  face: 'organization',
  name: 'products-update',
  method: 'PATCH',
  path: '/api/v1/public-api/organizations/{organizationId}/products/{productId}',
  handler: 'functions/catalog/products/update-product.ts',
  auth: 'orgApiKey',
  group: 'catalog',
  table: 'readWrite',
  body: updateProductRequest,
  status: 200,
  response: productResponse,
  unknownId: productNotFound,
  summary: 'Change the given fields of a product (its type only while it has no plans).',
} as const satisfies RouteDef;

export const deleteProduct = {
  face: 'organization',
  name: 'products-delete',
  method: 'DELETE',
  path: '/api/v1/public-api/organizations/{organizationId}/products/{productId}',
  handler: 'functions/catalog/products/delete-product.ts',
  auth: 'orgApiKey',
  group: 'catalog',
  table: 'readWrite',
  status: 200,
  response: deleteProductResponse,
  unknownId: productNotFound,
  summary: 'Delete a product without plans ({success: true}); archive one with plans (the archived product).',
} as const satisfies RouteDef;

// Plans and promo codes
export const listPlans = {
  face: 'organization',
  name: 'plans-list',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/plans',
  handler: 'functions/catalog/plans/list-plans.ts',
  auth: 'orgApiKey',
  group: 'catalog',
  table: 'read',
  query: listPlansQuery,
  status: 200,
  response: planListResponse,
  summary: "List the organization's plans (paged, sorted by createdAt or updatedAt, searchable by name).",
} as const satisfies RouteDef;

export const createPlan = {
  face: 'organization',
  name: 'plans-create',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/plans',
  handler: 'functions/catalog/plans/create-plan.ts',
  auth: 'orgApiKey',
  group: 'catalog',
  table: 'readWrite',
  body: createPlanRequest,
  status: 201,
  response: planResponse,
  summary: 'Create a plan (revision 1) on an active product of the organization.',
} as const satisfies RouteDef;

export const getPlan = {
  face: 'organization',
  name: 'plans-get',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/plans/{planId}',
  handler: 'functions/catalog/plans/get-plan.ts',
  auth: 'orgApiKey',
  group: 'catalog',
  table: 'read',
  status: 200,
  response: planResponse,
  unknownId: planNotFound,
  summary: "Read one of the organization's plans.",
} as const satisfies RouteDef;

export const updatePlan = {
  face: 'organization',
  name: 'plans-update',
  method: 'PATCH',
  path: '/api/v1/public-api/organizations/{organizationId}/plans/{planId}',
  handler: 'functions/catalog/plans/update-plan.ts',
  auth: 'orgApiKey',
  group: 'catalog',
  table: 'readWrite',
  body: updatePlanRequest,
  status: 200,
  response: planResponse,
  unknownId: planNotFound,
  summary: 'Change the given fields of a plan; its revision grows by one (409 when another update won).',
} as const satisfies RouteDef;

export const listPromoCodes = {
  face: 'organization',
  name: 'promo-codes-list',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/promo-codes',
  handler: 'functions/catalog/promo-codes/list-promo-codes.ts',
  auth: 'orgApiKey',
  group: 'catalog',
  table: 'read',
  query: listPromoCodesQuery,
  status: 200,
  response: promoCodeListResponse,
  summary: "List the organization's promo codes (paged, sorted by createdAt or updatedAt, searchable by code).",
} as const satisfies RouteDef;

export const createPromoCode = {
  face: 'organization',
  name: 'promo-codes-create',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/promo-codes',
  handler: 'functions/catalog/promo-codes/create-promo-code.ts',
  auth: 'orgApiKey',
  group: 'catalog',
  table: 'readWrite',
  body: createPromoCodeRequest,
  status: 201,
  response: promoCodeResponse,
  summary: 'Create a promo code (its code unique in the organization regardless of case).',
} as const satisfies RouteDef;

export const getPromoCode = {
  face: 'organization',
  name: 'promo-codes-get',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/promo-codes/{promoCodeId}',
  handler: 'functions/catalog/promo-codes/get-promo-code.ts',
  auth: 'orgApiKey',
  group: 'catalog',
  table: 'read',
  status: 200,
  response: promoCodeResponse,
  unknownId: promoCodeNotFound,
  summary: "Read one of the organization's promo codes.",
} as const satisfies RouteDef;

export const updatePromoCode = {
  face: 'organization',
  name: 'promo-codes-update',
  method: 'PATCH',
  path: '/api/v1/public-api/organizations/{organizationId}/promo-codes/{promoCodeId}',
  handler: 'functions/catalog/promo-codes/update-promo-code.ts',
  auth: 'orgApiKey',
  group: 'catalog',
  table: 'readWrite',
  body: updatePromoCodeRequest,
  status: 200,
  response: promoCodeResponse,
  unknownId: promoCodeNotFound,
  summary: 'Change whether a promo code is active, its expiry, its redemption cap or its plans.',
} as const satisfies RouteDef;

export const createProductImageUpload = {
  face: 'merchant',
  name: 'merchant-product-image-uploads-create',
  method: 'POST',
  path: '/api/v1/public-api/merchants/{merchantId}/products/{productId}/images/uploads',
  handler: 'functions/catalog/products/create-image-upload.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  imageStorage: 'write',
  body: createProductImageUploadRequest,
  status: 201,
  response: productImageUploadResponse,
  unknownId: productNotFound,
  summary: 'A presigned PUT (15 minutes) for one PNG, JPEG or WebP image of the product, of the exact size given (at most 5 MiB).',
} as const satisfies RouteDef;

export const confirmProductImage = {
  face: 'merchant',
  name: 'merchant-product-images-confirm',
  method: 'POST',
  path: '/api/v1/public-api/merchants/{merchantId}/products/{productId}/images/uploads/{uploadId}/confirm',
  handler: 'functions/catalog/products/confirm-image.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  imageStorage: 'write',
  status: 200,
  response: publicApiProduct,
  unknownId: (parameter) => (parameter === 'productId' ? productNotFound() : productImageUploadNotFound()),
  summary: "Check an uploaded image (size and file signature) and attach it to the product's images; a refused file is deleted.",
} as const satisfies RouteDef;
