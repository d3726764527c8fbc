import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../../shared/domain/errors.ts';
import {
  assertPlanShape,
  currencySign,
  nextRevision,
  planShapeIssues,
  unknownProductOptions,
  type PlanShape,
  type RecurringInterval,
} from '../../../shared/catalog/plans.rules.ts';

const monthly: RecurringInterval = { unit: 'month', length: 1, billingTiming: 'prepaid', periodAnchorInstruction: null };
const shape = (s: Partial<PlanShape> = {}): PlanShape => ({ recurringInterval: null, trial: null, isTrialOnly: false, ...s });
const fields = (issues: Array<{ field: string }>) => issues.map((i) => i.field);

describe('plan shape by product type', () => {
  it('needs a recurring interval for a recurring product and takes a trial with it', () => {
    expect(fields(planShapeIssues('recurring', shape()))).toEqual(['recurringInterval']);
    expect(planShapeIssues('recurring', shape({ recurringInterval: monthly, trial: { unit: 'day', length: 7 }, isTrialOnly: true }))).toEqual([]);
  });

  it('refuses an interval and a trial on a one-time product', () => {
    expect(planShapeIssues('one-time', shape())).toEqual([]);
    expect(fields(planShapeIssues('one-time', shape({ recurringInterval: monthly, trial: { unit: 'day', length: 7 } })))).toEqual([
      'recurringInterval',
      'trial',
    ]);
  });

  it('needs a trial for a trial-only plan', () => {
    expect(fields(planShapeIssues('recurring', shape({ recurringInterval: monthly, isTrialOnly: true })))).toEqual(['isTrialOnly']);
  });

  it('anchors day-of-month to month and year intervals, day-of-week to week intervals', () => {
    const anchored = (unit: RecurringInterval['unit'], method: 'day-of-month' | 'day-of-week') =>
      planShapeIssues('recurring', shape({ recurringInterval: { ...monthly, unit, periodAnchorInstruction: { method, day: 1, time: '00:00' } } }));
    expect(anchored('month', 'day-of-month')).toEqual([]);
    expect(anchored('year', 'day-of-month')).toEqual([]);
    expect(anchored('week', 'day-of-week')).toEqual([]);
    expect(fields(anchored('week', 'day-of-month'))).toEqual(['recurringInterval.periodAnchorInstruction.method']);
    expect(fields(anchored('day', 'day-of-week'))).toEqual(['recurringInterval.periodAnchorInstruction.method']);
  });

  it('throws the 400 plan.invalid_for_product naming the first field', () => {
    try {
      assertPlanShape('recurring', shape());
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(BadRequestError);
      expect((e as BadRequestError).code).toBe('plan.invalid_for_product');
      expect((e as BadRequestError).message).toMatch(/^recurringInterval: /);
    }
  });
});

describe('plan helpers', () => {
  it('derives the narrow currency sign, or the code when there is none', () => {
    expect(['USD', 'EUR', 'JPY', 'GBP', 'CHF'].map(currencySign)).toEqual(['$', '€', '¥', '£', 'CHF']);
  });

  it('lists product options a plan names that the product does not have', () => {
    expect(unknownProductOptions({ size: 'L', weight: 1 }, ['size', 'color'])).toEqual(['weight']);
    expect(unknownProductOptions({}, [])).toEqual([]);
  });

  it('adds one to the revision on every update', () => {
    expect(nextRevision(1)).toBe(2);
    expect(nextRevision(nextRevision(1))).toBe(3);
  });
});
