import { route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { handleMcp } from "@/lib/mcp/server";

export const dynamic = "force-dynamic";

export const POST = route(api.mcpMessage, async ({ req, body, caller }) => handleMcp(req, body, caller));
