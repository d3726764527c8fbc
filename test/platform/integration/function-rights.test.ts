/**
 * The local stack holds each function to its rights as deployed (infra/local/function-rights.ts): a DynamoDB call its
 * IAM role would not allow is refused with `AccessDeniedException` before it is sent, and an S3 request with S3's 403
 * `AccessDenied` before it reaches the server, and a URL it presigns for what it may not do is refused by the S3 server
 * when used; an SES call its role would not allow is refused with `AccessDeniedException` before it reaches the local
 * SES, and a read of a deployment key its role may not read with `AccessDeniedException` before it reaches the local
 * Secrets Manager. Checked here on this process's document client, `fetch` and signer, held the same way.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { asFunction, holdFunctionRights, presignRefusal, rightsOf } from '../../../infra/local/function-rights.ts';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import { awsFetch, endpointOf, getSecretString, presignS3, s3Url } from '../../../shared/platform/aws/signed-fetch.ts';
import { startS3Server } from '../../../infra/local/s3.ts';
import { sendMail, sesMaxSendRate } from '../../../shared/platform/mail/mailer.ts';
import { sesMails } from '../../support/mails.ts';

/** How a call ended: sent (answered, whatever the answer), refused by the function's rights, or failed otherwise. */
const outcome = (call: Promise<unknown>) =>
  call.then(
    () => 'sent',
    (e: Error) => (e.name === 'AccessDeniedException' || e.name === 'AccessDenied' ? 'refused' : `sent (${e.name})`),
  );

