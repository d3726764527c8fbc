/**
 * Runtime configuration of a function, read once per cold start from its environment.
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
  /** Base URL of the dashboard, where people open join links. */
  get dashboardUrl() {
    return requiredEnv('DASHBOARD_URL').replace(/\/$/, '');
  },
  /**
   * Local development only: also accept `http://127.0.0.1:<port>` and `http://localhost:<port>` webhook
   * receivers. Deployed stacks never set WEBHOOK_ALLOW_LOOPBACK.
   */
  get webhookAllowLoopback() {
    return process.env.WEBHOOK_ALLOW_LOOPBACK === '1';
  },
};
