/**
 * The payment methods an organization can use: what the deployment's processor takes. Every organization of a
 * deployment shares its processor, so the answer does not depend on the organization; a deployment without a
 * processor (live, for now) answers empty lists rather than an error.
 */
import { config } from '../platform/config.ts';
import { type Processor, ProcessorUnavailableError, processorFor } from '../processor/index.ts';

export function availablePaymentMethods(_organizationId: string) {
  let processor: Processor;
  try {
    processor = processorFor(config.stage);
  } catch (e) {
    if (e instanceof ProcessorUnavailableError) return { data: { paymentMethods: [], creditCardBrand: [] } };
    throw e;
  }
  return {
    data: {
      paymentMethods: [...processor.paymentMethods],
      creditCardBrand: processor.paymentMethods.includes('payment-card') ? [...processor.acceptedBrands] : [],
    },
  };
}
