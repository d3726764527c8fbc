/**
 * One MCP request, end to end (its caller already authenticated by `authenticateAgentRequest`):
 * 1. the JSON-RPC body is read once; a `tools/call` of a tool whose scope the token lacks is refused at the HTTP
 *    level, 403 `insufficient_scope` with the challenge an OAuth client steps up on (the SDK never sees it);
 * 2. a NEW SDK `Server` and stateless `WebStandardStreamableHTTPServerTransport` (no session id, JSON answers: API
 *    Gateway does not stream) are made for this request alone — the SDK refuses to reuse a stateless transport — the
 *    server's handlers closing over this request's grant;
 * 3. the transport answers the web `Request`, and its `Response` becomes the route's reply.
 *
 * Tools (`tools.ts`) are listed from their valibot schemas as JSON Schema (built once per container) and called with
 * their arguments validated: bad arguments, a refusal of the platform's rules and an unexpected failure are all tool
 * results with `isError` (the code and message), never a crash. Every call is logged: tool, token id, outcome — never
 * the arguments (personal data) nor any secret.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, type CallToolResult, ErrorCode, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { agentScopeDescriptions, type AgentScope } from '../domain/agent-scopes.ts';
import { DomainError } from '../domain/errors.ts';
import { config } from '../platform/config.ts';
import { jsonSchemaConversion } from '../platform/http/json-schema.ts';
import { bodyText, validated } from '../platform/http/request-middleware.ts';
import type { HttpEvent, Reply } from '../platform/http/types.ts';
import { logger } from '../platform/observability.ts';
import { insufficientScope } from './agent-errors.ts';
import { SERVER_INFO } from './server-info.ts';
import type { AgentPrincipal } from './agent-auth.service.ts';
import type { AgentTool, ToolContext } from './tool.ts';
import { agentTools, assertRole, rolesFor, toolsByName } from './tools.ts';

/**
 * How a tool is listed: its description ends with the roles it needs (a tool that changes the merchant) and its scope
 * and what it allows, which `_meta` also names (ChatGPT reads `securitySchemes`).
 */
function listed(t: AgentTool): Tool {
  const { $schema: _, ...inputSchema } = toJsonSchema(t.arguments, jsonSchemaConversion) as Record<string, unknown>;
  const roles = rolesFor(t);
  return {
    name: t.name,
    title: t.title,
    description: `${t.description}${roles ? ` Needs the role ${roles.join(' or ')}.` : ''} Scope: ${t.scope} (${agentScopeDescriptions[t.scope]}).`,
    inputSchema: inputSchema as Tool['inputSchema'],
    annotations: { title: t.title, ...t.annotations },
    _meta: { scope: t.scope, securitySchemes: [{ type: 'oauth2', scopes: [t.scope] }] },
  };
}

let toolList: Tool[] | undefined;

/** The `tools/list` answer: every tool, whatever the token's scopes (a call without its scope is refused, not hidden). */
export const listedTools = (): Tool[] => (toolList ??= agentTools.map(listed));

/** The server never asks the client for input (elicitation), so it validates no client answer: no Ajv is built per request. */
const noClientInput: jsonSchemaValidator = {
  getValidator: () => () => {
    throw new Error('This server asks its clients for no input');
  },
};

const instructionsFor = (p: AgentPrincipal) =>
  `Tools of a merchant-of-record payments platform (the ${config.stage} deployment): onboard merchants, build their catalog and sell. ` +
  `This connection acts on merchant ${p.merchant.id} as a member with the role ${p.role}, with the scopes ${p.grant.scopes.join(', ')}. ` +
  'A tool needing another scope is refused until the human grants it. search_payments_ai_docs answers questions about the platform.';

/** A tool result carrying `data`, as text for any model and as structured content. */
const success = (data: Record<string, unknown>): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data });

/** A tool error carrying the platform's code and message (and its details), so the model can correct itself. */
const failure = (code: string, message: string, details: Record<string, unknown> = {}): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: `${code}: ${message}` }],
  structuredContent: { error: { code, message, details } },
});

type Outcome = 'ok' | 'invalid_arguments' | 'refused' | 'failed' | 'insufficient_scope';

function logCall(tool: string, context: Pick<ToolContext, 'grant'>, outcome: Outcome, code: string | null, startedAt: number): void {
  const { grant } = context;
  logger.info('mcp tool call', {
    tool,
    tokenId: grant.tokenId,
    tokenKind: grant.kind,
    clientId: grant.clientId,
    merchantId: grant.merchantId,
    outcome,
    ...(code ? { code } : {}),
    durationMs: Math.round(performance.now() - startedAt),
  });
}

/** The codes of arguments refused before the tool runs: failing its schema, or nested deeper than the depth rule allows. */
const argumentCodes = new Set(['request.invalid_arguments', 'request.too_deep']);

