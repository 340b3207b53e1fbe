"use client";
// The two settings panels: the open session's context settings (with "Save as my default"),
// and its system prompt; and the account's (defaults for new sessions, custom instructions,
// the Anthropic key in local mode, summary templates, API keys, file storage).
import { useSettingsPanel } from "@/lib/client/settings-panel-store";
import { useSessionsStore } from "@/lib/client/sessions-store";
import { useTemplatesStore } from "@/lib/client/templates-store";
import { SidePanel } from "@/components/ui/SidePanel";
import { AnthropicKeySection } from "@/components/settings/AnthropicKeySection";
import { ApiKeysSection } from "@/components/settings/ApiKeysSection";
import { ImportSection } from "@/components/settings/ImportSection";
import { FilesStorageSection } from "@/components/settings/FilesStorageSection";
import { CustomInstructionsSection, SystemPromptSection } from "@/components/settings/InstructionsSections";
import { SettingsForm } from "@/components/settings/SettingsForm";
import { TemplatesSection } from "@/components/settings/TemplatesSection";

const close = () => useSettingsPanel.getState().close();

export function SettingsPanel() {
  const open = useSettingsPanel((s) => s.open);
  const sessionId = useSessionsStore((s) => s.currentId);
  if (open === "session" && sessionId) return <SessionSettings sessionId={sessionId} />;
  if (open === "account") return <AccountSettings />;
  return null;
}

function SessionSettings({ sessionId }: { sessionId: string }) {
  return (
    <SidePanel title="Session settings" testId="settings-panel" closeLabel="Close settings" className="max-w-sm gap-4 bg-white dark:bg-zinc-900" onClose={close}>
      <SettingsForm sessionId={sessionId} />
      <SystemPromptSection key={sessionId} sessionId={sessionId} />
      <button
        type="button"
        data-testid="open-account-settings"
        onClick={() => useSettingsPanel.getState().show("account")}
        className="self-start text-sm text-sky-700 hover:underline dark:text-sky-400"
      >
        Account settings: defaults, templates, API keys…
      </button>
    </SidePanel>
  );
}

function AccountSettings() {
  const templates = useTemplatesStore((s) => s.templates);
  const templatesError = useTemplatesStore((s) => s.error);
  return (
    <SidePanel title="Account settings" testId="account-settings-panel" closeLabel="Close settings" className="max-w-sm gap-4 bg-white dark:bg-zinc-900" onClose={close}>
      <section aria-labelledby="defaults-title" className="flex flex-col gap-3">
        <h3 id="defaults-title" className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">
          Defaults for new sessions
        </h3>
        <SettingsForm sessionId={null} />
      </section>
      <CustomInstructionsSection />
      <AnthropicKeySection />
      <TemplatesSection templates={templates} loadError={templatesError} />
      <ApiKeysSection />
      <ImportSection />
      <FilesStorageSection />
    </SidePanel>
  );
}
