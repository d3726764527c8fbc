import * as v from 'valibot';
import { email, name } from './common.ts';

/** Passwords: 12 to 128 characters (the upper bound keeps hashing cost bounded). */
const password = v.pipe(v.string(), v.minLength(12, 'must be at least 12 characters'), v.maxLength(128));

export const signUpRequest = v.strictObject({ email, password, name: v.optional(name(200)) });

export const signInRequest = v.strictObject({ email, password: v.pipe(v.string(), v.maxLength(128)) });
