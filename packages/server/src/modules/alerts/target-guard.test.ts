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
