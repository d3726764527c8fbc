/**
 * Assertions shared by the infra test files: how a function's table access and a consumer's wiring must look
 * in the synthesized templates. Written against CloudFormation JSON, not against the infra code's helpers,
 * so a bug in those helpers cannot hide itself.
 */
import { expect } from 'vitest';
import type { Template } from 'aws-cdk-lib/assertions';
import type { ConsumerDef, QueueName } from '../../infra/consumers.ts';
import { actionsOfRole, importedValue, refTarget, resourcesOf, resourcesOfType, statementsOfRole, type Resource, type SynthesizedStage } from './synth.ts';

/** The environment variable that carries each queue's URL (the contract with the functions' code). */
export const queueUrlVariables: Record<QueueName, string> = { webhooks: 'WEBHOOK_QUEUE_URL', renewals: 'RENEWAL_QUEUE_URL' };

const readActions = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'];
const writeActions = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

export const stackName = (s: SynthesizedStage, suffix: string): string => `Mor-${s.built.config.stage === 'live' ? 'Live' : 'Sandbox'}-${suffix}`;

export function templateOf(s: SynthesizedStage, suffix: string): Template {
  const template = s.templates.get(stackName(s, suffix));
  if (!template) throw new Error(`No stack ${stackName(s, suffix)}; stacks: ${[...s.templates.keys()].join(', ')}`);
  return template;
}

/** Logical id of the single resource of `type` in the Data stack matching `where`. */
export function dataResourceId(s: SynthesizedStage, type: string, where: (r: Resource) => boolean = () => true): string {
  const found = resourcesOfType(templateOf(s, 'Data'), type).filter(([, r]) => where(r));
  expect(found, `${type} in the Data stack`).toHaveLength(1);
  return found[0]![0];
}

export const queueId = (s: SynthesizedStage, queueName: string): string => dataResourceId(s, 'AWS::SQS::Queue', (r) => r.Properties?.QueueName === queueName);

/** The function's role may do exactly what its table access says to the table, and nothing to it otherwise. */
export function expectTableAccess(s: SynthesizedStage, template: Template, fn: Resource, access: 'none' | 'read' | 'readWrite'): void {
  const roleId = refTarget(fn.Properties?.Role);
  expect(roleId, 'function role').toBeDefined();
  const actions = [...actionsOfRole(template, roleId!)];
  const dynamo = actions.filter((a) => a.startsWith('dynamodb:'));
  expect(dynamo, 'no wildcard DynamoDB actions').not.toContain('dynamodb:*');
  switch (access) {
    case 'none':
      expect(dynamo).toEqual([]);
      break;
    case 'read':
      expect(dynamo).toEqual(expect.arrayContaining(readActions));
      for (const a of writeActions) expect(dynamo).not.toContain(a);
      break;
    case 'readWrite':
      expect(dynamo).toEqual(expect.arrayContaining([...readActions, ...writeActions, 'dynamodb:ConditionCheckItem']));
      break;
  }
  // Every DynamoDB statement is about the stage's table (or its indexes), imported from the Data stack.
  const tableId = dataResourceId(s, 'AWS::DynamoDB::Table');
  for (const statement of statementsOfRole(template, roleId!)) {
    const statementActions: string[] = [statement.Action].flat();
    if (!statementActions.some((a) => a.startsWith('dynamodb:'))) continue;
    for (const resource of [statement.Resource].flat()) {
      if (resource === '*') {
        // Only listing streams takes no resource (a stream consumer's event source needs it). CDK may merge it
        // with other resource-less actions, such as X-Ray's, into one statement.
        expect(statementActions.filter((a) => a.startsWith('dynamodb:'))).toEqual(['dynamodb:ListStreams']);
        continue;
      }
      const importRef = resource['Fn::ImportValue'] ? resource : resource['Fn::Join']?.[1]?.[0];
      const imported = importedValue(s.templates, importRef);
      expect(imported?.stack, `resource ${JSON.stringify(resource)}`).toBe(stackName(s, 'Data'));
      expect(refTarget(imported?.value)).toBe(tableId);
    }
  }
}

