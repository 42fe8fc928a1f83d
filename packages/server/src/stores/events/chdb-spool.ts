// The chDB driver's spool directories for binary insert bodies, and the sweep of dead owners' ones.
import { existsSync, readlinkSync } from "node:fs";
import { lstat, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where spools go: tmpfs when the host has one, so a body never touches a disk. */
export const SPOOL_PARENT = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();

/** Spool paths go into SQL text between quotes: nothing that could end the literal. */
const SAFE_PATH = /^[A-Za-z0-9_./-]+$/;

/**
 * The PID namespace's inode, so a PID in a spool's name is only ever judged in the namespace it
 * was taken in: containers sharing the host's /dev/shm each number their processes from 1, and
 * a live process of another namespace is missing from ours. "0" where there is no /proc (macOS
 * has no PID namespaces; its temporary directory is per user anyway).
 */
const PID_SCOPE = ((): string => {
  try {
    return /^pid:\[(\d+)\]$/.exec(readlinkSync("/proc/self/ns/pid"))?.[1] ?? "0";
  } catch {
    return "0";
  }
})();

/** `sightline-chdb-<pid namespace>-<pid>-` and mkdtemp's six letters or digits, nothing else. */
const SPOOL_NAME = /^sightline-chdb-(\d+)-(\d+)-[A-Za-z0-9]{6}$/;

/** What the spools of process `pid` of our PID namespace are named, before mkdtemp's suffix. */
export function spoolPrefix(pid = process.pid): string {
  return `sightline-chdb-${PID_SCOPE}-${pid}-`;
}

/**
 * A new spool directory named after this process, made after removing the spools of dead
 * processes: a spool is removed on close, so one outliving its process means a crash (SIGKILL,
 * OOM) left it, with any body in flight, in RAM until reboot. The sweep is silent: the driver
 * has no logger, and what it removes is a dead process's scratch.
 */
export async function createSpool(parent = SPOOL_PARENT): Promise<string> {
  await sweepDeadSpools(parent);
  const directory = await mkdtemp(join(parent, spoolPrefix()));
  if (!SAFE_PATH.test(directory)) {
    await rm(directory, { recursive: true, force: true });
    throw new Error(`unusable spool directory ${directory}`);
  }
  return directory;
}

/**
 * Removes the spools in `parent` whose owner is gone; best effort, never failing its caller.
 * Only real directories (lstat: a symlink is never followed) of our user, named exactly as
 * createSpool names them, in our PID namespace, for a PID that no process holds. A PID reused
 * since its owner died keeps that leftover until the new holder exits too: a leftover kept is
 * the worst case, never a live process's spool removed, since a spool's owner holds its PID for
 * as long as the spool is in use.
 */
async function sweepDeadSpools(parent: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const match = SPOOL_NAME.exec(name);
    if (match?.[1] !== PID_SCOPE || !isDead(Number(match[2]))) continue;
    const path = join(parent, name);
    try {
      const stats = await lstat(path);
      if (!stats.isDirectory() || stats.uid !== process.getuid?.()) continue;
      // rm does not follow symlinks inside either: it unlinks them.
      await rm(path, { recursive: true, force: true });
    } catch {
      // Gone already (another process swept it) or not ours to remove: leave it.
    }
  }
}

/** True only when no process has `pid`; EPERM means one does, under another user. */
function isDead(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
