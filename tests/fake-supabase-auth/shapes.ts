/**
 * GoTrue's JSON for a user. Optional timestamps are left out while unset (GoTrue's `omitempty`);
 * supabase-js and apps test for presence, e.g. `email_confirmed_at` to tell a confirmed user.
 */
import type { UserRecord } from "./store";

const iso = (d: Date | null): string | undefined => d?.toISOString();

export function userJson(user: UserRecord): Record<string, unknown> {
  const identityData = { email: user.email, email_verified: user.emailConfirmedAt !== null, phone_verified: false, sub: user.id };
  const identities =
    user.identityId === ""
      ? []
      : [
          {
            identity_id: user.identityId,
            id: user.id,
            user_id: user.id,
            identity_data: identityData,
            provider: "email",
            last_sign_in_at: iso(user.lastSignInAt ?? user.createdAt),
            created_at: iso(user.createdAt),
            updated_at: iso(user.updatedAt),
            email: user.email,
          },
        ];
  const json: Record<string, unknown> = {
    id: user.id,
    aud: "authenticated",
    role: "authenticated",
    email: user.email,
    email_confirmed_at: iso(user.emailConfirmedAt),
    phone: "",
    confirmation_sent_at: iso(user.confirmationSentAt),
    confirmed_at: iso(user.emailConfirmedAt),
    recovery_sent_at: iso(user.recoverySentAt),
    new_email: user.newEmail ?? undefined,
    email_change_sent_at: iso(user.emailChangeSentAt),
    last_sign_in_at: iso(user.lastSignInAt),
    app_metadata: user.appMetadata,
    user_metadata: user.userMetadata,
    identities,
    created_at: iso(user.createdAt),
    updated_at: iso(user.updatedAt),
    is_anonymous: false,
  };
  for (const key of Object.keys(json)) if (json[key] === undefined) delete json[key];
  return json;
}
