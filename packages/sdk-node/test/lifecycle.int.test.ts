// The SDK inside a process of its own: the opt-in SIGTERM hook sends what is queued before the
// process ends the way it would have without it, and an idle client never keeps a process alive.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RealSightline, startSightline } from "./support/sightline.js";

const CHILD = fileURLToPath(new URL("./fixtures/child-app.ts", import.meta.url));

function child(mode: string, sightline: RealSightline): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", CHILD, mode], {
    env: {
      ...process.env,
      SIGHTLINE_API_KEY: sightline.key,
      SIGHTLINE_APP: sightline.app,
      SIGHTLINE_URL: sightline.url,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
}

describe("the SDK's process lifecycle", () => {
  let sightline: RealSightline;
  beforeAll(async () => {
    sightline = await startSightline();
  });
  afterAll(async () => {
    await sightline?.close();
  });

  it("flushes on SIGTERM (flushOnSigterm) and then lets the signal end the process", async () => {
    const app = child("serve", sightline);
    const port = await new Promise<number>((resolve, reject) => {
      let out = "";
      app.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /port (\d+)/.exec(out);
        if (match !== null) resolve(Number(match[1]));
      });
      app.once("exit", (code) => reject(new Error(`child exited early (${code})`)));
    });
    for (let n = 0; n < 3; n += 1) expect((await fetch(`http://127.0.0.1:${port}/x/${n}`)).status).toBe(200);
    expect(await sightline.requests()).toHaveLength(0);
    app.kill("SIGTERM");
    const [code, signal] = (await once(app, "exit")) as [number | null, NodeJS.Signals | null];
    expect({ code, signal }).toEqual({ code: null, signal: "SIGTERM" });
    expect((await sightline.requests()).map((r) => r.route).sort()).toEqual(["/x/{n}", "/x/{n}", "/x/{n}"]);
  });

  it("never keeps an idle process alive", async () => {
    const app = child("idle", sightline);
    const [code] = (await once(app, "exit")) as [number | null];
    expect(code).toBe(0);
  });
});
