/** What the browser needs to know about sign-in, handed over by the page at request time. */
export interface AccountInfo {
  mode: "local" | "supabase";
  /** The signed-in user's email (SaaS mode). */
  email: string | null;
  /** How the browser reaches Supabase Auth: read at request time, so one build serves both modes. */
  supabase: { url: string; publishableKey: string; storageKey: string } | null;
}