/** A consumer has one function in the Consumers stack, fed by exactly one event source mapping of its kind. */
export function expectConsumerWired(s: SynthesizedStage, consumer: ConsumerDef): void {
  const stage = s.built.config.stage;
  const template = templateOf(s, 'Consumers');
  const functions = resourcesOfType(template, 'AWS::Lambda::Function').filter(([, f]) => f.Properties?.FunctionName === `mor-${stage}-${consumer.name}`);
  expect(functions, `function of consumer ${consumer.name}`).toHaveLength(1);
  const [fnId, fn] = functions[0]!;

  const mappings = resourcesOfType(template, 'AWS::Lambda::EventSourceMapping').filter(([, m]) => refTarget(m.Properties?.FunctionName) === fnId);
  if (consumer.source === 'schedule') {
    // A scheduled function: no event source, one EventBridge rule on its schedule targeting it, allowed to invoke it.
    expect(mappings, `${consumer.name} has no event source`).toHaveLength(0);
    const rules = resourcesOfType(template, 'AWS::Events::Rule').filter(([, r]) =>
      (r.Properties?.Targets ?? []).some((t: { Arn?: unknown }) => JSON.stringify(t.Arn).includes(fnId)),
    );
    expect(rules, `schedule rule of ${consumer.name}`).toHaveLength(1);
    expect(rules[0]![1].Properties!.ScheduleExpression).toBe(consumer.schedule);
    expect(rules[0]![1].Properties!.State ?? 'ENABLED').toBe('ENABLED');
    const permissions = resourcesOfType(template, 'AWS::Lambda::Permission').filter(
      ([, p]) => JSON.stringify(p.Properties?.FunctionName).includes(fnId) && p.Properties?.Principal === 'events.amazonaws.com',
    );
    expect(permissions, `events may invoke ${consumer.name}`).toHaveLength(1);
    expect(JSON.stringify(permissions[0]![1].Properties!.SourceArn)).toContain(rules[0]![0]);
    expectTableAccess(s, template, fn, consumer.table);
    return;
  }
  expect(mappings, `event source mapping of ${consumer.name}`).toHaveLength(1);
  const mapping = mappings[0]![1].Properties!;
  expect(mapping.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
  expect(mapping.BatchSize).toBe(consumer.batchSize);
  const source = importedValue(s.templates, mapping.EventSourceArn);
  expect(source?.stack, 'event source lives in the Data stack').toBe(stackName(s, 'Data'));
  const data = resourcesOf(templateOf(s, 'Data'));

  if (consumer.source === 'tableStream') {
    expect(source?.value).toEqual({ 'Fn::GetAtt': [dataResourceId(s, 'AWS::DynamoDB::Table'), 'StreamArn'] });
    expect(mapping.FilterCriteria?.Filters).toHaveLength(1);
    expect(JSON.parse(mapping.FilterCriteria.Filters[0].Pattern)).toEqual({
      eventName: [...(consumer.events ?? ['INSERT'])],
      dynamodb: { NewImage: { entity: { S: [...consumer.entities] } } },
    });
    expect(mapping.StartingPosition).toBe('TRIM_HORIZON');
    expect(mapping.BisectBatchOnFunctionError).toBe(true);
    expect(mapping.MaximumRetryAttempts).toBeGreaterThanOrEqual(0);
    const failures = importedValue(s.templates, mapping.DestinationConfig?.OnFailure?.Destination);
    expect(refTarget(failures?.value)).toBe(queueId(s, `mor-${stage}-stream-failures`));
  } else {
    const qId = queueId(s, `mor-${stage}-${consumer.queue}`);
    expect(source?.value).toEqual({ 'Fn::GetAtt': [qId, 'Arn'] });
    // SQS hands a message out again only after the function has certainly given up on it.
    expect(data[qId]!.Properties!.VisibilityTimeout).toBeGreaterThanOrEqual(6 * fn.Properties!.Timeout);
  }

  const env: Record<string, unknown> = fn.Properties?.Environment?.Variables ?? {};
  const sendActions = statementsOfRole(template, refTarget(fn.Properties?.Role)!).filter((st) => [st.Action].flat().includes('sqs:SendMessage'));
  const sendsTo = consumer.sendsTo ?? [];
  for (const q of Object.keys(queueUrlVariables) as QueueName[]) {
    const qId = queueId(s, `mor-${stage}-${q}`);
    // A statement may name several resources (CDK merges statements under `@aws-cdk/aws-iam:minimizePolicies`).
    const sendsToQueue = sendActions.some((st) => [st.Resource].flat().some((r) => refTarget(importedValue(s.templates, r)?.value) === qId));
    if (sendsTo.includes(q)) {
      expect(refTarget(importedValue(s.templates, env[queueUrlVariables[q]])?.value), `${queueUrlVariables[q]}`).toBe(qId);
      expect(sendsToQueue, `${consumer.name} may send to ${q}`).toBe(true);
    } else {
      expect(env[queueUrlVariables[q]]).toBeUndefined();
      expect(sendsToQueue, `${consumer.name} may not send to ${q}`).toBe(false);
    }
  }

  // Mail goes through SES from the stage's sender address, and only from consumers that send mail.
  const mailActions = statementsOfRole(template, refTarget(fn.Properties?.Role)!).filter((st) => [st.Action].flat().includes('ses:SendEmail'));
  if (consumer.sendsMail) {
    expect(env.MAIL_TRANSPORT).toBe('ses');
    expect(env.MAIL_FROM).toMatch(/^[^@\s]+@[^@\s]+$/);
    expect(mailActions).toHaveLength(1);
    expect(mailActions[0]!.Condition).toEqual({ StringEquals: { 'ses:FromAddress': env.MAIL_FROM } });
  } else {
    expect(env.MAIL_TRANSPORT).toBeUndefined();
    expect(mailActions).toHaveLength(0);
  }

  expectTableAccess(s, template, fn, consumer.table);
}
