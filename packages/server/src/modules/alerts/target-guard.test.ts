import { describe, expect, it } from "vitest";
import { guardedLookup, isPrivateAddress, targetProblem } from "./target-guard.js";

describe("webhook target guard", () => {
  it("refuses loopback, link-local, private and special ranges in both families", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.20.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
    ]) {
      expect({ address, refused: isPrivateAddress(address) }).toEqual({ address, refused: true });
    }
    for (const address of ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "172.32.0.1"]) {
      expect({ address, refused: isPrivateAddress(address) }).toEqual({ address, refused: false });
    }
  });

  // Each embeds a private IPv4 address in an IPv6 form that some stacks route to it.
  const embedded = [
    "::127.0.0.1", // IPv4-compatible (::/96), as written and as URLs normalise it
    "::7f00:1",
    "::a9fe:a9fe", // 169.254.169.254
    "::ffff:7f00:1", // IPv4-mapped (::ffff:0:0/96), hex form
    "::ffff:c0a8:101",
    "::ffff:0:127.0.0.1", // IPv4-translated (::ffff:0:0:0/96)
    "::ffff:0:7f00:1",
    "::ffff:0:a00:1",
    "2002:7f00:1::", // 6to4 (2002::/16) of 127.0.0.1
    "2002:a00:1::1", // 6to4 of 10.0.0.1
    "2002:c0a8:101::1", // 6to4 of 192.168.1.1
    "2002:a9fe:a9fe::",
    "64:ff9b::a00:1", // NAT64 well-known prefix
    "64:ff9b:1::a00:1", // NAT64 local-use prefix
  ];

  it("refuses private IPv4 addresses embedded in IPv6: compatible, mapped, translated, 6to4, NAT64", () => {
    for (const address of embedded) {
      expect({ address, refused: isPrivateAddress(address) }).toEqual({ address, refused: true });
      expect({ address, problem: targetProblem(`http://[${address}]:8080/hook`, false) }).toEqual({
        address,
        problem: expect.stringMatching(/private/),
      });
    }
    // The same forms of public addresses are someone's real receiver.
    for (const address of ["::ffff:8.8.8.8", "::ffff:808:808", "2002:808:808::1", "2002:5db8:d822::1"]) {
      expect({ address, refused: isPrivateAddress(address) }).toEqual({ address, refused: false });
    }
  });

  it("refuses the embedded forms on the lookup a delivery connects with", async () => {
    for (const address of embedded) {
      const result = await new Promise<{ error: NodeJS.ErrnoException | null }>((resolve) =>
        guardedLookup(false)(address, {}, (error) => resolve({ error })),
      );
      expect({ address, code: result.error?.code }).toEqual({ address, code: "ETARGETREFUSED" });
    }
  });

  it("checks saved URLs: scheme, credentials, literal addresses and localhost", () => {
    expect(targetProblem("ftp://example.com/x", false)).toMatch(/http/);
    expect(targetProblem("not a url", false)).toMatch(/absolute/);
    expect(targetProblem("https://user:pw@example.com/x", false)).toMatch(/password/);
    expect(targetProblem("http://127.0.0.1:9000/hook", false)).toMatch(/private/);
    expect(targetProblem("http://[::1]/hook", false)).toMatch(/private/);
    expect(targetProblem("http://localhost/hook", false)).toMatch(/this machine/);
    expect(targetProblem("http://169.254.169.254/latest/meta-data", false)).toMatch(/link-local/);
    expect(targetProblem("https://hooks.example.com/x", false)).toBeUndefined();
    expect(targetProblem("http://127.0.0.1:9000/hook", true)).toBeUndefined();
  });

  it("refuses a name whose resolved address is private, on the lookup the connection uses", async () => {
    const result = await new Promise<{ error: NodeJS.ErrnoException | null }>((resolve) =>
      guardedLookup(false)("localhost", {}, (error) => resolve({ error })),
    );
    expect(result.error?.code).toBe("ETARGETREFUSED");
    const allowed = await new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
      guardedLookup(true)("localhost", {}, (error, address) => resolve({ error, address })),
    );
    expect(allowed.error).toBeNull();
    expect(typeof allowed.address).toBe("string");
  });
});
