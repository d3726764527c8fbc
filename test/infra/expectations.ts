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
export const queueUrlVariables: Partial<Record<QueueName, string>> = { webhooks: 'WEBHOOK_QUEUE_URL', renewals: 'RENEWAL_QUEUE_URL' };

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
  // Reading the table's stream (a stream consumer's event source) is not access to the table.
  const streamActions = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'];
  const dynamo = actions.filter((a) => a.startsWith('dynamodb:') && !streamActions.includes(a));
  expect(dynamo, 'no wildcard DynamoDB actions').not.toContain('dynamodb:*');
  switch (access) {
    case 'none':
      expect(dynamo).toEqual([]);
      break;
    case 'read': {
      expect(dynamo).toEqual(expect.arrayContaining(readActions));
      // No write on the table at large (an update of what its authentication records, on those items only, is
      // checked apart: its statement has a condition on the keys).
      const unconditioned = statementsOfRole(template, roleId!)
        .filter((st) => !st.Condition)
        .flatMap((st) => [st.Action].flat());
      for (const a of writeActions) expect(unconditioned).not.toContain(a);
      break;
    }
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
    // Its own entities and events; the relay's are each relayed consumer's, one filter each (Lambda takes any).
    const filters = consumer.relays?.length ? consumer.relays.map((r) => r.relayed!) : [{ entities: consumer.entities, events: consumer.events }];
    expect(mapping.FilterCriteria?.Filters.map((f: { Pattern: string }) => JSON.parse(f.Pattern))).toEqual(
      filters.map((f) => ({ eventName: [...(f.events ?? ['INSERT'])], dynamodb: { NewImage: { entity: { S: [...f.entities] } } } })),
    );
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
    // Provisioned mode (dedicated pollers kept ready) only where the definition asks for it.
    const pollers = consumer.provisionedPollers;
    expect(mapping.ProvisionedPollerConfig).toEqual(
      pollers ? { MinimumPollers: pollers.minimum, ...(pollers.maximum ? { MaximumPollers: pollers.maximum } : {}) } : undefined,
    );
    // A cap on the batches at once only where the definition sets one.
    expect(mapping.ScalingConfig).toEqual(consumer.maxConcurrency ? { MaximumConcurrency: consumer.maxConcurrency } : undefined);
  }

  const env: Record<string, unknown> = fn.Properties?.Environment?.Variables ?? {};
  const sendActions = statementsOfRole(template, refTarget(fn.Properties?.Role)!).filter((st) => [st.Action].flat().includes('sqs:SendMessage'));
  const sendsTo = consumer.sendsTo ?? [];
  const relays = consumer.source === 'tableStream' ? (consumer.relays ?? []) : [];
  const queuesOfStage = resourcesOfType(templateOf(s, 'Data'), 'AWS::SQS::Queue')
    .map(([, r]) => String(r.Properties?.QueueName ?? ''))
    .filter((name) => name.startsWith(`mor-${stage}-`) && !name.endsWith('-dlq') && name !== `mor-${stage}-stream-failures`)
    .map((name) => name.slice(`mor-${stage}-`.length) as QueueName);
  for (const q of queuesOfStage) {
    const qId = queueId(s, `mor-${stage}-${q}`);
    // A statement may name several resources (CDK merges statements under `@aws-cdk/aws-iam:minimizePolicies`).
    const sendsToQueue = sendActions.some((st) => [st.Resource].flat().some((r) => refTarget(importedValue(s.templates, r)?.value) === qId));
    const variable = queueUrlVariables[q];
    if (variable) {
      if (sendsTo.includes(q)) expect(refTarget(importedValue(s.templates, env[variable])?.value), variable).toBe(qId);
      else expect(env[variable]).toBeUndefined();
    }
    expect(sendsToQueue, `${consumer.name} may${sendsTo.includes(q) || relays.some((r) => r.queue === q) ? '' : ' not'} send to ${q}`).toBe(
      sendsTo.includes(q) || relays.some((r) => r.queue === q),
    );
  }
  // The stream relay's routes name each relayed consumer's queue (imported from the Data stack) and its filter.
  if (relays.length) {
    const routes = env.STREAM_RELAY_ROUTES;
    expect(routes, 'STREAM_RELAY_ROUTES').toBeDefined();
    const text = JSON.stringify(routes);
    for (const r of relays) for (const entity of r.relayed!.entities) expect(text).toContain(entity);
    const imported = [...text.matchAll(/"Fn::ImportValue":"([^"]+)"/g)].map((m) => importedValue(s.templates, { 'Fn::ImportValue': m[1] })?.value);
    expect(imported.map((v) => refTarget(v)).sort()).toEqual(relays.map((r) => queueId(s, `mor-${stage}-${r.queue}`)).sort());
  } else {
    expect(env.STREAM_RELAY_ROUTES).toBeUndefined();
  }

  // Mail goes through SES from the stage's sender address, and only from consumers that send mail.
  const statements = statementsOfRole(template, refTarget(fn.Properties?.Role)!);
  const mailActions = statements.filter((st) => [st.Action].flat().includes('ses:SendEmail'));
  // A capped sender paces itself to its share of the account's SES rate, which it may read.
  const quotaReads = statements.filter((st) => [st.Action].flat().includes('ses:GetAccount'));
  const cap = consumer.source === 'queue' ? consumer.maxConcurrency : undefined;
  if (consumer.sendsMail) {
    expect(env.MAIL_FROM).toMatch(/^[^@\s]+@[^@\s]+$/);
    expect(mailActions).toHaveLength(1);
    expect(mailActions[0]!.Condition).toEqual({ StringEquals: { 'ses:FromAddress': env.MAIL_FROM } });
    expect(env.MAIL_SENDERS_AT_ONCE).toBe(cap ? String(cap) : undefined);
    expect(quotaReads.map((st) => st.Resource)).toEqual(cap ? ['*'] : []);
  } else {
    expect(env.MAIL_FROM).toBeUndefined();
    expect(mailActions).toHaveLength(0);
    expect(env.MAIL_SENDERS_AT_ONCE).toBeUndefined();
    expect(quotaReads).toHaveLength(0);
  }

  expectTableAccess(s, template, fn, consumer.table);
}
