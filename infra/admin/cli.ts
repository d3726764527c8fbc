/**
 * Operator CLI: `npm run admin -- <command> [flags]`.
 *
 *   create-merchant --name <name> --owner-email <email> --owner-password <pw> [--mode test|live]
 *                   [--stage sandbox|live] [--json]
 *
 * Without --stage it works on the running local stack (`npm start`); with --stage it works on that deployed
 * stage's table, with the AWS credentials and region of the environment.
 */
import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { email } from '../../shared/schemas/common.ts';
import { modeOfStage, type Mode, type Stage } from '../../shared/config.ts';
import { applyEnv, localEnv, settingsFromEnv } from '../local/settings.ts';
import { tableNameFor } from '../config.ts';

const usage = `Usage: npm run admin -- create-merchant --name <name> --owner-email <email> --owner-password <password>
                        [--mode test|live] [--stage sandbox|live] [--json]`;

const createMerchantArgs = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200)),
  'owner-email': email,
  'owner-password': v.pipe(v.string(), v.minLength(12, 'must be at least 12 characters'), v.maxLength(128)),
  mode: v.optional(v.picklist(['test', 'live'], 'must be test or live')),
  stage: v.optional(v.picklist(['sandbox', 'live'], 'must be sandbox or live')),
  json: v.optional(v.boolean()),
});

/** Point this process at the chosen deployment before any module that talks to DynamoDB is loaded. */
function target(stage: Stage | undefined): void {
  if (stage) {
    Object.assign(process.env, { STAGE: stage, TABLE_NAME: tableNameFor(stage) });
  } else {
    applyEnv(localEnv(settingsFromEnv()));
  }
}

async function createMerchant(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      name: { type: 'string' }, 'owner-email': { type: 'string' }, 'owner-password': { type: 'string' },
      mode: { type: 'string' }, stage: { type: 'string' }, json: { type: 'boolean' },
    },
  });
  const parsed = v.safeParse(createMerchantArgs, values);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new Error(`--${v.getDotPath(issue)} ${issue.received === 'undefined' ? 'is required' : issue.message}\n${usage}`);
  }
  const args = parsed.output;
  target(args.stage);
  const stage = (process.env.STAGE ?? 'sandbox') as Stage;
  const mode: Mode = args.mode ?? modeOfStage(stage);
  const { createRootMerchant } = await import('../../shared/services/merchants.ts');
  const result = await createRootMerchant({ name: args.name, ownerEmail: args['owner-email'], ownerPassword: args['owner-password'], mode });
  if (args.json) {
    console.log(JSON.stringify(result));
  } else {
    console.log(`Created merchant ${result.merchantId} (owner ${result.ownerUserId}).`);
    console.log(`API key (shown once, store it now): ${result.apiKey}`);
  }
}

const commands: Record<string, (argv: string[]) => Promise<void>> = { 'create-merchant': createMerchant };

const [command, ...rest] = process.argv.slice(2);
const run = command ? commands[command] : undefined;
if (!run) {
  console.error(usage);
  process.exit(2);
}
try {
  await run(rest);
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
}
