/**
 * Stream and queue consumers, wired from consumer definitions. The consumer table may be empty, so this file
 * synthesizes the app with fixture definitions of both kinds (and no routes, to keep bundling short).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsumerDef } from '../../infra/consumers.ts';
import { expectConsumerWired, queueId, templateOf } from './expectations.ts';
import { allOfType, removeOutdir, resourcesOf, resourcesOfType, synthesize, synthTimeout, tempOutdir, type SynthesizedStage } from './synth.ts';

const entry = 'test/infra/fixtures/consumer.ts';

const fanOut: ConsumerDef = {
  name: 'test-fan-out',
  source: 'tableStream',
  entities: ['event', 'audit'],
  handler: entry,
  batchSize: 25,
  table: 'read',
  sendsTo: ['webhooks'],
};
/** A definition with its own timeout (the route and consumer types may gain `timeoutSeconds`). */
const sender = {
  name: 'test-sender',
  source: 'queue',
  queue: 'webhooks',
  handler: entry,
  batchSize: 5,
  table: 'readWrite',
  timeoutSeconds: 45,
} as ConsumerDef;

let outdir: string | undefined;
const synthesized = {} as Record<'sandbox' | 'live', SynthesizedStage>;

beforeAll(() => {
  outdir = tempOutdir();
  const options = { outdir, routes: [], tokenizationRoutes: [], consumers: [fanOut, sender] };
  synthesized.sandbox = synthesize('sandbox', { account: '111111111111', region: 'eu-west-1' }, options);
  synthesized.live = synthesize('live', { account: '222222222222', region: 'eu-west-1', domain: 'pay.test.example' }, options);
}, synthTimeout);

afterAll(() => removeOutdir(outdir));

describe.each(['sandbox', 'live'] as const)('consumers on %s', (stage) => {
  const s = () => synthesized[stage];

  it('puts every consumer function, and only those, in the Consumers stack', () => {
    const functions = allOfType(s().templates, 'AWS::Lambda::Function');
    expect(functions.map((f) => f.resource.Properties!.FunctionName).sort()).toEqual([`mor-${stage}-test-fan-out`, `mor-${stage}-test-sender`]);
    expect(new Set(functions.map((f) => f.stack))).toEqual(new Set([`Mor-${stage === 'live' ? 'Live' : 'Sandbox'}-Consumers`]));
  });

  it('feeds the stream consumer the table stream, filtered to its entities, with partial batch failures', () => {
    expectConsumerWired(s(), fanOut);
  });

  it('feeds the queue consumer its queue with partial batch failures', () => {
    expectConsumerWired(s(), sender);
  });

  it('creates one event source mapping per consumer', () => {
    expect(resourcesOfType(templateOf(s(), 'Consumers'), 'AWS::Lambda::EventSourceMapping')).toHaveLength(2);
  });

  it("uses a definition's own timeout and sizes the queue's visibility timeout from it", () => {
    const [, fn] = resourcesOfType(templateOf(s(), 'Consumers'), 'AWS::Lambda::Function').find(
      ([, f]) => f.Properties!.FunctionName === `mor-${stage}-test-sender`,
    )!;
    expect(fn.Properties!.Timeout).toBe(45);
    const queue = resourcesOf(templateOf(s(), 'Data'))[queueId(s(), `mor-${stage}-webhooks`)]!;
    expect(queue.Properties!.VisibilityTimeout).toBe(6 * 45);
  });
});
