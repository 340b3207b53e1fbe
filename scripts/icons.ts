// Renders the app icons in public/ from public/icon.svg with the Chromium the browser tests
// use: `npx tsx scripts/icons.ts` after changing the SVG. Writes the PNGs, a full-bleed
// variant for iOS and Android's masks, and favicon.ico (PNG images in an ICO container).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";

const PUBLIC = path.join(__dirname, "..", "public");
const source = readFileSync(path.join(PUBLIC, "icon.svg"), "utf8");

/**
 * iOS rounds the corners itself and Android crops maskable icons to a circle of 80 % of the
 * width: square corners, and the glyph shrunk into that safe zone.
 */
function fullBleed(svg: string, glyphScale: number): string {
  const offset = (512 * (1 - glyphScale)) / 2;
  return svg
    .replace(/ rx="\d+"/, "")
    .replace('<g id="glyph" transform="', `<g id="glyph" transform="translate(${offset} ${offset}) scale(${glyphScale}) `);
}

/** An ICO file holding PNG images (supported by every browser since IE). */
function ico(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((i) => i.png)]);
}

async function main(): Promise<void> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
  try {
    const page = await browser.newPage();
    const render = async (svg: string, size: number): Promise<Buffer> => {
      await page.setViewportSize({ width: size, height: size });
      const sized = svg.replace("<svg ", `<svg width="${size}" height="${size}" `);
      await page.setContent(`<html><body style="margin:0">${sized}</body></html>`);
      return page.screenshot({ omitBackground: true });
    };
    const favicon = [];
    for (const size of [16, 32, 48]) favicon.push({ size, png: await render(source, size) });
    const outputs: [string, Buffer][] = [
      ["icon-192.png", await render(source, 192)],
      ["icon-512.png", await render(source, 512)],
      ["icon-maskable-512.png", await render(fullBleed(source, 0.8), 512)],
      ["apple-touch-icon.png", await render(fullBleed(source, 0.9), 180)],
      ["favicon.ico", ico(favicon)],
    ];
    for (const [name, data] of outputs) {
      writeFileSync(path.join(PUBLIC, name), data);
      console.log(`public/${name}: ${data.length} bytes`);
    }
  } finally {
    await browser.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
