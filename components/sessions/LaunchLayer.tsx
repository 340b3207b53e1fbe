"use client";
// On launch without a session in the URL: the recovery prompt after a crash, otherwise
// the session picker.
import { useEffect } from "react";
import { useLaunchStore } from "@/lib/client/launch-store";
import { sessionIdFromUrl } from "@/lib/client/sessions-store";
import { RecoveryPrompt } from "@/components/sessions/RecoveryPrompt";
import { SessionPicker } from "@/components/sessions/SessionPicker";

let started = false;

export function LaunchLayer() {
  useEffect(() => {
    if (started) return;
    started = true;
    if (sessionIdFromUrl()) void useLaunchStore.getState().loadProjects();
    else void useLaunchStore.getState().start();
  }, []);
  return (
    <>
      <RecoveryPrompt />
      <SessionPicker />
    </>
  );
}
