/**
 * The end-of-run audit: every item of the table, every mail the local SES kept and every line the run's processes
 * wrote (see output-capture.ts) is searched for card numbers and verification values. Raw card data must never be stored or
 * logged, so any finding fails the run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DynamoDBClient, paginateScan } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { localSesMails } from '../../infra/local/ses.ts';
import { findCardData, type CardDataFinding } from './card-data.ts';

export interface AuditResult {
  itemsScanned: number;
  mailsScanned: number;
  linesScanned: number;
  findings: Array<CardDataFinding & { where: string }>;
}

/** Segments of the table's Scan, read side by side. */
const SCAN_SEGMENTS = 16;

export async function auditCardData(opts: {
  endpoint: string;
  region: string;
  tableName: string;
  captureDir: string;
  /** The local SES, whose kept mails are read too. */
  sesEndpoint: string;
}): Promise<AuditResult> {
  const findings: AuditResult['findings'] = [];
  const client = new DynamoDBClient({ endpoint: opts.endpoint, region: opts.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  let itemsScanned = 0;
  try {
    // A parallel Scan: DynamoDB Local reads a whole table page by page slower with every page (the run leaves tens of
    // thousands of items), and its segments side by side in a fraction of that.
    await Promise.all(
      Array.from({ length: SCAN_SEGMENTS }, async (_, Segment) => {
        for await (const page of paginateScan({ client }, { TableName: opts.tableName, Segment, TotalSegments: SCAN_SEGMENTS })) {
          for (const raw of page.Items ?? []) {
            itemsScanned++;
            const item = unmarshall(raw);
            for (const f of findCardData(JSON.stringify(item))) findings.push({ ...f, where: `table item ${String(item.pk)} / ${String(item.sk)}` });
          }
        }
      }),
    );
  } finally {
    client.destroy();
  }
  const mails = await localSesMails(opts.sesEndpoint);
  mails.forEach((mail, i) => {
    for (const f of findCardData(JSON.stringify(mail))) findings.push({ ...f, where: `mail ${i + 1} to ${mail.to} (${mail.subject})` });
  });
  let linesScanned = 0;
  for (const name of readdirSync(opts.captureDir)) {
    const lines = readFileSync(path.join(opts.captureDir, name), 'utf8').split('\n');
    lines.forEach((line, i) => {
      linesScanned++;
      for (const f of findCardData(line)) findings.push({ ...f, where: `${name}:${i + 1}` });
    });
  }
  return { itemsScanned, mailsScanned: mails.length, linesScanned, findings };
}
