/**
 * The dashboard's way in and its shared assets: the stylesheet and script every page loads, sign in, sign up, sign
 * out, the merchant switcher, and the join page that join links open.
 */
import { DASHBOARD_SCRIPT } from '../../platform/http/browser-scripts.ts';
import { htmlPage, linkQuery, textAsset } from '../../platform/http/schemas/common.ts';
import { emailVerificationLinkInvalid, joinLinkInvalid, passwordResetLinkInvalid } from '../../domain/unknown-ids.ts';
import type { RouteDef } from '../../platform/http/route-def.ts';
import { doneQuery } from '../pages.schemas.ts';
import {
  joinFormBody,
  merchantsFormBody,
  newPasswordFormBody,
  passwordResetFormBody,
  signInFormBody,
  signInPageQuery,
  signOutFormBody,
  signUpFormBody,
  signUpPageQuery,
  verifyEmailFormBody,
} from './access.schemas.ts';
import { BASE_STYLESHEET_FILE } from '../../platform/http/stylesheets.ts';

export const dashboardStylesheet = {
  face: 'page',
  name: 'dashboard-stylesheet',
  method: 'GET',
  path: '/dashboard/assets/dashboard.css',
  handler: 'functions/dashboard/access/stylesheet.ts',
  auth: 'none',
  group: 'pages',
  table: 'none',
  status: 200,
  contentType: 'text/css',
  response: textAsset,
  assets: [BASE_STYLESHEET_FILE, 'shared/dashboard/dashboard.css'],
  summary: "The dashboard pages' stylesheet.",
} as const satisfies RouteDef;

export const dashboardScript = {
  face: 'page',
  name: 'dashboard-script',
  method: 'GET',
  path: '/dashboard/assets/dashboard.js',
  handler: 'functions/dashboard/access/script.ts',
  auth: 'none',
  group: 'pages',
  table: 'none',
  status: 200,
  contentType: 'text/javascript',
  response: textAsset,
  // Bundled ahead from shared/dashboard/browser/dashboard.ts (infra/browser-scripts.ts) and read at run time.
  assets: [DASHBOARD_SCRIPT],
  summary: "The dashboard pages' script: copy buttons, confirmations, local times, the checkout preview.",
} as const satisfies RouteDef;

export const signInPage = {
  face: 'page',
  name: 'dashboard-sign-in',
  method: 'GET',
  path: '/dashboard/sign-in',
  handler: 'functions/dashboard/access/sign-in.ts',
  auth: 'none',
  group: 'pages',
  table: 'none',
  query: signInPageQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: 'The sign-in page.',
} as const satisfies RouteDef;

export const signInForm = {
  face: 'page',
  name: 'dashboard-sign-in-form',
  method: 'POST',
  path: '/dashboard/sign-in',
  handler: 'functions/dashboard/access/sign-in-form.ts',
  auth: 'none',
  group: 'pages',
  table: 'readWrite',
  body: signInFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  summary: 'Sign in: a session cookie and a redirect to the page asked for, or the form again with what is wrong.',
} as const satisfies RouteDef;

export const signUpPage = {
  face: 'page',
  name: 'dashboard-sign-up',
  method: 'GET',
  path: '/dashboard/sign-up',
  handler: 'functions/dashboard/access/sign-up.ts',
  auth: 'none',
  group: 'pages',
  table: 'none',
  query: signUpPageQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: 'The sign-up page.',
} as const satisfies RouteDef;

export const signUpForm = {
  face: 'page',
  name: 'dashboard-sign-up-form',
  method: 'POST',
  path: '/dashboard/sign-up',
  handler: 'functions/dashboard/access/sign-up-form.ts',
  auth: 'none',
  group: 'pages',
  table: 'readWrite',
  body: signUpFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  sendsMail: true,
  summary: 'Create an account (a link to confirm its address is mailed) and sign in, or the form again with what is wrong.',
} as const satisfies RouteDef;

export const passwordResetPage = {
  face: 'page',
  name: 'dashboard-password-reset',
  method: 'GET',
  path: '/dashboard/password-reset',
  handler: 'functions/dashboard/access/password-reset.ts',
  auth: 'none',
  group: 'pages',
  table: 'none',
  query: linkQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: 'Forgot your password: the form that asks for a reset link by e-mail.',
} as const satisfies RouteDef;

export const passwordResetForm = {
  face: 'page',
  name: 'dashboard-password-reset-form',
  method: 'POST',
  path: '/dashboard/password-reset',
  handler: 'functions/dashboard/access/password-reset-form.ts',
  auth: 'none',
  group: 'pages',
  table: 'readWrite',
  body: passwordResetFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  sendsMail: true,
  summary:
    'Asks for a reset link by e-mail: the same answer, after the same time, whether or not the address has an account (throttled per address and source).',
} as const satisfies RouteDef;

