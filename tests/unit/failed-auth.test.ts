// Which client a request counts against for failed API keys (lib/limits/failed-auth.ts).
import { afterEach, describe, expect, it } from "vitest";
import { clientAddress, normalizeAddress } from "@/lib/limits/failed-auth";

const from = (forwardedFor?: string) => new Request("http://127.0.0.1:3000/api/session", { headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {} });

afterEach(() => {
  delete process.env.THREADKEEPER_TRUST_PROXY;
});

describe("normalizeAddress", () => {
  it.each([
    ["203.0.113.5", "203.0.113.5"],
    ["203.0.113.5:4411", "203.0.113.5"],
    ["::ffff:203.0.113.5", "203.0.113.5"],
    ["[2001:db8:1:2::7]:443", "2001:db8:1:2::/64"],
    ["2001:DB8:1:2:aa:bb:cc:dd", "2001:db8:1:2::/64"],
    ["2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["1::2:3:4:5:1.2.3.4", "1:0:2:3::/64"],
    ["not an address", "not an address"],
  ])("%s counts as %s", (raw, expected) => {
    expect(normalizeAddress(raw)).toBe(expected);
  });
});

describe("clientAddress", () => {
  it("is the last X-Forwarded-For entry without a trusted proxy (Next.js writes the socket's there)", () => {
    expect(clientAddress(from("198.51.100.1"))).toBe("198.51.100.1");
    expect(clientAddress(from("10.0.0.1, 198.51.100.1"))).toBe("198.51.100.1");
    expect(clientAddress(from())).toBe("unknown");
  });

  it("is the entry the outermost of THREADKEEPER_TRUST_PROXY proxies appended", () => {
    process.env.THREADKEEPER_TRUST_PROXY = "2";
    expect(clientAddress(from("1.1.1.1, 198.51.100.1, 10.0.0.2"))).toBe("198.51.100.1");
    // Fewer entries than proxies: the request did not come through them all; the first is all there is.
    expect(clientAddress(from("198.51.100.1"))).toBe("198.51.100.1");
  });
});
