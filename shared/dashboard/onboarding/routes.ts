/**
 * A merchant's onboarding form: who the platform, the seller of record, sells for. Every member sees it (and, once
 * submitted, what was submitted); an owner submits it, once, as an owner account does through the organization API.
 */
import { htmlPage } from '../../platform/http/schemas/common.ts';
import type { RouteDef } from '../../platform/http/route-def.ts';
import { doneQuery } from '../pages.schemas.ts';
import { onboardingFormBody } from './onboarding.schemas.ts';

export const onboardingPage = {
  face: 'page',
  name: 'dashboard-onboarding',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/onboarding',
  handler: 'functions/dashboard/onboarding/onboarding.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: doneQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: "A merchant's onboarding form (its hosted onboarding form), or what was submitted once it is.",
} as const satisfies RouteDef;

export const onboardingForm = {
  face: 'page',
  name: 'dashboard-onboarding-form',
  method: 'POST',
  path: '/dashboard/merchants/{merchantId}/onboarding',
  handler: 'functions/dashboard/onboarding/onboarding-form.ts',
  auth: 'session',
  group: 'pages',
  table: 'readWrite',
  roles: ['owner'],
  body: onboardingFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  summary:
    "Submit the onboarding form (owners), checked by the organization API's onboarding rules: the home page, or the form again with each problem beside its field.",
} as const satisfies RouteDef;
