"use client";
// An image in a message or a tool result. An inline (base64) image shows as a thumbnail that
// grows on request; an image by address is not loaded by itself (its address could carry what
// Claude was shown to whoever serves it), so it shows as a link. A stored file (one the user
// attached here) is this server's own, and shows as its thumbnail.
import { useState } from "react";
import { ImageIcon } from "lucide-react";
import { asRecord, domainOf, safeHref, storedFileId, str, type Loose } from "@/lib/client/content-blocks";
import { StoredImage } from "@/components/chat/blocks/FileBlocks";

const IMAGE_TYPES = /^image\/(png|jpe?g|gif|webp)$/;

export function ImageThumb({ block }: { block: Loose }) {
  const stored = storedFileId(block);
  return stored ? <StoredImage block={block} fileId={stored} /> : <InlineImage block={block} />;
}

function InlineImage({ block }: { block: Loose }) {
  const [large, setLarge] = useState(false);
  const source = asRecord(block.source) ?? {};
  const media = str(source.media_type) ?? "";
  const data = str(source.data);
  if (str(source.type) === "base64" && data && IMAGE_TYPES.test(media)) {
    return (
      <button
        type="button"
        data-testid="image-thumb"
        aria-pressed={large}
        aria-label={large ? "Shrink image" : "Enlarge image"}
        onClick={() => setLarge((v) => !v)}
        className="block max-w-full overflow-hidden rounded-lg border border-zinc-200 bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-950"
      >
        <img src={`data:${media};base64,${data}`} alt="" className={`block w-auto max-w-full object-contain ${large ? "max-h-[32rem]" : "max-h-40"}`} />
      </button>
    );
  }
  const href = safeHref(source.url);
  const label = href ? `Image · ${domainOf(href)}` : str(source.file_id) ? "Image · uploaded file" : "Image";
  const chip = "inline-flex max-w-full items-center gap-1.5 rounded-lg border border-zinc-200 bg-white px-2.5 py-1.5 text-xs text-zinc-700 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300";
  const content = (
    <>
      <ImageIcon aria-hidden className="h-4 w-4 shrink-0" />
      <span className="truncate">{label}</span>
    </>
  );
  return href ? (
    <a data-testid="image-link" href={href} target="_blank" rel="noopener noreferrer nofollow" title={href} className={`${chip} hover:bg-zinc-50 dark:hover:bg-zinc-800`}>
      {content}
    </a>
  ) : (
    <span data-testid="image-link" className={chip}>
      {content}
    </span>
  );
}