/** Calls the tool `name` with `rawArguments`: its result, or a tool error; an unknown tool is a JSON-RPC invalid-params error. */
export async function callTool(name: string, rawArguments: unknown, context: ToolContext): Promise<CallToolResult> {
  const t = toolsByName.get(name);
  // The JSON-RPC error's message is this one alone (an McpError's would repeat its code in it).
  if (!t) throw Object.assign(new Error(`Unknown tool: ${name}`), { code: ErrorCode.InvalidParams });
  const startedAt = performance.now();
  if (!context.grant.scopes.includes(t.scope)) {
    logCall(name, context, 'insufficient_scope', 'insufficient_scope', startedAt);
    return failure('insufficient_scope', `This tool needs the scope ${t.scope}, which this token was not granted.`);
  }
  try {
    assertRole(t, context);
    const args = validated(t.arguments, rawArguments ?? {}, 'request.invalid_arguments', 'arguments');
    const result = await t.call(args, context);
    logCall(name, context, 'ok', null, startedAt);
    return success(result);
  } catch (e) {
    if (e instanceof DomainError) {
      logCall(name, context, argumentCodes.has(e.code) ? 'invalid_arguments' : 'refused', e.code, startedAt);
      return failure(e.code, e.code === 'request.invalid_arguments' ? `Invalid arguments: ${e.message}` : e.message, e.details);
    }
    logger.error('mcp tool failed', e as Error);
    logCall(name, context, 'failed', 'internal_error', startedAt);
    return failure('internal_error', 'Something went wrong on our side; the call may be retried.');
  }
}

/** The `tools/call` requests of a JSON-RPC message or batch: their tool names. */
function toolCallsOf(body: unknown): string[] {
  return (Array.isArray(body) ? body : [body]).flatMap((m) =>
    typeof m === 'object' && m !== null && m.method === 'tools/call' && typeof m.params?.name === 'string' ? [m.params.name as string] : [],
  );
}

/** The scopes the tools called in `body` need that `granted` lacks (unknown tools need none: the call answers them). */
export function missingScopes(body: unknown, granted: readonly AgentScope[]): AgentScope[] {
  const needed = toolCallsOf(body).flatMap((name) => {
    const scope = toolsByName.get(name)?.scope;
    return scope && !granted.includes(scope) ? [scope] : [];
  });
  return [...new Set(needed)];
}

/** The SDK server of one request, its handlers acting for `principal`, calling tools with their arguments as `sent`. */
function serverFor(principal: AgentPrincipal, sent: ReadonlyMap<JsonRpcId, unknown>): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: instructionsFor(principal),
    jsonSchemaValidator: noClientInput,
  });
  const context: ToolContext = { grant: principal.grant, merchant: principal.merchant, role: principal.role };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listedTools() }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callTool(request.params.name, sent.has(extra.requestId) ? sent.get(extra.requestId) : request.params.arguments, context),
  );
  server.onerror = (error) => logger.warn('mcp protocol error', { error: error.message });
  return server;
}

/** Request headers the web `Request` must not be given (the connection's own). */
const connectionHeaders = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade']);

function webRequest(event: HttpEvent, body: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined && !connectionHeaders.has(name.toLowerCase())) headers.set(name, value);
  }
  return new Request(`${config.publicOrigin}${event.rawPath}`, { method: 'POST', headers, body });
}

/** The transport's answer as the route's reply (its JSON body parsed again, as `route()` writes a JSON route's body itself). */
async function replyOf(response: Response): Promise<Reply> {
  const text = await response.text();
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'content-type' && name !== 'content-length') headers[name] = value;
  });
  return { status: response.status, headers, ...(text ? { body: JSON.parse(text) as unknown } : {}) };
}

const parsedJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** The parameters a `tools/call` must have before anything reads them: a tool's name, and its arguments as an object (or none). */
const toolCallParams = v.looseObject(
  {
    name: v.string('must be a string: the name of a tool (tools/list names them)'),
    arguments: v.optional(
      v.custom<Record<string, unknown>>(
        (x) => typeof x === 'object' && x !== null && !Array.isArray(x),
        "must be an object of the tool's arguments, or left out",
      ),
    ),
  },
  'must be an object naming the tool (name) and its arguments',
);

type JsonRpcId = string | number;

/**
 * The JSON-RPC answer to a `tools/call` message whose params are malformed (a numeric `name`, `arguments` that is an
 * array, a string or null): -32602 Invalid params naming what is wrong, as for an unknown tool, before the SDK's own
 * parse, which would call it an internal error. Anything else (another method, a message without an id) is the
 * transport's.
 */
