/**
 * What the MCP server says of itself, in `initialize` and in its server cards. Light on purpose: the server-card
 * functions carry it without the MCP SDK (a unit test holds the protocol versions to the SDK's).
 */

/** The server's identity (the interface version is the spec's). */
export const SERVER_INFO = { name: 'mor-payments', title: 'Payments platform (merchant of record)', version: '1.0.0' } as const;

/** A line on what the server is for (at most 100 characters, as server cards allow). */
export const SERVER_DESCRIPTION = 'Onboard merchants, build their catalog and sell through hosted checkout on a payments platform.';

/** The MCP protocol versions the endpoint speaks: the SDK's `SUPPORTED_PROTOCOL_VERSIONS`, newest first. */
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'] as const;
