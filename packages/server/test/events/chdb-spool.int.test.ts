// The chDB driver's insert spool on the real tmpfs: a spool left by a dead process is swept when
// a driver makes its own, and nothing else is: live owners', other names, symlinks, files.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { SPOOL_PARENT, spoolPrefix } from "../../src/stores/events/chdb-spool.js";
import { type EventsExecutor, openEventsExecutor } from "../../src/stores/events/index.js";
import { removeTestChdbPath, testChdbPath, uniqueDatabaseName } from "../support/events.js";

afterAll(removeTestChdbPath);

/** The PID of a process that has exited and been reaped. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  const pid = child.pid;
  if (pid === undefined || child.status !== 0) throw new Error("could not run a short-lived child");
  // Reused already would be a test fault, not a driver one: say so rather than fail obscurely.
  expect(() => process.kill(pid, 0), `PID ${pid} was reused at once`).toThrow(
    expect.objectContaining({ code: "ESRCH" }),
  );
  return pid;
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** A spool-like directory holding one body file, as a crash leaves it. */
async function leftover(name: string): Promise<string> {
  const path = join(SPOOL_PARENT, name);
  await mkdir(path);
  await writeFile(join(path, "7.bin"), Buffer.alloc(64, 1));
  return path;
}

/** Our own spools now present: the driver's, once it has made one. */
async function ownSpools(): Promise<string[]> {
  return (await readdir(SPOOL_PARENT)).filter((name) => name.startsWith(spoolPrefix()));
}

describe("the chDB insert spool", () => {
  let store: EventsExecutor | undefined;
  let sleeper: ChildProcess | undefined;
  const made: string[] = [];

  beforeEach(() => {
    made.length = 0;
  });

  afterEach(async () => {
    await store?.close();
    store = undefined;
    sleeper?.kill("SIGKILL");
    sleeper = undefined;
    for (const path of made) await rm(path, { recursive: true, force: true });
  });

  it("sweeps a dead process's spool when a driver makes its own, and keeps everything else", async () => {
    const dead = deadPid();
    sleeper = spawn(process.execPath, ["-e", "setInterval(() => {}, 60_000)"], { stdio: "ignore" });
    const live = sleeper.pid;
    if (live === undefined) throw new Error("could not start a long-lived child");

    const swept = await leftover(`${spoolPrefix(dead)}Dead01`);
    made.push(swept);
    const kept = [
      // A live owner's, another of this process's (a second driver), another PID namespace's.
      await leftover(`${spoolPrefix(live)}Live01`),
      await leftover(`${spoolPrefix()}Mine01`),
      await leftover(`sightline-chdb-1-${dead}-Other1`),
      // Names not exactly the pattern: the pre-PID form, a longer suffix, a trailing dot.
      await leftover("sightline-chdb-Old001"),
      await leftover(`${spoolPrefix(dead)}Long001`),
      await leftover(`${spoolPrefix(dead)}Dot01.`),
    ];
    made.push(...kept);
    // A symlink and a plain file under a dead owner's name: neither is a spool; the symlink's
    // target must keep its file.
    const target = await mkdtemp(join(tmpdir(), "sightline-spool-target-"));
    made.push(target);
    await writeFile(join(target, "keep.bin"), "keep");
    const link = join(SPOOL_PARENT, `${spoolPrefix(dead)}Link01`);
    await symlink(target, link);
    const file = join(SPOOL_PARENT, `${spoolPrefix(dead)}File01`);
    await writeFile(file, "not a directory");
    made.push(link, file);
    const before = await ownSpools();

    const database = uniqueDatabaseName("spool");
    store = await openEventsExecutor({ chdbPath: testChdbPath(), database });
    try {
      // Opening alone makes no spool: the first binary insert does.
      expect(await exists(swept)).toBe(true);
      await store.command(`CREATE TABLE ${database}.spooled (n UInt32) ENGINE = MergeTree ORDER BY n`);
      const body = Buffer.alloc(12);
      [3, 5, 7].forEach((n, i) => body.writeUInt32LE(n, i * 4));
      await store.insert({ table: "spooled", columns: ["n"], body, format: "RowBinary", rowCount: 3 });
      expect(await store.query(`SELECT count() AS c, sum(n) AS s FROM ${database}.spooled`)).toEqual([
        { c: 3, s: 15 },
      ]);

      expect(await exists(swept)).toBe(false);
      for (const path of kept) {
        expect(await readFile(join(path, "7.bin")), path).toEqual(Buffer.alloc(64, 1));
      }
      expect((await lstat(link)).isSymbolicLink()).toBe(true);
      expect(await readFile(join(target, "keep.bin"), "utf8")).toBe("keep");
      expect(await readFile(file, "utf8")).toBe("not a directory");
      // The driver's own spool, named after this process, holds nothing once the insert settled.
      const mine = (await ownSpools()).filter((name) => !before.includes(name));
      expect(mine).toHaveLength(1);
      expect(await readdir(join(SPOOL_PARENT, mine[0] as string))).toEqual([]);

      await store.command(`DROP DATABASE ${database}`);
      await store.close();
      store = undefined;
      expect(await ownSpools()).toEqual(before);
    } finally {
      await store?.command(`DROP DATABASE IF EXISTS ${database}`);
    }
  });
});
