/** What an MCP tool is: its name, its scope, its arguments' schema, its annotations, and its call. */
import type { GenericSchema, InferOutput } from 'valibot';
import type { AgentGrant, AgentScope } from '../domain/agent-scopes.ts';
import type { Merchant, Role } from '../domain/merchants.ts';

/** What a tool call acts with: the token's grant, and its merchant and the person's role as read with the token. */
export interface ToolContext {
  readonly grant: AgentGrant;
  readonly merchant: Merchant;
  readonly role: Role;
}

/** A tool's call: its validated arguments in, the result (a JSON object) out; a refusal is a thrown DomainError. */
export type ToolCall<S extends GenericSchema> = (args: InferOutput<S>, context: ToolContext) => Promise<Record<string, unknown>>;

/** The MCP tool annotations: hints a host uses to decide what to confirm with the human. */
export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

export interface AgentTool<S extends GenericSchema = GenericSchema> {
  readonly name: string;
  readonly title: string;
  /** What the tool does, for the model; the list adds the scope it needs. */
  readonly description: string;
  /** The scope a token needs to call it. */
  readonly scope: AgentScope;
  readonly arguments: S;
  readonly annotations: ToolAnnotations;
  readonly call: ToolCall<S>;
}

/** A tool, typed by its own arguments' schema, as one of the list. */
export const tool = <S extends GenericSchema>(definition: AgentTool<S>): AgentTool => definition as unknown as AgentTool;

/** Annotations of a tool that only reads. */
export const readOnly: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
