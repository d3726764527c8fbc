/**
 * Runtime configuration of a function, read from its environment when asked for.
 * The CDK stack sets these for deployed functions; the local stack sets them for local ones.
 */
import { modeOfStage, type Stage } from '../domain/deployments.ts';

/** The environment variable `name`; a function cannot run without it, so its absence is an error. */
export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}

function stage(): Stage {
  const value = requiredEnv('STAGE');
  if (value !== 'sandbox' && value !== 'live') throw new Error(`STAGE must be sandbox or live, not ${value}`);
  return value;
}

export const config = {
  get tableName() {
    return requiredEnv('TABLE_NAME');
  },
  get stage() {
    return stage();
  },
  get mode() {
    return modeOfStage(stage());
  },
  /**
   * scrypt's cost for new password and account-secret hashes, as log2 of N: 15 (N = 32,768). Only a local stack may
   * lower it (`PASSWORD_HASH_COST`, 10 to 15; the test run hashes at 10); a deployed function carrying the setting is
   * refused at synth. Every hash keeps its own N, so a hash verifies whatever the setting is when it is checked.
   */
  get passwordHashCost() {
    const value = process.env.PASSWORD_HASH_COST;
    if (value === undefined || value === '') return 15;
    const cost = Number(value);
    if (!Number.isInteger(cost) || cost < 10 || cost > 15) throw new Error(`PASSWORD_HASH_COST must be an integer from 10 to 15, not ${value}`);
    return cost;
  },
  /** Base URL of the dashboard, where people open join links. */
  get dashboardUrl() {
    return requiredEnv('DASHBOARD_URL').replace(/\/$/, '');
  },
  /**
   * The deployment's public origin (`https://host`, no path): where its dashboard, its OAuth authorization server
   * and its MCP endpoint are served; the issuer of its OAuth tokens and the origin of the MCP resource.
   */
  get publicOrigin() {
    return new URL(requiredEnv('DASHBOARD_URL')).origin;
  },
  /**
   * Local development only: also accept `http://127.0.0.1:<port>` and `http://localhost:<port>` webhook
   * receivers. Deployed stacks never set WEBHOOK_ALLOW_LOOPBACK.
   */
  get webhookAllowLoopback() {
    return process.env.WEBHOOK_ALLOW_LOOPBACK === '1';
  },
  /**
   * The function runs on the local stack (`MOR_LOCAL=1`, which `npm start` and the tests set and deployed stacks never
   * do): plain-HTTP loopback origins, path-style S3 addresses, no HSTS. The one place the switch is read.
   */
  get localStack() {
    return process.env.MOR_LOCAL === '1';
  },
};
