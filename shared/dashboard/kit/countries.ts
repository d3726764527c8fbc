/** The country choices of the dashboard's forms: every ISO 3166-1 code, named in English, in name order (made once). */
import { countryCodes } from '../../domain/countries.ts';
import type { Choice } from './layout.tsx';

let choices: readonly Choice[] | undefined;

export function countryChoices(): readonly Choice[] {
  if (!choices) {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    choices = countryCodes.map((code) => ({ value: code, label: names.of(code) ?? code })).sort((a, b) => a.label.localeCompare(b.label, 'en'));
  }
  return choices;
}

/** Whether `code` is one of the choices (an ISO 3166-1 alpha-2 code). */
export const isCountryCode = (code: string | undefined): code is string => code !== undefined && countryCodes.includes(code);
