/**
 * The mail outbox (shared/platform/mail/outbox.ts) and its sender (functions/system/send-mail.ts): a mail written in
 * a change's transaction reaches the local stack's sender through the stream relay and is sent once through SES (the
 * local stack's), naming its outbox item; a record delivered again, or to two senders at once, sends nothing more; a send that fails gives the mail
 * back for the record's next delivery; a take the SDK sent twice (the first landed, its answer lost) still sends.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { Context, SQSEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { handler, render } from '../../../functions/system/send-mail.ts';
import { lambdaContext } from '../../../infra/local/lambda.ts';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import { transactWrite } from '../../../shared/platform/db/transactions.ts';
import { type OutgoingMail, OutgoingMailEntity, outgoingMailKey } from '../../../shared/platform/mail/mail.entity.ts';
import { outboxMail } from '../../../shared/platform/mail/outbox.ts';
import { sendOutgoing } from '../../../shared/platform/mail/sender.ts';
import { withEnv } from '../../support/env.ts';
import { loseFirstAnswerOf, stopLosingAnswers } from '../../support/lost-answers.ts';
import { keptMailsTo, mailsArrived, sesMails } from '../../support/mails.ts';

const context = (): Context => lambdaContext({ name: 'mail-sender-test', timeoutMs: 10_000, region: 'us-east-1' });

/** A mail of one of the modules' templates (the owner's notice of an open webhook circuit), about `host`. */
const circuitMail = (host: string) => ({
  template: 'webhooks.circuit-opened',
  data: { merchantName: 'Outbox shop', destinationId: 'wd_outbox', host, failures: 5 },
});
const subjectOf = (host: string) => `Webhook deliveries to ${host} are paused`;

/**
 * A mail to send that the stack's own sender never sees: its `entity` is not the relay's, so only this test sends
 * it (through the sender's handler, with the record the relay would have carried).
 */
async function offTheRelay(
  to: string,
  template: { template: string; data: Record<string, unknown> } = circuitMail('off.example'),
): Promise<{ mail: OutgoingMail; event: SQSEvent }> {
  const mail: OutgoingMail = { id: randomUUID(), to, ...template, at: '2027-03-01T09:00:00.000Z', createdAt: new Date().toISOString(), sentAt: null };
  const item = { ...OutgoingMailEntity.item(mail), entity: 'outgoingMailUnrelayed' };
  await db.send(new PutCommand({ TableName: tableName(), Item: item }));
  const record = { eventID: mail.id, eventName: 'INSERT', dynamodb: { Keys: marshall(outgoingMailKey(mail.id)), NewImage: marshall(item) } };
  const event = { Records: [{ messageId: `m-${mail.id}`, body: JSON.stringify(record) }] } as SQSEvent;
  return { mail, event };
}

const takenAt = async (id: string) =>
  (await db.send(new GetCommand({ TableName: tableName(), Key: outgoingMailKey(id), ConsistentRead: true }))).Item?.sentAt as string | undefined;

describe('the mail outbox', () => {
  it("sends a mail written in a change's transaction once that change is written, rendered by its template, naming its item", async () => {
    const to = `outbox-${randomUUID()}@example.com`;
    const item = outboxMail(to, circuitMail('hooks.outbox.example'), '2027-02-01T08:00:00.000Z');
    await transactWrite([['mail', [item]]]);
    const [sent] = await mailsArrived(to);
    // The mail names its outbox item (`X-Entity-Ref-ID`), whose instant is the change's.
    expect(sent).toMatchObject({ to, subject: subjectOf('hooks.outbox.example'), reference: item.Put?.Item?.id, at: '2027-02-01T08:00:00.000Z' });
    expect((await sesMails(to)).map((m) => m.from)).toEqual([process.env.MAIL_FROM]);
    expect(sent!.text).toContain("Deliveries of Outbox shop's webhook destination wd_outbox (on hooks.outbox.example) failed\n5 times in a row");
  });

  it('sends once when its record comes again, or to two senders at once', async () => {
    const to = `twice-${randomUUID()}@example.com`;
    const { mail, event } = await offTheRelay(to);
    const answers = await Promise.all([handler(event, context()), handler(event, context()), sendOutgoing(mail, render)]);
    expect(answers.slice(0, 2)).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    expect(await handler(event, context())).toEqual({ batchItemFailures: [] });
    expect(await keptMailsTo(to)).toHaveLength(1);
    expect(await takenAt(mail.id)).toEqual(expect.any(String));
  });

  it("sends a mail whose take landed but whose answer was lost: the SDK's retry finds the mail taken by that very take", async () => {
    const to = `lost-${randomUUID()}@example.com`;
    const { mail, event } = await offTheRelay(to);
    const lost = loseFirstAnswerOf(outgoingMailKey(mail.id).pk);
    try {
      expect(await handler(event, context())).toEqual({ batchItemFailures: [] });
    } finally {
      stopLosingAnswers();
    }
    expect(lost.sent()).toBe(2);
    expect(await keptMailsTo(to)).toHaveLength(1);
    // Taken by another sender meanwhile (its own take), it is still sent once.
    expect(await handler(event, context())).toEqual({ batchItemFailures: [] });
    expect(await keptMailsTo(to)).toHaveLength(1);
  });

  it('gives a mail whose send failed back, and its next delivery sends it', async () => {
    const to = `failed-${randomUUID()}@example.com`;
    const { mail, event } = await offTheRelay(to);
    // With SES out of reach (a closed port: its sending rate cannot be read and the mail is not taken, or, the rate
    // known, the send fails and the mail is given back); with a sender address SES has not verified (refused,
    // given back); and in a function not given the mail settings (the send fails, given back).
    for (const settings of [{ AWS_ENDPOINT_URL_SESV2: 'http://127.0.0.1:1' }, { MAIL_FROM: 'platform@example.com' }, { MAIL_FROM: undefined }]) {
      expect(await withEnv(settings, () => handler(event, context()))).toEqual({ batchItemFailures: [{ itemIdentifier: `m-${mail.id}` }] });
      expect(await takenAt(mail.id)).toBeUndefined();
      expect(await keptMailsTo(to)).toEqual([]);
    }
    // The message comes back: sent.
    expect(await handler(event, context())).toEqual({ batchItemFailures: [] });
    expect((await keptMailsTo(to)).map((m) => m.at)).toEqual([mail.at]);
  });

  it('leaves a mail of a template it does not know untaken, and fails its record', async () => {
    const to = `unknown-${randomUUID()}@example.com`;
    const { mail, event } = await offTheRelay(to, { template: 'nowhere.nothing', data: {} });
    expect(await handler(event, context())).toEqual({ batchItemFailures: [{ itemIdentifier: `m-${mail.id}` }] });
    expect(await takenAt(mail.id)).toBeUndefined();
    expect(() => render('nowhere.nothing', {})).toThrow('no mail template "nowhere.nothing"');
    // The platform's own names are templates; an object's inherited names are not.
    expect(() => render('toString', {})).toThrow('no mail template');
    expect(render('webhooks.circuit-opened', circuitMail('x.example').data).subject).toBe(subjectOf('x.example'));
  });
});
