// Slash commands the composer can offer. The list is empty until commands such as
// /compact exist; the composer already asks this module what matches what was typed.

export interface ComposerCommand {
  /** Without the slash, e.g. "compact". */
  name: string;
  description: string;
  /** Placeholder for what may follow the command, e.g. "[instructions]". */
  args?: string;
}

export const COMMANDS: readonly ComposerCommand[] = [];

/** Commands whose name starts with what follows the slash; only while the first word is still being typed. */
export function matchCommands(text: string, commands: readonly ComposerCommand[] = COMMANDS): ComposerCommand[] {
  const m = /^\/(\S*)$/.exec(text);
  if (!m) return [];
  const prefix = m[1].toLowerCase();
  return commands.filter((c) => c.name.toLowerCase().startsWith(prefix));
}
