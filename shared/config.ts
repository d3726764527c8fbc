/**
 * Runtime configuration of a function, read once per cold start from its environment.
 * The CDK stack sets these for deployed functions; the local stack sets them for local ones.
 */
export type Stage = 'sandbox' | 'live';
/** The mode a key, token or session is bound to: `test` on sandbox, `live` on live. */
export type Mode = 'test' | 'live';

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

export const modeOfStage = (s: Stage): Mode => (s === 'live' ? 'live' : 'test');

export const config = {
  get tableName() { return requiredEnv('TABLE_NAME'); },
  get stage() { return stage(); },
  get mode() { return modeOfStage(stage()); },
  /** Base URL of the dashboard, where people open join links. */
  get dashboardUrl() { return requiredEnv('DASHBOARD_URL').replace(/\/$/, ''); },
  /**
   * Local development only: also accept `http://127.0.0.1:<port>` and `http://localhost:<port>` webhook
   * receivers. Deployed stacks never set WEBHOOK_ALLOW_LOOPBACK.
   */
  get webhookAllowLoopback() { return process.env.WEBHOOK_ALLOW_LOOPBACK === '1'; },
};
