/**
 * The pointer from the processor's id of a charge (`pay_…`) to its transaction (`EXTERNALTRANSACTION#<externalId>` /
 * `EXTERNALTRANSACTION`), written when the processor's answer is recorded: legacy receipt ids resolve through it.
 */
import * as v from 'valibot';
import { entity } from '../platform/db/entity.ts';

export interface ExternalTransactionReference {
  /** The processor's id of the charge. */
  externalTransactionId: string;
  organizationId: string;
  transactionId: string;
}

const PARTITION = 'EXTERNALTRANSACTION#';

/** The processor's id of a charge (`pay_…`) → its transaction: legacy receipt ids resolve through it. */
export const externalTransaction = (externalId: string) => ({ pk: `${PARTITION}${externalId}`, sk: 'EXTERNALTRANSACTION' });

export const ExternalTransactionEntity = entity<ExternalTransactionReference, { externalTransactionId: string }>({
  kind: 'externalTransaction',
  // The processor's id is read from the key: pointers were first written without it beside the key.
  schema: v.pipe(
    v.object({ pk: v.string(), organizationId: v.string(), transactionId: v.string() }),
    v.transform(({ pk, ...pointer }) => ({ externalTransactionId: pk.slice(PARTITION.length), ...pointer })),
  ),
  key: (r) => externalTransaction(r.externalTransactionId),
});