function invalidToolCall(message: unknown): { jsonrpc: '2.0'; id: JsonRpcId; error: { code: number; message: string } } | undefined {
  const id = requestIdOf(message);
  const m = message as { jsonrpc?: unknown; method?: unknown; params?: unknown };
  if (id === undefined || m.jsonrpc !== '2.0' || m.method !== 'tools/call') return undefined;
  // An array is no object naming the tool, though valibot's object schemas take one.
  const parsed = v.safeParse(toolCallParams, Array.isArray(m.params) ? undefined : m.params);
  if (parsed.success) return undefined;
  const problems = parsed.issues.map((i) => `params${v.getDotPath(i) ? `.${v.getDotPath(i)}` : ''} ${i.message}`);
  return { jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${problems.join('; ')}` } };
}

/** The id of a request (a message with a method and an id a JSON-RPC id may be); undefined for anything else. */
function requestIdOf(m: unknown): JsonRpcId | undefined {
  const { id, method } = (typeof m === 'object' && m !== null ? m : {}) as { id?: unknown; method?: unknown };
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? id : undefined;
}

/** The ids more than one request of `messages` carries (a batch's answers are told apart by id alone). */
function repeatedIds(messages: readonly unknown[]): Set<JsonRpcId> {
  const seen = new Set<JsonRpcId>();
  const repeated = new Set<JsonRpcId>();
  for (const id of messages.map(requestIdOf)) {
    if (id !== undefined) (seen.has(id) ? repeated : seen).add(id);
  }
  return repeated;
}

/** -32600 Invalid Request for a request of a batch whose id another request of it carries too: neither is run. */
function repeatedIdRefusal(message: unknown, repeated: ReadonlySet<JsonRpcId>) {
  const id = requestIdOf(message);
  if (id === undefined || !repeated.has(id)) return undefined;
  const text = `Invalid Request: the id ${JSON.stringify(id)} is carried by more than one request of this batch; give each its own.`;
  return { jsonrpc: '2.0' as const, id, error: { code: ErrorCode.InvalidRequest, message: text } };
}

/**
 * The arguments of each `tools/call` in `messages` as sent, by request id (unique: repeated ones are refused). The SDK
 * rebuilds an arguments object when it parses the message, which turns an own `__proto__` key into the object's
 * prototype: the tools are called with the arguments as sent, so that such a key is refused as any argument the tool
 * does not have.
 */
function sentArguments(messages: readonly unknown[]): Map<JsonRpcId, unknown> {
  const sent = new Map<JsonRpcId, unknown>();
  for (const m of messages as Array<{ method?: unknown; params?: { arguments?: unknown } }>) {
    const id = requestIdOf(m);
    if (id !== undefined && m.method === 'tools/call') sent.set(id, m.params?.arguments);
  }
  return sent;
}

/**
 * The protocol version that ended JSON-RPC batches (a request's body is one message from it on). A client that names no
 * version is taken to speak 2025-03-26, as the specification asks, and may send a batch.
 */
const FIRST_VERSION_WITHOUT_BATCHES = '2025-06-18';

/** Answers one `POST /api/mcp` for `principal`. */
export async function answerMcpRequest(principal: AgentPrincipal, event: HttpEvent): Promise<Reply> {
  // Byte order marks before the JSON are dropped (the transport's own parsing drops one): the checks below and the
  // transport read the same messages, or neither can.
  const text = bodyText(event).replace(/^\uFEFF+/, '');
  // A body that is not JSON goes to the transport as is: it answers the JSON-RPC parse error.
  const body = parsedJson(text);
  const batch = Array.isArray(body);
  const version = event.headers['mcp-protocol-version'];
  if (batch && version !== undefined && version >= FIRST_VERSION_WITHOUT_BATCHES) {
    const message = `Invalid Request: MCP ${version} takes one JSON-RPC message a request, not a batch.`;
    return { status: 400, body: { jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message } } };
  }
  if (batch && body.length === 0) {
    return { status: 400, body: { jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message: 'Invalid Request: the batch is empty.' } } };
  }
  const messages: unknown[] = batch ? body : [body];
  // Malformed tool calls, and requests of a batch that share an id, are answered here, each in its place of a batch;
  // the rest go to the transport.
  const repeated = repeatedIds(messages);
  const invalid = messages.map((m) => repeatedIdRefusal(m, repeated) ?? invalidToolCall(m));
  const refused = invalid.filter((answer) => answer !== undefined);
  if (refused.length === messages.length) return { status: 200, body: batch ? refused : refused[0] };
  const passed = refused.length ? messages.filter((_, n) => !invalid[n]) : messages;
  const missing = missingScopes(passed, principal.grant.scopes);
  if (missing.length) {
    const startedAt = performance.now();
    for (const name of toolCallsOf(passed)) logCall(name, principal, 'insufficient_scope', 'insufficient_scope', startedAt);
    throw insufficientScope(missing, principal.grant.scopes);
  }
  const server = serverFor(principal, sentArguments(passed));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  let reply: Reply;
  try {
    reply = await replyOf(await transport.handleRequest(webRequest(event, text), body === undefined ? {} : { parsedBody: batch ? passed : body }));
  } finally {
    await server.close();
  }
  if (!batch || reply.status >= 300) return reply;
  // A batch is answered with an array (the transport answers a batch of one with its answer alone), with the answers
  // given here; a batch of notifications only is answered 202 with no body.
  const answers = [...(reply.body === undefined ? [] : Array.isArray(reply.body) ? reply.body : [reply.body]), ...refused];
  return answers.length ? { ...reply, status: 200, body: answers } : reply;
}
