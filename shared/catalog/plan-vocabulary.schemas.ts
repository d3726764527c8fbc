/**
 * The plan vocabulary other modules' schemas, items and rules are written in, and the shape check their schemas
 * apply (pure: no service behind them), apart from the plan schemas: a module that only names an interval unit or a
 * pricing formula does not carry the plan routes' schemas.
 */
export {
  anchorMethods,
  planShapeIssues,
  billingTimings,
  intervalUnits,
  pricingFormulas,
  productTypes,
  type IntervalUnit,
  type PeriodAnchorInstruction,
  type PricingFormula,
} from './plans.rules.ts';