describe("each local function's rights", () => {
  beforeAll(() =>
    holdFunctionRights(
      db,
      { s3: new URL(endpointOf('s3')).origin, ses: new URL(endpointOf('sesv2')).origin, secrets: new URL(endpointOf('secretsmanager')).origin },
      new Map([
        ['test-reader', rightsOf({ table: 'read', auth: 'orgApiKey' })],
        ['test-key-reader', rightsOf({ table: 'read', auth: 'apiKey' })],
        ['test-none', rightsOf({ table: 'none' })],
        ['test-writer', rightsOf({ table: 'readWrite', auth: 'apiKey' })],
        ['test-image-reader', rightsOf({ table: 'none', imageStorage: 'read' })],
        ['test-image-writer', rightsOf({ table: 'none', imageStorage: 'write' })],
        ['test-pdf-renderer', rightsOf({ table: 'none', storesInvoicePdfs: true })],
        ['test-route-mailer', rightsOf({ table: 'read', sendsMail: true })],
        ['test-mail-sender', rightsOf({ table: 'readWrite', sendsMail: true, source: 'queue', maxConcurrency: 2 })],
        ['test-webhook-signer', rightsOf({ table: 'read', signsWebhooks: true })],
        ['test-card-fingerprinter', rightsOf({ table: 'readWrite', fingerprintsCards: true })],
      ]),
    ),
  );

  describe('on the table', () => {
    const key = { pk: `FUNCTIONRIGHTS#${randomUUID()}`, sk: 'ITEM' };
    const keyItem = { pk: `APIKEY#${randomUUID()}`, sk: 'APIKEY' };
    beforeAll(async () => {
      await db.send(new PutCommand({ TableName: tableName(), Item: { ...key, n: 1 } }));
      await db.send(new PutCommand({ TableName: tableName(), Item: { ...keyItem, n: 1 } }));
    });
    const get = () => db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
    const put = () => db.send(new PutCommand({ TableName: tableName(), Item: { ...key, n: 2 } }));
    const touch = (k: { pk: string; sk: string }) =>
      db.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: k,
          UpdateExpression: 'SET lastUsedAt = :now',
          ExpressionAttributeValues: { ':now': new Date().toISOString() },
        }),
      );

    it('lets a function that reads the table read it, and refuses its writes before they are sent', async () => {
      expect(await outcome(asFunction('test-reader', get))).toBe('sent');
      expect(await outcome(asFunction('test-reader', put))).toBe('refused');
      expect(await outcome(asFunction('test-reader', () => touch(key)))).toBe('refused');
      const transaction = () => db.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: tableName(), Item: { ...key, n: 3 } } }] }));
      expect(await outcome(asFunction('test-reader', transaction))).toBe('refused');
      // Nothing was written.
      expect((await get()).Item?.n).toBe(1);
    });

    it('lets a function that reads the table and authenticates merchant keys update the key items, and no other', async () => {
      expect(await outcome(asFunction('test-key-reader', () => touch(keyItem)))).toBe('sent');
      expect(await outcome(asFunction('test-key-reader', () => touch(key)))).toBe('refused');
      expect(await outcome(asFunction('test-reader', () => touch(keyItem)))).toBe('refused');
    });

    it('refuses every call of a function without table access, and checks nothing outside an invocation or of a function it was not given', async () => {
      expect(await outcome(asFunction('test-none', get))).toBe('refused');
      expect(await outcome(asFunction('test-writer', put))).toBe('sent');
      expect(await outcome(asFunction('test-unknown', put))).toBe('sent');
      expect(await outcome(put())).toBe('sent');
    });
  });

  describe('in the storage bucket', () => {
    const bucket = process.env.POLICY_BUCKET!;
    const image = `images/m_${randomUUID()}/img_1`;
    const request =
      (method: string, key: string, headers: Record<string, string> = {}) =>
      () =>
        awsFetch('s3', s3Url(bucket, key), { method, headers, ...(method === 'PUT' ? { body: 'x' } : {}) });

    it('lets a function read, put and delete objects only where its flags say, and answers the rest 403 without reaching S3', async () => {
      expect(await outcome(asFunction('test-image-writer', request('PUT', image)))).toBe('sent');
      expect(await outcome(asFunction('test-image-reader', request('GET', image)))).toBe('sent');
      expect(await outcome(asFunction('test-image-reader', request('PUT', image)))).toBe('refused');
      expect(await outcome(asFunction('test-image-reader', request('DELETE', image)))).toBe('refused');
      expect(await outcome(asFunction('test-image-reader', request('GET', `policies/m_${randomUUID()}/terms.pdf`)))).toBe('refused');
      expect(await outcome(asFunction('test-none', request('GET', image)))).toBe('refused');
      // A copy reads its source: an upload may be copied into the images by a function that writes both.
      const upload = `image-uploads/m_${randomUUID()}/p_1/u_1`;
      expect(await outcome(asFunction('test-image-writer', request('PUT', upload)))).toBe('sent');
      expect(await outcome(asFunction('test-image-writer', request('PUT', image, { 'x-amz-copy-source': `/${bucket}/${upload}` })))).toBe('sent');
      expect(await outcome(asFunction('test-pdf-renderer', request('PUT', image, { 'x-amz-copy-source': `/${bucket}/${upload}` })))).toBe('refused');
      // The renderer puts invoice PDFs, and reads none.
      const pdf = `invoices/m_${randomUUID()}/inv_1/1.pdf`;
      expect(await outcome(asFunction('test-pdf-renderer', request('PUT', pdf)))).toBe('sent');
      expect(await outcome(asFunction('test-pdf-renderer', request('GET', pdf)))).toBe('refused');
      expect(await outcome(asFunction('test-image-writer', request('DELETE', image)))).toBe('sent');
    });

    it('remembers a URL a function presigns for what it may not do, which the S3 server then refuses with 403 AccessDenied', async () => {
      // An S3 server of this file's own, told of this process's refusals (the stack's is told of its functions').
      const server = await startS3Server(
        0,
        bucket,
        { accessKeyId: process.env.AWS_ACCESS_KEY_ID!, secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY! },
        undefined,
        presignRefusal,
      );
      const endpoint = process.env.AWS_ENDPOINT_URL_S3;
      process.env.AWS_ENDPOINT_URL_S3 = server.endpoint;
      try {
        const key = `images/m_${randomUUID()}/img_1`;
        const png = { 'content-type': 'image/png', 'content-length': '1' };
        // Each signed at its own second: locally every function signs with one key, so the same request signed in the
        // same second is the same URL, taken as the one allowed (see below).
        let second = Math.floor(Date.now() / 1000) - 60;
        const presign =
          (method: 'GET' | 'PUT', signingDate = new Date(++second * 1000)) =>
          () =>
            presignS3(method, s3Url(bucket, key), { expiresIn: 600, signingDate, headers: method === 'PUT' ? png : {} });
        const signatureOf = (url: string) => new URL(url).searchParams.get('X-Amz-Signature')!;
        const put = (url: string) => fetch(url, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: 'x' });
        const denied = async (res: Response) => res.status === 403 && (await res.text()).includes('<Code>AccessDenied</Code>');

        const readerPut = await asFunction('test-image-reader', presign('PUT'));
        expect(presignRefusal(signatureOf(readerPut))).toBe(`test-image-reader may not put ${key}`);
        expect(await denied(await put(readerPut))).toBe(true);
        const readerGet = await asFunction('test-image-reader', presign('GET'));
        expect(presignRefusal(signatureOf(readerGet))).toBeUndefined();
        expect((await fetch(readerGet)).status).toBe(404); // nothing was stored by the refused PUT

        const writerPut = await asFunction('test-image-writer', presign('PUT'));
        expect((await put(writerPut)).status).toBe(200);
        expect((await fetch(readerGet)).status).toBe(200);
        const rendererGet = await asFunction('test-pdf-renderer', presign('GET'));
        expect(await denied(await fetch(rendererGet))).toBe(true);
        // A URL signed outside any invocation (the stack's own, a test's) is not held to anything.
        expect(presignRefusal(signatureOf(await presign('PUT')()))).toBeUndefined();
        // The same URL signed by a function that may, and one that may not: it works.
        const at = new Date(++second * 1000);
        const refused = await asFunction('test-image-reader', presign('PUT', at));
        expect(presignRefusal(signatureOf(refused))).toBeDefined();
        expect(await asFunction('test-image-writer', presign('PUT', at))).toBe(refused);
        expect(presignRefusal(signatureOf(refused))).toBeUndefined();
      } finally {
        process.env.AWS_ENDPOINT_URL_S3 = endpoint;
        await server.close();
      }
    });
  });

  describe('with SES', () => {
    it("lets a function that sends mail send it, and only the paced mail sender read the account's sending rate; the rest is refused before it reaches SES", async () => {
      const to = `rights-${randomUUID()}@example.com`;
      const send = () => sendMail({ to, subject: 'Rights', text: 'Body' });
      expect(await outcome(asFunction('test-route-mailer', send))).toBe('sent');
      expect(await outcome(asFunction('test-mail-sender', send))).toBe('sent');
      expect(await outcome(asFunction('test-writer', send))).toBe('refused');
      expect(await outcome(asFunction('test-mail-sender', sesMaxSendRate))).toBe('sent');
      expect(await outcome(asFunction('test-route-mailer', sesMaxSendRate))).toBe('refused');
      expect(await outcome(asFunction('test-none', sesMaxSendRate))).toBe('refused');
      expect((await sesMails(to)).length).toBe(2);
    });
  });

  describe('in Secrets Manager', () => {
    it('lets a function read the deployment keys its flags give it, and refuses the others before they reach Secrets Manager', async () => {
      const read = (variable: string) => () => getSecretString(process.env[variable]!);
      expect(await outcome(asFunction('test-webhook-signer', read('WEBHOOK_SIGNING_KEY_ARN')))).toBe('sent');
      expect(await outcome(asFunction('test-webhook-signer', read('CARD_FINGERPRINT_KEY_ARN')))).toBe('refused');
      expect(await outcome(asFunction('test-card-fingerprinter', read('CARD_FINGERPRINT_KEY_ARN')))).toBe('sent');
      expect(await outcome(asFunction('test-card-fingerprinter', read('WEBHOOK_SIGNING_KEY_ARN')))).toBe('refused');
      expect(await outcome(asFunction('test-writer', read('WEBHOOK_SIGNING_KEY_ARN')))).toBe('refused');
      // By name too, as Secrets Manager takes either.
      const name = process.env.WEBHOOK_SIGNING_KEY_ARN!.split(':secret:')[1]!.replace(/-[^-]+$/, '');
      expect(await outcome(asFunction('test-webhook-signer', () => getSecretString(name)))).toBe('sent');
      expect(await outcome(asFunction('test-none', () => getSecretString(name)))).toBe('refused');
    });
  });
});
