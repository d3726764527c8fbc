/** The platform's one private storage bucket (policy PDFs, images, invoice PDFs), and how S3 says an object is not there. */
import { AwsError } from '../aws/signed-fetch.ts';
import { requiredEnv } from '../config.ts';

/** The bucket's name (`POLICY_BUCKET`: the functions that work with stored files get it). */
export const storageBucket = (): string => requiredEnv('POLICY_BUCKET');

/** S3's "no such object": 404 to a GET (`NoSuchKey`) or to a HEAD (`NotFound`, no body). */
export const isMissingObject = (e: unknown): boolean => e instanceof AwsError && (e.status === 404 || e.name === 'NoSuchKey' || e.name === 'NotFound');
