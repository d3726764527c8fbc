/**
 * Finds card data in text: Luhn-valid numbers of 13 to 19 digits that belong to a card brand (written as one
 * run of digits or in groups split by single spaces or dashes), and card verification values (a field named like
 * `cvv`, `cvc`, `cvv2`, `securityCode` or `cardVerificationValue` with a 3–4 digit value). Epoch milliseconds
 * and amounts fail the brand or the Luhn check; digits inside a hex id or hash (next to a letter) are not counted,
 * nor are groups no card is written in (a UUID's all-digit groups of 8 and 12).
 */
import cardValidator from 'card-validator';

// Bounded by anything but a letter or digit: a run of digits inside a hex id or hash is not a written card number.
const digitRuns = /(?<![0-9A-Za-z])\d(?:[ -]?\d){12,18}(?![0-9A-Za-z])/g;
const verificationFields = /["']?(cvv2?|cvc2?|security_?code|card_?verification_?value)["']?\s*[:=]\s*["']?(\d{3,4})(?!\d)/gi;

export interface CardDataFinding {
  kind: 'card-number' | 'verification-value';
  /** The finding with all but the last four digits masked, so the report itself leaks nothing. */
  masked: string;
}

const mask = (digits: string) => `${'*'.repeat(Math.max(0, digits.length - 4))}${digits.slice(-4)}`;

export function findCardData(text: string): CardDataFinding[] {
  const findings: CardDataFinding[] = [];
  for (const match of text.matchAll(digitRuns)) {
    const digits = match[0].replace(/[ -]/g, '');
    if (digits.length < 13 || digits.length > 19) continue;
    // Written in groups, a card number's groups are 2 to 6 digits (4-4-4-4, 4-6-5, 4-4-4-4-3): the all-digit
    // groups of a UUID (8-4-4 or 4-12) are not a card number, however Luhn-valid they happen to be.
    const groups = match[0].split(/[ -]/);
    if (groups.length > 1 && groups.some((g) => g.length < 2 || g.length > 6)) continue;
    const result = cardValidator.number(digits);
    if (result.isValid && result.card) findings.push({ kind: 'card-number', masked: mask(digits) });
  }
  for (const match of text.matchAll(verificationFields)) {
    findings.push({ kind: 'verification-value', masked: `${match[1]}=${'*'.repeat(match[2]!.length)}` });
  }
  return findings;
}
