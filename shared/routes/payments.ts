/**
 * The payments part of the organization face (`Authorization: ApiKey …`): card tokens and the processor,
 * hosted fields, the production tokenization host, customers and the account's webhook destinations.
 * Each part keeps its routes under its own heading.
 */
import { faceRoutes } from './types.ts';

export const paymentRoutes = faceRoutes('organization', {
});
