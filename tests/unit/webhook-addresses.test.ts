// Which addresses a webhook may reach in SaaS mode (lib/webhooks/addresses.ts).
import { describe, expect, it } from "vitest";
import { isPublicAddress, publicOnlyLookup } from "@/lib/webhooks/addresses";

describe("webhook addresses", () => {
  it.each([
    ["8.8.8.8", true],
    ["1.1.1.1", true],
    ["172.15.255.255", true],
    ["172.32.0.1", true],
    ["100.128.0.1", true],
    ["2606:4700:4700::1111", true],
    ["127.0.0.1", false],
    ["127.255.0.9", false],
    ["10.1.2.3", false],
    ["172.16.0.1", false],
    ["172.31.255.255", false],
    ["192.168.1.1", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["0.0.0.0", false],
    ["198.18.0.1", false],
    ["224.0.0.1", false],
    ["255.255.255.255", false],
    ["::1", false],
    ["::", false],
    ["fe80::1", false],
    ["fd00:ec2::254", false],
    ["::ffff:127.0.0.1", false],
    ["::ffff:169.254.169.254", false],
    ["64:ff9b::a00:1", false],
    ["64:ff9b::808:808", false],
    ["64:ff9b:1::a00:1", false],
    // 6to4: as public as the IPv4 address it carries.
    ["2002:7f00:1::1", false],
    ["2002:a01:203::", false],
    ["2002:a9fe:a9fe::1", false],
    ["2002:c0a8:101:0:0:0:0:1", false],
    ["2002:ac10::1", false],
    ["2002:808:808::1", true],
    // Teredo: the client address is obfuscated, so the whole prefix.
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", false],
    ["2001::1", false],
    // IPv4-compatible (deprecated, still routed to the IPv4 address by some stacks), and IPv4-translated.
    ["::127.0.0.1", false],
    ["::a9fe:a9fe", false],
    ["::8.8.8.8", false],
    ["::ffff:0:10.0.0.1", false],
    ["::ffff:8.8.8.8", false],
    ["3fff::1", false],
    ["2001:4860:4860::8888", true],
    ["ff02::1", false],
    ["localhost", false],
    ["example.com", false],
  ])("%s is public: %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it("refuses a name that resolves to loopback, whichever way the connection asks", async () => {
    const lookup = (all: boolean) =>
      new Promise((resolve, reject) => publicOnlyLookup("localhost", { all }, (err, address) => (err ? reject(err) : resolve(address))));
    await expect(lookup(false)).rejects.toMatchObject({ code: "EADDRNOTPUBLIC" });
    await expect(lookup(true)).rejects.toThrow(/^refused: localhost resolves to/);
  });
});
