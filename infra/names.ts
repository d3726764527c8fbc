/**
 * The names a stage's resources are derived from, without the CDK: what an operator tool imports to find a
 * stage's table (`tableNameFor`) while `infra/config.ts` builds the stacks' whole configuration from them.
 */
import type { Stage } from '../shared/domain/deployments.ts';

/** Short name of the platform: the first part of every resource name. */
export const service = 'mor';

/** Prefix of every physical resource name of a stage: `mor-sandbox`, `mor-live`. */
export const namePrefixFor = (stage: Stage): string => `${service}-${stage}`;

/** The single table of a stage: `mor-sandbox-main`, `mor-live-main`. */
export const tableNameFor = (stage: Stage): string => `${namePrefixFor(stage)}-main`;
