/**
 * The Secrets Manager of the local stack: an HTTP server on loopback answering the one call the functions make,
 * `GetSecretValue` (JSON 1.1, `X-Amz-Target: secretsmanager.GetSecretValue`), for the deployment keys a deployed stack
 * keeps there (the webhook signing key, the card fingerprint key), so the local functions read them as deployed ones
 * do: by the ARN in their environment, once a container. As Secrets Manager does, it takes only requests signed with
 * the local functions' key over the request as sent (./sigv4.ts), and answers a secret it does not hold
 * `ResourceNotFoundException`.
 */
import type http from 'node:http';
import { bodyOf, emulatorServer, listenOnLoopback, type LoopbackServer } from './loopback.ts';
import { type AwsRefusal, signatureRefusal } from './sigv4.ts';

/** A secret the local Secrets Manager holds: its ARN, its name and its string. */
export interface LocalSecret {
  readonly arn: string;
  readonly name: string;
  readonly value: string;
}

/** Starts the local Secrets Manager on loopback (`port` 0: any free port) holding `secrets`; rejects when the port is taken. */
export async function startSecretsServer(
  port: number,
  options: { readonly credentials: { accessKeyId: string; secretAccessKey: string }; readonly secrets: readonly LocalSecret[] },
): Promise<LoopbackServer> {
  const created = Date.now() / 1000;
  const answer = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
    res.end(JSON.stringify(body));
  };
  const refuse = (res: http.ServerResponse, r: AwsRefusal) => answer(res, r.status, { __type: r.type, message: r.message });

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    const body = await bodyOf(req);
    const refusal = await signatureRefusal(
      { service: 'secretsmanager', status: 400 },
      req.method ?? 'GET',
      url,
      req.headers,
      body,
      options.credentials,
      Date.now(),
    );
    if (refusal) return refuse(res, refusal);
    const target = String(req.headers['x-amz-target'] ?? '');
    if (req.method !== 'POST' || url.pathname !== '/' || target !== 'secretsmanager.GetSecretValue') {
      return refuse(res, {
        status: 400,
        type: 'UnknownOperationException',
        message: `${target || 'No operation'} is not an operation of this Secrets Manager`,
      });
    }
    let secretId: unknown;
    try {
      secretId = (JSON.parse(body) as { SecretId?: unknown }).SecretId;
    } catch {
      return refuse(res, { status: 400, type: 'SerializationException', message: 'The request body is not JSON.' });
    }
    const secret = options.secrets.find((s) => s.arn === secretId || s.name === secretId);
    if (!secret) return refuse(res, { status: 400, type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." });
    return answer(res, 200, {
      ARN: secret.arn,
      Name: secret.name,
      VersionId: '00000000-0000-4000-8000-000000000001',
      SecretString: secret.value,
      VersionStages: ['AWSCURRENT'],
      CreatedDate: created,
    });
  };

  const server = emulatorServer(handle, (res, e) => refuse(res, { status: 500, type: 'InternalServiceError', message: String(e) }));
  return listenOnLoopback(server, port, 'Secrets Manager', 'SECRETS_PORT');
}
