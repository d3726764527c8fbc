/** The processor module's front door: what other modules may use (the card processor port, its registry and the sandbox processor). */
export { cardFingerprint } from './fingerprint.ts';
export { alphanumericId } from './ids.ts';
export type { ChargeResult, DeclineCode, Processor, RefundResult } from './processor.ts';
export { hasProcessor, processorFor, ProcessorUnavailableError } from './registry.ts';
export { setSandboxCardBehaviour } from './sandbox-processor.ts';
