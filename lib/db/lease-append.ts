import "server-only";
import { notFound } from "@/lib/errors";
import { recordCarried } from "./files";
import type { Tx } from "./driver";
import { INSERT_FROM_SLOT, messageFromJson, messageParams, SLOT_SET, type MessageRow, type NewMessage } from "./messages";
import { LEASE_FREE, leaseSet, SESSION_COLUMNS, type SessionRow } from "./sessions";
import { withInputsOf, withInputsSql, type ContextInputs, type SessionWithInputsRow } from "./settings";

export type LeasedMessage =
  | { kind: "taken"; message: MessageRow; session: SessionRow; inputs: ContextInputs }
  /** Another turn holds the lease. */
  | { kind: "busy" }
  /** The lease is free and the message's idempotency key already stored (its turn has finished): a replay. */
  | { kind: "duplicate" };

/**
 * A new turn's start in one statement: the lease taken, a pending stop cleared, the message
 * appended, and the session as it then stands returned with its context's inputs. Nothing is
 * written unless the lease was free and the idempotency key (if any) is new; a 404 when the
 * session is not the user's. The session's row is updated once, so its keys are checked once.
 */
export async function leaseAndAppend(
  tx: Tx,
  userId: string,
  sessionId: string,
  lease: { id: string; ttlMs: number },
  m: NewMessage,
): Promise<LeasedMessage> {
  const duplicate = `$10::text is not null and exists (select 1 from messages d where d.session_id = $1 and d.idempotency_key = $10::text)`;
  const [row] = await tx.query<Partial<SessionWithInputsRow> & { message: string | null; free: boolean | null; duplicate: boolean }>(
    `with slot as (
       update sessions set ${SLOT_SET}, ${leaseSet("$15", "$16")}, stop_requested_at = null
       where id = $1 and user_id = $2 and ${LEASE_FREE} and not (${duplicate})
       returning ${SESSION_COLUMNS}),
     m as (${INSERT_FROM_SLOT})
     select w.*, (select row_to_json(m)::text from m) as message,
       (select ${LEASE_FREE} from sessions where id = $1 and user_id = $2) as free, ${duplicate} as duplicate
     from (select 1) one left join (${withInputsSql("select * from slot", "$2")}) w on true`,
    [...messageParams(userId, sessionId, m), lease.id, lease.ttlMs],
  );
  const { message, free, duplicate: stored, ...session } = row;
  if (message !== null) {
    const taken = messageFromJson(message);
    await recordCarried(tx, userId, sessionId, [taken]);
    return { kind: "taken", message: taken, ...withInputsOf(session as SessionWithInputsRow) };
  }
  if (free === null) throw notFound("Session", sessionId);
  // A duplicate of a turn still running waits for the lease, as any send does, and is replayed after.
  return free && stored ? { kind: "duplicate" } : { kind: "busy" };
}
