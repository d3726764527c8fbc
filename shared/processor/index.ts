/**
 * The processor module's front door (the card processor port, its registry and the sandbox processor): all that
 * other modules may use of it, besides its *.schemas.ts (the pure door: schemas and the value lists they are written
 * in).
 */
export { cardFingerprint } from './fingerprint.ts';
export { alphanumericId } from './ids.ts';
export type { ChargeResult, DeclineCode, Processor, RefundProcessor, RefundResult } from './processor.ts';
export { hasProcessor, processorFor, ProcessorUnavailableError, refundProcessorFor } from './registry.ts';
export { setSandboxCardBehaviour } from './sandbox-processor.ts';
