/**
 * The processor registry: which processor adapter a deployment charges through (the port is
 * shared/processor/processor.ts). The live deployment has no real processor configured, so `processorFor('live')`
 * refuses with 503 `payments.processor_unavailable`: it never pretends a card was vaulted or charged.
 */
import type { Stage } from '../domain/deployments.ts';
import { DomainError } from '../domain/errors.ts';
import type { Processor, RefundProcessor } from './processor.ts';
import { sandboxProcessor } from './sandbox-processor.ts';
import { sandboxRefundProcessor } from './sandbox-refunds.ts';

/**
 * Local only: lets a local `live` stack vault and charge with the sandbox processor, so the live-only parts
 * (the tokenization host) can be exercised on one machine. Deployed stacks refuse this setting.
 */
export const LIVE_SANDBOX_PROCESSOR_SETTING = 'LIVE_USES_SANDBOX_PROCESSOR';

/** 503: the deployment has no processor to vault or charge with. */
export class ProcessorUnavailableError extends DomainError {
  constructor() {
    super(503, 'payments.processor_unavailable', 'No payment processor is configured for this deployment, so cards cannot be tokenized or charged.');
  }
}

/**
 * The processor of the `stage` deployment: the sandbox processor on sandbox; on live, none is configured yet,
 * so it throws 503 `payments.processor_unavailable` (unless a local stack set `LIVE_USES_SANDBOX_PROCESSOR=1`).
 */
export function processorFor(stage: Stage, env: Readonly<Record<string, string | undefined>> = process.env): Processor {
  if (usesSandbox(stage, env)) return sandboxProcessor;
  throw new ProcessorUnavailableError();
}

/** The refunds of `processorFor(stage, env)`'s processor (the same refusal where there is none). */
export function refundProcessorFor(stage: Stage, env: Readonly<Record<string, string | undefined>> = process.env): RefundProcessor {
  if (usesSandbox(stage, env)) return sandboxRefundProcessor;
  throw new ProcessorUnavailableError();
}

const usesSandbox = (stage: Stage, env: Readonly<Record<string, string | undefined>>): boolean =>
  stage === 'sandbox' || (env[LIVE_SANDBOX_PROCESSOR_SETTING] === '1' && env.MOR_LOCAL === '1');

/** Whether the `stage` deployment has a processor to charge with (the live deployment, for now, has none). */
export const hasProcessor = (stage: Stage, env: Readonly<Record<string, string | undefined>> = process.env): boolean => usesSandbox(stage, env);