export const newPasswordPage = {
  face: 'page',
  name: 'dashboard-new-password',
  method: 'GET',
  path: '/dashboard/password-reset/{token}',
  handler: 'functions/dashboard/access/new-password.ts',
  auth: 'none',
  group: 'pages',
  table: 'read',
  query: linkQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  unknownId: passwordResetLinkInvalid,
  summary: "A reset link's page: the new password's form (opening it spends nothing).",
} as const satisfies RouteDef;

export const newPasswordForm = {
  face: 'page',
  name: 'dashboard-new-password-form',
  method: 'POST',
  path: '/dashboard/password-reset/{token}',
  handler: 'functions/dashboard/access/new-password-form.ts',
  auth: 'none',
  group: 'pages',
  table: 'readWrite',
  body: newPasswordFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  unknownId: passwordResetLinkInvalid,
  summary: "Sets the new password with a reset link, spending it, and ends the person's sessions: the sign-in page, or the form again with what is wrong.",
} as const satisfies RouteDef;

export const verifyEmailPage = {
  face: 'page',
  name: 'dashboard-verify-email',
  method: 'GET',
  path: '/dashboard/verify-email/{token}',
  handler: 'functions/dashboard/access/verify-email.ts',
  auth: 'none',
  group: 'pages',
  table: 'read',
  query: linkQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  unknownId: emailVerificationLinkInvalid,
  summary: "An e-mail verification link's page: the address and the button that confirms it (opening it spends nothing).",
} as const satisfies RouteDef;

export const verifyEmailForm = {
  face: 'page',
  name: 'dashboard-verify-email-form',
  method: 'POST',
  path: '/dashboard/verify-email/{token}',
  handler: 'functions/dashboard/access/verify-email-form.ts',
  auth: 'none',
  group: 'pages',
  table: 'readWrite',
  body: verifyEmailFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  status: 303,
  contentType: 'text/html',
  response: null,
  unknownId: emailVerificationLinkInvalid,
  summary: 'Confirms the address with a verification link, spending it: the merchant switcher (through sign-in when signed out), saying so.',
} as const satisfies RouteDef;

export const signOutForm = {
  face: 'page',
  name: 'dashboard-sign-out',
  method: 'POST',
  path: '/dashboard/sign-out',
  handler: 'functions/dashboard/access/sign-out.ts',
  auth: 'session',
  group: 'pages',
  table: 'readWrite',
  body: signOutFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  status: 303,
  contentType: 'text/html',
  response: null,
  summary: 'Sign out: the session ends and its cookie is cleared.',
} as const satisfies RouteDef;

export const merchantsPage = {
  face: 'page',
  name: 'dashboard-merchants',
  method: 'GET',
  path: '/dashboard',
  handler: 'functions/dashboard/access/merchants.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: doneQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: 'The merchant switcher: the merchants the signed-in person is a member of, with their roles.',
} as const satisfies RouteDef;

export const merchantsForm = {
  face: 'page',
  name: 'dashboard-merchants-form',
  method: 'POST',
  path: '/dashboard',
  handler: 'functions/dashboard/access/merchants-form.ts',
  auth: 'session',
  group: 'pages',
  table: 'readWrite',
  body: merchantsFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  sendsMail: true,
  summary:
    'Open your own merchant (sandbox): its name and country; you become its owner. Its home page, or the switcher with what is wrong. Or mail a new link to confirm your e-mail address.',
} as const satisfies RouteDef;

export const joinPage = {
  face: 'page',
  name: 'dashboard-join',
  method: 'GET',
  path: '/join/{token}',
  handler: 'functions/dashboard/access/join.ts',
  auth: 'none',
  group: 'pages',
  table: 'read',
  query: linkQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  unknownId: joinLinkInvalid,
  summary: 'The page a join link or a team invitation opens: sign up or sign in, then claim the merchant or join its team.',
} as const satisfies RouteDef;

export const joinForm = {
  face: 'page',
  name: 'dashboard-join-form',
  method: 'POST',
  path: '/join/{token}',
  handler: 'functions/dashboard/access/join-form.ts',
  auth: 'session',
  group: 'pages',
  table: 'readWrite',
  body: joinFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  status: 303,
  contentType: 'text/html',
  response: null,
  unknownId: joinLinkInvalid,
  summary:
    "Claim the merchant of a join link, or accept a team invitation (signed in as the person invited): the merchant's home page, or the same page for every link that cannot be claimed or accepted.",
} as const satisfies RouteDef;

export const unknownDashboardPage = {
  face: 'page',
  name: 'dashboard-not-found',
  method: 'GET',
  path: '/dashboard/{path+}',
  handler: 'functions/dashboard/access/not-found.ts',
  auth: 'none',
  group: 'pages',
  table: 'none',
  query: linkQuery,
  status: 404,
  contentType: 'text/html',
  response: htmlPage,
  summary: "Any other address under /dashboard: the dashboard's 404 page (its look, its CSP), never a bare JSON 404.",
} as const satisfies RouteDef;
