import { z } from "zod";
import { group } from "../endpoint";
import { named } from "../meta";

/** A JSON-RPC 2.0 message of the Model Context Protocol; its grammar is the MCP specification's. */
const jsonRpcMessage = named(
  "JsonRpcMessage",
  z.looseObject({ jsonrpc: z.literal("2.0") }),
  "A JSON-RPC 2.0 request, notification or response of the Model Context Protocol.",
);

export const mcp = group(
  "MCP",
  "A Model Context Protocol server (Streamable HTTP, stateless, JSON answers) for Claude Code, Claude Desktop and other MCP clients: tools search_history, search_memory, list_sessions, get_session_context (read) and save_memory, save_checkpoint, compact_session (write), and the prompt resume_session. Authenticate with an API key (`Authorization: Bearer tk_live_…`); each tool needs its scope.",
  {
    mcpMessage: {
      method: "POST",
      path: "/api/mcp",
      summary: "Send MCP JSON-RPC messages",
      description: "Send `Accept: application/json, text/event-stream`. Listing tools needs `read`; each write tool needs `write`, and answers a tool error without it.",
      // Tools check their own scope: a read-only key may still list and call the read tools.
      scope: "read",
      dialect: "mcp",
      body: z.union([jsonRpcMessage, z.array(jsonRpcMessage)]),
      bodyLimit: 1024 * 1024,
      responses: {
        200: { description: "The JSON-RPC response(s).", json: z.union([jsonRpcMessage, z.array(jsonRpcMessage)]) },
        202: { description: "Accepted: the message was a notification or a response, which get no answer." },
      },
    },
  },
);
