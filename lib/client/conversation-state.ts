// The shape of the conversation store (lib/client/conversation-store.ts): the open session's
// messages and compactions, the send in progress, and what opening a session resets.
import type { ApiErrorJson, CompactionJson, MessageJson, WindowJson } from "@/lib/contract";
import type * as contextApi from "@/lib/client/api/context";
import type { CommandFeedback } from "@/lib/client/conversation-helpers";
import type { OutgoingFile } from "@/lib/client/attachments";
import type { StreamBlock } from "@/lib/client/stream-blocks";

/** "finishing": the reply is saved; the turn's status is still to come. */
export type SendPhase = "idle" | "sending" | "streaming" | "finishing";

export interface Notice {
  kind: string;
  message: string;
}

type ApiErrorInfo = ApiErrorJson["error"];

export interface SendFailure extends ApiErrorInfo {
  /** The text that was being sent. */
  text: string;
  /** The files it carried (their chips stay on the composer too). */
  files?: readonly OutgoingFile[];
  /**
   * The server saved the user message before failing: Retry asks it to answer that
   * message again instead of posting a duplicate.
   */
  saved: boolean;
}

/** One POST of a message (or a retry) and what its stream has told us so far. */
export interface Attempt {
  sessionId: string;
  text: string;
  files?: readonly OutgoingFile[];
  saved: boolean;
  finished: boolean;
  /** The turn's status arrived: the composer was handed back; the stream may still report a compaction. */
  released: boolean;
  /** This send turned on the "condensing in the background" indicator. */
  background: boolean;
}

export interface ConversationState {
  sessionId: string | null;
  messages: MessageJson[];
  window: WindowJson | null;
  hasMore: boolean;
  loading: boolean;
  loadingOlder: boolean;
  loadError: string | null;

  phase: SendPhase;
  /** Typed text shown until the server confirms it as a saved user message. */
  pendingText: string | null;
  /** The files sent with it, shown with it meanwhile. */
  pendingFiles: readonly OutgoingFile[];
  /** Reply text streamed so far, until the saved assistant message replaces it. */
  streamingText: string;
  /** The reply's blocks so far (thinking, text, tool calls), from the stream's block events. */
  streamingBlocks: readonly StreamBlock[];
  /**
   * How long each thinking block of a reply took (ms, in order), by message id: timed on this
   * client while the reply streamed; a reply loaded from the server has none.
   */
  thinkingTimes: Readonly<Record<string, readonly (number | null)[]>>;
  notices: Notice[];
  sendError: SendFailure | null;

  protecting: Record<string, boolean>;
  protectError: string | null;

  /** The session's compactions, oldest first (reverted ones included). */
  compactions: CompactionJson[];
  /** A manual compaction (/compact) is running. */
  compacting: boolean;
  /** The last reply left usage at the threshold and its stream is still open: an automatic compaction may be running. */
  autoCompacting: boolean;
  commandFeedback: CommandFeedback | null;
  undoing: Record<string, boolean>;
  undoError: string | null;

  open(sessionId: string | null): Promise<void>;
  loadOlder(): Promise<void>;
  /** Sends typed text and/or files (uploaded already); either may be empty, not both. */
  send(text: string, files?: readonly OutgoingFile[]): Promise<void>;
  /** The open session's id, creating the session first in a new conversation (a file needs one to be uploaded to). */
  ensureSession(): Promise<string>;
  retry(): Promise<void>;
  /** Stops the reply being written; what was written is kept, marked interrupted. */
  stop(): Promise<void>;
  /** Answers a reply's message anew (the last reply when none is named); the earlier reply stays as an earlier version. */
  regenerate(replyId?: string): Promise<void>;
  /** Resends one of your messages changed: a new version from it, the original and the turns after it kept as the earlier one. */
  editMessage(messageId: string, text: string): Promise<void>;
  /** A stop was asked for and the stream has not ended yet. */
  stopping: boolean;
  toggleProtect(message: MessageJson): Promise<void>;
  /** Condenses older turns now (the /compact command). */
  compact(request?: contextApi.CompactRequest): Promise<void>;
  undoCompaction(compactionId: string): Promise<void>;
  setCommandFeedback(feedback: CommandFeedback | null): void;
  /** Saves a checkpoint of the open session (/save-progress, /checkpoint). */
  saveCheckpoint(label?: string): Promise<void>;
}

/**
 * What opening a session resets (and what the store starts with). `protecting` is kept:
 * a protect request still in flight removes its own entry when it ends.
 */
export const SESSION_START = {
  messages: [],
  window: null,
  hasMore: false,
  // A page still loading for the previous session must not block paging in this one.
  loadingOlder: false,
  loadError: null,
  phase: "idle",
  pendingText: null,
  pendingFiles: [],
  streamingText: "",
  streamingBlocks: [],
  notices: [],
  sendError: null,
  protectError: null,
  compactions: [],
  compacting: false,
  autoCompacting: false,
  commandFeedback: null,
  undoing: {},
  undoError: null,
  stopping: false,
} satisfies Partial<ConversationState>;
