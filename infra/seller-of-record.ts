/**
 * The platform as seller of record on each stage's invoices: the legal entity, its address, phone and tax number.
 * Part of each stage's configuration (`StageConfig.sellerOfRecord`, infra/config.ts); kept apart from it, free of
 * the CDK, because the local stack gives its functions the same values for the stage it runs as.
 *
 * Sandbox invoices name the same legal entity as live ones, without the support phone line: they are test
 * invoices, and nobody should call about them.
 */
import type { Stage } from '../shared/domain/deployments.ts';
import type { SellerOfRecord } from '../shared/platform/seller-of-record.ts';

const legalEntity = {
  name: 'MoR Payments Platform Ltd',
  address: '10 Ledger Street',
  city: 'London',
  zip: 'EC2A 4BX',
  state: null,
  country: 'GB',
  taxNumber: { type: 'vat', value: 'GB123456789' },
} as const;

const sellers: Record<Stage, SellerOfRecord> = {
  sandbox: { ...legalEntity, phoneNumber: null },
  live: { ...legalEntity, phoneNumber: '+44 20 7946 0958' },
};

/** The seller of record on the invoices of `stage`. */
export const sellerOfRecordFor = (stage: Stage): SellerOfRecord => sellers[stage];
