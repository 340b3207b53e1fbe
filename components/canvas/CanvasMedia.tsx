"use client";
// An image, audio or video Claude put on the canvas by https URL (elements.ts admits nothing
// else). It loads only once the user chose to show media from its host (lib/client/media-hosts.ts):
// the address is Claude's to write, and could carry what it was shown to whoever serves it.
// Images then load without a referrer, so the host does not learn which conversation showed
// them; audio and video have no such attribute and fall back to the page's policy
// (strict-origin-when-cross-origin: the origin only, never the path). A broken address says
// so instead of leaving an empty box.
import { useState } from "react";
import { ExternalLink, Eye, ImageOff } from "lucide-react";
import type { MediaElement } from "@/lib/contract/canvas-elements";
import { useMediaHosts } from "@/lib/client/media-hosts";

export function CanvasMedia({ media }: { media: MediaElement }) {
  const host = hostOf(media.url);
  const shown = useMediaHosts((s) => s.allowed.has(host));
  const allow = useMediaHosts((s) => s.allow);
  return <MediaView media={media} shown={shown} onShow={() => allow(host)} />;
}

export function MediaView({ media, shown, onShow }: { media: MediaElement; shown: boolean; onShow(): void }) {
  const [failed, setFailed] = useState(false);
  const host = hostOf(media.url);
  const label = media.alt ?? media.title ?? `${media.media_type} from ${host}`;
  if (!shown) {
    return (
      <div className="space-y-2 rounded-lg bg-zinc-50 px-3 py-2.5 text-xs text-zinc-600 dark:bg-zinc-800/60 dark:text-zinc-300" data-testid="canvas-media-held">
        {media.alt && <p className="break-words text-sm text-zinc-800 dark:text-zinc-100">{media.alt}</p>}
        <p className="break-words">
          Not loaded yet: showing this {media.media_type} sends its address, written by Claude, to {host}.
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="button"
            onClick={onShow}
            data-testid="canvas-media-show"
            className="inline-flex items-center gap-1 rounded-md border border-zinc-300 bg-white px-2 py-1 font-medium text-zinc-800 hover:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800"
          >
            <Eye aria-hidden className="h-3.5 w-3.5" />
            Show media from {host}
          </button>
          <SourceLink url={media.url} />
        </div>
      </div>
    );
  }
  if (failed) {
    return (
      <div className="space-y-2 rounded-lg bg-zinc-50 px-3 py-2.5 text-xs text-zinc-600 dark:bg-zinc-800/60 dark:text-zinc-300">
        {media.alt && <p className="break-words text-sm text-zinc-800 dark:text-zinc-100">{media.alt}</p>}
        <div className="flex items-center gap-2">
          <ImageOff aria-hidden className="h-4 w-4 shrink-0" />
          <span className="min-w-0 flex-1 break-words">Could not load this {media.media_type} from {host}.</span>
          <SourceLink url={media.url} />
        </div>
      </div>
    );
  }
  return (
    <figure className="space-y-1.5">
      {media.media_type === "image" && (
        // A plain img: next/image would need every host Claude might use configured in advance.
        <img
          src={media.url}
          alt={label}
          referrerPolicy="no-referrer"
          loading="lazy"
          onError={() => setFailed(true)}
          className="max-h-96 w-full rounded-lg bg-zinc-100 object-contain dark:bg-zinc-800"
        />
      )}
      {media.media_type === "audio" && (
        <audio controls preload="metadata" src={media.url} aria-label={label} onError={() => setFailed(true)} className="w-full" />
      )}
      {media.media_type === "video" && (
        <video
          controls
          preload="metadata"
          src={media.url}
          aria-label={label}
          onError={() => setFailed(true)}
          className="max-h-96 w-full rounded-lg bg-black"
        />
      )}
      <figcaption className="flex items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
        {media.alt && <span className="min-w-0 flex-1 break-words">{media.alt}</span>}
        <SourceLink url={media.url} />
      </figcaption>
    </figure>
  );
}

function SourceLink({ url }: { url: string }) {
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className="ml-auto inline-flex shrink-0 items-center gap-1 text-sky-700 hover:underline dark:text-sky-400"
    >
      {hostOf(url)}
      <ExternalLink aria-hidden className="h-3 w-3" />
    </a>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "the web";
  }
}
