import { LOCAL_USER_ID } from "@/lib/db";

export interface Caller {
  userId: string;
}

/**
 * Who is calling. Local (embedded) mode has exactly one user and no sign-in; the server
 * listens on 127.0.0.1 only there. Supabase Auth sign-in arrives with multi-user tenancy.
 */
export async function getCaller(_req: Request): Promise<Caller> {
  return { userId: LOCAL_USER_ID };
}
